package jsonscan

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// Kind is the type of a JSON value, told by its first byte.
type Kind uint8

// The kinds.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	Str
	Object
	Array
)

var kindNames = [...]string{Invalid: "invalid", Null: "null", Bool: "boolean", Number: "number", Str: "string",
	Object: "object", Array: "array"}

// String returns the kind's JSON name.
func (k Kind) String() string { return kindNames[k] }

// Decoder reads one JSON text. Each reading method consumes the next
// value; after the first syntax error the rest are no-ops returning zero
// values. A value of the wrong type is skipped, still validated, and
// remembered as a type error. Slices it returns alias the input. The zero
// Decoder is ready after [Decoder.Reset]; it is not safe for concurrent
// use.
type Decoder struct {
	data    []byte
	pos     int
	err     error // the first syntax error
	typeErr error // the first type mismatch
	stack   []byte
	key     []byte // an escaped key, unquoted
}

// Reset starts reading data, forgetting any earlier error.
func (d *Decoder) Reset(data []byte) {
	d.data, d.pos, d.err, d.typeErr = data, 0, nil, nil
	d.stack = d.stack[:0]
}

// Finish checks that only whitespace follows the value read and returns
// the first syntax error, else the first type mismatch, else nil.
func (d *Decoder) Finish() error {
	if d.err == nil {
		d.pos = skipSpace(d.data, d.pos)
		if d.pos < len(d.data) {
			d.syntax("after the top-level value")
		}
	}
	if d.err != nil {
		return d.err
	}
	return d.typeErr
}

// Peek returns the kind of the next value without consuming it; Invalid
// after an error or at the end of the input.
func (d *Decoder) Peek() Kind {
	if d.err != nil {
		return Invalid
	}
	d.pos = skipSpace(d.data, d.pos)
	if d.pos >= len(d.data) {
		return Invalid
	}
	switch c := d.data[d.pos]; c {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return Str
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return Number
		}
	}
	return Invalid
}

// Skip consumes the next value of any kind.
func (d *Decoder) Skip() { d.skip() }

// Raw consumes the next value and returns its text, as
// encoding/json.RawMessage would hold it ("null" for null); nil after an
// error.
func (d *Decoder) Raw() []byte {
	if d.err != nil {
		return nil
	}
	d.pos = skipSpace(d.data, d.pos)
	start := d.pos
	d.skip()
	if d.err != nil {
		return nil
	}
	return d.data[start:d.pos]
}

// Null consumes the next value and reports true if it is null; any other
// value is left unread.
func (d *Decoder) Null() bool {
	if d.Peek() != Null {
		return false
	}
	d.skip()
	return d.err == nil
}

// Str consumes a string and returns it quoted, as it appears in the input;
// null and a value of another kind (a type mismatch) give nil.
func (d *Decoder) Str() String {
	switch d.Peek() {
	case Str:
		start := d.pos
		end, flags := scanString(d.data, start)
		if flags&stringBad != 0 {
			d.pos = end
			d.syntax("in a string literal")
			return nil
		}
		d.pos = end
		return String(d.data[start:end])
	case Null:
		d.skip()
	default:
		d.mismatch(Str)
	}
	return nil
}

// Bool consumes a boolean; null and a mismatch give false.
func (d *Decoder) Bool() bool {
	switch d.Peek() {
	case Bool:
		v := d.data[d.pos] == 't'
		d.skip()
		return v && d.err == nil
	case Null:
		d.skip()
	default:
		d.mismatch(Bool)
	}
	return false
}

// Int consumes an integer that fits an int64 and reports whether one was
// there: null gives false; another kind, a fraction, an exponent or an
// overflow is a type mismatch, as encoding/json reports it for an integer
// field.
func (d *Decoder) Int() (int64, bool) {
	switch d.Peek() {
	case Number:
		start := d.pos
		d.skip()
		if d.err != nil {
			return 0, false
		}
		if v, ok := parseInt(d.data[start:d.pos]); ok {
			return v, true
		}
		d.typeError(start, "the number "+string(d.data[start:d.pos])+" is not an integer that fits 64 bits")
	case Null:
		d.skip()
	default:
		d.mismatch(Number)
	}
	return 0, false
}

// Object consumes an object and calls member with each key (unquoted,
// valid until member returns). member reads the key's value with one of
// the reading methods; a value it leaves unread is skipped. null calls
// member never; another kind is a type mismatch.
func (d *Decoder) Object(member func(key []byte)) {
	switch d.Peek() {
	case Object:
	case Null:
		d.skip()
		return
	default:
		d.mismatch(Object)
		return
	}
	d.pos++
	if !d.enter('{') {
		return
	}
	data := d.data
	pos := skipSpace(data, d.pos)
	if pos < len(data) && data[pos] == '}' {
		d.pos = pos + 1
		d.leave()
		return
	}
	for {
		key := d.readKey(pos)
		if d.err != nil {
			return
		}
		pos = skipSpace(data, d.pos)
		if pos >= len(data) || data[pos] != ':' {
			d.pos = pos
			d.syntax("after an object key")
			return
		}
		d.pos = skipSpace(data, pos+1)
		at := d.pos
		member(key)
		if d.err != nil {
			return
		}
		if d.pos == at {
			d.skip()
			if d.err != nil {
				return
			}
		}
		pos = skipSpace(data, d.pos)
		if pos < len(data) && data[pos] == '}' {
			d.pos = pos + 1
			d.leave()
			return
		}
		if pos >= len(data) || data[pos] != ',' {
			d.pos = pos
			d.syntax("after an object member")
			return
		}
		pos = skipSpace(data, pos+1)
	}
}

// Array consumes an array and calls elem for each element, which elem
// reads with one of the reading methods; an element it leaves unread is
// skipped. null calls elem never; another kind is a type mismatch.
func (d *Decoder) Array(elem func()) {
	switch d.Peek() {
	case Array:
	case Null:
		d.skip()
		return
	default:
		d.mismatch(Array)
		return
	}
	d.pos++
	if !d.enter('[') {
		return
	}
	data := d.data
	d.pos = skipSpace(data, d.pos)
	if d.pos < len(data) && data[d.pos] == ']' {
		d.pos++
		d.leave()
		return
	}
	for {
		at := d.pos
		elem()
		if d.err != nil {
			return
		}
		if d.pos == at {
			d.skip()
			if d.err != nil {
				return
			}
		}
		pos := skipSpace(data, d.pos)
		if pos < len(data) && data[pos] == ']' {
			d.pos = pos + 1
			d.leave()
			return
		}
		if pos >= len(data) || data[pos] != ',' {
			d.pos = pos
			d.syntax("after an array element")
			return
		}
		d.pos = skipSpace(data, pos+1)
	}
}

// readKey reads the object key at pos and returns it unquoted; d.pos
// ends after it.
func (d *Decoder) readKey(pos int) []byte {
	data := d.data
	if pos >= len(data) || data[pos] != '"' {
		d.pos = pos
		d.syntax("looking for an object key")
		return nil
	}
	end, flags := scanString(data, pos)
	d.pos = end
	if flags&stringBad != 0 {
		d.syntax("in a string literal")
		return nil
	}
	raw := data[pos+1 : end-1]
	if flags == 0 || flags == stringHigh && utf8.Valid(raw) {
		return raw
	}
	d.key = appendUnquoted(d.key[:0], data[pos:end])
	return d.key
}

// enter records an open container of the reading methods, which count
// toward the nesting limit like the ones skip walks.
func (d *Decoder) enter(c byte) bool {
	if len(d.stack) >= maxDepth {
		d.fail(errors.New("jsonscan: nesting at offset " + strconv.Itoa(d.pos-1) + " exceeds the limit of " + strconv.Itoa(maxDepth) + " levels"))
		return false
	}
	d.stack = append(d.stack, c)
	return true
}

func (d *Decoder) leave() { d.stack = d.stack[:len(d.stack)-1] }

func (d *Decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// syntax records a syntax error at the current offset.
func (d *Decoder) syntax(where string) {
	if d.pos >= len(d.data) {
		d.fail(errors.New("jsonscan: the input ends at offset " + strconv.Itoa(d.pos) + " " + where + "; the JSON text is incomplete"))
		return
	}
	// The character is quoted as fmt's %q quotes a byte (a rune literal).
	d.fail(errors.New("jsonscan: invalid character " + strconv.QuoteRune(rune(d.data[d.pos])) + " at offset " + strconv.Itoa(d.pos) + " " + where))
}

// mismatch skips the next value, a kind other than want.
func (d *Decoder) mismatch(want Kind) {
	got, at := d.Peek(), d.pos
	d.skip()
	if d.err == nil {
		d.typeError(at, "found "+got.String()+", want "+want.String())
	}
}

func (d *Decoder) typeError(at int, what string) {
	if d.typeErr == nil {
		d.typeErr = errors.New("jsonscan: value at offset " + strconv.Itoa(at) + ": " + what)
	}
}
