package input

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mod is a set of modifier keys, with the kitty keyboard protocol's bit
// values. Only shift, alt, ctrl and super are kept.
type Mod uint8

// The modifier bits.
const (
	ModShift Mod = 1
	ModAlt   Mod = 2
	ModCtrl  Mod = 4
	ModSuper Mod = 8
)

// modMask keeps the modifiers the package reports.
const modMask = ModShift | ModAlt | ModCtrl | ModSuper

// KeyEventType tells a press from a repeat and a release. Legacy terminals
// report presses only; the kitty protocol with flag 2 reports all three.
type KeyEventType uint8

// The key event types.
const (
	Press KeyEventType = iota
	Repeat
	Release
)

// Key is one key event. For a key that types text, Code is the key's rune
// and Text the text it types; Text is "" for keys that type nothing
// (arrows, ctrl+c). Legacy terminals cannot report shift on letters: 'A'
// arrives as Code 'A', Text "A", no Mod; with the kitty protocol shift+a is
// Code 'a', Mod ModShift, Text "A".
//
// Enter, Tab, Backspace and Escape have Text ""; Space has Text " " when
// it has no modifier. Keys with ctrl, alt or super have Text "".
type Key struct {
	Code  rune
	Text  string
	Mod   Mod
	Event KeyEventType
}

// The special key codes. Enter, Tab, Backspace, Escape and Space are their
// ASCII values; the others are private-use runes (Supplementary Private
// Use Area-B, U+10FF00 up) that no keyboard types.
const (
	KeyTab       rune = 9
	KeyEnter     rune = 13
	KeyEscape    rune = 27
	KeySpace     rune = ' '
	KeyBackspace rune = 127
)

// keyBase is the first private-use code.
const keyBase rune = 0x10FF00

// The named non-text keys.
const (
	KeyUp rune = keyBase + iota
	KeyDown
	KeyLeft
	KeyRight
	KeyHome
	KeyEnd
	KeyPageUp
	KeyPageDown
	KeyInsert
	KeyDelete
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
)

// keyNames maps codes to their String names.
var keyNames = map[rune]string{
	KeyTab:       "tab",
	KeyEnter:     "enter",
	KeyEscape:    "esc",
	KeySpace:     "space",
	KeyBackspace: "backspace",
	KeyUp:        "up",
	KeyDown:      "down",
	KeyLeft:      "left",
	KeyRight:     "right",
	KeyHome:      "home",
	KeyEnd:       "end",
	KeyPageUp:    "pgup",
	KeyPageDown:  "pgdown",
	KeyInsert:    "insert",
	KeyDelete:    "delete",
	KeyF1:        "f1",
	KeyF2:        "f2",
	KeyF3:        "f3",
	KeyF4:        "f4",
	KeyF5:        "f5",
	KeyF6:        "f6",
	KeyF7:        "f7",
	KeyF8:        "f8",
	KeyF9:        "f9",
	KeyF10:       "f10",
	KeyF11:       "f11",
	KeyF12:       "f12",
}

// nameKeys is the inverse of keyNames plus accepted aliases.
var nameKeys = func() map[string]rune {
	m := map[string]rune{
		"escape":   KeyEscape,
		"return":   KeyEnter,
		"pageup":   KeyPageUp,
		"pagedown": KeyPageDown,
		"pgdn":     KeyPageDown,
		"ins":      KeyInsert,
		"del":      KeyDelete,
		"bs":       KeyBackspace,
	}
	for c, n := range keyNames {
		m[n] = c
	}
	return m
}()

// modNames maps modifier names (lower case) to bits.
var modNames = map[string]Mod{
	"ctrl":    ModCtrl,
	"control": ModCtrl,
	"alt":     ModAlt,
	"option":  ModAlt,
	"opt":     ModAlt,
	"shift":   ModShift,
	"super":   ModSuper,
	"cmd":     ModSuper,
	"win":     ModSuper,
}

// String returns the key in keybinding notation: modifiers in the order
// ctrl+alt+shift+super, then the key name ("enter", "up", "f1", "space")
// or the rune itself ("a", "A", "é", "+"). A code that is neither named
// nor a graphic rune is written "U+XXXX". Text and Event are not shown.
func (k Key) String() string {
	var b strings.Builder
	for _, m := range [...]struct {
		bit  Mod
		name string
	}{{ModCtrl, "ctrl+"}, {ModAlt, "alt+"}, {ModShift, "shift+"}, {ModSuper, "super+"}} {
		if k.Mod&m.bit != 0 {
			b.WriteString(m.name)
		}
	}
	if n, ok := keyNames[k.Code]; ok {
		b.WriteString(n)
	} else if utf8.ValidRune(k.Code) && unicode.IsGraphic(k.Code) {
		b.WriteRune(k.Code)
	} else {
		fmt.Fprintf(&b, "U+%04X", uint32(k.Code))
	}
	return b.String()
}

// ParseKey parses keybinding notation as written by [Key.String]:
// "ctrl+c", "alt+enter", "shift+tab", "ctrl+alt+x", "f5", "A", "+",
// "ctrl++", "U+00E9". Modifier and key names are case-insensitive
// ("Ctrl+Enter"); a single-rune key is taken as written, so "ctrl+C" is
// Code 'C', which legacy terminals never send. Aliases: control, opt,
// option, cmd, win; escape, return, pageup, pagedown, pgdn, ins, del, bs.
// The result has Event Press and, for a graphic rune with no modifier,
// Text set to that rune.
func ParseKey(s string) (Key, error) {
	var k Key
	rest := s
	for {
		i := strings.IndexByte(rest, '+')
		if i <= 0 || i == len(rest)-1 {
			break
		}
		m, ok := modNames[strings.ToLower(rest[:i])]
		if !ok {
			break
		}
		k.Mod |= m
		rest = rest[i+1:]
	}
	code, err := parseKeyName(rest)
	if err != nil {
		return Key{}, fmt.Errorf("input: parse key %q: %w", s, err)
	}
	k.Code = code
	if k.Mod == 0 && keyText(code) {
		k.Text = string(code)
	}
	return k, nil
}

// keyText reports whether a key with code and no modifier types text.
func keyText(code rune) bool {
	if code == KeySpace {
		return true
	}
	if _, named := keyNames[code]; named {
		return false
	}
	return utf8.ValidRune(code) && unicode.IsGraphic(code)
}

// parseKeyName parses the key part of a keybinding.
func parseKeyName(name string) (rune, error) {
	if name == "" {
		return 0, fmt.Errorf("empty key name; write a key such as \"a\", \"enter\" or \"ctrl+x\"")
	}
	if r, size := utf8.DecodeRuneInString(name); size == len(name) {
		switch {
		case r == utf8.RuneError:
			return 0, fmt.Errorf("invalid UTF-8 in key name; write the key as U+XXXX")
		case r == ' ':
			return KeySpace, nil
		case r < 0x20 || r == 0x7f:
			return 0, fmt.Errorf("control character %U as key name; use a name such as \"tab\" or \"ctrl+a\"", r)
		}
		return r, nil
	}
	lower := strings.ToLower(name)
	if c, ok := nameKeys[lower]; ok {
		return c, nil
	}
	if hex, ok := strings.CutPrefix(lower, "u+"); ok && len(hex) >= 1 && len(hex) <= 6 {
		v, err := strconv.ParseUint(hex, 16, 32)
		if err == nil && utf8.ValidRune(rune(v)) {
			return rune(v), nil
		}
		return 0, fmt.Errorf("code point %q is not a valid rune; use U+0000 to U+10FFFF without surrogates", name)
	}
	return 0, fmt.Errorf("unknown key name %q; use a single character or one of enter, tab, esc, backspace, space, up, down, left, right, home, end, pgup, pgdown, insert, delete, f1 to f12 (modifiers: ctrl, alt, shift, super)", name)
}

// Matches reports whether k is the key that ParseKey(s) describes: same
// Code and Mod, ignoring Text. A Release never matches, and neither does an
// s that does not parse.
func (k Key) Matches(s string) bool {
	p, err := ParseKey(s)
	return err == nil && k.Is(p)
}

// Is reports whether k is the key b (as ParseKey returns it): the same
// code and modifiers, Text ignored; a Release is no match. Use it to
// match parsed key bindings without parsing them again.
func (k Key) Is(b Key) bool {
	return k.Event != Release && b.Code == k.Code && b.Mod == k.Mod
}
