package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSessionSnapshot: smith session snapshot records a hand edit with a
// note, prints the changed path and the entry to restore to; session
// show prints it; undo then takes the hand edit back, and restore --at
// the printed entry brings it back. A note with a line break is a usage
// error naming it.
func TestSessionSnapshot(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(e.cwd, "notes.txt")
	if err := os.WriteFile(file, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := e.script("s.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"b1","name":"bash","arguments":{"command":"echo after > notes.txt"}}]},
		{"text":"changed it"}]}`)
	e.mustRun("", "eval", "--model", m, "--session", "snap", "change the notes")
	if err := os.WriteFile(file, []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := e.run("", "session", "undo", "snap"); r.code == 0 || !strings.Contains(r.stderr, "smith session snapshot") {
		t.Fatalf("undo over a hand edit: exit %d, %s", r.code, r.stderr)
	}
	if r := e.run("", "session", "snapshot", "snap", "-m", "two\nlines"); r.code != 2 || !strings.Contains(r.stderr, "line break") {
		t.Fatalf("a two-line note: exit %d, %s", r.code, r.stderr)
	}
	r := e.mustRun("", "session", "snapshot", "snap", "-m", "my edit")
	if !strings.Contains(r.stdout, "1 file(s) changed since the session's last snapshot") || !strings.Contains(r.stdout, "modified     notes.txt") {
		t.Fatalf("snapshot:\n%s", r.stdout)
	}
	at := regexp.MustCompile(`--at (\S+)'`).FindStringSubmatch(r.stdout)
	if at == nil {
		t.Fatalf("snapshot names no entry to restore to:\n%s", r.stdout)
	}
	if r := e.mustRun("", "session", "show", "snap"); !strings.Contains(r.stdout, `"my edit" (restore --at `+at[1]) {
		t.Fatalf("session show:\n%s", r.stdout)
	}
	read := func() string { b, _ := os.ReadFile(file); return string(b) }
	e.mustRun("", "session", "undo", "snap")
	if read() != "after\n" {
		t.Fatalf("after undo notes.txt = %q, want the turn's", read())
	}
	e.mustRun("", "session", "restore", "snap", "--at", at[1])
	if read() != "by hand\n" {
		t.Fatalf("after restore --at the snapshot notes.txt = %q, want the hand edit", read())
	}
}
