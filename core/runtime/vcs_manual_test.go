package runtime

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// TestManualSnapshot: hand edits after a turn make undo refuse (naming
// the file and the way out); a snapshot taken on request records them —
// the changed paths, a diff of its effect, a vcs_operation entry of phase
// "manual" with its note — so undo goes back over them and over the turn,
// redo and restore --at its entry come back to them, and it counts as no
// turn. A second one with nothing changed names the same snapshot.
func TestManualSnapshot(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("a.txt", "original\n")
	w.write("m.mock.json", mockScript(
		`{"tool_calls":[{"id":"w1","name":"write","arguments":{"path":"a.txt","content":"by the model\n"}}]}`,
		mockText("done", 10, 1, 1),
		mockText("again", 10, 1, 1)))
	rt := w.open(map[string]string{"model": "mock/m.mock.json"}, nil)
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "hand"})
	if err != nil {
		t.Fatal(err)
	}
	original := files(t, w.project)
	runPrompt(t, s, "change it")
	model := files(t, w.project)
	w.write("a.txt", "by hand\n")
	w.write("new.txt", "new\n")
	hand := files(t, w.project)

	if _, err := s.Undo(ctx, protocol.UndoParams{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "a.txt") ||
		!strings.Contains(err.Error(), "smith session snapshot "+s.Info().ID) {
		t.Fatalf("undo over hand edits: %v", err)
	}
	for _, bad := range []string{"two\nlines", strings.Repeat("x", maxNoteBytes+1)} {
		if _, err := s.Snapshot(ctx, protocol.SnapshotParams{Note: bad}); !errors.Is(err, ErrUsage) {
			t.Errorf("note %.20q: %v, want a usage error", bad, err)
		}
	}
	snap, err := s.Snapshot(ctx, protocol.SnapshotParams{Note: "my edits"})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, c := range snap.Changed {
		changed = append(changed, c.Path+" "+c.Kind)
	}
	if snap.Reused || snap.Entry == "" || snap.Effect == "" || snap.Files != 3 || strings.Join(changed, ", ") != "a.txt modified, new.txt added" {
		t.Fatalf("Snapshot = %+v", snap)
	}
	d, err := s.Diff(ctx, protocol.DiffParams{Effect: snap.Effect})
	if err != nil || len(d.Files) != 2 || !strings.Contains(d.Files[0].Patch, "+by hand") {
		t.Fatalf("diff --effect of the snapshot = %+v, %v", d, err)
	}
	again, err := s.Snapshot(ctx, protocol.SnapshotParams{})
	if err != nil || !again.Reused || again.Snapshot != snap.Snapshot || len(again.Changed) != 0 {
		t.Fatalf("a second snapshot with nothing changed = %+v, %v", again, err)
	}
	if d, err := s.Diff(ctx, protocol.DiffParams{Effect: again.Effect}); err != nil || len(d.Files) != 0 {
		t.Fatalf("diff --effect of a reused snapshot = %+v, %v", d, err)
	}

	steps := []struct {
		name string
		do   func() (protocol.VCSResult, error)
		want map[string]string
	}{
		{"undo the hand edits", func() (protocol.VCSResult, error) { return s.Undo(ctx, protocol.UndoParams{}) }, model},
		{"undo the turn", func() (protocol.VCSResult, error) { return s.Undo(ctx, protocol.UndoParams{}) }, original},
		{"redo the turn", func() (protocol.VCSResult, error) { return s.Redo(ctx, protocol.RedoParams{}) }, model},
		{"redo the hand edits", func() (protocol.VCSResult, error) { return s.Redo(ctx, protocol.RedoParams{}) }, hand},
		{"restore turn 1's start", func() (protocol.VCSResult, error) { return s.Restore(ctx, protocol.RestoreParams{At: "turn:1"}) }, original},
		{"restore the snapshot's entry", func() (protocol.VCSResult, error) { return s.Restore(ctx, protocol.RestoreParams{At: snap.Entry}) }, hand},
	}
	for _, st := range steps {
		if _, err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := files(t, w.project); !maps.Equal(got, st.want) {
			t.Fatalf("%s: tree\n%v\nwant\n%v", st.name, got, st.want)
		}
	}

	runPrompt(t, s, "nothing")
	turns, err := s.Turns(ctx)
	if err != nil || len(turns) != 2 {
		t.Fatalf("Turns = %+v, %v; want the two prompts' turns, no more", turns, err)
	}
	var manual []session.VCSOperation
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			var op session.VCSOperation
			if sess.Kind(i) == sessionfmt.KindVCSOperation && sessionfmt.DecodeContent(sess.Entry(i).Content, &op) == nil && op.Phase == session.PhaseManual {
				manual = append(manual, op)
			}
		}
	})
	if len(manual) != 2 || manual[0].Note != "my edits" || manual[0].Turn != 1 || manual[0].Snapshot != snap.Snapshot || manual[1].Snapshot != snap.Snapshot {
		t.Fatalf("manual snapshot entries = %+v", manual)
	}
}

// TestManualSnapshotRefused: no snapshot in a session that records
// nothing.
func TestManualSnapshotRefused(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t)
	w.write("m.mock.json", mockScript(mockText("done", 10, 1, 1)))
	rt := w.open(map[string]string{"model": "mock/m.mock.json"}, func(c *Config) { c.Ephemeral = true })
	s, err := rt.NewSession(ctx, NewSessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, protocol.SnapshotParams{}); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--no-session") {
		t.Fatalf("Snapshot in an ephemeral session: %v", err)
	}
}
