package rpc

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"
)

// TestCompactOverRPC: session.compact summarises the older conversation
// with the model's next response, records the entry and returns what it
// did; the next prompt goes on from it, and the stats count the summary.
func TestCompactOverRPC(t *testing.T) {
	w := newWorld(t)
	script := w.Script(`{"mock_script":1,"responses":[
		{"text":"the first answer"},
		{"text":"## Goal\nthe user asked twice"},
		{"text":"the answer after the compaction"}]}`)
	c := servePipes(t, w.Open(script, true), nil).client()
	c.DiscardEvents()
	ctx := t.Context()
	if _, err := c.Compact(ctx, protocol.CompactParams{}); err == nil || !strings.Contains(err.Error(), "no session is open") {
		t.Fatalf("session.compact before any prompt: %v, want the no-session error", err)
	}
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "first question"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Wait(ctx, 0); err != nil {
		t.Fatal(err)
	}
	res, err := c.Compact(ctx, protocol.CompactParams{Instructions: "keep the questions"})
	if err != nil || res.Entry == "" || res.Reason != protocol.CompactManual || res.Summarized < 1 || res.SummaryBytes == 0 {
		t.Fatalf("session.compact = %+v, %v", res, err)
	}
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "second question"}); err != nil {
		t.Fatal(err)
	}
	end, err := c.Wait(ctx, 0)
	if err != nil || end.End == nil || end.End.Reason != protocol.EndCompleted {
		t.Fatalf("the run after the compaction: %+v, %v", end, err)
	}
	st, err := c.Stats(ctx)
	if err != nil || st.Responses != 3 {
		t.Fatalf("stats after the compaction: %+v, %v (want 3 responses: two answers and the summary)", st, err)
	}
}
