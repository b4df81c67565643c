package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo: smith demo writes the project, fixes it through the tools
// plugin with the mock model, and names the session it recorded.
func TestDemo(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.tmp, "demo")
	r := e.mustRun("", "demo", "--dir", dir)
	if !strings.Contains(r.stdout, "PASS: greet.sh world -> Hello, world!") {
		t.Fatalf("stdout:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "smith session show fix-the-bug\n") {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "greet.sh")); !strings.Contains(string(b), "Hello,") {
		t.Fatalf("greet.sh = %q", b)
	}
	if _, msgs := load(t, e.sessionInfo("fix-the-bug").Path); len(msgs) != 8 {
		t.Fatalf("%d messages recorded", len(msgs))
	}
	// A second demo gets the next free session name.
	r = e.mustRun("", "demo", "--dir", dir)
	if !strings.Contains(r.stderr, "smith session show fix-the-bug-2\n") {
		t.Fatalf("second demo stderr:\n%s", r.stderr)
	}
}
