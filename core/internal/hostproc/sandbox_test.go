//go:build unix

package hostproc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/sandbox"
	"github.com/smith-agent/smith/core/model"
)

func TestNoticeSandboxHint(t *testing.T) {
	const hint = "[sandbox workspace-write: ...]"
	trunc := "[output truncated: showing the last 17 of 100 bytes]"
	tests := []struct {
		name string
		r    Result
		want string
	}{
		{"nothing to say", Result{Output: []byte("ok")}, ""},
		{"truncated", Result{Output: []byte("Permission denied"), TotalBytes: 100, Truncated: true, ExitCode: 1}, trunc},
		{"a denied write in a command that went on", Result{Output: []byte("bash: /x: Permission denied\nok"), sandboxHint: hint}, hint},
		{"sandboxed failure without a denial", Result{Output: []byte("no such file"), ExitCode: 1, sandboxHint: hint}, ""},
		{"permission denied", Result{Output: []byte("bash: /x: Permission denied"), ExitCode: 1, sandboxHint: hint}, hint},
		{"read-only file system", Result{Output: []byte("Read-only file system"), ExitCode: 2, sandboxHint: hint}, hint},
		{"operation not permitted by signal", Result{Output: []byte("Operation not permitted"), ExitCode: -1, Signal: "killed", sandboxHint: hint}, hint},
		{"truncated and denied", Result{Output: []byte("Permission denied"), TotalBytes: 100, Truncated: true, ExitCode: 1, sandboxHint: hint}, trunc + "\n" + hint},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Notice(); got != tt.want {
				t.Fatalf("Notice() = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestSandboxHintText(t *testing.T) {
	tests := []struct {
		name      string
		p         sandbox.Policy
		noNetwork bool
		want      string
	}{
		{"workspace-write", sandbox.Policy{Mode: sandbox.WorkspaceWrite, Roots: []string{"/x", "/y"}, Writable: []string{"/y", "/z"}}, false,
			"[sandbox workspace-write: writes outside /x, /y, /z and the temp dir are denied; to allow a directory run smith with --add-dir DIR or add it to roots in smith.kdl, or use --sandbox off]"},
		{"no roots, network denied", sandbox.Policy{Mode: sandbox.WorkspaceWrite}, true,
			"[sandbox workspace-write: writes outside the temp dir are denied, and so are network connections; to allow a directory run smith with --add-dir DIR or add it to roots in smith.kdl, or use --sandbox off]"},
		{"read-only", sandbox.Policy{Mode: sandbox.ReadOnly, Roots: []string{"/x"}}, true,
			"[sandbox read-only: writes are denied everywhere, and so are network connections; to allow writes in the working roots run smith with --sandbox workspace-write, or use --sandbox off]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sandboxHint(tt.p, tt.noNetwork); got != tt.want {
				t.Fatalf("sandboxHint = %q\nwant          %q", got, tt.want)
			}
		})
	}
}

// TestSandboxOff: no policy is today's behaviour, with nothing recorded;
// an explicit Off is recorded as "off".
func TestSandboxOff(t *testing.T) {
	outside := t.TempDir()
	tests := []struct {
		name string
		p    sandbox.Policy
		want string
	}{
		{"zero policy", sandbox.Policy{}, ""},
		{"off", sandbox.Policy{Mode: sandbox.Off, Roots: []string{t.TempDir()}}, "off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(outside, strings.ReplaceAll(tt.name, " ", "-"))
			r := run(t, context.Background(), "echo x > "+file+" && echo denied >&2 && exit 1", Options{Sandbox: tt.p})
			if r.ExitCode != 1 || r.Sandbox != tt.want || r.Notice() != "" {
				t.Fatalf("result = %+v, notice %q; want exit 1, sandbox %q, no notice", r, r.Notice(), tt.want)
			}
			if _, err := os.Stat(file); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestSandboxUnknownModeRunsNothing(t *testing.T) {
	dir := t.TempDir()
	r, err := Run(context.Background(), "touch ran", Options{Dir: dir, Sandbox: sandbox.Policy{Mode: "strict"}})
	want := `hostproc: sandbox: unknown mode "strict"; use "workspace-write", "read-only" or "off"`
	if err == nil || err.Error() != want || r.Mutation != model.MutationNotApplied {
		t.Fatalf("Run = %+v, %v; want %s", r, err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
}

// BenchmarkSandboxSetup is the cost of the sandbox on one command that
// does nothing: Run("true") unsandboxed and in workspace-write mode.
func BenchmarkSandboxSetup(b *testing.B) {
	dir := b.TempDir()
	modes := []struct {
		name string
		p    sandbox.Policy
	}{
		{"off", sandbox.Policy{}},
		{"workspace-write", sandbox.Policy{Mode: sandbox.WorkspaceWrite, Network: true, Roots: []string{dir}}},
		{"read-only-no-network", sandbox.Policy{Mode: sandbox.ReadOnly}},
	}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			if m.p.Mode != "" && !sandbox.Probe().Available {
				b.Skipf("no sandbox here: %s", sandbox.Probe().Reason)
			}
			for b.Loop() {
				if _, err := Run(context.Background(), "true", Options{Dir: dir, Sandbox: m.p}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
