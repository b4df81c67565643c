package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPermissionModeFlags: --permission-mode and --yes decide a tool call
// whether given before the command or after it (smith --permission-mode
// ask eval is smith eval --permission-mode ask), and a refusal is what the
// user and the model read: the mode, the fix, nothing run.
func TestPermissionModeFlags(t *testing.T) {
	const script = `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"echo ran > out.txt"}}]},{"text":"ok"}]}`
	tests := []struct {
		name string
		args []string
		ran  bool
	}{
		{name: "default", args: []string{"eval", "go"}, ran: true},
		{name: "ask before the command", args: []string{"--permission-mode", "ask", "eval", "go"}},
		{name: "ask after the command", args: []string{"eval", "--permission-mode", "ask", "go"}},
		{name: "ask with yes", args: []string{"-y", "eval", "--permission-mode", "ask", "go"}, ran: true},
		{name: "read-only", args: []string{"eval", "--permission-mode", "read-only", "--yes", "go"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			model := e.script("p.mock.json", script)
			args := append([]string{"--model", model}, tt.args...)
			r := e.mustRun("", args...)
			_, err := os.Stat(filepath.Join(e.cwd, "out.txt"))
			if tt.ran != (err == nil) {
				t.Fatalf("ran %v, want %v:\n%s%s", err == nil, tt.ran, r.stdout, r.stderr)
			}
			if !tt.ran && (!strings.Contains(r.stdout, "permission policy: `bash` `echo ran > out.txt`") || !strings.Contains(r.stdout, "did not run")) {
				t.Fatalf("the refusal is not shown:\n%s", r.stdout)
			}
		})
	}
}
