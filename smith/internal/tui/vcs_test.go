package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/smith/internal/demoproject"
)

// TestUndoRedoRewind: after the demo turn fixes greet.sh, /diff shows the
// change, /undo puts the file back, /redo brings the fix back, a hand
// edit is refused by /undo until /snapshot records it, and /rewind puts
// back the file and the conversation.
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
	hand := []byte("echo by hand\n")
	steps := []struct {
		name, line string
		edit       bool // write hand to greet.sh first
		screen     []string
		file       []byte
	}{
		{"diff", "/diff 1", false, []string{"turn 1 start → turn 1 end: 1 file(s) changed", "modified  greet.sh"}, fixed},
		{"undo", "/undo", false, []string{"undo: 1 file(s) restored"}, original},
		{"undo again", "/undo", false, []string{"/undo: nothing to undo"}, original},
		{"redo", "/redo", false, []string{"redo: 1 file(s) restored"}, fixed},
		{"undo over a hand edit", "/undo", true, []string{"these files changed", "/snapshot"}, hand},
		{"snapshot", "/snapshot my fix", false, []string{"snapshot: 1 file(s) changed since the last snapshot", "/undo now goes back"}, hand},
		{"undo the hand edit", "/undo", false, []string{"undo: 1 file(s) restored"}, fixed},
		{"rewind", "/rewind", false, []string{"the conversation is back to before that turn"}, original},
	}
	for _, st := range steps {
		if st.edit {
			if err := os.WriteFile(greet, hand, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		s.term.typeText(st.line)
		s.term.press(t, "enter")
		s.term.waitFor(t, st.screen...)
		waitIdle(t, s)
		// The screen may already hold an earlier step's words: the file
		// says when this step is done (bounded).
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			b, _ := os.ReadFile(greet)
			if string(b) == string(st.file) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: greet.sh is\n%s\nscreen:\n%s", st.name, b, s.term.screen())
			}
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
