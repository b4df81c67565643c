package screen_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/termkit/screen"
)

func TestWidth(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{name: "ascii", in: "hello", want: 5},
		{name: "empty", in: "", want: 0},
		{name: "cjk", in: "日本語", want: 6},
		{name: "combining acute", in: "e\u0301", want: 1},
		{name: "combining stack", in: "a\u0300\u0301\u0302", want: 1},
		{name: "emoji", in: "😀", want: 2},
		{name: "zwj family", in: "👨\u200d👩\u200d👧\u200d👦", want: 2},
		{name: "heart vs16", in: "❤️", want: 2},
		{name: "flag", in: "🇯🇵", want: 2},
		{name: "skin tone", in: "👍🏽", want: 2},
		{name: "hangul", in: "한국어", want: 6},
		{name: "tab at 0", in: "\t", want: 8},
		{name: "tab after 3", in: "abc\tx", want: 9},
		{name: "escape shown as picture", in: "\x1b[31m", want: 5},
		{name: "newline picture", in: "a\nb", want: 3},
		{name: "c1 csi", in: "\u009b31m", want: 4},
		{name: "invalid utf8", in: "a\xffb", want: 3},
		{name: "zero width space dropped", in: "a\u200bb", want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := screen.Width(tt.in); got != tt.want {
				t.Errorf("Width(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

// hostile is a set of strings that try to take over the terminal.
var hostile = []string{
	"\x1b[2J\x1b[H",                 // clear screen
	"\x1b]52;c;aGVsbG8=\x07",        // clipboard write
	"\x1b]8;;http://evil\x1b\\link", // hyperlink
	"\x1bP+q544e\x1b\\",             // DCS
	"\u009b6n",                      // C1 CSI (8-bit)
	"\u009d0;title\u009c",           // C1 OSC / ST
	"\xc2\x9b6n",                    // C1 CSI as raw bytes
	"a\rb\bc\x00d\x7fe",             // CR, BS, NUL, DEL
	"\x1b",                          // lone ESC
	"\x9b31m",                       // bare 8-bit CSI byte (invalid UTF-8)
	"\x1b\x1b[?1049l",
	"\u202e\u2066rtl override",
}

func TestSanitizeHostile(t *testing.T) {
	for _, s := range hostile {
		got := screen.Sanitize(s)
		if !utf8.ValidString(got) {
			t.Errorf("Sanitize(%q) = %q, not valid UTF-8", s, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("Sanitize(%q) = %q keeps control %U", s, got, r)
			}
		}
	}
	if got, want := screen.Sanitize("\x1b[31mred"), "␛[31mred"; got != want {
		t.Errorf("Sanitize = %q, want %q", got, want)
	}
	if got, want := screen.Sanitize("a\tb"), "a       b"; got != want {
		t.Errorf("Sanitize(tab) = %q, want %q", got, want)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		name, in, tail string
		max            int
		want           string
	}{
		{name: "fits", in: "abc", max: 5, tail: "…", want: "abc"},
		{name: "cut ascii", in: "abcdef", max: 4, tail: "…", want: "abc…"},
		{name: "cut before wide", in: "ab日本", max: 4, tail: "…", want: "ab…"},
		{name: "no tail", in: "日本語", max: 5, want: "日本"},
		{name: "zero", in: "abc", max: 0, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := screen.Truncate(tt.in, tt.max, tt.tail); got != tt.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
		})
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Add("👨\u200d👩\u200d👧 e\u0301 日本 \t x")
	f.Fuzz(func(t *testing.T, s string) {
		got := screen.Sanitize(s)
		for i := 0; i < len(got); i++ {
			if c := got[i]; c < 0x20 || c == 0x7f {
				t.Fatalf("Sanitize(%q) = %q keeps byte %#x", s, got, c)
			}
		}
		if !utf8.ValidString(got) || strings.ContainsRune(got, 0x9b) {
			t.Fatalf("Sanitize(%q) = %q", s, got)
		}
		if w, sw := screen.Width(s), screen.Width(got); w != sw {
			t.Fatalf("Width(%q) = %d but Width(Sanitize) = %d", s, w, sw)
		}
		b := screen.NewBuffer(10, 1)
		b.SetString(0, 0, s, screen.Style{})
		for _, c := range b.Row(0) {
			for _, r := range c.Content {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					t.Fatalf("cell %q from %q holds control %U", c.Content, s, r)
				}
			}
		}
	})
}
