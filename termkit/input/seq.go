package input

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ss3Keys are the SS3 finals (ESC O x): cursor and function keys, and the
// application keypad.
var ss3Keys = map[byte]Key{
	'A': {Code: KeyUp}, 'B': {Code: KeyDown}, 'C': {Code: KeyRight}, 'D': {Code: KeyLeft},
	'H': {Code: KeyHome}, 'F': {Code: KeyEnd},
	'P': {Code: KeyF1}, 'Q': {Code: KeyF2}, 'R': {Code: KeyF3}, 'S': {Code: KeyF4},
	'M': {Code: KeyEnter},
	'X': {Code: '=', Text: "="}, 'j': {Code: '*', Text: "*"}, 'k': {Code: '+', Text: "+"},
	'l': {Code: ',', Text: ","}, 'm': {Code: '-', Text: "-"}, 'n': {Code: '.', Text: "."},
	'o': {Code: '/', Text: "/"},
	'p': {Code: '0', Text: "0"}, 'q': {Code: '1', Text: "1"}, 'r': {Code: '2', Text: "2"},
	's': {Code: '3', Text: "3"}, 't': {Code: '4', Text: "4"}, 'u': {Code: '5', Text: "5"},
	'v': {Code: '6', Text: "6"}, 'w': {Code: '7', Text: "7"}, 'x': {Code: '8', Text: "8"},
	'y': {Code: '9', Text: "9"},
}

// decodeSS3 decodes an event starting with "ESC O". An unknown final is
// taken as alt+O followed by that byte.
func decodeSS3(data []byte, flush bool) (Event, int) {
	if len(data) < 3 {
		if !flush {
			return nil, 0
		}
		return altKey('O'), 2
	}
	if k, ok := ss3Keys[data[2]]; ok {
		return k, 3
	}
	return altKey('O'), 2
}

// decodeString decodes a control string: OSC (ESC ]), ending at BEL or
// ST, and DCS (ESC P), APC (ESC _), PM (ESC ^) and SOS (ESC X), ending at
// ST (ESC \). An ESC inside that does not start ST cuts the string short.
func decodeString(data []byte, flush bool) (Event, int) {
	kind := data[1]
	limit := min(len(data), MaxSequence)
	for j := 2; j < limit; j++ {
		switch data[j] {
		case 0x07:
			if kind == ']' {
				return dispatchString(kind, data[2:j], data[:j+1]), j + 1
			}
		case 0x1b:
			if j+1 >= limit {
				break
			}
			if data[j+1] == '\\' {
				return dispatchString(kind, data[2:j], data[:j+2]), j + 2
			}
			if j == 2 {
				return altKey(kind), 2
			}
			return unknown(data[:j]), j
		}
	}
	switch {
	case len(data) >= MaxSequence:
		return unknown(data[:MaxSequence]), MaxSequence
	case !flush:
		return nil, 0
	case len(data) == 2:
		return altKey(kind), 2
	}
	return unknown(data), len(data)
}

// dispatchString turns a complete control string into an event.
func dispatchString(kind byte, body, seq []byte) Event {
	switch kind {
	case ']':
		if ev, ok := colorReport(body); ok {
			return ev
		}
	case 'P':
		if v, ok := strings.CutPrefix(string(body), ">|"); ok {
			return TermVersion{Text: sanitize([]byte(v))}
		}
	}
	return unknown(seq)
}

// colorReport parses "10;rgb:RRRR/GGGG/BBBB" (slots 10, 11, 12), each
// channel 1 to 4 hex digits.
func colorReport(body []byte) (ColorReport, bool) {
	slot, spec, ok := strings.Cut(string(body), ";")
	if !ok {
		return ColorReport{}, false
	}
	n, err := strconv.Atoi(slot)
	if err != nil || n < 10 || n > 12 {
		return ColorReport{}, false
	}
	spec, ok = strings.CutPrefix(spec, "rgb:")
	if !ok {
		return ColorReport{}, false
	}
	parts := strings.Split(spec, "/")
	if len(parts) != 3 {
		return ColorReport{}, false
	}
	var ch [3]uint16
	for i, p := range parts {
		if len(p) < 1 || len(p) > 4 {
			return ColorReport{}, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return ColorReport{}, false
		}
		full := uint64(1)<<(4*len(p)) - 1
		ch[i] = uint16(v * 0xFFFF / full)
	}
	return ColorReport{Slot: n, R: ch[0], G: ch[1], B: ch[2]}, true
}

// unknown wraps a sequence as Unknown.
func unknown(seq []byte) Unknown { return Unknown{Seq: sanitize(seq)} }

// sanitize makes bytes safe to display: ESC becomes "␛", other C0
// controls their control pictures, DEL "␡", C1 controls U+FFFD, and
// invalid UTF-8 bytes the text \xNN.
func sanitize(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for len(b) > 0 {
		c := b[0]
		if c < 0x80 {
			switch {
			case c < 0x20:
				sb.WriteRune(0x2400 + rune(c))
			case c == 0x7f:
				sb.WriteRune(0x2421)
			default:
				sb.WriteByte(c)
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && size == 1:
			const hex = "0123456789abcdef"
			sb.WriteString(`\x`)
			sb.WriteByte(hex[c>>4])
			sb.WriteByte(hex[c&15])
		case r < 0xA0:
			sb.WriteRune(utf8.RuneError)
		default:
			sb.Write(b[:size])
		}
		b = b[size:]
	}
	return sb.String()
}
