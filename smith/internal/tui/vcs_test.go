package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/smith/internal/demoproject"
)

// TestUndoRedoRewind: after the demo turn fixes greet.sh, /diff shows the
// change, /undo puts the file back, /redo brings the fix back, and
// /rewind puts back the file and the conversation.
func TestUndoRedoRewind(t *testing.T) {
	w := newWorld(t)
	if err := demoproject.Write(w.Project); err != nil {
		t.Fatal(err)
	}
	greet := filepath.Join(w.Project, "greet.sh")
	original, _ := os.ReadFile(greet)
	rt := w.Open("mock", true)
	s := start(t, rt, 100, 40, Options{})
	s.term.typeText("fix the greeting")
	s.term.press(t, "enter")
	s.term.waitFor(t, "test.sh passes")
	waitIdle(t, s)
	fixed, _ := os.ReadFile(greet)
	if string(fixed) == string(original) {
		t.Fatal("the demo turn did not change greet.sh")
	}
	steps := []struct {
		name, line string
		screen     []string
		file       []byte
	}{
		{"diff", "/diff 1", []string{"turn 1 start → turn 1 end: 1 file(s) changed", "modified  greet.sh"}, fixed},
		{"undo", "/undo", []string{"undo: 1 file(s) restored"}, original},
		{"undo again", "/undo", []string{"/undo: nothing to undo"}, original},
		{"redo", "/redo", []string{"redo: 1 file(s) restored"}, fixed},
		{"rewind", "/rewind", []string{"the conversation is back to before that turn"}, original},
	}
	for _, st := range steps {
		s.term.typeText(st.line)
		s.term.press(t, "enter")
		s.term.waitFor(t, st.screen...)
		waitIdle(t, s)
		if b, _ := os.ReadFile(greet); string(b) != string(st.file) {
			t.Fatalf("%s: greet.sh is\n%s", st.name, b)
		}
	}
	scr := s.term.screen()
	if strings.Contains(scr, "› fix the greeting") {
		t.Errorf("the rewound turn is still shown:\n%s", scr)
	}
	sess := s.quit(t)
	msgs, err := sess.History()
	if err != nil || len(msgs) != 0 {
		t.Fatalf("history after the rewind: %d messages, %v; want none", len(msgs), err)
	}
}
