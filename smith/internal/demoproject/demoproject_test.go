package demoproject

import (
	"os/exec"
	"strings"
	"testing"
)

// TestWrite: the written project's test fails before the fix, naming what
// it got and wanted, which is what the demo's model sets out to repair.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "test.sh")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("sh test.sh = %v, want exit 1", err)
	}
	if !strings.Contains(string(out), "FAIL: greet.sh world -> Helo, world! (want Hello, world!)") {
		t.Fatalf("test.sh said %q", out)
	}
}
