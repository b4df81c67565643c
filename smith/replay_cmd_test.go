package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/demoproject"
)

// TestReplayCommand: smith replay of the demo session, as a user runs it
// with an empty environment (no key): the conversation as text, JSON
// lines identical across runs, exit 1 for a divergence found by
// --re-execute in the edited tree and 0 in a pristine copy, exit 2 for a
// bad range naming --turns.
func TestReplayCommand(t *testing.T) {
	e := newEnv(t)
	e.demo()
	pristine := filepath.Join(e.tmp, "pristine")
	if err := os.Mkdir(pristine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := demoproject.Write(pristine); err != nil {
		t.Fatal(err)
	}
	e.mustRun("", "eval", "--model", "mock", "fix the bug")
	before, err := os.ReadFile(filepath.Join(e.cwd, "greet.sh"))
	if err != nil {
		t.Fatal(err)
	}

	r := e.mustRun("", "replay", "fix-the-bug")
	if !strings.HasPrefix(r.stdout, "> fix the bug\n") || !strings.Contains(r.stdout, "→ edit") || !strings.Contains(r.stdout, "Fixed:") ||
		!strings.Contains(r.stderr, "matched") {
		t.Errorf("text replay:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}

	a := e.mustRun("", "replay", "--output", "json", "fix-the-bug")
	b := e.mustRun("", "replay", "-o", "json", "--speed", "100x", "fix-the-bug")
	if a.stdout != b.stdout || a.stderr != "" {
		t.Errorf("two JSON replays differ, or stderr is not empty: %q", a.stderr)
	}
	for i, line := range strings.Split(strings.TrimSuffix(a.stdout, "\n"), "\n") {
		ev, err := protocol.UnmarshalEvent([]byte(line))
		if err != nil || ev.Sequence() != uint64(i+1) {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
	}

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"edited tree diverges", []string{"replay", "--re-execute", "fix-the-bug"}, 1, "divergence in turn 1: tool read"},
		{"pristine tree matches", []string{"replay", "--re-execute", "--cwd", pristine, "fix-the-bug"}, 0, "matched"},
		{"range past the end", []string{"replay", "--turns", "2..3", "fix-the-bug"}, 2, `--turns "2..3"`},
		{"bad range", []string{"replay", "--turns", "3-4", "fix-the-bug"}, 2, "A..B, A.. or ..B"},
		{"bad speed", []string{"replay", "--speed", "fast", "fix-the-bug"}, 2, "--speed"},
		{"no session", []string{"replay", "nosuch"}, 2, "nosuch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run("", tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d (want %d), stderr:\n%s", r.code, tt.code, r.stderr)
			}
		})
	}
	if after, _ := os.ReadFile(filepath.Join(e.cwd, "greet.sh")); string(after) != string(before) {
		t.Errorf("--re-execute changed the project: %q", after)
	}
	if b, _ := os.ReadFile(filepath.Join(pristine, "greet.sh")); !strings.Contains(string(b), "Helo,") {
		t.Errorf("--re-execute changed the pristine tree: %q", b)
	}
}
