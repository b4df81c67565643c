package widget

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
)

var fuzzKeyNames = []string{
	"backspace", "delete", "left", "right", "up", "down", "home", "end",
	"ctrl+a", "ctrl+e", "alt+left", "alt+right", "ctrl+left", "ctrl+right",
	"alt+b", "alt+f", "ctrl+w", "alt+backspace", "alt+d", "ctrl+u", "ctrl+k",
	"ctrl+z", "ctrl+_", "ctrl+shift+z", "alt+z", "shift+enter", "ctrl+j",
	"enter", "ctrl+d", "ctrl+home", "ctrl+end", "ctrl+b", "ctrl+f", "ctrl+h",
	"ctrl+delete", "ctrl+backspace", "tab", "esc",
}

// checkEditor verifies the editor's invariants.
func checkEditor(t *testing.T, e *Editor) {
	t.Helper()
	if e.lines == nil { // the zero value: nothing happened yet
		e.init()
	}
	if len(e.lines) == 0 {
		t.Fatal("no lines")
	}
	if e.cur.line < 0 || e.cur.line >= len(e.lines) || e.cur.col < 0 || e.cur.col > len(e.lines[e.cur.line]) {
		t.Fatalf("cursor %v outside the text", e.cur)
	}
	for l, line := range e.lines {
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c == markerByte {
				if i+markerLen > len(line) || e.pastes[decodeMarker(line[i:])] == nil {
					t.Fatalf("line %d: broken marker at %d: %q", l, i, line)
				}
				i += markerLen - 1
				continue
			}
			if c == '\n' || (c < 0x20 && c != '\t') || c == 0x7F {
				t.Fatalf("line %d holds control %#x: %q", l, c, line)
			}
		}
		if !utf8.ValidString(strings.ReplaceAll(line, "\xff", "")) && strings.IndexByte(line, markerByte) < 0 {
			t.Fatalf("line %d is not UTF-8: %q", l, line)
		}
	}
	v := e.Value()
	if !utf8.ValidString(v) {
		t.Fatalf("Value is not UTF-8: %q", v)
	}
	for _, r := range v {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7F || (r >= 0x80 && r < 0xA0) {
			t.Fatalf("Value holds control %U: %q", r, v)
		}
	}
}

func FuzzEditor(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, "hello wörld 世界 👍🏽\n\tx")
	f.Add([]byte{200, 201, 202, 100, 13, 50}, strings.Repeat("line\r\n", 12))
	f.Add([]byte{210, 4, 4, 4, 3, 3, 220, 230}, "e\u0301\u200d\x1b[31m\x00\xff")
	keyList := make([]input.Key, len(fuzzKeyNames))
	for i, n := range fuzzKeyNames {
		k, err := input.ParseKey(n)
		if err != nil {
			f.Fatalf("key %q: %v", n, err)
		}
		keyList[i] = k
	}
	f.Fuzz(func(t *testing.T, ops []byte, text string) {
		if len(ops) > 120 {
			ops = ops[:120]
		}
		if len(text) > 200 {
			text = text[:200]
		}
		e := &Editor{Prompt: "> ", MaxHeight: int(len(text) % 5)}
		e.SetHistory([]string{"first", "second\nline"})
		b := screen.NewBuffer(30, 10)
		for i, op := range ops {
			switch {
			case int(op) < len(keyList):
				e.HandleKey(keyList[op])
			case op < 150: // type one cluster of text
				if text != "" {
					j := i % len(text)
					e.HandleKey(input.Key{Code: 'x', Text: text[j:min(j+4, len(text))]})
				}
			case op < 170:
				e.Paste(text)
			case op < 180:
				e.Paste(strings.Repeat(text+"\n", 11))
			case op < 190:
				e.SetValue(text)
			default: // draw at a width from 1 to 30
				w, h := int(op-190)%30+1, int(op)%10+1
				b.Clear()
				r := screen.Rect{X: 0, Y: 0, W: w, H: h}
				cx, cy := e.Draw(b, r)
				if cx < r.X || cx >= r.X+r.W || cy < r.Y || cy >= r.Y+r.H {
					t.Fatalf("cursor (%d,%d) outside %v", cx, cy, r)
				}
				if hh := e.Height(w); hh < 1 || hh > e.maxHeight() {
					t.Fatalf("Height(%d) = %d", w, hh)
				}
			}
			checkEditor(t, e)
		}
	})
}

func FuzzFuzzy(f *testing.F) {
	f.Add("abc", "a_b_c abc")
	f.Add("É", "café É")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 20 || len(s) > 200 {
			return
		}
		_, positions, ok := Fuzzy(pattern, s)
		if !ok {
			return
		}
		runes := []rune(s)
		pat := []rune(pattern)
		if len(positions) != len(pat) {
			t.Fatalf("%d positions for %d pattern runes", len(positions), len(pat))
		}
		for i, p := range positions {
			if p < 0 || p >= len(runes) || (i > 0 && p <= positions[i-1]) {
				t.Fatalf("bad positions %v for %q", positions, s)
			}
			if !strings.EqualFold(string(runes[p]), string(pat[i])) && lower(runes[p]) != lower(pat[i]) {
				t.Fatalf("position %d (%q) does not match %q", p, runes[p], pat[i])
			}
		}
	})
}

func lower(r rune) rune { return []rune(strings.ToLower(string(r)))[0] }
