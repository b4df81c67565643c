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

// TestSelectSummarizedOverRPC: session.select with summarize moves to the
// entry and records a branch summary of the branch left there; the next
// prompt's context carries it, and the stats count its request.
// Instructions without summarize are refused.
func TestSelectSummarizedOverRPC(t *testing.T) {
	w := newWorld(t)
	script := w.Script(`{"mock_script":1,"responses":[
		{"text":"the first answer"},
		{"text":"the second answer"},
		{"text":"## Done\nthe second question was answered"},
		{"text":"the answer on the new branch"}]}`)
	c := servePipes(t, w.Open(script, true), nil).client()
	c.DiscardEvents()
	ctx := t.Context()
	for _, q := range []string{"first question", "second question"} {
		if _, err := c.Prompt(ctx, protocol.PromptParams{Text: q}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Wait(ctx, 0); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := c.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var firstAnswer string
	for _, n := range tree {
		if n.Role == "assistant" && firstAnswer == "" {
			firstAnswer = n.ID
		}
	}
	if _, err := c.Select(ctx, protocol.SelectParams{Ref: firstAnswer, Instructions: "keep it short"}); err == nil || !strings.Contains(err.Error(), "set \"summarize\": true") {
		t.Fatalf("session.select with instructions only: %v", err)
	}
	res, err := c.Select(ctx, protocol.SelectParams{Ref: firstAnswer, Summarize: true, Instructions: "keep it short"})
	if err != nil || res.Summary == nil || res.Entry != res.Summary.Entry || res.Summary.Summarized != 2 || res.Summary.SummaryBytes == 0 || res.Summary.From == "" {
		t.Fatalf("session.select with summarize = %+v, %v", res, err)
	}
	tree, err = c.Tree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range tree {
		if n.ID == res.Entry {
			found = n.Kind == "branch_summary" && n.Parent == firstAnswer && n.Selected && strings.Contains(n.Summary, "second question")
		}
	}
	if !found {
		t.Fatalf("the tree lacks the selected branch summary under %s: %+v", firstAnswer, tree)
	}
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "third question"}); err != nil {
		t.Fatal(err)
	}
	if end, err := c.Wait(ctx, 0); err != nil || end.End == nil || end.End.Reason != protocol.EndCompleted {
		t.Fatalf("the run after the move: %+v, %v", end, err)
	}
	st, err := c.Stats(ctx)
	if err != nil || st.Responses != 3 {
		t.Fatalf("stats after the move: %+v, %v (want 3 responses: the first answer, the branch summary, the new answer)", st, err)
	}
}
