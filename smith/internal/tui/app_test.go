package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/smith/internal/demoproject"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

// TestDemoTurn: a prompt typed into the input box runs the demo turn; the
// screen shows the prompt, the tool activity with the edit as a diff, and
// the answer; the session holds the turn.
func TestDemoTurn(t *testing.T) {
	w := newWorld(t)
	if err := demoproject.Write(w.Project); err != nil {
		t.Fatal(err)
	}
	rt := w.Open("mock", true)
	s := start(t, rt, 100, 40, Options{})
	s.term.waitFor(t, "Ask Smith", "mock")
	s.term.typeText("fix the greeting")
	s.term.press(t, "enter")
	s.term.waitFor(t, "› fix the greeting", "● read greet.sh", "● edit greet.sh", "● bash sh test.sh", "test.sh passes")
	waitIdle(t, s)
	scr := s.term.screen()
	if !strings.Contains(scr, "+") || !strings.Contains(scr, "Hello,") {
		t.Errorf("the edit's diff is not shown:\n%s", scr)
	}
	// The frame as drawn, text and attributes (-update refreshes it).
	s.term.mu.Lock()
	termtest.Golden(t, s.term.emu.Screen())
	s.term.mu.Unlock()
	sess := s.quit(t)
	if sess == nil {
		t.Fatal("Run returned no session after a turn")
	}
	msgs, err := sess.History()
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 8 { // user, 4 assistant, 3 tool results
		t.Errorf("the session holds %d messages, want 8", len(msgs))
	}
	b, _ := os.ReadFile(filepath.Join(w.Project, "greet.sh"))
	if !strings.Contains(string(b), "Hello,") {
		t.Errorf("greet.sh was not fixed: %s", b)
	}
}

// TestSteerWhileWorking: input submitted during a run is queued as steer
// (enter) or follow-up (tab), shown as queued, then delivered; esc
// aborts a hung stream.
func TestSteerWhileWorking(t *testing.T) {
	w := newWorld(t)
	m := w.Script(`{"mock_script": 1, "responses": [
		{"text": "thinking hard about it", "hang_after": 2},
		{"text": "steered answer"}
	]}`)
	rt := w.Open(m, true)
	s := start(t, rt, 80, 24, Options{})
	s.term.typeText("start")
	s.term.press(t, "enter")
	s.term.waitFor(t, "thinking", "esc to abort")
	s.term.typeText("go left instead")
	s.term.press(t, "enter")
	s.term.typeText("and then tidy")
	s.term.press(t, "tab")
	s.term.waitFor(t, "queued steer: go left instead", "queued follow-up: and then tidy")
	s.term.press(t, "esc")
	scr := s.term.waitFor(t, "aborted")
	_ = scr
	s.quit(t)
}

// TestScrolledViewStaysPut: a view scrolled up does not move while
// output arrives; the indicator shows, and ctrl+end returns.
func TestScrolledViewStaysPut(t *testing.T) {
	w := newWorld(t)
	var lines []string
	for i := range 60 {
		lines = append(lines, "line "+string(rune('A'+i%26))+strings.Repeat("x", i%7))
	}
	// The first answer runs a slow command, so the second arrives while the
	// view is scrolled up.
	m := w.Script(`{"mock_script": 1, "responses": [{"text": "` + strings.Join(lines, `\n\n`) + `",
		"tool_calls": [{"id": "s1", "name": "bash", "arguments": {"command": "sleep 1"}}]}, {"text": "second answer"}]}`)
	rt := w.Open(m, true)
	s := start(t, rt, 60, 16, Options{})
	s.term.typeText("first")
	s.term.press(t, "enter")
	s.term.waitFor(t, "● bash sleep 1")
	// One page up, so no second key is still on its way when the view is
	// taken; the transcript rows (all but the indicator, editor and status
	// rows) are what must not move.
	s.term.press(t, "pgup")
	before := s.term.waitFor(t, "more below")
	waitIdle(t, s) // the second answer arrived meanwhile
	after := s.term.screen()
	if got, want := transcriptRows(after), transcriptRows(before); got != want {
		t.Errorf("the scrolled view moved:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	s.term.press(t, "ctrl+end")
	s.term.waitFor(t, "second answer")
	s.quit(t)
}

// TestTinyTerminal: the layout stays valid at 20×5 and back.
func TestTinyTerminal(t *testing.T) {
	w := newWorld(t)
	rt := w.Open(w.Script(`{"mock_script": 1, "responses": [{"text": "a fairly long answer that has to wrap on a tiny screen"}]}`), true)
	s := start(t, rt, 80, 24, Options{})
	s.term.typeText("hi")
	s.term.press(t, "enter")
	s.term.waitFor(t, "tiny screen")
	for _, size := range [][2]int{{20, 5}, {20, 3}, {1, 1}, {80, 24}} {
		s.term.resize(size[0], size[1])
		time.Sleep(50 * time.Millisecond)
		scr := s.term.screen()
		for i, row := range strings.Split(scr, "\n") {
			if n := screen.Width(row); n > size[0] {
				t.Errorf("at %dx%d row %d is %d cells wide: %q", size[0], size[1], i, n, row)
			}
		}
	}
	s.term.waitFor(t, "tiny screen", "Ask Smith")
	s.quit(t)
}

// TestSlashCommands: typing / shows the completion; tab completes; /help
// lists commands and keys; an unknown command says how to send it.
func TestSlashCommands(t *testing.T) {
	w := newWorld(t)
	rt := w.Open("mock", true)
	s := start(t, rt, 100, 50, Options{}) // tall enough for the whole /help
	s.term.typeText("/he")
	s.term.waitFor(t, "/help")
	s.term.press(t, "tab")
	s.term.press(t, "enter")
	s.term.waitFor(t, "Commands", "/resume", "/tree", "Keys", "ctrl+o")
	s.term.typeText("/nosuch")
	s.term.press(t, "enter")
	s.term.waitFor(t, "unknown command /nosuch", "//")
	s.term.typeText("/undo")
	s.term.press(t, "enter")
	s.term.waitFor(t, "no session yet")
	s.quit(t)
}

// TestCopySelection: a drag over the transcript copies what it covers.
func TestCopySelection(t *testing.T) {
	w := newWorld(t)
	rt := w.Open(w.Script(`{"mock_script": 1, "responses": [{"text": "copy me please"}]}`), true)
	s := start(t, rt, 60, 12, Options{})
	s.term.typeText("x")
	s.term.press(t, "enter")
	scr := s.term.waitFor(t, "copy me please")
	y := -1
	for i, row := range strings.Split(scr, "\n") {
		if strings.Contains(row, "copy me please") {
			y = i
		}
	}
	x := strings.Index(strings.Split(scr, "\n")[y], "copy")
	s.term.events <- input.Mouse{X: x, Y: y, Button: input.ButtonLeft, Action: input.MousePress}
	s.term.events <- input.Mouse{X: x + 6, Y: y, Button: input.ButtonLeft, Action: input.MouseMotion}
	s.term.events <- input.Mouse{X: x + 6, Y: y, Button: input.ButtonLeft, Action: input.MouseRelease}
	s.term.waitFor(t, "copied 7 characters")
	s.term.mu.Lock()
	got := strings.Join(s.term.copied, "|")
	s.term.mu.Unlock()
	if got != "copy me" {
		t.Errorf("copied %q, want %q", got, "copy me")
	}
	s.quit(t)
}

// TestTypingDuringFlood: keys typed while an answer streams as fast as the
// mock can send it (tens of thousands of deltas) are all kept, in order.
func TestTypingDuringFlood(t *testing.T) {
	w := newWorld(t)
	words := strings.Repeat("word ", 20000)
	rt := w.Open(w.Script(`{"mock_script": 1, "responses": [{"text": "`+words+`the end."}]}`), true)
	s := start(t, rt, 100, 30, Options{})
	s.term.typeText("go")
	s.term.press(t, "enter")
	s.term.waitFor(t, "word")
	typed := "typed during the flood without losing a key"
	s.term.typeText(typed)
	s.term.waitFor(t, "the end.", "› "+typed)
	s.term.press(t, "ctrl+c") // clears the input
	s.quit(t)
}

// TestResumePicker: /resume lists the other sessions; choosing one shows
// its history.
func TestResumePicker(t *testing.T) {
	w := newWorld(t)
	rt := w.Open(w.Script(`{"mock_script": 1, "responses": [{"text": "an earlier answer"}]}`), true)
	s := start(t, rt, 100, 30, Options{})
	s.term.typeText("earlier question")
	s.term.press(t, "enter")
	s.term.waitFor(t, "an earlier answer")
	waitIdle(t, s)
	s.term.typeText("/new")
	s.term.press(t, "enter")
	s.term.waitFor(t, "new session")
	s.term.typeText("/resume")
	s.term.press(t, "enter")
	s.term.waitFor(t, "Resume a session", "earlier-question")
	s.term.press(t, "enter")
	s.term.waitFor(t, "› earlier question", "an earlier answer", "resumed session earlier-question")
	s.quit(t)
}

// TestClickOpensToolOutput: a click on a tool call shows its whole output;
// another hides it again.
func TestClickOpensToolOutput(t *testing.T) {
	w := newWorld(t)
	rt := w.Open(w.Script(`{"mock_script": 1, "responses": [
		{"tool_calls": [{"id": "c1", "name": "bash", "arguments": {"command": "seq 1 30"}}]},
		{"text": "counted"}]}`), true)
	s := start(t, rt, 80, 50, Options{})
	s.term.typeText("count")
	s.term.press(t, "enter")
	scr := s.term.waitFor(t, "counted", "25 more lines")
	y := -1
	for i, row := range strings.Split(scr, "\n") {
		if strings.Contains(row, "● bash seq 1 30") {
			y = i
		}
	}
	click := func() {
		s.term.events <- input.Mouse{X: 3, Y: y, Button: input.ButtonLeft, Action: input.MousePress}
		s.term.events <- input.Mouse{X: 3, Y: y, Button: input.ButtonLeft, Action: input.MouseRelease}
	}
	click()
	s.term.waitFor(t, "│ 30")
	click()
	s.term.waitFor(t, "25 more lines")
	s.quit(t)
}

// transcriptRows is the screen's first ten rows: on a 16-row screen, the
// transcript above the scroll indicator, the editor and the status line.
func transcriptRows(scr string) string {
	rows := strings.Split(scr, "\n")
	return strings.Join(rows[:min(10, len(rows))], "\n")
}
