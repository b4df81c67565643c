package input

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the CSI parameter parser; longer parameter lists are Unknown.
const (
	maxParams = 32
	maxValues = 64
)

// csiParams is a parsed CSI parameter string: an optional private marker
// (< = > ?), parameters separated by ';', each with sub-values separated
// by ':', and the last intermediate byte. Absent values are -1.
type csiParams struct {
	marker byte
	inter  byte
	bad    bool
	n      int
	start  [maxParams + 1]uint8
	vals   [maxValues]int32
}

// parse fills c from the bytes between "ESC [" and the final byte.
func (c *csiParams) parse(b []byte) {
	if len(b) > 0 && b[0] >= '<' && b[0] <= '?' {
		c.marker = b[0]
		b = b[1:]
	}
	nv := 0
	cur := int32(-1)
	any := false
	push := func() {
		if nv >= maxValues {
			c.bad = true
			return
		}
		c.vals[nv] = cur
		nv++
		cur = -1
	}
	end := func() {
		push()
		if c.n >= maxParams {
			c.bad = true
			return
		}
		c.n++
		c.start[c.n] = uint8(nv)
	}
	for _, x := range b {
		switch {
		case x >= '0' && x <= '9':
			if c.inter != 0 {
				c.bad = true
			}
			any = true
			if cur < 0 {
				cur = 0
			}
			if cur < 1<<24 {
				cur = cur*10 + int32(x-'0')
			}
		case x == ':':
			any = true
			push()
		case x == ';':
			any = true
			end()
		case x >= 0x20 && x <= 0x2f:
			if c.inter == 0 && any {
				end()
			}
			c.inter = x
		default: // a marker byte in the middle
			c.bad = true
		}
		if c.bad {
			return
		}
	}
	if any && c.inter == 0 {
		end()
	}
}

// get returns sub-value j of parameter i, or def when absent.
func (c *csiParams) get(i, j, def int) int {
	if i >= c.n {
		return def
	}
	idx := int(c.start[i]) + j
	if idx >= int(c.start[i+1]) || c.vals[idx] < 0 {
		return def
	}
	return int(c.vals[idx])
}

// subs returns the number of sub-values of parameter i.
func (c *csiParams) subs(i int) int {
	if i >= c.n {
		return 0
	}
	return int(c.start[i+1] - c.start[i])
}

// modEvent decodes a modifier parameter "1+bits[:event]".
func (c *csiParams) modEvent(i int) (Mod, KeyEventType) {
	var mod Mod
	if m := c.get(i, 0, 1); m >= 1 {
		mod = Mod(m-1) & modMask
	}
	ev := Press
	switch c.get(i, 1, 1) {
	case 2:
		ev = Repeat
	case 3:
		ev = Release
	}
	return mod, ev
}

// decodeCSI decodes an event starting with "ESC [".
func (d *Decoder) decodeCSI(data []byte, flush bool) (Event, int) {
	limit := min(len(data), MaxSequence)
	i := 2
	for ; i < limit; i++ {
		c := data[i]
		if c >= 0x40 && c <= 0x7e {
			break
		}
		if c < 0x20 || c > 0x3f {
			// A byte that cannot be in a CSI: the sequence was cut short.
			if i == 2 {
				return altKey('['), 2
			}
			return unknown(data[:i]), i
		}
	}
	if i == limit {
		switch {
		case len(data) >= MaxSequence:
			return unknown(data[:MaxSequence]), MaxSequence
		case !flush:
			return nil, 0
		case i == 2:
			return altKey('['), 2
		}
		return unknown(data), len(data)
	}
	if i == 2 {
		switch data[2] {
		case 'M': // X10 mouse: three raw bytes follow
			if len(data) < 6 {
				if !flush {
					return nil, 0
				}
				return unknown(data), len(data)
			}
			return mouseX10(int(data[3])-32, int(data[4])-33, int(data[5])-33, data[:6]), 6
		case '[': // Linux console F1-F5: ESC [ [ A..E
			if len(data) < 4 {
				if !flush {
					return nil, 0
				}
				return unknown(data), len(data)
			}
			if c := data[3]; c >= 'A' && c <= 'E' {
				return Key{Code: KeyF1 + rune(c-'A')}, 4
			}
			return unknown(data[:3]), 3
		}
	}
	return d.dispatchCSI(data[:i+1]), i + 1
}

// dispatchCSI turns a complete CSI sequence into an event.
func (d *Decoder) dispatchCSI(seq []byte) Event {
	final := seq[len(seq)-1]
	var c csiParams
	c.parse(seq[2 : len(seq)-1])
	if c.bad {
		return unknown(seq)
	}
	switch c.marker {
	case '<':
		if (final == 'M' || final == 'm') && c.n == 3 && c.inter == 0 {
			return mouseSGR(&c, final == 'm', seq)
		}
	case '?':
		switch {
		case final == 'u' && c.inter == 0 && c.n <= 1:
			return KittyFlags{Flags: c.get(0, 0, 0)}
		case final == 'c' && c.inter == 0:
			attrs := make([]int, c.n)
			for i := range attrs {
				attrs[i] = c.get(i, 0, 0)
			}
			return PrimaryAttrs{Params: attrs}
		case final == 'y' && c.inter == '$' && c.n == 2:
			return ModeReport{Mode: c.get(0, 0, 0), Value: c.get(1, 0, 0)}
		case final == 'R' && c.inter == 0 && c.n == 2:
			return CursorPos{Row: c.get(0, 0, 1), Col: c.get(1, 0, 1)}
		}
	case 0:
		if c.inter == '$' && final == 'y' && c.n == 2 {
			return ModeReport{Mode: c.get(0, 0, 0), Value: c.get(1, 0, 0)}
		}
		if c.inter != 0 {
			break
		}
		if ev, ok := d.csiKey(&c, final, seq); ok {
			return ev
		}
	}
	return unknown(seq)
}

// letterKeys are the CSI and SS3 finals of the legacy functional keys.
var letterKeys = map[byte]rune{
	'A': KeyUp, 'B': KeyDown, 'C': KeyRight, 'D': KeyLeft,
	'H': KeyHome, 'F': KeyEnd,
	'P': KeyF1, 'Q': KeyF2, 'R': KeyF3, 'S': KeyF4,
}

// tildeKeys are the numbers of the CSI number ~ keys.
var tildeKeys = map[int]rune{
	1: KeyHome, 2: KeyInsert, 3: KeyDelete, 4: KeyEnd, 5: KeyPageUp, 6: KeyPageDown,
	7: KeyHome, 8: KeyEnd,
	11: KeyF1, 12: KeyF2, 13: KeyF3, 14: KeyF4, 15: KeyF5,
	17: KeyF6, 18: KeyF7, 19: KeyF8, 20: KeyF9, 21: KeyF10, 23: KeyF11, 24: KeyF12,
}

// csiKey decodes the CSI sequences without marker: keys, focus, paste
// brackets, cursor reports and urxvt mouse. ok is false for Unknown.
func (d *Decoder) csiKey(c *csiParams, final byte, seq []byte) (Event, bool) {
	switch final {
	case 'u':
		return kittyKey(c, seq), true
	case '~':
		num := c.get(0, 0, -1)
		switch num {
		case 200:
			d.pasting = true
			return nil, true
		case 201:
			return nil, true // stray paste end
		case 27:
			if c.n < 3 {
				return nil, false
			}
			mod, ev := c.modEvent(1)
			return codeKey(c.get(2, 0, 0), mod, ev, 0, 0, "", false, seq), true
		}
		code, ok := tildeKeys[num]
		if !ok || c.n > 2 {
			return nil, false
		}
		mod, ev := c.modEvent(1)
		return Key{Code: code, Mod: mod, Event: ev}, true
	case 'I', 'O':
		if c.n == 0 {
			return Focus{In: final == 'I'}, true
		}
	case 'Z':
		if c.n <= 2 && c.get(0, 0, 1) == 1 {
			mod, ev := c.modEvent(1)
			return Key{Code: KeyTab, Mod: mod | ModShift, Event: ev}, true
		}
	case 'R':
		if c.n == 2 {
			return CursorPos{Row: c.get(0, 0, 1), Col: c.get(1, 0, 1)}, true
		}
	case 'M':
		if c.n == 3 { // urxvt 1015: CSI b ; x ; y M
			return mouseX10(c.get(0, 0, 0)-32, c.get(1, 0, 1)-1, c.get(2, 0, 1)-1, seq), true
		}
	}
	if code, ok := letterKeys[final]; ok && c.n <= 2 && c.get(0, 0, 1) == 1 {
		if final == 'R' && c.n != 0 {
			return nil, false
		}
		mod, ev := c.modEvent(1)
		return Key{Code: code, Mod: mod, Event: ev}, true
	}
	return nil, false
}

// kittyKey decodes CSI code[:shifted[:base]] ; mod[:event] ; text u.
func kittyKey(c *csiParams, seq []byte) Event {
	if c.n < 1 || c.n > 3 || c.subs(0) > 3 {
		return unknown(seq)
	}
	mod, ev := c.modEvent(1)
	var text strings.Builder
	hasText := c.n == 3
	for j := range c.subs(2) {
		if r := rune(c.get(2, j, 0)); utf8.ValidRune(r) && unicode.IsGraphic(r) {
			text.WriteRune(r)
		}
	}
	return codeKey(c.get(0, 0, -1), mod, ev, c.get(0, 1, 0), c.get(0, 2, 0), text.String(), hasText, seq)
}

// Kitty functional key ranges in the private use area.
const (
	kittyCapsLock   = 57358
	kittyNumLock    = 57360
	kittyLeftShift  = 57441
	kittyLevel5     = 57454
	kittyKeypadBase = 57399
	kittyFuncFirst  = 57344 // the range kitty reserves for functional keys
	kittyFuncLast   = 63743
)

// kittyKeypad maps the kitty keypad codes from KP_0 (57399) up.
var kittyKeypad = [...]rune{
	'0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
	'.', '/', '*', '-', '+', KeyEnter, '=', ',',
	KeyLeft, KeyRight, KeyUp, KeyDown, KeyPageUp, KeyPageDown,
	KeyHome, KeyEnd, KeyInsert, KeyDelete,
}

// codeKey builds a key from a Unicode or kitty key code, as sent by CSI u
// and modifyOtherKeys. A nil event means the key is ignored (a modifier or
// lock key alone).
func codeKey(code int, mod Mod, ev KeyEventType, shifted, base int, text string, hasText bool, seq []byte) Event {
	var r rune
	switch {
	case code == int(KeyEscape) || code == int(KeyEnter) || code == int(KeyTab) || code == int(KeyBackspace):
		r = rune(code)
	case code == 8:
		r = KeyBackspace
	case code >= kittyCapsLock && code <= kittyNumLock, code >= kittyLeftShift && code <= kittyLevel5:
		return nil
	case code >= kittyKeypadBase && code < kittyKeypadBase+len(kittyKeypad):
		r = kittyKeypad[code-kittyKeypadBase]
	case code < 0x20 || (code >= 0x7f && code < 0xa0) || code >= int(keyBase):
		return unknown(seq)
	case code >= kittyFuncFirst && code <= kittyFuncLast:
		return unknown(seq) // other kitty functional keys: F13-F35, media, menu
	case !utf8.ValidRune(rune(code)):
		return unknown(seq)
	default:
		r = rune(code)
	}
	if mod&(ModCtrl|ModAlt|ModSuper) != 0 && r >= 0x80 && r < keyBase && base >= 0x20 && base < 0x7f {
		r = rune(base) // non-Latin layout: match shortcuts on the base key
	}
	k := Key{Code: r, Mod: mod, Event: ev}
	switch {
	case ev == Release:
	case hasText:
		k.Text = text
	case mod&^ModShift == 0 && keyText(r):
		switch {
		case mod == 0:
			k.Text = string(r)
		case shifted > 0 && utf8.ValidRune(rune(shifted)) && unicode.IsGraphic(rune(shifted)):
			k.Text = string(rune(shifted))
		default:
			k.Text = string(unicode.ToUpper(r))
		}
	}
	return k
}

// mouseSGR decodes CSI < b ; x ; y M/m (1-based coordinates).
func mouseSGR(c *csiParams, release bool, seq []byte) Event {
	b := c.get(0, 0, 0)
	if b&128 != 0 {
		return unknown(seq) // buttons 8-11
	}
	m := Mouse{X: max(0, c.get(1, 0, 1)-1), Y: max(0, c.get(2, 0, 1)-1), Mod: mouseMod(b)}
	switch {
	case b&64 != 0:
		m.Button = WheelUp + MouseButton(b&3)
		if release {
			m.Action = MouseRelease
		}
		return m
	case b&32 != 0:
		m.Action = MouseMotion
	case release:
		m.Action = MouseRelease
	}
	m.Button = [...]MouseButton{ButtonLeft, ButtonMiddle, ButtonRight, ButtonNone}[b&3]
	return m
}

// mouseX10 decodes the legacy encodings (X10 bytes, urxvt 1015), where
// button 3 without motion is a release of an unknown button. x and y are
// already 0-based.
func mouseX10(b, x, y int, seq []byte) Event {
	if b < 0 || b&128 != 0 {
		return unknown(seq)
	}
	m := Mouse{X: max(0, x), Y: max(0, y), Mod: mouseMod(b)}
	switch {
	case b&64 != 0:
		m.Button = WheelUp + MouseButton(b&3)
		return m
	case b&32 != 0:
		m.Action = MouseMotion
	case b&3 == 3:
		m.Action = MouseRelease
	}
	m.Button = [...]MouseButton{ButtonLeft, ButtonMiddle, ButtonRight, ButtonNone}[b&3]
	return m
}

// mouseMod decodes the modifier bits of a mouse button byte.
func mouseMod(b int) Mod {
	var m Mod
	if b&4 != 0 {
		m |= ModShift
	}
	if b&8 != 0 {
		m |= ModAlt
	}
	if b&16 != 0 {
		m |= ModCtrl
	}
	return m
}
