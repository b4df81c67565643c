package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// TestDiffEffect: one effect is shown as exactly what it changed — a
// write that created a file, an edit of it in the same turn, a command
// (bash) in that turn, a restore — while a read is refused with the turn
// to diff, and an unknown effect id is named.
func TestDiffEffect(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("b.txt", "b\n")
	w.write("e.mock.json", mockScript(
		`{"tool_calls":[{"id":"w1","name":"write","arguments":{"path":"a.txt","content":"one\ntwo\n"}}]}`,
		`{"tool_calls":[{"id":"e1","name":"edit","arguments":{"path":"a.txt","old_text":"two","new_text":"TWO"}}]}`,
		`{"tool_calls":[{"id":"b1","name":"bash","arguments":{"command":"echo more >> b.txt"}}]}`,
		`{"tool_calls":[{"id":"r1","name":"read","arguments":{"path":"b.txt"}}]}`,
		mockText("done", 10, 1, 1)))
	rt := w.open(map[string]string{"model": "mock/e.mock.json"}, nil)
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "e"})
	if err != nil {
		t.Fatal(err)
	}
	if e := agentEnd(runPrompt(t, s, "go")); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	done, err := s.journal.Completed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The effect of each tool call, by its kind.
	ids := map[string]string{}
	for _, d := range done {
		switch d.Intent.Parent {
		case "w1", "e1", "b1", "r1":
			ids[d.Intent.Kind] = d.Intent.ID
		}
	}
	if len(ids) != 4 {
		t.Fatalf("the tool calls' effects: %v", ids)
	}
	d, err := s.Diff(ctx, protocol.DiffParams{Effect: ids["fs.write"]})
	if err != nil || len(d.Files) != 1 || d.Files[0].Kind != "added" || d.Files[0].Path != "a.txt" || !strings.Contains(d.Files[0].Patch, "+two") {
		t.Fatalf("diff of the write: %+v, %v", d, err)
	}
	d, err = s.Diff(ctx, protocol.DiffParams{Effect: strings.ToLower(ids["fs.edit"][:10])})
	if err != nil || len(d.Files) != 1 || d.Files[0].Kind != "modified" || !strings.Contains(d.Files[0].Patch, "-two\n+TWO") || strings.Contains(d.Files[0].Patch, "+one") {
		t.Fatalf("diff of the edit: %+v, %v", d, err)
	}
	d, err = s.Diff(ctx, protocol.DiffParams{Effect: ids["process.run"]})
	if err != nil || len(d.Files) != 1 || d.Files[0].Path != "b.txt" || !strings.Contains(d.Files[0].Patch, " b\n+more") {
		t.Fatalf("diff of the command: %+v, %v", d, err)
	}
	if _, err := s.Diff(ctx, protocol.DiffParams{Effect: ids["fs.read"]}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "is a fs.read, which changes no file") || !strings.Contains(err.Error(), "--turn 1") {
		t.Fatalf("diff of a read: %v", err)
	}
	if _, err := s.Diff(ctx, protocol.DiffParams{Effect: "01ZZZZZZ"}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `no effect "01ZZZZZZ"`) {
		t.Fatalf("diff of no effect: %v", err)
	}
	if _, err := s.Diff(ctx, protocol.DiffParams{Effect: ids["fs.edit"], Turn: 1}); !errors.Is(err, ErrUsage) {
		t.Fatalf("an effect and a turn: %v", err)
	}
	u, err := s.Undo(ctx, protocol.UndoParams{})
	if err != nil {
		t.Fatal(err)
	}
	d, err = s.Diff(ctx, protocol.DiffParams{Effect: u.Effect})
	if err != nil || len(d.Files) != 2 {
		t.Fatalf("diff of the undo: %+v, %v", d, err)
	}
}
