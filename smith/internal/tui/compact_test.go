package tui

import (
	"strings"
	"testing"
)

// TestCompactCommand: /compact summarises the conversation with the
// model, says what it did, and the next prompt goes on from the summary;
// the transcript on screen keeps the whole conversation.
func TestCompactCommand(t *testing.T) {
	w := newWorld(t)
	m := w.Script(`{"mock_script": 1, "responses": [
		{"text": "the first answer"},
		{"text": "## Goal\nanswer questions"},
		{"text": "the second answer"}]}`)
	s := start(t, w.Open(m, true), 100, 30, Options{})
	s.term.typeText("first question")
	s.term.press(t, "enter")
	s.term.waitFor(t, "the first answer")
	waitIdle(t, s)
	s.term.typeText("/compact keep the questions")
	s.term.press(t, "enter")
	s.term.waitFor(t, "compacted 1 message(s)", "the full history stays")
	waitIdle(t, s)
	s.term.typeText("second question")
	s.term.press(t, "enter")
	scr := s.term.waitFor(t, "the second answer")
	if !strings.Contains(scr, "the first answer") {
		t.Errorf("the transcript lost the compacted answer:\n%s", scr)
	}
	sess := s.quit(t)
	msgs, err := sess.History()
	if err != nil || len(msgs) != 4 {
		t.Fatalf("the session's history holds %d messages (%v), want all 4", len(msgs), err)
	}
}
