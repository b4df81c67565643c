package jsonscan

import "unsafe"

// The scanning functions below keep the input and the offset in local
// variables and call as little as they can: under WebAssembly a Go
// function call and a field store cost far more than natively, and these
// loops run for every byte of every event.

// isSpace marks JSON's whitespace.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// skipSpace returns the offset of the first non-whitespace byte at or
// after pos.
func skipSpace(data []byte, pos int) int {
	for pos < len(data) && isSpace[data[pos]] {
		pos++
	}
	return pos
}

// skip consumes and validates the next value, containers included,
// without recursion: the open containers are kept on d.stack.
func (d *Decoder) skip() {
	if d.err != nil {
		return
	}
	data, pos := d.data, d.pos
	base := len(d.stack)
	for {
		// A value starts here.
		pos = skipSpace(data, pos)
		if pos >= len(data) {
			d.pos = pos
			d.syntax("looking for the beginning of a value")
			return
		}
		switch c := data[pos]; {
		case c == '"':
			end, flags := scanString(data, pos)
			if flags&stringBad != 0 {
				d.pos = end
				d.syntax("in a string literal")
				return
			}
			pos = end
		case c == '{' || c == '[':
			d.pos = pos + 1
			if !d.enter(c) {
				return
			}
			pos = skipSpace(data, pos+1)
			if pos < len(data) && data[pos] == c+2 { // '}' and ']' follow '{' and '[' by two
				pos++
				d.leave()
				break
			}
			if c == '[' {
				continue
			}
			if pos = d.memberKey(data, pos); pos < 0 {
				return
			}
			continue
		case c == 't' || c == 'f' || c == 'n':
			if pos = d.literal(data, pos); pos < 0 {
				return
			}
		case c == '-' || c >= '0' && c <= '9':
			if pos = d.number(data, pos); pos < 0 {
				return
			}
		default:
			d.pos = pos
			d.syntax("looking for the beginning of a value")
			return
		}
		// A value ended; close the containers it completes.
		for {
			if len(d.stack) == base {
				d.pos = pos
				return
			}
			pos = skipSpace(data, pos)
			if pos >= len(data) {
				d.pos = pos
				d.syntax("inside an unclosed object or array")
				return
			}
			top, c := d.stack[len(d.stack)-1], data[pos]
			if c == ',' {
				pos++
				if top == '{' {
					if pos = d.memberKey(data, skipSpace(data, pos)); pos < 0 {
						return
					}
				}
				break
			}
			if c == top+2 {
				pos++
				d.leave()
				continue
			}
			d.pos = pos
			if top == '{' {
				d.syntax("after an object member")
			} else {
				d.syntax("after an array element")
			}
			return
		}
	}
}

// memberKey consumes an object key at pos and its colon and returns the
// offset after them, -1 after recording a syntax error.
func (d *Decoder) memberKey(data []byte, pos int) int {
	if pos >= len(data) || data[pos] != '"' {
		d.pos = pos
		d.syntax("looking for an object key")
		return -1
	}
	end, flags := scanString(data, pos)
	if flags&stringBad != 0 {
		d.pos = end
		d.syntax("in a string literal")
		return -1
	}
	pos = skipSpace(data, end)
	if pos >= len(data) || data[pos] != ':' {
		d.pos = pos
		d.syntax("after an object key")
		return -1
	}
	return pos + 1
}

// literal consumes true, false or null at pos (its first letter checked)
// and returns the offset after it, -1 after recording a syntax error.
func (d *Decoder) literal(data []byte, pos int) int {
	want := "null"
	switch data[pos] {
	case 't':
		want = "true"
	case 'f':
		want = "false"
	}
	for i := 0; i < len(want); i++ {
		if pos >= len(data) || data[pos] != want[i] {
			d.pos = pos
			d.syntax("in the literal " + want)
			return -1
		}
		pos++
	}
	return pos
}

// number consumes a number in JSON's grammar,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns the offset
// after it, -1 after recording a syntax error.
func (d *Decoder) number(data []byte, pos int) int {
	if data[pos] == '-' {
		pos++
	}
	switch {
	case pos < len(data) && data[pos] == '0':
		pos++
	case pos < len(data) && data[pos] >= '1' && data[pos] <= '9':
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			pos++
		}
	default:
		d.pos = pos
		d.syntax("in a number, looking for a digit")
		return -1
	}
	if pos < len(data) && data[pos] == '.' {
		pos++
		start := pos
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			pos++
		}
		if pos == start {
			d.pos = pos
			d.syntax("after the decimal point in a number")
			return -1
		}
	}
	if pos < len(data) && (data[pos] == 'e' || data[pos] == 'E') {
		pos++
		if pos < len(data) && (data[pos] == '+' || data[pos] == '-') {
			pos++
		}
		start := pos
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			pos++
		}
		if pos == start {
			d.pos = pos
			d.syntax("in the exponent of a number")
			return -1
		}
	}
	return pos
}

// What scanString found in a string's content.
const (
	stringEscaped = 1 << iota // a backslash escape
	stringHigh                // a byte above ASCII
	stringBad                 // a syntax error (the offset returned is where)
)

// The byte classes of a string's content.
const (
	plainByte byte = iota
	quoteByte
	escapeByte
	controlByte
	highByte // part of a multi-byte UTF-8 sequence, or invalid
)

var stringClass = func() (t [256]byte) {
	for c := range 0x20 {
		t[c] = controlByte
	}
	t['"'], t['\\'] = quoteByte, escapeByte
	for c := 0x80; c < 0x100; c++ {
		t[c] = highByte
	}
	return t
}()

// Masks for testing eight bytes at once.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// scanString scans the string whose opening quote is at pos and returns
// the offset after its closing quote and what its content holds; with
// stringBad the offset is that of the offending byte (len(data) when the
// input ends inside the string).
func scanString(data []byte, pos int) (int, int) {
	flags := 0
	pos++
	for {
		// Eight plain bytes at a time: none is '"', '\\', below 0x20 or
		// above 0x7f.
		for pos+8 <= len(data) {
			w := *(*uint64)(unsafe.Pointer(&data[pos]))
			quote, esc := w^(ones*'"'), w^(ones*'\\')
			special := (quote-ones)&^quote | (esc-ones)&^esc | (w - ones*0x20) | w
			if special&highs != 0 {
				break
			}
			pos += 8
		}
		if pos >= len(data) {
			return len(data), flags | stringBad
		}
		switch stringClass[data[pos]] {
		case plainByte:
			pos++
		case quoteByte:
			return pos + 1, flags
		case highByte:
			flags |= stringHigh
			pos++
		case controlByte:
			return pos, flags | stringBad
		case escapeByte:
			flags |= stringEscaped
			pos++
			if pos >= len(data) {
				return pos, flags | stringBad
			}
			switch data[pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				pos++
			case 'u':
				for range 4 {
					pos++
					if pos >= len(data) || !isHex(data[pos]) {
						return pos, flags | stringBad
					}
				}
				pos++
			default:
				return pos, flags | stringBad
			}
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// parseInt parses a JSON number (already validated) as an int64; false for
// a fraction, an exponent or an overflow.
func parseInt(b []byte) (int64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		if u > (1<<63)/10 {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
		if u > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return -int64(u), true // -(1<<63) wraps to itself, the minimum
	}
	if u > 1<<63-1 {
		return 0, false
	}
	return int64(u), true
}
