package widget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/termtest"
)

var (
	testPlaceholder = screen.Style{Attr: screen.Dim}
	testMarker      = screen.Style{Fg: screen.Indexed(6), Attr: screen.Bold}
	testPrompt      = screen.Style{Fg: screen.Indexed(4)}
)

// drawEditor draws e into a w×h buffer and returns the frame with the
// cursor cell appended.
func drawEditor(e *Editor, w, h int) string {
	b := screen.NewBuffer(w, h)
	cx, cy := e.Draw(b, b.Bounds())
	return termtest.Frame(b) + fmt.Sprintf("-- cursor --\n%d,%d\n", cx, cy)
}

func newTestEditor(value string) *Editor {
	e := &Editor{Prompt: "> ", PromptStyle: testPrompt, PlaceholderStyle: testPlaceholder, MarkerStyle: testMarker}
	e.SetValue(value)
	return e
}

func TestEditorDrawGolden(t *testing.T) {
	tests := []struct {
		name  string
		value string
		setup func(e *Editor)
		w, h  int
	}{
		{name: "wrap20", value: "The quick brown fox jumps over the lazy dog and keeps on running", w: 20, h: 5},
		{name: "wrap5", value: "The quick brown fox jumps", w: 5, h: 8},
		{name: "cjk_emoji20", value: "日本語のテキストと絵文字👍🏽を混ぜる test 👨‍👩‍👧 ok", w: 20, h: 5},
		{name: "cjk_emoji5", value: "日本語👍🏽x", w: 5, h: 6},
		{name: "placeholder20", value: "", setup: func(e *Editor) { e.Placeholder = "Ask anything, or type / for commands" }, w: 20, h: 2},
		{name: "placeholder5", value: "", setup: func(e *Editor) { e.Placeholder = "Ask anything" }, w: 5, h: 1},
		{name: "scrolled_end", value: numberedLines(12), setup: func(e *Editor) { e.MaxHeight = 4 }, w: 20, h: 6},
		{name: "scrolled_top", value: numberedLines(12), setup: func(e *Editor) {
			e.MaxHeight = 4
			e.Draw(screen.NewBuffer(20, 6), screen.Rect{W: 20, H: 6})
			e.move(pos{1, 0})
		}, w: 20, h: 6},
		{name: "multiline_cursor_end_of_full_row", value: "abcdefghijklmnopqr\nx", setup: func(e *Editor) { e.move(pos{0, 18}) }, w: 20, h: 4},
		{name: "tabs", value: "a\tb\tc\n\tindented", w: 20, h: 3},
		{name: "marker", value: "see ", setup: func(e *Editor) { e.Paste(strings.Repeat("log line\n", 30)); e.insertTyped(" please") }, w: 20, h: 3},
		{name: "marker5", value: "", setup: func(e *Editor) { e.Paste(strings.Repeat("log line\n", 30)) }, w: 5, h: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEditor(tc.value)
			if tc.setup != nil {
				tc.setup(e)
			}
			termtest.GoldenString(t, drawEditor(e, tc.w, tc.h))
		})
	}
}

func numberedLines(n int) string {
	var lines []string
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	return strings.Join(lines, "\n")
}

func TestEditorHeight(t *testing.T) {
	tests := []struct {
		name  string
		value string
		max   int
		width int
		want  int
	}{
		{name: "empty", value: "", width: 20, want: 1},
		{name: "one row", value: "hello", width: 20, want: 1},
		{name: "wraps", value: "The quick brown fox jumps over the lazy dog", width: 20, want: 3},
		{name: "lines", value: "a\nb\nc", width: 20, want: 3},
		{name: "capped default", value: numberedLines(20), width: 20, want: 8},
		{name: "capped max", value: numberedLines(20), max: 3, width: 20, want: 3},
		{name: "full row adds cursor row", value: strings.Repeat("x", 18), width: 20, want: 2},
		{name: "width 1", value: "abc", width: 1, want: 4},
		{name: "width 0", value: "abc", width: 0, want: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newTestEditor(tc.value)
			e.MaxHeight = tc.max
			if got := e.Height(tc.width); got != tc.want {
				t.Errorf("Height(%d) = %d, want %d", tc.width, got, tc.want)
			}
		})
	}
}

// TestEditorVisualRows checks up/down by visual row in wrapped text.
func TestEditorVisualRows(t *testing.T) {
	e := newTestEditor("aaaa bbbb cccc dddd")
	e.Prompt = ""
	b := screen.NewBuffer(10, 4)
	e.Draw(b, b.Bounds()) // rows: "aaaa bbbb ", "cccc dddd"
	e.move(pos{0, 12})    // "cc|cc"
	steps := []struct {
		key  string
		want int
	}{{"up", 2}, {"down", 12}, {"end", 19}, {"up", 9}, {"down", 19}}
	for _, st := range steps {
		e.HandleKey(keys(t, st.key)[0])
		if e.cur.col != st.want {
			t.Fatalf("%s: col %d, want %d (%s)", st.key, e.cur.col, st.want, show(e))
		}
	}
}
