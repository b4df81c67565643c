package widget

import (
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"
	"github.com/smith-agent/smith/termkit/input"
)

// edState builds an editor from s, where "|" marks the cursor.
func edState(t testing.TB, s string) *Editor {
	t.Helper()
	i := strings.IndexByte(s, '|')
	if i < 0 {
		t.Fatalf("state %q has no cursor mark |", s)
	}
	e := &Editor{}
	e.SetValue(s[:i] + s[i+1:])
	e.cur = endOf(pos{}, s[:i])
	e.undo = nil
	return e
}

// show returns the stored text with "|" at the cursor and markers as
// their labels.
func show(e *Editor) string {
	e.init()
	var b strings.Builder
	for l, line := range e.lines {
		if l > 0 {
			b.WriteByte('\n')
		}
		for c := 0; c <= len(line); c++ {
			if (pos{l, c}) == e.cur {
				b.WriteByte('|')
			}
			if c == len(line) {
				break
			}
			if line[c] == markerByte {
				if p := e.pastes[decodeMarker(line[c:])]; p != nil {
					b.WriteString(p.label)
				}
				c += markerLen - 1
				continue
			}
			b.WriteByte(line[c])
		}
	}
	return b.String()
}

// keys parses key names; "type:TEXT" types TEXT one grapheme cluster per
// key.
func keys(t testing.TB, names ...string) []input.Key {
	t.Helper()
	var out []input.Key
	for _, n := range names {
		if text, ok := strings.CutPrefix(n, "type:"); ok {
			g := displaywidth.StringGraphemes(text)
			for g.Next() {
				r := []rune(g.Value())[0]
				out = append(out, input.Key{Code: r, Text: g.Value()})
			}
			continue
		}
		k, err := input.ParseKey(n)
		if err != nil {
			t.Fatalf("key %q: %v", n, err)
		}
		out = append(out, k)
	}
	return out
}

func TestEditorKeys(t *testing.T) {
	tests := []struct {
		name  string
		start string
		keys  []string
		want  string
	}{
		{name: "type ascii", start: "|", keys: []string{"type:hello"}, want: "hello|"},
		{name: "type middle", start: "ab|cd", keys: []string{"type:X"}, want: "abX|cd"},
		{name: "type wide", start: "|", keys: []string{"type:日本👍🏽"}, want: "日本👍🏽|"},
		{name: "type shifted legacy", start: "|", keys: []string{"A"}, want: "A|"},
		{name: "space", start: "a|", keys: []string{"space"}, want: "a |"},
		{name: "shift+enter newline", start: "ab|cd", keys: []string{"shift+enter"}, want: "ab\n|cd"},
		{name: "alt+enter newline", start: "ab|cd", keys: []string{"alt+enter"}, want: "ab\n|cd"},
		{name: "ctrl+j newline", start: "ab|cd", keys: []string{"ctrl+j"}, want: "ab\n|cd"},
		{name: "enter ignored", start: "ab|", keys: []string{"enter"}, want: "ab|"},
		{name: "backspace", start: "ab|c", keys: []string{"backspace"}, want: "a|c"},
		{name: "backspace joins lines", start: "ab\n|cd", keys: []string{"backspace"}, want: "ab|cd"},
		{name: "backspace at start", start: "|ab", keys: []string{"backspace"}, want: "|ab"},
		{name: "backspace cjk", start: "a世|b", keys: []string{"backspace"}, want: "a|b"},
		{name: "backspace emoji modifier", start: "x👍🏽|", keys: []string{"backspace"}, want: "x|"},
		{name: "backspace zwj family", start: "👨‍👩‍👧|", keys: []string{"backspace"}, want: "|"},
		{name: "backspace combining", start: "ae\u0301|", keys: []string{"backspace"}, want: "a|"},
		{name: "ctrl+h backspace", start: "ab|", keys: []string{"ctrl+h"}, want: "a|"},
		{name: "delete", start: "a|bc", keys: []string{"delete"}, want: "a|c"},
		{name: "delete joins lines", start: "ab|\ncd", keys: []string{"delete"}, want: "ab|cd"},
		{name: "delete wide", start: "|世界", keys: []string{"delete"}, want: "|界"},
		{name: "ctrl+d deletes forward", start: "a|b", keys: []string{"ctrl+d"}, want: "a|"},
		{name: "left over wide", start: "世|界", keys: []string{"left"}, want: "|世界"},
		{name: "right over wide", start: "世|界", keys: []string{"right"}, want: "世界|"},
		{name: "right over flag", start: "|🇯🇵x", keys: []string{"right"}, want: "🇯🇵|x"},
		{name: "left over combining", start: "xe\u0301|", keys: []string{"left"}, want: "x|e\u0301"},
		{name: "left across lines", start: "ab\n|cd", keys: []string{"left"}, want: "ab|\ncd"},
		{name: "right across lines", start: "ab|\ncd", keys: []string{"right"}, want: "ab\n|cd"},
		{name: "left at start", start: "|ab", keys: []string{"left"}, want: "|ab"},
		{name: "ctrl+b ctrl+f", start: "ab|c", keys: []string{"ctrl+b", "ctrl+b", "ctrl+f"}, want: "a|bc"},
		{name: "home", start: "ab\ncd|ef", keys: []string{"home"}, want: "ab\n|cdef"},
		{name: "end", start: "ab\nc|def\ng", keys: []string{"end"}, want: "ab\ncdef|\ng"},
		{name: "ctrl+a", start: "ab\ncd|ef", keys: []string{"ctrl+a"}, want: "ab\n|cdef"},
		{name: "ctrl+e", start: "a|b\ncd", keys: []string{"ctrl+e"}, want: "ab|\ncd"},
		{name: "ctrl+home", start: "ab\ncd|", keys: []string{"ctrl+home"}, want: "|ab\ncd"},
		{name: "ctrl+end", start: "a|b\ncd", keys: []string{"ctrl+end"}, want: "ab\ncd|"},
		{name: "alt+left word", start: "foo bar|", keys: []string{"alt+left"}, want: "foo |bar"},
		{name: "ctrl+left word", start: "foo bar  |", keys: []string{"ctrl+left"}, want: "foo |bar  "},
		{name: "alt+b word", start: "foo_bar.baz|", keys: []string{"alt+b", "alt+b"}, want: "|foo_bar.baz"},
		{name: "alt+b at line start", start: "ab\n|cd", keys: []string{"alt+b"}, want: "ab|\ncd"},
		{name: "alt+right word", start: "foo| bar baz", keys: []string{"alt+right"}, want: "foo bar| baz"},
		{name: "ctrl+right word", start: "|foo bar", keys: []string{"ctrl+right"}, want: "foo| bar"},
		{name: "alt+f word", start: "|foo bar", keys: []string{"alt+f", "alt+f"}, want: "foo bar|"},
		{name: "alt+f at line end", start: "ab|\ncd", keys: []string{"alt+f"}, want: "ab\n|cd"},
		{name: "word cjk", start: "hello 世界|", keys: []string{"alt+b"}, want: "hello |世界"},
		{name: "ctrl+w", start: "foo bar  |", keys: []string{"ctrl+w"}, want: "foo |"},
		{name: "ctrl+w at line start", start: "ab\n|cd", keys: []string{"ctrl+w"}, want: "ab|cd"},
		{name: "alt+backspace", start: "foo bar|", keys: []string{"alt+backspace"}, want: "foo |"},
		{name: "ctrl+backspace", start: "foo.bar|", keys: []string{"ctrl+backspace"}, want: "foo.|"},
		{name: "alt+d", start: "foo| bar baz", keys: []string{"alt+d"}, want: "foo| baz"},
		{name: "ctrl+delete", start: "|foo bar", keys: []string{"ctrl+delete"}, want: "| bar"},
		{name: "ctrl+u", start: "ab\ncd|ef", keys: []string{"ctrl+u"}, want: "ab\n|ef"},
		{name: "ctrl+u at line start", start: "ab\n|cd", keys: []string{"ctrl+u"}, want: "ab|cd"},
		{name: "ctrl+k", start: "ab|cd\nef", keys: []string{"ctrl+k"}, want: "ab|\nef"},
		{name: "ctrl+k at line end", start: "ab|\nef", keys: []string{"ctrl+k"}, want: "ab|ef"},
		{name: "up", start: "abc\nde|", keys: []string{"up"}, want: "ab|c\nde"},
		{name: "up short line", start: "a\nabcd|", keys: []string{"up"}, want: "a|\nabcd"},
		{name: "up keeps goal", start: "abcdef\nx\nabcd|ef", keys: []string{"up", "up"}, want: "abcd|ef\nx\nabcdef"},
		{name: "down keeps goal", start: "ab|cd\n\nabcd", keys: []string{"down", "down"}, want: "abcd\n\nab|cd"},
		{name: "down wide goal", start: "ab|\n世界", keys: []string{"down"}, want: "ab\n世|界"},
		{name: "ctrl+z undo typing", start: "|", keys: []string{"type:abc", "ctrl+z"}, want: "|"},
		{name: "ctrl+_ undo", start: "|", keys: []string{"type:abc", "ctrl+_"}, want: "|"},
		{name: "ctrl+shift+z redo", start: "|", keys: []string{"type:abc", "ctrl+z", "ctrl+shift+z"}, want: "abc|"},
		{name: "alt+z redo", start: "|", keys: []string{"type:abc", "ctrl+z", "alt+z"}, want: "abc|"},
		{name: "undo delete restores cursor", start: "ab|cd", keys: []string{"ctrl+k", "ctrl+z"}, want: "ab|cd"},
		{name: "tab not consumed", start: "a|", keys: []string{"tab"}, want: "a|"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := edState(t, tc.start)
			for _, k := range keys(t, tc.keys...) {
				e.HandleKey(k)
			}
			if got := show(e); got != tc.want {
				t.Errorf("after %v: got %q, want %q", tc.keys, got, tc.want)
			}
		})
	}
}

func TestEditorKittyShiftText(t *testing.T) {
	e := &Editor{}
	if !e.HandleKey(input.Key{Code: 'a', Text: "A", Mod: input.ModShift}) {
		t.Fatal("shift+a with text not consumed")
	}
	if got := e.Value(); got != "A" {
		t.Errorf("got %q, want %q", got, "A")
	}
}

func TestEditorConsumed(t *testing.T) {
	tests := []struct {
		name  string
		start string
		key   string
		want  bool
	}{
		{name: "enter", start: "a|", key: "enter", want: false},
		{name: "ctrl+enter", start: "a|", key: "ctrl+enter", want: false},
		{name: "shift+enter", start: "a|", key: "shift+enter", want: true},
		{name: "tab", start: "a|", key: "tab", want: false},
		{name: "esc", start: "a|", key: "esc", want: false},
		{name: "ctrl+c", start: "a|", key: "ctrl+c", want: false},
		{name: "ctrl+d empty", start: "|", key: "ctrl+d", want: false},
		{name: "ctrl+d text", start: "a|", key: "ctrl+d", want: true},
		{name: "up without history", start: "a|", key: "up", want: false},
		{name: "down at end", start: "a|", key: "down", want: false},
		{name: "up inside text", start: "a\nb|", key: "up", want: true},
		{name: "left at start", start: "|a", key: "left", want: true},
		{name: "printable", start: "|", key: "x", want: true},
		{name: "super key", start: "|", key: "super+x", want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := edState(t, tc.start)
			if got := e.HandleKey(keys(t, tc.key)[0]); got != tc.want {
				t.Errorf("HandleKey(%s) = %v, want %v", tc.key, got, tc.want)
			}
		})
	}
	e := &Editor{}
	if e.HandleKey(input.Key{Code: 'x', Text: "x", Event: input.Release}) || !e.Empty() {
		t.Error("a key release was consumed")
	}
}

func TestEditorPaste(t *testing.T) {
	big := strings.Repeat("line\n", 11) + "end"
	long := strings.Repeat("x", 1001)
	tests := []struct {
		name      string
		start     string
		paste     string
		want      string // show()
		wantValue string
	}{
		{name: "plain", start: "a|b", paste: "XY", want: "aXY|b", wantValue: "aXYb"},
		{name: "crlf and cr", start: "|", paste: "a\r\nb\rc\n", want: "a\nb\nc\n|", wantValue: "a\nb\nc\n"},
		{name: "controls dropped tabs kept", start: "|", paste: "x\x1b[31my\x00\tz\u0085\x7f", want: "x[31my\tz|", wantValue: "x[31my\tz"},
		{name: "invalid utf8 dropped", start: "|", paste: "a\xff\xfeb", want: "ab|", wantValue: "ab"},
		{name: "ten lines inline", start: "|", paste: strings.Repeat("l\n", 9) + "l", want: strings.Repeat("l\n", 9) + "l|", wantValue: strings.Repeat("l\n", 9) + "l"},
		{name: "eleven lines marker", start: "a|b", paste: big, want: "a[paste #1 +12 lines]|b", wantValue: "a" + big + "b"},
		{name: "long line marker", start: "|", paste: long, want: "[paste #1 +1 lines]|", wantValue: long},
		{name: "1000 bytes inline", start: "|", paste: long[:1000], want: long[:1000] + "|", wantValue: long[:1000]},
		{name: "empty", start: "a|", paste: "\x00\x01", want: "a|", wantValue: "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := edState(t, tc.start)
			e.Paste(tc.paste)
			if got := show(e); got != tc.want {
				t.Errorf("show = %q, want %q", got, tc.want)
			}
			if got := e.Value(); got != tc.wantValue {
				t.Errorf("Value = %q, want %q", got, tc.wantValue)
			}
		})
	}
}

func TestEditorPasteMarkerEditing(t *testing.T) {
	big := strings.Repeat("row\n", 20)
	e := &Editor{}
	e.HandleKey(keys(t, "x")[0])
	e.Paste(big)
	e.Paste(big)
	if got, want := show(e), "x[paste #1 +20 lines][paste #2 +20 lines]|"; got != want {
		t.Fatalf("show = %q, want %q", got, want)
	}
	e.HandleKey(keys(t, "backspace")[0])
	if got, want := show(e), "x[paste #1 +20 lines]|"; got != want {
		t.Fatalf("after backspace: %q, want %q", got, want)
	}
	e.HandleKey(keys(t, "left")[0])
	if got, want := show(e), "x|[paste #1 +20 lines]"; got != want {
		t.Fatalf("after left: %q, want %q", got, want)
	}
	e.HandleKey(keys(t, "delete")[0])
	if got, want := show(e), "x|"; got != want {
		t.Fatalf("after delete: %q, want %q", got, want)
	}
	e.HandleKey(keys(t, "ctrl+z")[0])
	e.HandleKey(keys(t, "ctrl+z")[0])
	if got, want := e.Value(), "x"+big+big; got != want {
		t.Fatalf("after two undos Value = %q, want %q", got, want)
	}
	// Word deletion takes a marker alone.
	e.HandleKey(keys(t, "end")[0])
	e.HandleKey(keys(t, "ctrl+w")[0])
	if got, want := show(e), "x[paste #1 +20 lines]|"; got != want {
		t.Fatalf("after ctrl+w: %q, want %q", got, want)
	}
}

func TestEditorUndoRedo(t *testing.T) {
	e := &Editor{}
	for _, k := range keys(t, "type:hello world") {
		e.HandleKey(k)
	}
	e.HandleKey(keys(t, "left")[0])
	for _, k := range keys(t, "type:XY") {
		e.HandleKey(k)
	}
	e.Paste("P")
	steps := []struct {
		name string
		do   func() bool
		want string
	}{
		{"undo paste", e.Undo, "hello worlXY|d"},
		{"undo typing after move", e.Undo, "hello worl|d"},
		{"undo first typing", e.Undo, "|"},
		{"nothing to undo", e.Undo, "|"},
		{"redo", e.Redo, "hello world|"},
		{"redo again", e.Redo, "hello worlXY|d"},
	}
	for _, st := range steps {
		st.do()
		if got := show(e); got != st.want {
			t.Fatalf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	// A new edit drops the redo steps.
	e.HandleKey(keys(t, "backspace")[0])
	if e.Redo() {
		t.Fatal("redo after a new edit")
	}
	// SetValue and Reset are undoable.
	e.SetValue("abc")
	e.Reset()
	e.Undo()
	if got := show(e); got != "abc|" {
		t.Fatalf("undo Reset: got %q", got)
	}
	e.Undo()
	if got := show(e); got != "hello worlX|d" {
		t.Fatalf("undo SetValue: got %q", got)
	}
}

func TestEditorHistory(t *testing.T) {
	e := &Editor{}
	e.SetHistory([]string{"one", "two", "two", "", "multi\nline"})
	if len(e.history) != 3 {
		t.Fatalf("history %q, want 3 entries", e.history)
	}
	for _, k := range keys(t, "type:draft") {
		e.HandleKey(k)
	}
	steps := []struct {
		key      string
		want     string
		consumed bool
	}{
		{"up", "multi\nline|", true},
		{"up", "mult|i\nline", true}, // within the entry first
		{"up", "two|", true},
		{"up", "one|", true},
		{"up", "one|", false},
		{"down", "two|", true},
		{"down", "multi\nline|", true},
		{"down", "draft|", true},
		{"down", "draft|", false},
	}
	for i, st := range steps {
		got := e.HandleKey(keys(t, st.key)[0])
		if show(e) != st.want || got != st.consumed {
			t.Fatalf("step %d (%s): got %q consumed %v, want %q consumed %v", i, st.key, show(e), got, st.want, st.consumed)
		}
	}
	e.AddHistory("multi\nline")
	e.AddHistory("three")
	e.AddHistory("three")
	if got := strings.Join(e.history, ","); got != "one,two,multi\nline,three" {
		t.Fatalf("history = %q", got)
	}
	e.Reset()
	e.HandleKey(keys(t, "up")[0])
	if got := show(e); got != "three|" {
		t.Fatalf("up after AddHistory: %q", got)
	}
}

func TestEditorSetValueSanitizes(t *testing.T) {
	e := &Editor{}
	e.SetValue("a\r\nb\x1b\x07c")
	if got := e.Value(); got != "a\nbc" {
		t.Errorf("Value = %q", got)
	}
	if e.Empty() {
		t.Error("Empty after SetValue")
	}
	e.Reset()
	if !e.Empty() || e.Value() != "" {
		t.Error("not empty after Reset")
	}
}
