package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxedBash: by default bash's commands may write only in the
// working directory, the roots and the temp dir; a denied write is a
// result the model can read, with how to allow it; --add-dir lets the
// file tools and the sandbox use another directory; --sandbox off lifts
// it; smith config show says what is in force.
func TestSandboxedBash(t *testing.T) {
	e := newEnv(t)
	outside := filepath.Join(filepath.Dir(e.cwd), "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	m := e.script("s.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"b1","name":"bash","arguments":{"command":"echo x > `+outside+`/by-bash; echo y > here; echo z > $TMPDIR/tmpfile; echo went on"}}]},
		{"tool_calls":[{"id":"w1","name":"write","arguments":{"path":"`+outside+`/by-write","content":"w"}}]},
		{"text":"done"}]}`)
	show := e.mustRun("", "config", "show").stdout
	if strings.Contains(show, "unavailable") {
		// No Landlock here: the mode in force is said, and commands run
		// unsandboxed with a note.
		r := e.mustRun("", "eval", "--model", m, "--no-session", "go")
		if !strings.Contains(r.stderr, "sandbox: workspace-write requested but unavailable") {
			t.Fatalf("no note that the sandbox is unavailable:\n%s", r.stderr)
		}
		return
	}
	if !strings.Contains(show, "sandbox            workspace-write             default") || !strings.Contains(show, "bash runs commands in the sandbox: workspace-write (writes: "+e.cwd) {
		t.Fatalf("config show does not say which sandbox is in force:\n%s", show)
	}

	r := e.mustRun("", "eval", "--model", m, "--no-session", "go")
	for _, want := range []string{"by-bash: Permission denied", "went on", "[sandbox workspace-write: writes outside " + e.cwd, "--add-dir DIR", "outside the allowed project directories"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, p := range []string{filepath.Join(outside, "by-bash"), filepath.Join(outside, "by-write")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written through the sandbox", p)
		}
	}
	for _, p := range []string{filepath.Join(e.cwd, "here"), filepath.Join(e.tmp, "tmpfile")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("a write the sandbox allows failed: %v", err)
		}
	}

	e.mustRun("", "eval", "--model", m, "--no-session", "--add-dir", outside, "go")
	for _, p := range []string{filepath.Join(outside, "by-bash"), filepath.Join(outside, "by-write")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("with --add-dir: %v", err)
		}
		_ = os.Remove(p)
	}

	r = e.mustRun("", "eval", "--model", m, "--no-session", "--sandbox", "off", "go")
	if _, err := os.Stat(filepath.Join(outside, "by-bash")); err != nil || strings.Contains(r.stdout, "[sandbox") {
		t.Errorf("with --sandbox off the write was denied (%v):\n%s", err, r.stdout)
	}

	bad := e.run("", "eval", "--model", m, "--no-session", "--sandbox", "strict", "go")
	if bad.code != 2 || !strings.Contains(bad.stderr, `flag --sandbox: sandbox: "strict" is not a sandbox mode`) {
		t.Errorf("a bad --sandbox: exit %d\n%s", bad.code, bad.stderr)
	}
}
