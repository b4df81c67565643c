package rpc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// TestUndoOverRPC: a turn's bash change is listed by session.turns, shown
// by session.diff, taken back by session.undo (with the conversation
// rewound) and brought back by session.redo; a restore without "at" is an
// invalid-params error; a hand edit recorded by session.snapshot is
// undone before the turn is.
func TestUndoOverRPC(t *testing.T) {
	w := newWorld(t)
	file := filepath.Join(w.Project, "notes.txt")
	if err := os.WriteFile(file, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := w.Script(`{"mock_script":1,"responses":[
		{"tool_calls":[{"id":"b1","name":"bash","arguments":{"command":"echo after > notes.txt"}}]},
		{"text":"changed it"}]}`)
	c := servePipes(t, w.Open(script, true), nil).client()
	c.DiscardEvents()
	ctx := t.Context()
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "change the notes"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wait(ctx, 0); err != nil {
		t.Fatal(err)
	}
	turns, err := c.Turns(ctx)
	if err != nil || len(turns) != 1 || turns[0].Changed != 1 {
		t.Fatalf("session.turns = %+v, %v", turns, err)
	}
	d, err := c.Diff(ctx, protocol.DiffParams{Turn: 1})
	if err != nil || len(d.Files) != 1 || d.Files[0].Path != "notes.txt" || d.Files[0].Kind != "modified" {
		t.Fatalf("session.diff = %+v, %v", d, err)
	}
	res, err := c.Undo(ctx, protocol.UndoParams{Rewind: true})
	if err != nil || res.Rewound == "" || len(res.Changed) != 1 {
		t.Fatalf("session.undo = %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(file); string(b) != "before\n" {
		t.Fatalf("after undo notes.txt = %q", b)
	}
	if _, err := c.Redo(ctx, protocol.RedoParams{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "after\n" {
		t.Fatalf("after redo notes.txt = %q", b)
	}
	if _, err := c.Restore(ctx, protocol.RestoreParams{}); code(err) != protocol.CodeInvalidParams {
		t.Fatalf("session.restore without at: %v", err)
	}
	if err := os.WriteFile(file, []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(ctx, protocol.SnapshotParams{Note: "two\nlines"}); code(err) != protocol.CodeUsage {
		t.Fatalf("session.snapshot with a two-line note: %v", err)
	}
	sn, err := c.Snapshot(ctx, protocol.SnapshotParams{Note: "hand edit"})
	if err != nil || sn.Entry == "" || len(sn.Changed) != 1 || sn.Changed[0].Path != "notes.txt" {
		t.Fatalf("session.snapshot = %+v, %v", sn, err)
	}
	for _, want := range []string{"after\n", "before\n"} {
		if _, err := c.Undo(ctx, protocol.UndoParams{}); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(file); string(b) != want {
			t.Fatalf("after undo notes.txt = %q, want %q", b, want)
		}
	}
	if _, err := c.Undo(ctx, protocol.UndoParams{}); code(err) != protocol.CodeUsage {
		t.Fatalf("a second undo: %v, want a usage error (nothing to undo)", err)
	}
}
