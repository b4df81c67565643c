package input

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// decodeCase is one table entry: input bytes fed in one call, then
// optionally Flush, and the events expected.
type decodeCase struct {
	name  string
	in    string
	flush bool
	want  []Event
}

func key(code rune, text string, mod Mod) Key { return Key{Code: code, Text: text, Mod: mod} }

var decodeCases = []decodeCase{
	// Text.
	{name: "ascii", in: "ab", want: []Event{key('a', "a", 0), key('b', "b", 0)}},
	{name: "upper is legacy shift", in: "A", want: []Event{key('A', "A", 0)}},
	{name: "space", in: " ", want: []Event{key(KeySpace, " ", 0)}},
	{name: "utf8", in: "é世", want: []Event{key('é', "é", 0), key('世', "世", 0)}},
	{name: "emoji", in: "😀", want: []Event{key('😀', "😀", 0)}},
	{name: "invalid utf8", in: "a\xffb", want: []Event{key('a', "a", 0), Unknown{`\xff`}, key('b', "b", 0)}},
	{name: "c1 control", in: "\xc2\x9b", want: []Event{Unknown{"\ufffd"}}},
	{name: "split rune held", in: "\xe4\xb8", want: nil},
	{name: "split rune flushed", in: "\xe4\xb8", flush: true, want: []Event{Unknown{`\xe4\xb8`}}},

	// C0 controls.
	{name: "ctrl+c", in: "\x03", want: []Event{key('c', "", ModCtrl)}},
	{name: "ctrl+a ctrl+z", in: "\x01\x1a", want: []Event{key('a', "", ModCtrl), key('z', "", ModCtrl)}},
	{name: "lf is ctrl+j", in: "\n", want: []Event{key('j', "", ModCtrl)}},
	{name: "enter", in: "\r", want: []Event{key(KeyEnter, "", 0)}},
	{name: "tab", in: "\t", want: []Event{key(KeyTab, "", 0)}},
	{name: "del is backspace", in: "\x7f", want: []Event{key(KeyBackspace, "", 0)}},
	{name: "bs is backspace", in: "\x08", want: []Event{key(KeyBackspace, "", 0)}},
	{name: "nul is ctrl+space", in: "\x00", want: []Event{key(KeySpace, "", ModCtrl)}},
	{name: "ctrl+backslash", in: "\x1c\x1f", want: []Event{key('\\', "", ModCtrl), key('_', "", ModCtrl)}},

	// ESC.
	{name: "lone esc held", in: "\x1b", want: nil},
	{name: "lone esc flushed", in: "\x1b", flush: true, want: []Event{key(KeyEscape, "", 0)}},
	{name: "alt+x", in: "\x1bx", want: []Event{key('x', "", ModAlt)}},
	{name: "alt+X", in: "\x1bX1\x1b\\", want: []Event{Unknown{"␛X1␛\\"}}},
	{name: "alt+enter", in: "\x1b\r", want: []Event{key(KeyEnter, "", ModAlt)}},
	{name: "alt+backspace", in: "\x1b\x7f", want: []Event{key(KeyBackspace, "", ModAlt)}},
	{name: "ctrl+alt+a", in: "\x1b\x01", want: []Event{key('a', "", ModCtrl|ModAlt)}},
	{name: "alt+utf8", in: "\x1bé", want: []Event{key('é', "", ModAlt)}},
	{name: "esc invalid byte", in: "\x1b\xff", want: []Event{key(KeyEscape, "", 0), Unknown{`\xff`}}},
	{name: "esc esc held", in: "\x1b\x1b", want: nil},
	{name: "esc esc flushed", in: "\x1b\x1b", flush: true, want: []Event{key(KeyEscape, "", ModAlt)}},
	{name: "alt+esc then a", in: "\x1b\x1ba", want: []Event{key(KeyEscape, "", ModAlt), key('a', "a", 0)}},
	{name: "alt+up legacy", in: "\x1b\x1b[A", want: []Event{key(KeyUp, "", ModAlt)}},
	{name: "alt+f1 ss3", in: "\x1b\x1bOP", want: []Event{key(KeyF1, "", ModAlt)}},
	{name: "esc [ flushed", in: "\x1b[", flush: true, want: []Event{key('[', "", ModAlt)}},
	{name: "esc O flushed", in: "\x1bO", flush: true, want: []Event{key('O', "", ModAlt)}},
	{name: "esc ] flushed", in: "\x1b]", flush: true, want: []Event{key(']', "", ModAlt)}},
	{name: "esc P flushed", in: "\x1bP", flush: true, want: []Event{key('P', "", ModAlt)}},
	{name: "partial mouse held", in: "\x1b[<35;62", want: nil},
	{name: "partial mouse flushed", in: "\x1b[<35;62", flush: true, want: []Event{Unknown{"␛[<35;62"}}},
	{name: "partial osc flushed", in: "\x1b]11;rgb:", flush: true, want: []Event{Unknown{"␛]11;rgb:"}}},
	{name: "csi cut by control", in: "\x1b[\r", want: []Event{key('[', "", ModAlt), key(KeyEnter, "", 0)}},
	{name: "csi cut by esc", in: "\x1b[1;\x1b[A", want: []Event{Unknown{"␛[1;"}, key(KeyUp, "", 0)}},
	{name: "osc cut by esc", in: "\x1b]11;x\x1b[B", want: []Event{Unknown{"␛]11;x"}, key(KeyDown, "", 0)}},
	{name: "ss3 unknown final", in: "\x1bOz", want: []Event{key('O', "", ModAlt), key('z', "z", 0)}},

	// Legacy CSI and SS3 keys.
	{name: "csi arrows", in: "\x1b[A\x1b[B\x1b[C\x1b[D", want: []Event{key(KeyUp, "", 0), key(KeyDown, "", 0), key(KeyRight, "", 0), key(KeyLeft, "", 0)}},
	{name: "ss3 arrows", in: "\x1bOA\x1bOB\x1bOC\x1bOD", want: []Event{key(KeyUp, "", 0), key(KeyDown, "", 0), key(KeyRight, "", 0), key(KeyLeft, "", 0)}},
	{name: "home end", in: "\x1b[H\x1b[F\x1bOH\x1bOF", want: []Event{key(KeyHome, "", 0), key(KeyEnd, "", 0), key(KeyHome, "", 0), key(KeyEnd, "", 0)}},
	{name: "tilde keys", in: "\x1b[1~\x1b[2~\x1b[3~\x1b[4~\x1b[5~\x1b[6~\x1b[7~\x1b[8~", want: []Event{
		key(KeyHome, "", 0), key(KeyInsert, "", 0), key(KeyDelete, "", 0), key(KeyEnd, "", 0),
		key(KeyPageUp, "", 0), key(KeyPageDown, "", 0), key(KeyHome, "", 0), key(KeyEnd, "", 0)}},
	{name: "f1-f4 ss3", in: "\x1bOP\x1bOQ\x1bOR\x1bOS", want: []Event{key(KeyF1, "", 0), key(KeyF2, "", 0), key(KeyF3, "", 0), key(KeyF4, "", 0)}},
	{name: "f1-f12 tilde", in: "\x1b[11~\x1b[12~\x1b[13~\x1b[14~\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~", want: []Event{
		key(KeyF1, "", 0), key(KeyF2, "", 0), key(KeyF3, "", 0), key(KeyF4, "", 0), key(KeyF5, "", 0), key(KeyF6, "", 0),
		key(KeyF7, "", 0), key(KeyF8, "", 0), key(KeyF9, "", 0), key(KeyF10, "", 0), key(KeyF11, "", 0), key(KeyF12, "", 0)}},
	{name: "f1 f3 csi letter", in: "\x1b[P\x1b[R\x1b[S", want: []Event{key(KeyF1, "", 0), key(KeyF3, "", 0), key(KeyF4, "", 0)}},
	{name: "ctrl+up", in: "\x1b[1;5A", want: []Event{key(KeyUp, "", ModCtrl)}},
	{name: "alt+left", in: "\x1b[1;3D", want: []Event{key(KeyLeft, "", ModAlt)}},
	{name: "shift+delete", in: "\x1b[3;2~", want: []Event{key(KeyDelete, "", ModShift)}},
	{name: "ctrl+shift+f5", in: "\x1b[15;6~", want: []Event{key(KeyF5, "", ModCtrl|ModShift)}},
	{name: "shift+f1", in: "\x1b[1;2P", want: []Event{key(KeyF1, "", ModShift)}},
	{name: "shift+tab", in: "\x1b[Z", want: []Event{key(KeyTab, "", ModShift)}},
	{name: "ctrl+shift+tab", in: "\x1b[1;5Z", want: []Event{key(KeyTab, "", ModShift|ModCtrl)}},
	{name: "keypad ss3", in: "\x1bOM\x1bOp\x1bOk", want: []Event{key(KeyEnter, "", 0), key('0', "0", 0), key('+', "+", 0)}},
	{name: "linux console f1", in: "\x1b[[A\x1b[[E", want: []Event{key(KeyF1, "", 0), key(KeyF5, "", 0)}},
	{name: "keypad begin unknown", in: "\x1b[E", want: []Event{Unknown{"␛[E"}}},

	// modifyOtherKeys.
	{name: "mok ctrl+c", in: "\x1b[27;5;99~", want: []Event{key('c', "", ModCtrl)}},
	{name: "mok shift+enter", in: "\x1b[27;2;13~", want: []Event{key(KeyEnter, "", ModShift)}},
	{name: "mok ctrl+shift+a", in: "\x1b[27;6;65~", want: []Event{key('A', "", ModCtrl|ModShift)}},

	// Kitty keyboard protocol.
	{name: "kitty esc", in: "\x1b[27u", want: []Event{key(KeyEscape, "", 0)}},
	{name: "kitty ctrl+c", in: "\x1b[99;5u", want: []Event{key('c', "", ModCtrl)}},
	{name: "kitty a", in: "\x1b[97u", want: []Event{key('a', "a", 0)}},
	{name: "kitty shift+a text", in: "\x1b[97;2;65u", want: []Event{key('a', "A", ModShift)}},
	{name: "kitty shift+a alternate", in: "\x1b[97:65;2u", want: []Event{key('a', "A", ModShift)}},
	{name: "kitty shift+a no text", in: "\x1b[97;2u", want: []Event{key('a', "A", ModShift)}},
	{name: "kitty repeat", in: "\x1b[97;1:2u", want: []Event{Key{Code: 'a', Text: "a", Event: Repeat}}},
	{name: "kitty release", in: "\x1b[97;1:3u", want: []Event{Key{Code: 'a', Event: Release}}},
	{name: "kitty release up", in: "\x1b[1;1:3A", want: []Event{Key{Code: KeyUp, Event: Release}}},
	{name: "kitty release delete", in: "\x1b[3;1:3~", want: []Event{Key{Code: KeyDelete, Event: Release}}},
	{name: "kitty caps lock ignored", in: "\x1b[99;69u", want: []Event{key('c', "", ModCtrl)}},
	{name: "kitty num lock ignored", in: "\x1b[99;133u", want: []Event{key('c', "", ModCtrl)}},
	{name: "kitty hyper meta ignored", in: "\x1b[120;49u", want: []Event{key('x', "x", 0)}},
	{name: "kitty left shift alone", in: "\x1b[57441;2u\x1b[57441;1:3u", want: nil},
	{name: "kitty caps lock key", in: "\x1b[57358u", want: nil},
	{name: "kitty base layout", in: "\x1b[1089::99;5u", want: []Event{key('c', "", ModCtrl)}},
	{name: "kitty cyrillic text", in: "\x1b[1089;;1089u", want: []Event{key('с', "с", 0)}},
	{name: "kitty keypad", in: "\x1b[57399u\x1b[57414u\x1b[57419;5u", want: []Event{key('0', "0", 0), key(KeyEnter, "", 0), key(KeyUp, "", ModCtrl)}},
	{name: "kitty f13 unknown", in: "\x1b[57376u", want: []Event{Unknown{"␛[57376u"}}},
	{name: "kitty shift+enter", in: "\x1b[13;2u", want: []Event{key(KeyEnter, "", ModShift)}},
	{name: "kitty ctrl+backspace", in: "\x1b[127;5u", want: []Event{key(KeyBackspace, "", ModCtrl)}},
	{name: "kitty super+a", in: "\x1b[97;9u", want: []Event{key('a', "", ModSuper)}},
	{name: "kitty control code", in: "\x1b[1u", want: []Event{Unknown{"␛[1u"}}},
	{name: "kitty multi text", in: "\x1b[101;;101:769u", want: []Event{key('e', "e\u0301", 0)}},

	// Bracketed paste.
	{name: "paste", in: "\x1b[200~hello\nworld\x1b[201~", want: []Event{Paste{"hello\nworld"}}},
	{name: "paste empty", in: "\x1b[200~\x1b[201~", want: []Event{Paste{""}}},
	{name: "paste with sequences", in: "\x1b[200~a\x1b[Ab\x1b\x1b[201~", want: []Event{Paste{"a\x1b[Ab\x1b"}}},
	{name: "paste invalid utf8", in: "\x1b[200~a\xffb\xe4\x1b[201~", want: []Event{Paste{"ab"}}},
	{name: "paste then keys", in: "x\x1b[200~p\x1b[201~y\x1b[A", want: []Event{key('x', "x", 0), Paste{"p"}, key('y', "y", 0), key(KeyUp, "", 0)}},
	{name: "two pastes", in: "\x1b[200~1\x1b[201~\x1b[200~2\x1b[201~", want: []Event{Paste{"1"}, Paste{"2"}}},
	{name: "paste open", in: "\x1b[200~abc", flush: true, want: nil},
	{name: "stray paste end", in: "\x1b[201~", want: nil},
	{name: "alt prefixed paste", in: "\x1b\x1b[200~q\x1b[201~", want: []Event{Paste{"q"}}},

	// Mouse.
	{name: "sgr left press", in: "\x1b[<0;10;5M", want: []Event{Mouse{X: 9, Y: 4, Button: ButtonLeft}}},
	{name: "sgr left release", in: "\x1b[<0;10;5m", want: []Event{Mouse{X: 9, Y: 4, Button: ButtonLeft, Action: MouseRelease}}},
	{name: "sgr right", in: "\x1b[<2;1;1M", want: []Event{Mouse{Button: ButtonRight}}},
	{name: "sgr middle", in: "\x1b[<1;1;1M", want: []Event{Mouse{Button: ButtonMiddle}}},
	{name: "sgr drag", in: "\x1b[<32;3;4M", want: []Event{Mouse{X: 2, Y: 3, Button: ButtonLeft, Action: MouseMotion}}},
	{name: "sgr motion", in: "\x1b[<35;62;19M", want: []Event{Mouse{X: 61, Y: 18, Button: ButtonNone, Action: MouseMotion}}},
	{name: "sgr wheel", in: "\x1b[<64;1;1M\x1b[<65;1;1M\x1b[<66;1;1M\x1b[<67;1;1M", want: []Event{
		Mouse{Button: WheelUp}, Mouse{Button: WheelDown}, Mouse{Button: WheelLeft}, Mouse{Button: WheelRight}}},
	{name: "sgr modifiers", in: "\x1b[<28;1;1M", want: []Event{Mouse{Button: ButtonLeft, Mod: ModShift | ModAlt | ModCtrl}}},
	{name: "sgr ctrl wheel", in: "\x1b[<80;5;5M", want: []Event{Mouse{X: 4, Y: 4, Button: WheelUp, Mod: ModCtrl}}},
	{name: "sgr zero coords clamp", in: "\x1b[<0;0;0M", want: []Event{Mouse{Button: ButtonLeft}}},
	{name: "sgr extra buttons", in: "\x1b[<128;1;1M", want: []Event{Unknown{"␛[<128;1;1M"}}},
	{name: "x10 press", in: "\x1b[M !!", want: []Event{Mouse{Button: ButtonLeft}}},
	{name: "x10 release", in: "\x1b[M#*+", want: []Event{Mouse{X: 9, Y: 10, Action: MouseRelease}}},
	{name: "x10 wheel", in: "\x1b[Ma!!", want: []Event{Mouse{Button: WheelDown}}},
	{name: "x10 high byte", in: "\x1b[M \xff!", want: []Event{Mouse{X: 222, Button: ButtonLeft}}},
	{name: "x10 held", in: "\x1b[M !", want: nil},
	{name: "urxvt mouse", in: "\x1b[32;10;5M", want: []Event{Mouse{X: 9, Y: 4, Button: ButtonLeft}}},

	// Focus.
	{name: "focus", in: "\x1b[I\x1b[O", want: []Event{Focus{In: true}, Focus{In: false}}},

	// Replies.
	{name: "decrpm", in: "\x1b[?2026;2$y", want: []Event{ModeReport{Mode: 2026, Value: 2}}},
	{name: "decrpm ansi", in: "\x1b[4;1$y", want: []Event{ModeReport{Mode: 4, Value: 1}}},
	{name: "kitty flags", in: "\x1b[?7u", want: []Event{KittyFlags{Flags: 7}}},
	{name: "kitty flags zero", in: "\x1b[?u", want: []Event{KittyFlags{}}},
	{name: "da1", in: "\x1b[?62;4;52c", want: []Event{PrimaryAttrs{Params: []int{62, 4, 52}}}},
	{name: "cpr", in: "\x1b[12;40R", want: []Event{CursorPos{Row: 12, Col: 40}}},
	{name: "cpr not shift+f3", in: "\x1b[1;2R", want: []Event{CursorPos{Row: 1, Col: 2}}},
	{name: "osc 11 st", in: "\x1b]11;rgb:1a1a/2b2b/3c3c\x1b\\", want: []Event{ColorReport{Slot: 11, R: 0x1a1a, G: 0x2b2b, B: 0x3c3c}}},
	{name: "osc 10 bel", in: "\x1b]10;rgb:ff/00/80\a", want: []Event{ColorReport{Slot: 10, R: 0xffff, G: 0, B: 0x8080}}},
	{name: "osc 11 one digit", in: "\x1b]11;rgb:f/0/8\a", want: []Event{ColorReport{Slot: 11, R: 0xffff, G: 0, B: 0x8888}}},
	{name: "osc bad color", in: "\x1b]11;rgb:zz/00/00\a", want: []Event{Unknown{"␛]11;rgb:zz/00/00␇"}}},
	{name: "xtversion", in: "\x1bP>|kitty(0.40.1)\x1b\\", want: []Event{TermVersion{Text: "kitty(0.40.1)"}}},
	{name: "replies among keys", in: "a\x1b[?1;2c\x1b[Ib", want: []Event{key('a', "a", 0), PrimaryAttrs{Params: []int{1, 2}}, Focus{In: true}, key('b', "b", 0)}},

	// Unknown.
	{name: "unknown csi", in: "\x1b[5x", want: []Event{Unknown{"␛[5x"}}},
	{name: "unknown osc 52", in: "\x1b]52;c;YQ==\a", want: []Event{Unknown{"␛]52;c;YQ==␇"}}},
	{name: "unknown apc", in: "\x1b_Gi=1;OK\x1b\\", want: []Event{Unknown{"␛_Gi=1;OK␛\\"}}},
	{name: "unknown dcs", in: "\x1bP1$r0m\x1b\\", want: []Event{Unknown{"␛P1$r0m␛\\"}}},
	{name: "dcs bel is content", in: "\x1bP\a\x1b\\", want: []Event{Unknown{"␛P␇␛\\"}}},
	{name: "unknown color scheme", in: "\x1b[?997;1n", want: []Event{Unknown{"␛[?997;1n"}}},
	{name: "csi bad marker", in: "\x1b[1?2A", want: []Event{Unknown{"␛[1?2A"}}},
	{name: "csi too many params", in: "\x1b[" + strings.Repeat("1;", 40) + "c", want: []Event{Unknown{"␛[" + strings.Repeat("1;", 40) + "c"}}},
}

// decodeAll feeds in one call and, if flush, flushes.
func decodeAll(in []byte, flush bool) []Event {
	var d Decoder
	evs := d.Feed(nil, in)
	if flush {
		evs = d.Flush(evs)
	}
	return evs
}

func TestDecode(t *testing.T) {
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			got := decodeAll([]byte(tc.in), tc.flush)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Feed(%q)\n got %s\nwant %s", tc.in, show(got), show(tc.want))
			}
		})
	}
}

// TestDecodeByteByByte checks the split property on every table input
// with the finest chunking.
func TestDecodeByteByByte(t *testing.T) {
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			var got []Event
			for i := range len(tc.in) {
				got = d.Feed(got, []byte(tc.in[i:i+1]))
			}
			if tc.flush {
				got = d.Flush(got)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("byte by byte %q\n got %s\nwant %s", tc.in, show(got), show(tc.want))
			}
		})
	}
}

func TestPending(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		pending bool
		paste   bool
	}{
		{name: "empty", in: ""},
		{name: "text", in: "abc"},
		{name: "lone esc", in: "\x1b", pending: true},
		{name: "split csi", in: "\x1b[1;", pending: true},
		{name: "split rune", in: "\xf0\x9f", pending: true},
		{name: "open paste", in: "\x1b[200~abc", paste: true},
		{name: "closed paste", in: "\x1b[200~abc\x1b[201~"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d Decoder
			d.Feed(nil, []byte(tc.in))
			if d.Pending() != tc.pending || d.InPaste() != tc.paste {
				t.Errorf("after %q: Pending %v InPaste %v, want %v %v", tc.in, d.Pending(), d.InPaste(), tc.pending, tc.paste)
			}
			d.Flush(nil)
			if d.Pending() {
				t.Errorf("after Flush: still pending")
			}
		})
	}
}

// TestSplitSequenceCompletes checks that a held mouse report is finished by
// the next Feed, never leaked as text.
func TestSplitSequenceCompletes(t *testing.T) {
	var d Decoder
	evs := d.Feed(nil, []byte("\x1b"))
	evs = d.Feed(evs, []byte("[<35"))
	evs = d.Feed(evs, []byte(";62;19Mx"))
	want := []Event{Mouse{X: 61, Y: 18, Action: MouseMotion}, key('x', "x", 0)}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("got %s, want %s", show(evs), show(want))
	}
}

func TestMaxSequence(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
	}{
		{name: "osc", prefix: "\x1b]"},
		{name: "dcs", prefix: "\x1bP"},
		{name: "csi params", prefix: "\x1b["},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fill := "1"
			in := tc.prefix + strings.Repeat(fill, MaxSequence+10)
			var d Decoder
			var evs []Event
			for i := 0; i < len(in); i += 100 {
				evs = d.Feed(evs, []byte(in[i:min(len(in), i+100)]))
			}
			// The first MaxSequence bytes are given up; the 12 after them are keys.
			if len(evs) != 13 {
				t.Fatalf("got %d events, want 1 Unknown and 12 keys", len(evs))
			}
			u, ok := evs[0].(Unknown)
			if !ok || len(u.Seq) != MaxSequence-1+len("␛") {
				t.Fatalf("first event %#v, want Unknown of %d bytes", evs[0], MaxSequence)
			}
			for _, ev := range evs[1:] {
				if ev != Event(key('1', "1", 0)) {
					t.Fatalf("after the Unknown: %#v, want key 1", ev)
				}
			}
			if d.Pending() {
				t.Errorf("still pending after the limit")
			}
		})
	}
}

// TestPasteChunks feeds a paste split at every position of its end marker.
func TestPasteChunks(t *testing.T) {
	in := "\x1b[200~" + strings.Repeat("x", 20) + "\x1b[201~z"
	want := []Event{Paste{strings.Repeat("x", 20)}, key('z', "z", 0)}
	for a := 1; a < len(in); a++ {
		for b := a; b < len(in); b++ {
			var d Decoder
			evs := d.Feed(nil, []byte(in[:a]))
			evs = d.Feed(evs, []byte(in[a:b]))
			evs = d.Feed(evs, []byte(in[b:]))
			if !reflect.DeepEqual(evs, want) {
				t.Fatalf("split at %d,%d: got %s", a, b, show(evs))
			}
		}
	}
}

func TestLargePasteAllocs(t *testing.T) {
	const size = 5 << 20
	body := bytes.Repeat([]byte("paste line ü\n"), size/14)
	in := append(append([]byte("\x1b[200~"), body...), "\x1b[201~"...)
	var evs []Event
	run := func() {
		var d Decoder
		evs = evs[:0]
		for i := 0; i < len(in); i += 4096 {
			evs = d.Feed(evs, in[i:min(len(in), i+4096)])
		}
	}
	allocs := testing.AllocsPerRun(3, run)
	if len(evs) != 1 {
		t.Fatalf("got %d events, want one Paste", len(evs))
	}
	if p, ok := evs[0].(Paste); !ok || p.Text != string(body) {
		t.Fatalf("paste text differs from input (len %d)", len(body))
	}
	// The buffer grows geometrically (about 25 allocations up to 5 MiB),
	// plus the final string and the event: not one per chunk (1280).
	t.Logf("5 MB paste: %v allocations", allocs)
	if allocs > 64 {
		t.Errorf("5 MB paste in 4 KiB chunks: %v allocations, want at most 64", allocs)
	}
}

func TestTypingAllocs(t *testing.T) {
	in := []byte("the quick brown fox\r")
	dst := make([]Event, 0, 64)
	var d Decoder
	allocs := testing.AllocsPerRun(100, func() { dst = d.Feed(dst[:0], in) })
	if allocs != 0 {
		t.Errorf("ASCII typing: %v allocations per Feed, want 0", allocs)
	}
}

func BenchmarkDecodeTyping(b *testing.B) {
	in := []byte(strings.Repeat("hello world, typing some text\r", 32))
	dst := make([]Event, 0, len(in))
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		dst = d.Feed(dst[:0], in)
	}
}

func BenchmarkDecodePaste(b *testing.B) {
	body := bytes.Repeat([]byte("func main() { fmt.Println(\"héllo\") }\n"), (1<<20)/40)
	in := append(append([]byte("\x1b[200~"), body...), "\x1b[201~"...)
	var dst []Event
	var d Decoder
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for i := 0; i < len(in); i += 4096 {
			dst = d.Feed(dst[:0], in[i:min(len(in), i+4096)])
		}
	}
}

// show formats events for failure messages.
func show(evs []Event) string {
	parts := make([]string, len(evs))
	for i, ev := range evs {
		parts[i] = fmt.Sprintf("%#v", ev)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
