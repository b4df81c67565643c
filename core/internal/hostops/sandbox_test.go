//go:build linux

package hostops

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/sandbox"
)

// bashOutput is the completion output of the last process.run.
func bashOutput(t *testing.T, f *fixture) (raw string, out struct {
	ExitCode int    `json:"exit_code"`
	Sandbox  string `json:"sandbox"`
	Output   string `json:"output"`
}) {
	t.Helper()
	_, completions := f.records(t)
	if len(completions) == 0 {
		t.Fatal("no completion recorded")
	}
	raw = string(completions[len(completions)-1].Output)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("completion output %s: %v", raw, err)
	}
	return raw, out
}

// TestBashSandboxDefaultsToFSRoots: a policy without roots lets the
// command write in the FS's roots (and nowhere else), and the completion
// records the sandbox ahead of the output.
func TestBashSandboxDefaultsToFSRoots(t *testing.T) {
	if info := sandbox.Probe(); !info.Available {
		t.Skipf("no sandbox here: %s", info.Reason)
	}
	f := setup(t, nil)
	outside, tmp := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp) // f.dir and outside are not in the temp dir
	f.ops.Sandbox = sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: true}
	want := sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: true, Roots: []string{f.dir}}.Describe()
	tests := []struct {
		name string
		cmd  string
		exit int
	}{
		{"write in the root", "echo y > b.txt", 0},
		{"write outside", "echo y > " + outside + "/b.txt", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _, err := f.ops.Bash(context.Background(), f.inv, BashArgs{Command: tt.cmd})
			if err != nil || r.ExitCode != tt.exit || r.Sandbox != want {
				t.Fatalf("Bash = %+v, %v; want exit %d in sandbox %q", r, err, tt.exit, want)
			}
			raw, out := bashOutput(t, f)
			if out.Sandbox != want || out.ExitCode != tt.exit || strings.Index(raw, `"sandbox"`) > strings.Index(raw, `"output"`) {
				t.Fatalf("completion output %s; want the sandbox %q before the output", raw, want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(outside, "b.txt")); !os.IsNotExist(err) {
		t.Fatalf("written outside the roots: %v", err)
	}
	if f.ops.Sandbox.Roots != nil {
		t.Fatalf("Ops.Sandbox.Roots = %v; want the configured policy unchanged", f.ops.Sandbox.Roots)
	}
}

// TestBashWithoutSandboxRecordsNone: with no policy the completion output
// has no sandbox field.
func TestBashWithoutSandboxRecordsNone(t *testing.T) {
	f := setup(t, nil)
	if _, _, err := f.ops.Bash(context.Background(), f.inv, BashArgs{Command: "echo ok"}); err != nil {
		t.Fatal(err)
	}
	if raw, _ := bashOutput(t, f); strings.Contains(raw, `"sandbox"`) {
		t.Fatalf("completion output %s; want no sandbox field", raw)
	}
}
