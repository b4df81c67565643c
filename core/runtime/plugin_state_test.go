package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestPluginState: a plugin granted state writes versioned values that
// commit to the session (compare-and-set refuses a stale version, naming
// the current one); it cannot open another plugin's state nor use a
// handle an earlier call opened, and a value over the bound is refused —
// each before anything is written; the state survives the process, and a
// fork made before a write holds the state of its history, not the
// write.
func TestPluginState(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	ops := []string{"write todo [1]", "write todo [1,2] 1", "write todo x 1", "read todo", "open vcsguest", "stale todo", "big k", "write gone y", "write gone ", "list"}
	var responses []string
	for i, op := range ops {
		responses = append(responses, fmt.Sprintf(`{"tool_calls":[{"id":"s%d","name":"state","arguments":{"arguments":%q}}]}`, i, op))
	}
	w.write("s.mock.json", mockScript(append(responses, mockText("done", 10, 1, 1))...))
	guest := testGuest(t, "stateguest", "stateguest")
	guest.Grants = []string{"state"}
	rt := w.open(map[string]string{"model": "mock/s.mock.json"}, func(c *Config) { c.Plugins = append(c.Plugins, guest) })
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "st"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "keep state")
	got := map[string]string{}
	for _, ev := range evs {
		if e, ok := ev.(protocol.ToolExecutionEnd); ok {
			got[e.CallID] = model.TextOf(e.Result.Content)
		}
	}
	want := map[string]string{
		"s0": `{"result":1}`,
		"s1": `{"result":2}`,
		"s2": `"case":"conflict"`,
		"s3": `{"result":{"Value":"[1,2]","Version":2}}`,
		"s4": `"case":"unauthorized"`,
		"s5": `"case":"unauthorized"`,
		"s6": `"case":"too-large"`,
		"s7": `{"result":1}`,
		"s8": `{"result":2}`,
		"s9": `{"result":["todo"]}`,
	}
	for id, w := range want {
		if !strings.Contains(got[id], w) {
			t.Errorf("%s (%s) = %s, want it to contain %s", id, ops[id[1]-'0'], got[id], w)
		}
	}
	if !strings.Contains(got["s4"], "may open only its own state") || !strings.Contains(got["s5"], "expires when its call returns") {
		t.Errorf("the refusals do not say why: %s; %s", got["s4"], got["s5"])
	}

	// Every write is one commit entry; the refused ones wrote nothing.
	var commits []session.PluginStateCommit
	var firstCommit string
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			var c session.PluginStateCommit
			if sess.Kind(i) == sessionfmt.KindPluginStateCommit && sessionfmt.DecodeContent(sess.Entry(i).Content, &c) == nil {
				if sess.Entry(i).Key != "stateguest" {
					t.Errorf("commit keyed %q", sess.Entry(i).Key)
				}
				if len(commits) == 0 {
					firstCommit = sess.ID(i).String()
				}
				commits = append(commits, c)
			}
		}
	})
	if len(commits) != 4 || commits[1].Version != 2 || !commits[3].Removed || commits[0].Call != "s0" {
		t.Fatalf("commits = %+v", commits)
	}

	fork, err := s.Fork(ctx, protocol.ForkParams{At: firstCommit, Name: "before"})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := fork.store.PluginState("stateguest"); err != nil || st["todo"].Value != "[1]" || st["todo"].Version != 1 {
		t.Fatalf("the fork's state = %+v, %v; want todo [1] at version 1", st, err)
	}
	id := s.Info().ID
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := rt.OpenSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := again.store.PluginState("stateguest")
	if err != nil || st["todo"].Value != "[1,2]" || !st["gone"].Removed {
		t.Fatalf("the state after reopening = %+v, %v", st, err)
	}
}
