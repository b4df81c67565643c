package vcs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// node is what a worktree path holds, compared byte for byte.
type node struct {
	kind    string // "file", "exec", "symlink"
	content string // file content or symlink target
}

// capture returns every non-directory below root, ignored files included,
// without following symlinks.
func capture(t *testing.T, root string) map[string]node {
	t.Helper()
	out := map[string]node{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = node{"symlink", target}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			kind := "file"
			if fi.Mode().Perm()&0o100 != 0 {
				kind = "exec"
			}
			out[rel] = node{kind, string(b)}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// write creates the files of spec below root: a value starting with "->"
// is a symlink target, "x:" an executable file.
func write(t *testing.T, root string, spec map[string]string) {
	t.Helper()
	for p, v := range spec {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(full)
		var err error
		switch {
		case strings.HasPrefix(v, "->"):
			err = os.Symlink(v[2:], full)
		case strings.HasPrefix(v, "x:"):
			err = os.WriteFile(full, []byte(v[2:]), 0o755)
		default:
			err = os.WriteFile(full, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// age sets the modification time of every file below root an hour back,
// so the stat cache may trust them (see racyWindow).
func age(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.Type()&fs.ModeSymlink != 0:
			// A link's own times: Chtimes would age its target.
			tv := []unix.Timeval{unix.NsecToTimeval(old.UnixNano()), unix.NsecToTimeval(old.UnixNano())}
			_ = unix.Lutimes(p, tv)
		default:
			_ = os.Chtimes(p, old, old)
		}
		return nil
	})
}

func open(t testing.TB, wt string, opts Options) *Store {
	t.Helper()
	opts.NoSync = true
	s, err := Open(filepath.Join(t.TempDir(), "store"), wt, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// binary is content with NUL bytes and every byte value.
func binary(seed byte) string {
	b := make([]byte, 3000)
	for i := range b {
		b[i] = byte(i*7) + seed
	}
	return string(b)
}

// initialTree has binary files, symlinks (inside, outside, to a directory,
// dangling), an executable, nested .gitignore files and ignored dirs.
func initialTree() map[string]string {
	return map[string]string{
		".gitignore":                "*.log\nnode_modules/\n",
		"a.txt":                     "alpha\nbeta\ngamma\n",
		"bin/tool":                  "x:#!/bin/sh\necho tool\n",
		"data/blob.bin":             binary(1),
		"data/keep.bin":             binary(2),
		"links/to-a":                "->../a.txt",
		"links/outside":             "->/etc/passwd",
		"links/to-dir":              "->../data",
		"links/dangling":            "->nowhere",
		"src/.gitignore":            "build/\n*.tmp\n!keep.tmp\n",
		"src/main.go":               "package main\n",
		"src/keep.tmp":              "kept\n",
		"src/x.tmp":                 "ignored\n",
		"src/build/out.o":           "ignored build output\n",
		"node_modules/pkg/index.js": "ignored\n",
		"debug.log":                 "ignored log\n",
		"deep/a/b/c.txt":            "deep\n",
	}
}

func isIgnored(p string) bool {
	return strings.HasSuffix(p, ".log") || strings.HasPrefix(p, "node_modules/") ||
		strings.HasPrefix(p, "src/build/") || p == "src/x.tmp"
}

func tracked(m map[string]node) map[string]node {
	out := map[string]node{}
	for p, n := range m {
		if !isIgnored(p) {
			out[p] = n
		}
	}
	return out
}

func TestUndoRedoRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	write(t, wt, initialTree())
	s := open(t, wt, Options{})
	const sid = "01JTEST"

	s1, err := s.Snapshot(ctx, SnapshotRequest{Session: sid, Cause: "entry e1 (turn 1 start)"})
	if err != nil {
		t.Fatal(err)
	}
	state1 := capture(t, wt)

	// The turn: edits, deletions, a mode change, a symlink retargeted and
	// a file turned into a symlink, and a change made by a shell command.
	write(t, wt, map[string]string{
		"data/blob.bin": binary(3),
		"links/to-a":    "->../src/main.go",
		"src/main.go":   "package main\n\nfunc main() {}\n",
		"new/file.txt":  "new\n",
		"data/keep.bin": "->blob.bin",
		"debug.log":     "ignored log, changed\n",
		"src/build/x.o": "new ignored\n",
	})
	if err := os.Chmod(filepath.Join(wt, "bin/tool"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(wt, "deep")); err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("sh", "-c", "printf 'made by sh\\n' > shell.txt && rm a.txt && mkdir -p gen/x && printf '\\000\\001' > gen/x/raw")
	sh.Dir = wt
	if out, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("sh: %v: %s", err, out)
	}

	s2, err := s.Snapshot(ctx, SnapshotRequest{Session: sid, Cause: "entry e2 (turn 1 end)"})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Parent != s1.ID || s2.Seq != 2 {
		t.Fatalf("second snapshot: parent %s seq %d; want %s, 2", s2.Parent, s2.Seq, s1.ID)
	}
	state2 := capture(t, wt)

	diff, err := s.Diff(s1.ID, s2.ID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]ChangeKind{}
	for _, c := range diff {
		kinds[c.Path] = c.Kind
	}
	wantKinds := map[string]ChangeKind{
		"a.txt": Deleted, "bin/tool": Modified, "data/blob.bin": Modified, "data/keep.bin": TypeChanged,
		"deep/a/b/c.txt": Deleted, "gen/x/raw": Added, "links/to-a": Modified, "new/file.txt": Added,
		"shell.txt": Added, "src/main.go": Modified,
	}
	if !maps.Equal(kinds, wantKinds) {
		t.Fatalf("Diff kinds = %v;\nwant %v", kinds, wantKinds)
	}
	for _, c := range diff {
		switch c.Path {
		case "src/main.go":
			if !strings.Contains(c.Patch, "--- a/src/main.go") || !strings.Contains(c.Patch, "+func main() {}") {
				t.Errorf("patch of src/main.go = %q", c.Patch)
			}
		case "data/blob.bin", "gen/x/raw":
			if !c.Binary || c.Patch != "" {
				t.Errorf("%s: binary %v patch %q; want binary without patch", c.Path, c.Binary, c.Patch)
			}
		case "shell.txt":
			if !strings.Contains(c.Patch, "--- /dev/null") || !strings.Contains(c.Patch, "+made by sh") {
				t.Errorf("patch of shell.txt = %q", c.Patch)
			}
		}
	}

	steps := []struct {
		name string
		plan func() (Op, error)
		want map[string]node // tracked files
		to   ID
	}{
		{name: "undo", plan: func() (Op, error) { return s.PlanUndo(sid, "entry e3 (/undo)") }, want: tracked(state1), to: s1.ID},
		{name: "redo", plan: func() (Op, error) { return s.PlanRedo(sid, "entry e4 (/redo)") }, want: tracked(state2), to: s2.ID},
		{name: "restore", plan: func() (Op, error) { return s.PlanRestore(sid, s1.ID, "entry e5 (/rewind)") }, want: tracked(state1), to: s1.ID},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			op, err := st.plan()
			if err != nil {
				t.Fatal(err)
			}
			if op.To != st.to {
				t.Fatalf("planned To = %s; want %s", op.To, st.to)
			}
			res, err := s.Apply(ctx, op)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Changes) != len(wantKinds) {
				t.Errorf("Apply changed %d paths; want %d", len(res.Changes), len(wantKinds))
			}
			got := capture(t, wt)
			if g := tracked(got); !maps.Equal(g, st.want) {
				t.Fatalf("tracked files after %s differ:\n got %v\nwant %v", st.name, keys(g), keys(st.want))
			}
			// Ignored files are never touched: they keep the turn's version.
			for p, n := range state2 {
				if isIgnored(p) && got[p] != n {
					t.Errorf("ignored %s changed to %q", p, got[p].content)
				}
			}
			if head, _ := s.Head(sid); head != st.to {
				t.Errorf("head = %s; want %s", head, st.to)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(wt, "gen")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("directory gen left after its files were deleted: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(wt, "data"))
	for _, e := range entries {
		if strings.Contains(e.Name(), tempMarker) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func keys(m map[string]node) []string { return slices.Sorted(maps.Keys(m)) }

func TestApplyRefusesChangedWorktree(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	write(t, wt, map[string]string{"a": "1\n", "b": "1\n"})
	s := open(t, wt, Options{})
	s1, err := s.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	write(t, wt, map[string]string{"a": "2\n"})
	if _, err := s.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e2"}); err != nil {
		t.Fatal(err)
	}
	write(t, wt, map[string]string{"b": "edited by the user\n", "c": "new\n"}) // not snapshotted
	op, err := s.PlanUndo("s", "e3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply(ctx, op)
	var conflict *ConflictError
	if !errors.As(err, &conflict) || !slices.Equal(conflict.Paths, []string{"b", "c"}) {
		t.Fatalf("Apply = %v; want a ConflictError naming b and c", err)
	}
	if !strings.Contains(err.Error(), "b, c") || !strings.Contains(err.Error(), "force") {
		t.Errorf("error %q does not name the files and the fix", err)
	}
	if got := capture(t, wt); got["a"].content != "2\n" {
		t.Fatalf("a refused restore changed a to %q", got["a"].content)
	}
	op.Force = true
	res, err := s.Apply(ctx, op)
	if err != nil {
		t.Fatal(err)
	}
	got := capture(t, wt)
	want := map[string]node{"a": {"file", "1\n"}, "b": {"file", "1\n"}}
	if !maps.Equal(got, want) || len(res.Changes) != 3 || op.To != s1.ID {
		t.Fatalf("forced restore: %v, %d changes; want %v", got, len(res.Changes), want)
	}
}

func TestIncrementalSkipsUnchangedFiles(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	spec := map[string]string{"l": "->a0"}
	for i := range 20 {
		spec[fmt.Sprintf("d%d/f%d", i%3, i)] = fmt.Sprintf("file %d\n", i)
	}
	write(t, wt, spec)
	age(t, wt)
	s := open(t, wt, Options{})
	opened := map[string]int{}
	s.onOpen = func(p string) { opened[p]++ }

	first, err := s.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 20 || first.Hashed != 21 {
		t.Fatalf("cold snapshot opened %d files and hashed %d; want 20 and 21", len(opened), first.Hashed)
	}
	// A new Store on the same directory reads the persisted cache.
	s2, err := Open(s.Dir(), wt, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	clear(opened)
	s2.onOpen = func(p string) { opened[p]++ }
	warm, err := s2.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(opened) != 0 || warm.Hashed != 0 || warm.Tree != first.Tree {
		t.Fatalf("warm snapshot opened %v, hashed %d, tree %s; want nothing opened and tree %s", opened, warm.Hashed, warm.Tree, first.Tree)
	}
	// One changed file (same size, new mtime) is the only one read.
	p := filepath.Join(wt, "d1/f1")
	if err := os.WriteFile(p, []byte("FILE 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-30 * time.Minute)
	_ = os.Chtimes(p, old, old)
	third, err := s2.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e3"})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(opened, map[string]int{"d1/f1": 1}) || third.Hashed != 1 || third.Tree == first.Tree {
		t.Fatalf("snapshot after one change opened %v, hashed %d", opened, third.Hashed)
	}
	// A recently modified file is not trusted by the cache.
	write(t, wt, map[string]string{"d0/f0": "file 0 racy\n"})
	clear(opened)
	for range 2 {
		if _, err := s2.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e4"}); err != nil {
			t.Fatal(err)
		}
	}
	if opened["d0/f0"] != 2 || len(opened) != 1 {
		t.Fatalf("racy file opened %v; want d0/f0 twice", opened)
	}
}

func TestSnapshotSkipsLargeFilesAndIgnores(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	write(t, wt, map[string]string{
		"small": "ok\n", "big": strings.Repeat("x", 100), "tmp/scratch": "x", "keep.o": "x", "a.o": "x",
		".gitignore": "!keep.o\n",
	})
	s := open(t, wt, Options{MaxFileSize: 50, Ignore: []string{"tmp/", "*.o"}})
	sn, err := s.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: "e1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sn.Skipped) != 1 || sn.Skipped[0].Path != "big" || sn.Skipped[0].Size != 100 ||
		!strings.Contains(sn.Skipped[0].Reason, "limit of 50 bytes") {
		t.Fatalf("Skipped = %+v; want big (100 bytes) over the limit", sn.Skipped)
	}
	files, err := s.files(sn.ID)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if want := []string{".gitignore", "keep.o", "small"}; !slices.Equal(paths, want) {
		t.Fatalf("tracked %v; want %v", paths, want)
	}
	c, err := s.commit(sn.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Message, "Cause: e1\n") || !strings.Contains(c.Message, `Skipped: "big" (100 bytes)`) {
		t.Fatalf("commit message %q lacks the cause or the skipped file", c.Message)
	}
}

func TestLogAndBranches(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	s := open(t, wt, Options{})
	snap := func(content, cause string) Snapshot {
		t.Helper()
		write(t, wt, map[string]string{"f": content})
		sn, err := s.Snapshot(ctx, SnapshotRequest{Session: "s", Cause: cause})
		if err != nil {
			t.Fatal(err)
		}
		return sn
	}
	a := snap("1", "e1")
	same := snap("1", "e2") // unchanged: undo and redo pass over it
	b := snap("2", "e3")
	op, err := s.PlanUndo("s", "u")
	if err != nil || op.To != same.ID {
		// the nearest ancestor with a different tree is a or same? same has
		// the tree of a; the first ancestor differing from b's tree is same.
		t.Fatalf("PlanUndo = %+v, %v; want To %s", op, err, same.ID)
	}
	if _, err := s.Apply(ctx, op); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PlanUndo("s", "u"); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Fatalf("PlanUndo at the first state = %v; want nothing to undo", err)
	}
	redo, err := s.PlanRedo("s", "r")
	if err != nil || redo.To != b.ID {
		t.Fatalf("PlanRedo = %+v, %v; want To %s", redo, err, b.ID)
	}
	c := snap("3", "e4") // a branch off same
	if c.Parent != same.ID {
		t.Fatalf("snapshot after undo has parent %s; want %s", c.Parent, same.ID)
	}
	log, err := s.Log("s")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sn := range log {
		got = append(got, fmt.Sprintf("%d:%s", sn.Seq, sn.Cause))
	}
	if want := []string{"1:e1", "2:e2", "3:e3", "4:e4"}; !slices.Equal(got, want) || log[0].ID != a.ID || log[0].Session != "s" {
		t.Fatalf("Log = %v; want %v", got, want)
	}
	if _, err := s.PlanRedo("s", "r"); err == nil {
		t.Fatal("PlanRedo at the newest snapshot succeeded")
	}
}

func TestRejects(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	s := open(t, wt, Options{})
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{name: "session-with-slash", run: func() error {
			_, err := s.Snapshot(ctx, SnapshotRequest{Session: "a/b", Cause: "e"})
			return err
		}, want: "not usable in a ref name"},
		{name: "session-dotdot", run: func() error { _, err := s.Head("a..b"); return err }, want: "not usable"},
		{name: "empty-cause", run: func() error {
			_, err := s.Snapshot(ctx, SnapshotRequest{Session: "s"})
			return err
		}, want: "cause"},
		{name: "undo-without-snapshot", run: func() error { _, err := s.PlanUndo("s", "e"); return err }, want: "take one first"},
		{name: "apply-without-from", run: func() error { _, err := s.Apply(ctx, Op{Session: "s"}); return err }, want: "set Force"},
		{name: "negative-limit", run: func() error { _, err := Open(t.TempDir(), wt, Options{MaxFileSize: -1}); return err }, want: "negative"},
		{name: "worktree-missing", run: func() error { _, err := Open(t.TempDir(), filepath.Join(wt, "no"), Options{}); return err }, want: "not a directory"},
		{name: "unknown-snapshot", run: func() error { _, err := s.Diff(ID{1}, ID{2}); return err }, want: "do not run git gc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want one containing %q", err, tt.want)
			}
		})
	}
}

func TestIDText(t *testing.T) {
	id := ID{0xab, 1}
	b, _ := id.MarshalText()
	var back ID
	if err := back.UnmarshalText(b); err != nil || back != id {
		t.Fatalf("round trip = %s, %v", back, err)
	}
	if b, _ := (ID{}).MarshalText(); len(b) != 0 {
		t.Fatalf("zero ID marshals as %q", b)
	}
	if err := back.UnmarshalText([]byte("xyz")); err == nil {
		t.Fatal("UnmarshalText accepted xyz")
	}
}
