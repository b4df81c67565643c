package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// composeRun runs one turn in which the model calls delegate with each
// of args, with composeguest granted grants, and returns each call's
// outcome by call id.
func composeRun(t *testing.T, grants []string, config string, args ...string) (map[string]string, *Session) {
	t.Helper()
	w := newWorld(t)
	if config != "" {
		w.config(config)
	}
	w.write("a.txt", "the contents of a\n")
	var calls []string
	for i, a := range args {
		calls = append(calls, `{"id":"d`+string(rune('0'+i))+`","name":"delegate","arguments":`+a+`}`)
	}
	w.write("c.mock.json", mockScript(`{"tool_calls":[`+strings.Join(calls, ",")+`]}`, mockText("done", 10, 1, 1)))
	guest := testGuest(t, "composeguest", "composer")
	guest.Grants = grants
	rt := w.open(map[string]string{"model": "mock/c.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, guest) })
	s, err := rt.NewSession(context.Background(), NewSessionOptions{Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ev := range runPrompt(t, s, "delegate") {
		if e, ok := ev.(protocol.ToolExecutionEnd); ok {
			got[e.CallID] = model.TextOf(e.Result.Content)
		}
	}
	return got, s
}

// TestComposeChildCalls: a plugin granted compose runs another plugin's
// tool as a child, recorded as a tool.child effect whose effects are its
// children; the child may use only what its caller was granted too (a
// caller without fs cannot read through the read tool); an unknown tool
// is unavailable; a chain deeper than the bound is exhausted; the
// permission policy decides a child as it decides the model's calls.
func TestComposeChildCalls(t *testing.T) {
	t.Run("delegated-authority", func(t *testing.T) {
		got, s := composeRun(t, []string{"compose", "fs"}, "",
			`{"target":"read","args":{"path":"a.txt"}}`, `{"target":"teleport"}`, `{"target":"read","args":{"path":"a.txt"},"chain":5}`)
		if !strings.Contains(got["d0"], "the contents of a") || strings.Contains(got["d0"], `"is_error":true`) {
			t.Errorf("a child read with fs delegated: %s", got["d0"])
		}
		if !strings.Contains(got["d1"], `"case":"unavailable"`) || !strings.Contains(got["d1"], "teleport") {
			t.Errorf("an unknown child: %s", got["d1"])
		}
		if !strings.Contains(got["d2"], "exhausted") || !strings.Contains(got["d2"], "at most 3 deep") {
			t.Errorf("a chain of 6: %s", got["d2"])
		}
		done, err := s.journal.Completed(context.Background(), "tool.child")
		if err != nil || len(done) == 0 {
			t.Fatalf("tool.child effects: %v, %v", done, err)
		}
		var first struct {
			Caller, Name string
			Depth        int
		}
		_ = json.Unmarshal(done[0].Intent.Input, &first)
		reads, _ := s.journal.Completed(context.Background(), "fs.read")
		var parents []string
		for _, r := range reads {
			parents = append(parents, r.Intent.Parent)
		}
		if done[0].Intent.Parent != "d0" || first.Caller != "composer" || first.Depth != 1 || !strings.Contains(strings.Join(parents, " "), done[0].Intent.ID) {
			t.Errorf("the child's records: %+v %+v; reads by %v", done[0].Intent, first, parents)
		}
	})
	t.Run("no-fs", func(t *testing.T) {
		got, _ := composeRun(t, []string{"compose"}, "", `{"target":"read","args":{"path":"a.txt"}}`)
		if strings.Contains(got["d0"], "the contents of a") || !strings.Contains(got["d0"], `may not use \"fs\"`) {
			t.Errorf("a child read without fs delegated: %s", got["d0"])
		}
	})
	t.Run("policy", func(t *testing.T) {
		got, _ := composeRun(t, []string{"compose", "fs", "process"}, "permissions {\n    deny \"bash\" \"*\"\n}\n",
			`{"target":"bash","args":{"command":"echo hi > b.txt"}}`)
		if !strings.Contains(got["d0"], `"case":"denied"`) || !strings.Contains(got["d0"], `deny \"bash\"`) {
			t.Errorf("a child bash in read-only mode: %s", got["d0"])
		}
	})
}
