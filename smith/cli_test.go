package main

import (
	"strings"
	"testing"
)

// TestHelpAndVersion: --help lists every command and the global flags with
// their environment variables; --version prints the version.
func TestHelpAndVersion(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{name: "help", args: []string{"--help"}, want: []string{"demo", "eval", "session", "--home", "SMITH_HOME"}},
		{name: "bare", args: nil, want: []string{"USAGE:", "eval"}},
		{name: "version", args: []string{"--version"}, want: []string{"smith version " + version}},
		{name: "eval help", args: []string{"eval", "--help"}, want: []string{"--model", "SMITH_MODEL", "--output", "--no-session", "--session", "--continue", "--resume", "--cwd", "130"}},
		{name: "session help", args: []string{"session", "--help"}, want: []string{"ls", "show", "dump", "fork"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.mustRun("", tt.args...)
			for _, w := range tt.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

// TestUsageErrors: every usage error exits 2 and its message names the
// offending flag or argument and what to do.
func TestUsageErrors(t *testing.T) {
	e := newEnv(t)
	e.demo()
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{name: "unknown flag", args: []string{"eval", "--bogus", "x"}, want: []string{"-bogus", "smith eval --help"}},
		{name: "bad output", args: []string{"eval", "--model", "mock", "--output", "xml", "x"}, want: []string{"--output \"xml\"", "--output json"}},
		{name: "two session choices", args: []string{"eval", "--model", "mock", "--session", "a", "--no-session", "x"}, want: []string{"--session and --no-session"}},
		{name: "no model", args: []string{"eval", "x"}, want: []string{"--model", "SMITH_MODEL", "mock"}},
		{name: "model without provider", args: []string{"eval", "--model", "gpt-9", "x"}, want: []string{"model \"gpt-9\" (from flag --model)", "PROVIDER/MODEL", "--model mock"}},
		{name: "missing mock script", args: []string{"eval", "--model", "mock/nope.json", "x"}, want: []string{"nope.json", "demo"}},
		{name: "bad cwd", args: []string{"eval", "--model", "mock", "--cwd", "no/such/dir", "x"}, want: []string{"--cwd \"no/such/dir\""}},
		{name: "two prompts", args: []string{"eval", "--model", "mock", "fix", "it"}, want: []string{"2 arguments", "quote the prompt"}},
		{name: "empty prompt", args: []string{"eval", "--model", "mock", " "}, want: []string{"PROMPT", "empty"}},
		{name: "unknown resume", args: []string{"eval", "--model", "mock", "--resume", "nosuch", "x"}, want: []string{"--resume \"nosuch\"", "session ls"}},
		{name: "continue without sessions", args: []string{"eval", "--model", "mock", "--continue", "x"}, want: []string{"--continue", "drop --continue"}},
		{name: "bad session name", args: []string{"eval", "--model", "mock", "--session", "a--b", "x"}, want: []string{"--session", "a--b"}},
		{name: "unknown command", args: []string{"frobnicate"}, want: []string{"frobnicate", "smith --help"}},
		{name: "show without ref", args: []string{"session", "show"}, want: []string{"session show", "session ls"}},
		{name: "fork bad at", args: []string{"session", "fork", "x.session", "--at", "zz"}, want: []string{"x.session"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run("", tt.args...)
			if r.code != exitUsage {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, exitUsage, r.stderr)
			}
			if !strings.HasPrefix(r.stderr, "smith: ") {
				t.Errorf("stderr does not start with \"smith: \": %q", r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q: %s", w, r.stderr)
				}
			}
		})
	}
}
