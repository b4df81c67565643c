package tui

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// TestNotes: the runtime's notes are shown as warnings at start, and
// those that arrive later after the next run settles, each once.
func TestNotes(t *testing.T) {
	w := newWorld(t)
	rt := w.Open("mock", true)
	pending := []string{"skipped the plugin x"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := newApp(ctx, Options{Runtime: rt, Term: newFakeTerm(80, 24), Notes: func() []string {
		out := pending
		pending = nil
		return out
	}})
	warnings := func() []string {
		var out []string
		for _, it := range a.tr.items {
			if it.kind == kindWarning {
				out = append(out, it.text)
			}
		}
		return out
	}
	if got := warnings(); len(got) != 1 || got[0] != "skipped the plugin x" {
		t.Fatalf("at start: %q", got)
	}
	pending = []string{"the catalog refresh failed"}
	a.feed(protocol.Settled{})
	if got := warnings(); len(got) != 2 || got[1] != "the catalog refresh failed" {
		t.Fatalf("after a run: %q", got)
	}
	a.feed(protocol.Settled{})
	if got := warnings(); len(got) != 2 {
		t.Fatalf("a note shown twice: %q", got)
	}
}
