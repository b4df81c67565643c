package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// TestEvalMockText: the embedded demo script fixes the demo project through
// the real tools (read, edit, bash) and records the turn in an auto-named
// session under SMITH_HOME.
func TestEvalMockText(t *testing.T) {
	e := newEnv(t)
	e.demo()
	if r := e.run("", "eval", "--model", "mock", "fix the bug"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	} else {
		golden(t, r.stdout)
		for _, w := range []string{"→ read", "→ edit", "→ bash", "PASS: greet.sh world -> Hello, world!", "[exit code 0]", "test.sh passes"} {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
			}
		}
		if !strings.Contains(r.stderr, "session: fix-the-bug (") {
			t.Errorf("stderr does not name the session: %q", r.stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(e.cwd, "greet.sh"))
	if err != nil || !strings.Contains(string(b), `echo "Hello, $1!"`) {
		t.Fatalf("greet.sh after the run: %q, %v", b, err)
	}
	kinds, msgs := load(t, e.sessionInfo("fix-the-bug").Path)
	if len(msgs) != 8 {
		t.Fatalf("session holds %d messages, want 8 (user, 3× assistant+result, final)", len(msgs))
	}
	checkPaired(t, msgs)
	// The three tool calls, the reads of the instruction files
	// (AGENTS.md, CLAUDE.md in the project, the user's AGENTS.md) and the
	// turn's two file snapshots.
	if i, c := count(kinds, "effect_intent"), count(kinds, "effect_completion"); i != 8 || c != 8 {
		t.Fatalf("effects: %d intents, %d completions; want 8 and 8", i, c)
	}
	// A second run in the same directory gets its own session.
	e.demo()
	e.mustRun("", "eval", "--model", "mock", "fix the bug")
	e.sessionInfo("fix-the-bug-2")
}

// TestEvalMockJSON: --output json writes one agent event per line; every
// line decodes, sequence numbers strictly increase, and the run's lifecycle
// comes in order.
func TestEvalMockJSON(t *testing.T) {
	e := newEnv(t)
	e.demo()
	r := e.mustRun("", "eval", "--model", "mock", "--output", "json", "fix the bug")
	if r.stderr != "" {
		t.Errorf("json mode wrote to stderr: %q", r.stderr)
	}
	golden(t, r.stdout)
	var types []string
	var last uint64
	var tools []string
	for i, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		ev, err := protocol.UnmarshalEvent([]byte(line))
		if err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		if ev.Sequence() <= last {
			t.Fatalf("line %d: seq %d after %d", i+1, ev.Sequence(), last)
		}
		last = ev.Sequence()
		types = append(types, protocol.EventType(ev))
		switch ev := ev.(type) {
		case protocol.ToolExecutionEnd:
			tools = append(tools, ev.Name+":"+string(ev.Result.Mutation))
		case protocol.AgentEnd:
			if ev.Reason != protocol.EndCompleted {
				t.Fatalf("agent_end = %+v", ev)
			}
		}
	}
	// A new session records its model first, then the run.
	if types[0] != "model_change" || types[1] != "agent_start" || types[2] != "turn_start" || types[len(types)-2] != "agent_end" || types[len(types)-1] != "settled" {
		t.Fatalf("event order: %v", types)
	}
	if got := strings.Join(tools, " "); got != "read:applied edit:applied bash:applied" {
		t.Fatalf("tool executions: %s", got)
	}
	if n := count(types, "turn_start"); n != 4 {
		t.Fatalf("%d turns, want 4", n)
	}
}

// TestEvalPromptFromStdin: the prompt comes from standard input for "-" and
// when no PROMPT is given and input is not a terminal.
func TestEvalPromptFromStdin(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{name: "dash", args: []string{"-"}},
		{name: "absent", args: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.demo()
			args := append([]string{"eval", "--model", "mock", "--session", "stdin"}, tt.args...)
			e.mustRun("please fix the greeting\n", args...)
			_, msgs := load(t, e.sessionInfo("stdin").Path)
			u, ok := msgs[0].(model.UserMessage)
			if !ok || model.TextOf(u.Content) != "please fix the greeting\n" {
				t.Fatalf("first message = %#v", msgs[0])
			}
		})
	}
	e := newEnv(t)
	if r := e.run("", "eval", "--model", "mock", "-"); r.code != exitUsage || !strings.Contains(r.stderr, "standard input is empty") {
		t.Fatalf("empty stdin: exit %d, %q", r.code, r.stderr)
	}
}

// TestEvalModelFailure: a failing model run exits 1 and says once what
// failed and what to do; the session keeps the transcript.
func TestEvalModelFailure(t *testing.T) {
	e := newEnv(t)
	m := e.script("fail.json", `{"mock_script":1,"responses":[{"error":{"kind":"overloaded","message":"the mock is busy"}}]}`)
	r := e.run("", "eval", "--model", m, "--session", "f", "hi")
	if r.code != exitFailure {
		t.Fatalf("exit %d, want 1: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "the model request failed (overloaded): the mock is busy. What to do:") || !strings.Contains(r.stderr, "session f (") ||
		strings.Count(r.stderr, "the mock is busy") != 1 {
		t.Fatalf("stderr: %q", r.stderr)
	}
	if _, msgs := load(t, e.sessionInfo("f").Path); len(msgs) != 2 {
		t.Fatalf("%d messages recorded, want the prompt and the failed answer", len(msgs))
	}
}

// TestEvalSessionChoice: --session continues a named session (creating it
// the first time), --continue the latest, --resume by id prefix; each run
// sees the history before it.
func TestEvalSessionChoice(t *testing.T) {
	e := newEnv(t)
	m := e.script("hi.json", `{"mock_script":1,"responses":[{"text":"hello"}]}`)
	e.mustRun("", "eval", "--model", m, "--session", "chat", "one")
	e.mustRun("", "eval", "--model", m, "--session", "chat", "two")
	e.mustRun("", "eval", "--model", m, "--continue", "three")
	id := e.sessionInfo("chat").ID
	e.mustRun("", "eval", "--model", m, "--resume", strings.ToLower(id[:8]), "four")
	_, msgs := load(t, e.sessionInfo("chat").Path)
	var prompts []string
	for _, m := range msgs {
		if u, ok := m.(model.UserMessage); ok {
			prompts = append(prompts, model.TextOf(u.Content))
		}
	}
	if got := strings.Join(prompts, " "); got != "one two three four" {
		t.Fatalf("prompts in session chat: %s", got)
	}
	if r := e.mustRun("", "session", "ls"); strings.Count(r.stdout, "\n") != 2 {
		t.Fatalf("session ls shows more than one session:\n%s", r.stdout)
	}
}

// TestEvalProviderUnavailable: a PROVIDER/MODEL that cannot be opened (no
// credential, or a provider no codec plugin declares) is the user's to fix:
// exit 2 before any session is created, naming the provider and what to
// set.
func TestEvalProviderUnavailable(t *testing.T) {
	e := newEnv(t)
	r := e.run("", "eval", "--model", "anthropic/claude-test", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, `no credential for provider "anthropic"`) || !strings.Contains(r.stderr, "set ANTHROPIC_API_KEY") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r = e.run("", "eval", "--model", "nope/x", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, `names provider "nope"`) {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if ms, _ := filepath.Glob(filepath.Join(e.home, "sessions", "*.session")); len(ms) != 0 {
		t.Fatalf("sessions created: %v", ms)
	}
}

// TestPrintMode: smith -p PROMPT is smith eval PROMPT, as Claude Code and
// Gemini CLI users type it; flags may come before or after.
func TestPrintMode(t *testing.T) {
	e := newEnv(t)
	for _, args := range [][]string{
		{"-p", "fix the bug", "--model", "mock", "--no-session"},
		{"--home", e.home, "--print", "fix the bug", "--model", "mock", "--no-session"},
	} {
		e.demo()
		r := e.mustRun("", args...)
		if !strings.Contains(r.stdout, "→ edit") || !strings.Contains(r.stdout, "test.sh passes") {
			t.Errorf("smith %v:\n%s\n%s", args, r.stdout, r.stderr)
		}
	}
	if got := printMode([]string{"smith", "session", "-p"}); strings.Join(got, " ") != "smith session -p" {
		t.Errorf("a -p after a command is that command's: %v", got)
	}
}
