package jsonscan

// skip consumes and validates the next value, containers included,
// without recursion: the open containers are kept on d.stack.
func (d *Decoder) skip() {
	if d.err != nil {
		return
	}
	base := len(d.stack)
	for {
		// A value starts here.
		d.ws()
		if d.pos >= len(d.data) {
			d.syntax("looking for the beginning of a value")
			return
		}
		switch c := d.data[d.pos]; {
		case c == '{':
			d.pos++
			if !d.enter('{') {
				return
			}
			d.ws()
			if d.pos < len(d.data) && d.data[d.pos] == '}' {
				d.pos++
				d.leave()
				break
			}
			if !d.memberKey() {
				return
			}
			continue
		case c == '[':
			d.pos++
			if !d.enter('[') {
				return
			}
			d.ws()
			if d.pos < len(d.data) && d.data[d.pos] == ']' {
				d.pos++
				d.leave()
				break
			}
			continue
		case c == '"':
			d.skipString()
		case c == 't':
			d.literal("true")
		case c == 'f':
			d.literal("false")
		case c == 'n':
			d.literal("null")
		case c == '-' || c >= '0' && c <= '9':
			d.number()
		default:
			d.syntax("looking for the beginning of a value")
		}
		// A value ended; close the containers it completes.
		for {
			if d.err != nil || len(d.stack) == base {
				return
			}
			d.ws()
			if d.pos >= len(d.data) {
				d.syntax("inside an unclosed object or array")
				return
			}
			top, c := d.stack[len(d.stack)-1], d.data[d.pos]
			if c == ',' {
				d.pos++
				if top == '{' {
					d.ws()
					if !d.memberKey() {
						return
					}
				}
				break
			}
			if top == '{' && c == '}' || top == '[' && c == ']' {
				d.pos++
				d.leave()
				continue
			}
			if top == '{' {
				d.syntax("after an object member")
			} else {
				d.syntax("after an array element")
			}
			return
		}
	}
}

// memberKey consumes an object key and its colon.
func (d *Decoder) memberKey() bool {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.syntax("looking for an object key")
		return false
	}
	d.skipString()
	if d.err != nil {
		return false
	}
	d.ws()
	return d.expect(':', "after an object key")
}

func (d *Decoder) literal(want string) {
	if len(d.data)-d.pos >= len(want) && string(d.data[d.pos:d.pos+len(want)]) == want {
		d.pos += len(want)
		return
	}
	for i := 0; i < len(want); i++ {
		if d.pos >= len(d.data) || d.data[d.pos] != want[i] {
			d.syntax("in the literal " + want)
			return
		}
		d.pos++
	}
}

// number consumes a number in JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *Decoder) number() {
	if d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case d.pos < len(d.data) && d.data[d.pos] >= '1' && d.data[d.pos] <= '9':
		d.digits()
	default:
		d.syntax("in a number, looking for a digit")
		return
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if d.digits() == 0 {
			d.syntax("after the decimal point in a number")
			return
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.digits() == 0 {
			d.syntax("in the exponent of a number")
		}
	}
}

func (d *Decoder) digits() int {
	start := d.pos
	for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
		d.pos++
	}
	return d.pos - start
}

// The byte classes of a string's content.
const (
	plainByte byte = iota
	quoteByte
	escapeByte
	controlByte
	highByte // the first byte of a multi-byte UTF-8 sequence, or invalid
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

// skipString consumes a string (d.pos at its opening quote) and reports
// whether its content holds an escape and whether it holds a byte above
// ASCII.
func (d *Decoder) skipString() (escaped, high bool) {
	d.pos++
	for d.pos < len(d.data) {
		rest := d.data[d.pos:]
		i := 0
		for i < len(rest) && stringClass[rest[i]] == plainByte {
			i++
		}
		d.pos += i
		if i == len(rest) {
			break
		}
		switch stringClass[rest[i]] {
		case quoteByte:
			d.pos++
			return escaped, high
		case highByte:
			high = true
			d.pos++
		case controlByte:
			d.syntax("in a string (control characters must be escaped)")
			return escaped, high
		case escapeByte:
			escaped = true
			d.pos++
			if d.pos >= len(d.data) {
				break
			}
			switch d.data[d.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.pos++
			case 'u':
				d.pos++
				for range 4 {
					if d.pos >= len(d.data) {
						break
					}
					if !isHex(d.data[d.pos]) {
						d.syntax("in a \\u escape")
						return escaped, high
					}
					d.pos++
				}
			default:
				d.syntax("in a string escape")
				return escaped, high
			}
		}
	}
	d.syntax("in a string literal")
	return escaped, high
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
