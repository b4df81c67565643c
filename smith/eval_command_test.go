package main

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestCommandLine: which prompts are commands.
func TestCommandLine(t *testing.T) {
	tests := []struct {
		name, prompt, cmd, args string
		ok                      bool
	}{
		{name: "command", prompt: "/init", cmd: "init", ok: true},
		{name: "arguments", prompt: "  /init  the tests first ", cmd: "init", args: "the tests first", ok: true},
		{name: "namespaced", prompt: "/git:commit -m x", cmd: "git:commit", args: "-m x", ok: true},
		{name: "escaped", prompt: "//init"},
		{name: "path", prompt: "/usr/lib is full, clean it"},
		{name: "bare slash", prompt: "/ hi"},
		{name: "text", prompt: "fix /init"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, a, ok := commandLine(tt.prompt)
			if c != tt.cmd || a != tt.args || ok != tt.ok {
				t.Errorf("commandLine(%q) = %q, %q, %v; want %q, %q, %v", tt.prompt, c, a, ok, tt.cmd, tt.args, tt.ok)
			}
		})
	}
}

// TestEvalRunsCommands: smith eval "/init focus" runs the product
// plugin's init command, prints its text and submits the prompt it asks
// for; "//init" is sent as the text "/init"; an unknown command is a
// usage error naming the known ones, with nothing recorded.
func TestEvalRunsCommands(t *testing.T) {
	const script = `{"mock_script":1,"responses":[{"text":"ok"}]}`
	tests := []struct {
		name, prompt string
		stdout       []string
		user         string // the user message sent, a prefix
	}{
		{name: "init", prompt: "/init the tests first", stdout: []string{"/init: Asking the agent to study the project", "ok"},
			user: "Study this project and write AGENTS.md"},
		{name: "escaped", prompt: "//init please", stdout: []string{"ok"}, user: "/init please"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			m := e.script("c.mock.json", script)
			r := e.mustRun("", "eval", "--model", m, "-s", "c", tt.prompt)
			for _, w := range tt.stdout {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
			_, msgs := load(t, e.sessionInfo("c").Path)
			u, ok := msgs[0].(model.UserMessage)
			if !ok || !strings.HasPrefix(model.TextOf(u.Content), tt.user) {
				t.Fatalf("the first message is %#v, want a user message starting %q", msgs[0], tt.user)
			}
			if tt.name == "init" && !strings.HasSuffix(model.TextOf(u.Content), "The user adds: the tests first") {
				t.Errorf("the command's arguments are not in its prompt: %q", model.TextOf(u.Content))
			}
		})
	}
	e := newEnv(t)
	r := e.run("", "eval", "--model", "mock", "/nope")
	if r.code != 2 || !strings.Contains(r.stderr, `there is no command "nope"; the commands are: reload, init`) || !strings.Contains(r.stderr, "//") {
		t.Fatalf("an unknown command: exit %d\n%s", r.code, r.stderr)
	}
}
