package tui

import (
	"strings"
	"testing"
)

// TestTreeSummarizesBranchLeft: in /tree, ctrl+b continues from the entry
// with a summary of the branch left behind: the model writes it, the
// transcript says so with its cost, and the session's tree holds it at
// the new position.
func TestTreeSummarizesBranchLeft(t *testing.T) {
	w := newWorld(t)
	m := w.Script(`{"mock_script": 1, "responses": [
		{"text": "answer one"},
		{"text": "answer two"},
		{"text": "## Done\nthe second question was answered"}]}`)
	s := start(t, w.Open(m, true), 110, 30, Options{})
	for _, q := range []string{"one", "two"} {
		s.term.typeText(q + " question")
		s.term.press(t, "enter")
		s.term.waitFor(t, "answer "+q)
		waitIdle(t, s)
	}
	s.term.typeText("/tree")
	s.term.press(t, "enter")
	s.term.waitFor(t, "Session tree", "ctrl+b: continue there with a summary of the branch left")
	s.term.typeText("answer one")
	s.term.press(t, "ctrl+b")
	s.term.waitFor(t, "with a summary of the branch left (2", "summarised into a 40-byte summary")
	waitIdle(t, s)
	sess := s.quit(t)
	var found bool
	for _, n := range sess.Tree() {
		found = found || n.Kind == "branch_summary" && n.Selected && strings.Contains(n.Summary, "the second question was answered")
	}
	if !found {
		t.Fatalf("the session's tree has no selected branch summary: %+v", sess.Tree())
	}
}
