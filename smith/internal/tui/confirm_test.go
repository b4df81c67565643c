package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConfirmationDialog: in permission mode ask, a call that may change
// something opens the plugin's question over the screen; y runs it, n
// refuses it, and the transcript records each question and its answer.
func TestConfirmationDialog(t *testing.T) {
	for _, tt := range []struct {
		name, key, answer string
		ran               bool
	}{
		{name: "yes", key: "y", answer: "answered yes", ran: true},
		{name: "no", key: "n", answer: "answered no"},
		{name: "enter takes the default", key: "enter", answer: "answered no"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.Flags, w.Answers = map[string]string{"permission-mode": "ask"}, true
			m := w.Script(`{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"echo hi > out.txt"}}]},{"text":"all done"}]}`)
			s := start(t, w.Open(m, true), 100, 30, Options{})
			s.term.typeText("write it")
			s.term.press(t, "enter")
			s.term.waitFor(t, "plugin permissions asks", "Run `bash` `echo hi > out.txt`?", "y yes · n no · enter no")
			s.term.typeText("x") // not an answer: the dialog keeps the keys
			s.term.press(t, tt.key)
			s.term.waitFor(t, "plugin permissions asked: Run `bash`", tt.answer, "all done")
			waitIdle(t, s)
			s.term.waitFor(t, "Ask Smith to do something") // the x did not reach the input box
			_, err := os.Stat(filepath.Join(w.Project, "out.txt"))
			if tt.ran != (err == nil) {
				t.Fatalf("ran %v; out.txt: %v\n%s", tt.ran, err, s.term.screen())
			}
		})
	}
}
