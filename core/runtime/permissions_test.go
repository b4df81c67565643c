package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// toolEnd returns the result of the run's one tool call.
func toolEnd(t *testing.T, evs []protocol.Event) model.ToolResultMessage {
	t.Helper()
	for _, ev := range evs {
		if e, ok := ev.(protocol.ToolExecutionEnd); ok {
			return e.Result
		}
	}
	t.Fatal("the run made no tool call")
	return model.ToolResultMessage{}
}

// TestPermissionPolicy: the product plugin decides each tool call by the
// configured policy before any effect: a refused call is an error result
// the model reads (not applied, naming the rule or mode and the fix) and
// changes nothing; an allowed one runs. The default policy lets every call
// run.
func TestPermissionPolicy(t *testing.T) {
	tests := []struct {
		name   string
		config string
		flags  map[string]string
		call   string // the tool call's name and arguments
		ran    bool
		why    []string // parts of a refusal
	}{
		{name: "default runs", call: `"name":"write","arguments":{"path":"out.txt","content":"x"}`, ran: true},
		{name: "deny rule", config: "permissions {\n    deny \"write\" \"*.txt\"\n}\n",
			call: `"name":"write","arguments":{"path":"out.txt","content":"x"}`,
			why:  []string{"permission policy: `write` `out.txt` is denied by the rule deny \"write\" \"*.txt\"", "smith.kdl:2:5", "did not run"}},
		{name: "ask refuses", flags: map[string]string{"permission-mode": "ask"},
			call: `"name":"bash","arguments":{"command":"echo x > out.txt"}`,
			why:  []string{"needs the user's approval (permission mode ask)", "--yes", "smith.kdl"}},
		{name: "ask with yes runs", flags: map[string]string{"permission-mode": "ask", "yes": "true"},
			call: `"name":"bash","arguments":{"command":"echo x > out.txt"}`, ran: true},
		{name: "ask allow rule runs", config: "permissions {\n    mode \"ask\"\n    allow \"write\" \"out.*\"\n}\n",
			call: `"name":"write","arguments":{"path":"out.txt","content":"x"}`, ran: true},
		{name: "read-only refuses", flags: map[string]string{"permission-mode": "read-only"},
			call: `"name":"edit","arguments":{"path":"out.txt","old":"a","new":"b"}`,
			why:  []string{"permission mode read-only lets only the reading tools run"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if tt.config != "" {
				w.config(tt.config)
			}
			w.write("p.mock.json", mockScript(`{"tool_calls":[{"id":"c1",`+tt.call+`}]}`, mockText("done", 10, 1, 1)))
			flags := map[string]string{"model": "mock/p.mock.json"}
			for k, v := range tt.flags {
				flags[k] = v
			}
			rt := w.open(flags, nil)
			s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "p"})
			if err != nil {
				t.Fatal(err)
			}
			evs := runPrompt(t, s, "go")
			if e := agentEnd(evs); e.Reason != protocol.EndCompleted {
				t.Fatalf("agent_end %+v", e)
			}
			res := toolEnd(t, evs)
			b, _ := json.Marshal(res.Content)
			text := string(b)
			_, statErr := os.Stat(filepath.Join(w.project, "out.txt"))
			if tt.ran {
				if res.IsError || statErr != nil {
					t.Fatalf("the call did not run: %s (file: %v)", text, statErr)
				}
				return
			}
			if !res.IsError || res.Mutation != model.MutationNotApplied || statErr == nil {
				t.Fatalf("the call was not refused: error %v mutation %q file %v: %s", res.IsError, res.Mutation, statErr, text)
			}
			for _, p := range tt.why {
				if !strings.Contains(text, strings.ReplaceAll(strings.ReplaceAll(p, `"`, `\"`), "\n", `\n`)) {
					t.Errorf("the refusal lacks %q:\n%s", p, text)
				}
			}
			// The refusal is recorded: the session's history holds it.
			h, _ := s.History()
			found := false
			for _, m := range h {
				if r, ok := m.(model.ToolResultMessage); ok && r.IsError {
					found = true
				}
			}
			if !found {
				t.Error("the refused call's result is not in the session")
			}
		})
	}
}
