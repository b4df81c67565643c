package vcs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitReadsTheStore: the real git (installed by scripts/deps.sh) finds
// the shadow repository sound (fsck --strict), walks its history (log)
// and lists each snapshot's tree (ls-tree) with the modes and blob ids git
// itself computes for the worktree's files.
func TestGitReadsTheStore(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is not installed; scripts/deps.sh installs it")
	}
	wt := t.TempDir()
	files := map[string]string{
		"README.md":        "# project\n",
		"src/main.go":      "package main\n\nfunc main() {}\n",
		"src/deep/a/b.txt": "deep\n",
		"empty":            "",
		"ünïcode name.txt": "unicode\n",
		"run.sh":           "#!/bin/sh\necho hi\n",
	}
	for p, c := range files {
		full := filepath.Join(wt, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(c), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("src/main.go", filepath.Join(wt, "link")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "store")
	s, err := Open(dir, wt, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := s.Snapshot(ctx, SnapshotRequest{Session: "S1", Cause: "turn 1 start"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, "src/main.go"), []byte("package main\n\nfunc main() { println(1) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(wt, "empty")); err != nil {
		t.Fatal(err)
	}
	second, err := s.Snapshot(ctx, SnapshotRequest{Session: "S1", Cause: "turn 1 end"})
	if err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, append([]string{"--git-dir=" + dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	git("fsck", "--strict", "--no-dangling")
	if got, want := strings.Fields(git("log", "--format=%H", HeadRef("S1"))), []string{second.ID.String(), first.ID.String()}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("git log = %v, want %v", got, want)
	}
	// The tree of the second snapshot, as git lists it, against what git
	// computes for the worktree now.
	listed := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(git("ls-tree", "-r", "-z", second.ID.String())), "\x00") {
		if l == "" {
			continue
		}
		meta, path, _ := strings.Cut(l, "\t")
		f := strings.Fields(meta) // mode type id
		listed[path] = f[0] + " " + f[2]
	}
	want := map[string]string{}
	for p := range files {
		if p == "empty" {
			continue
		}
		cmd := exec.Command(gitBin, "hash-object", filepath.Join(wt, filepath.FromSlash(p)))
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		mode := "100644"
		if strings.HasSuffix(p, ".sh") {
			mode = "100755"
		}
		want[p] = mode + " " + strings.TrimSpace(string(out))
	}
	link := exec.Command(gitBin, "hash-object", "--stdin")
	link.Stdin = strings.NewReader("src/main.go")
	out, err := link.Output()
	if err != nil {
		t.Fatal(err)
	}
	want["link"] = "120000 " + strings.TrimSpace(string(out))
	for p, w := range want {
		if listed[p] != w {
			t.Errorf("ls-tree %q = %q, want %q", p, listed[p], w)
		}
	}
	for p := range listed {
		if _, ok := want[p]; !ok {
			t.Errorf("ls-tree lists %q, which is not in the worktree", p)
		}
	}
	// The first snapshot still holds the deleted file.
	if !strings.Contains(git("ls-tree", "-r", "--name-only", first.ID.String()), "empty") {
		t.Error("the first snapshot lost the file deleted after it")
	}
}
