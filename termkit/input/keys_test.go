package input

import (
	"strings"
	"testing"
)

func TestKeyString(t *testing.T) {
	tests := []struct {
		name string
		key  Key
		want string
	}{
		{name: "ctrl+c", key: Key{Code: 'c', Mod: ModCtrl}, want: "ctrl+c"},
		{name: "alt+enter", key: Key{Code: KeyEnter, Mod: ModAlt}, want: "alt+enter"},
		{name: "shift+tab", key: Key{Code: KeyTab, Mod: ModShift}, want: "shift+tab"},
		{name: "modifier order", key: Key{Code: 'x', Mod: ModSuper | ModShift | ModAlt | ModCtrl}, want: "ctrl+alt+shift+super+x"},
		{name: "a", key: Key{Code: 'a', Text: "a"}, want: "a"},
		{name: "A", key: Key{Code: 'A', Text: "A"}, want: "A"},
		{name: "kitty shift+a", key: Key{Code: 'a', Text: "A", Mod: ModShift}, want: "shift+a"},
		{name: "esc", key: Key{Code: KeyEscape}, want: "esc"},
		{name: "backspace", key: Key{Code: KeyBackspace}, want: "backspace"},
		{name: "space", key: Key{Code: KeySpace, Text: " "}, want: "space"},
		{name: "ctrl+space", key: Key{Code: KeySpace, Mod: ModCtrl}, want: "ctrl+space"},
		{name: "arrows", key: Key{Code: KeyDown}, want: "down"},
		{name: "pgup", key: Key{Code: KeyPageUp}, want: "pgup"},
		{name: "pgdown", key: Key{Code: KeyPageDown}, want: "pgdown"},
		{name: "insert", key: Key{Code: KeyInsert}, want: "insert"},
		{name: "delete", key: Key{Code: KeyDelete}, want: "delete"},
		{name: "f1", key: Key{Code: KeyF1}, want: "f1"},
		{name: "f12", key: Key{Code: KeyF12, Mod: ModShift}, want: "shift+f12"},
		{name: "plus", key: Key{Code: '+'}, want: "+"},
		{name: "ctrl+plus", key: Key{Code: '+', Mod: ModCtrl}, want: "ctrl++"},
		{name: "non-ascii", key: Key{Code: 'é', Text: "é"}, want: "é"},
		{name: "private use", key: Key{Code: 0xE000}, want: "U+E000"},
		{name: "zero", key: Key{}, want: "U+0000"},
		{name: "combining", key: Key{Code: 0x200D}, want: "U+200D"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.key.String(); got != tc.want {
				t.Errorf("%#v.String() = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}

func TestParseKey(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Key
		wantErr string
	}{
		{name: "letter", in: "a", want: Key{Code: 'a', Text: "a"}},
		{name: "upper", in: "A", want: Key{Code: 'A', Text: "A"}},
		{name: "ctrl+c", in: "ctrl+c", want: Key{Code: 'c', Mod: ModCtrl}},
		{name: "case-insensitive names", in: "Ctrl+Alt+Enter", want: Key{Code: KeyEnter, Mod: ModCtrl | ModAlt}},
		{name: "any modifier order", in: "shift+ctrl+up", want: Key{Code: KeyUp, Mod: ModCtrl | ModShift}},
		{name: "super", in: "super+k", want: Key{Code: 'k', Mod: ModSuper}},
		{name: "aliases", in: "control+option+cmd+escape", want: Key{Code: KeyEscape, Mod: ModCtrl | ModAlt | ModSuper}},
		{name: "plus", in: "+", want: Key{Code: '+', Text: "+"}},
		{name: "ctrl+plus", in: "ctrl++", want: Key{Code: '+', Mod: ModCtrl}},
		{name: "space", in: "space", want: Key{Code: KeySpace, Text: " "}},
		{name: "space rune", in: " ", want: Key{Code: KeySpace, Text: " "}},
		{name: "ctrl+space", in: "ctrl+space", want: Key{Code: KeySpace, Mod: ModCtrl}},
		{name: "f10", in: "F10", want: Key{Code: KeyF10}},
		{name: "pagedown alias", in: "pagedown", want: Key{Code: KeyPageDown}},
		{name: "code point", in: "U+00E9", want: Key{Code: 'é', Text: "é"}},
		{name: "letter U", in: "U", want: Key{Code: 'U', Text: "U"}},
		{name: "empty", in: "", wantErr: "empty key name"},
		{name: "trailing plus", in: "ctrl+", wantErr: `unknown key name "ctrl+"`},
		{name: "unknown name", in: "ctrl+hyper", wantErr: `unknown key name "hyper"`},
		{name: "unknown modifier", in: "meta+x", wantErr: `unknown key name "meta+x"`},
		{name: "control char", in: "\t", wantErr: "control character"},
		{name: "invalid utf8", in: "\xff", wantErr: "invalid UTF-8"},
		{name: "surrogate", in: "U+D800", wantErr: "not a valid rune"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseKey(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseKey(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseKey(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseKey(%q) = %#v, want %#v", tc.in, got, tc.want)
			}
		})
	}
}

func TestMatches(t *testing.T) {
	tests := []struct {
		name string
		key  Key
		s    string
		want bool
	}{
		{name: "legacy ctrl+c", key: Key{Code: 'c', Mod: ModCtrl}, s: "ctrl+c", want: true},
		{name: "text ignored", key: Key{Code: 'a', Text: "A", Mod: ModShift}, s: "shift+a", want: true},
		{name: "repeat matches", key: Key{Code: KeyUp, Event: Repeat}, s: "up", want: true},
		{name: "release never", key: Key{Code: KeyUp, Event: Release}, s: "up", want: false},
		{name: "mods must equal", key: Key{Code: 'c', Mod: ModCtrl | ModShift}, s: "ctrl+c", want: false},
		{name: "legacy A is not shift+a", key: Key{Code: 'A', Text: "A"}, s: "shift+a", want: false},
		{name: "bad spec", key: Key{Code: 'c'}, s: "ctrl+", want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.key.Matches(tc.s); got != tc.want {
				t.Errorf("%#v.Matches(%q) = %v, want %v", tc.key, tc.s, got, tc.want)
			}
		})
	}
}
