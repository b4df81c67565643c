package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSIGKILLMidRestore: a smith session undo killed in the middle of a
// restore leaves each file with its old or its new content (nothing torn,
// no temporary file left once Smith next looks) and an effect recorded as
// unknown; smith session reconcile shows how far it got and records the
// decision; a forced undo then finishes the job.
func TestSIGKILLMidRestore(t *testing.T) {
	e := newEnv(t)
	const n = 1500
	dir := filepath.Join(e.cwd, "many")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := func(i int) string { return filepath.Join(dir, fmt.Sprintf("f%04d", i)) }
	for i := range n {
		if err := os.WriteFile(name(i), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := e.script("many.json", `{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"b1","name":"bash","arguments":{"command":"for f in many/*; do echo new > $f; done"}}]},
		{"text":"rewrote them"}]}`)
	e.mustRun("", "eval", "--model", m, "--session", "many", "rewrite the files")
	read := func(i int) string { b, _ := os.ReadFile(name(i)); return string(b) }
	if read(0) != "new\n" || read(n-1) != "new\n" {
		t.Fatal("the turn did not rewrite the files")
	}

	cmd := e.command("", "session", "undo", "many")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	for deadline := time.Now().Add(30 * time.Second); read(0) != "old\n"; time.Sleep(200 * time.Microsecond) {
		if time.Now().After(deadline) {
			t.Fatal("the undo did not start restoring within 30s")
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	old := 0
	for i := range n {
		switch read(i) {
		case "old\n":
			old++
		case "new\n":
		default:
			t.Fatalf("%s holds %q after the kill: neither its old nor its new content", name(i), read(i))
		}
	}
	if old == n {
		t.Fatalf("the undo finished all %d files before the kill; the test needs a slower restore", n)
	}
	t.Logf("killed after %d of %d files", old, n)

	r := e.mustRun("", "session", "reconcile", "many")
	for _, want := range []string{"vcs.undo", "no completion was recorded", "stopped part way", "--decision applied|not_applied"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("reconcile lacks %q:\nstdout:\n%s\nstderr:\n%s", want, r.stdout, r.stderr)
		}
	}
	id := ""
	for _, f := range strings.Fields(r.stdout) {
		if len(f) == 27 && strings.HasSuffix(f, ":") {
			id = strings.TrimSuffix(f, ":")
		}
	}
	if id == "" {
		t.Fatalf("no effect id in:\n%s", r.stdout)
	}
	e.mustRun("", "session", "reconcile", "many", "--effect", id, "--decision", "not_applied", "--note", "half done")
	if r := e.mustRun("", "session", "reconcile", "many"); !strings.Contains(r.stdout, "nothing to reconcile") {
		t.Fatalf("after the decision:\n%s", r.stdout)
	}
	// The files are half restored, so the undo refuses until forced.
	if r := e.run("", "session", "undo", "many"); r.code == 0 || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("undo over the half-restored files: exit %d, %s", r.code, r.stderr)
	}
	e.mustRun("", "session", "undo", "many", "--force")
	ents, _ := os.ReadDir(dir)
	if len(ents) != n {
		t.Errorf("%d entries in %s after the forced undo, want %d (a temporary file left?)", len(ents), dir, n)
	}
	for i := range n {
		if read(i) != "old\n" {
			t.Fatalf("%s = %q after the forced undo", name(i), read(i))
		}
	}
}
