package main

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The tools decode their arguments with this small JSON reader instead of
// encoding/json: the host has already validated them against the tool's
// schema, every tool takes a flat object of strings, integers and booleans
// (edit also a list of objects), and leaving out encoding/json (with
// reflect and fmt) keeps the plugin about a quarter smaller, which every
// process start pays for in compile-cache loading and instantiation.

// field binds one property name to where its value goes; exactly one of
// str, num, flag and each is set.
type field struct {
	name string
	str  *string
	num  *int
	flag *bool
	each func(r *reader) error // a list: called with r at each element
	seen *bool                 // if set, becomes true when the property is present and not null
}

func strField(name string, p *string) field { return field{name: name, str: p} }
func intField(name string, p *int) field    { return field{name: name, num: p} }
func boolField(name string, p *bool) field  { return field{name: name, flag: p} }

// listField decodes a JSON array, calling each for every element.
func listField(name string, each func(r *reader) error) field {
	return field{name: name, each: each}
}

// decode reads args, a JSON object, into fields. A property no field names
// is skipped (the host's schema check refuses those first); null leaves the
// field unchanged, as encoding/json does. The error is a tool fault telling
// the model what was wrong.
func decode(tool, args string, fields ...field) error {
	r := reader{s: args}
	err := r.object(func(key string) error {
		for _, f := range fields {
			if f.name == key {
				return r.into(f)
			}
		}
		return r.skip(0)
	})
	if err == nil {
		r.space()
		if r.i < len(r.s) {
			err = r.fail("unexpected text after the object")
		}
	}
	if err != nil {
		return invalid(tool + ": arguments " + err.Error() + "; send a JSON object matching the tool's schema")
	}
	return nil
}

// reader is a position in a JSON text.
type reader struct {
	s string
	i int
}

// argError is a malformed-argument description with its byte offset.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func (r *reader) fail(msg string) error {
	return &argError{msg: "are not valid: " + msg + " at byte " + itoa(r.i)}
}

func (r *reader) space() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (r *reader) peek() byte {
	r.space()
	if r.i < len(r.s) {
		return r.s[r.i]
	}
	return 0
}

// object reads an object, calling member with r positioned at each value.
func (r *reader) object(member func(key string) error) error {
	if r.peek() != '{' {
		return r.fail("expected an object")
	}
	r.i++
	if r.peek() == '}' {
		r.i++
		return nil
	}
	for {
		if r.peek() != '"' {
			return r.fail("expected a property name")
		}
		key, err := r.str()
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.fail("expected ':' after property " + strconv.Quote(key))
		}
		r.i++
		if err := member(key); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return nil
		default:
			return r.fail("expected ',' or '}'")
		}
	}
}

// into decodes the value at r into f.
func (r *reader) into(f field) error {
	if r.null() {
		return nil
	}
	if f.seen != nil {
		*f.seen = true
	}
	var err error
	switch {
	case f.str != nil:
		if r.peek() != '"' {
			return r.fail(strconv.Quote(f.name) + " must be a string")
		}
		*f.str, err = r.str()
	case f.num != nil:
		*f.num, err = r.integer(f.name)
	case f.flag != nil:
		*f.flag, err = r.boolean(f.name)
	case f.each != nil:
		err = r.array(f.name, f.each)
	}
	return err
}

// null consumes a null literal and reports whether there was one.
func (r *reader) null() bool {
	if r.peek() == 'n' && len(r.s)-r.i >= 4 && r.s[r.i:r.i+4] == "null" {
		r.i += 4
		return true
	}
	return false
}

func (r *reader) boolean(name string) (bool, error) {
	r.space()
	switch {
	case len(r.s)-r.i >= 4 && r.s[r.i:r.i+4] == "true":
		r.i += 4
		return true, nil
	case len(r.s)-r.i >= 5 && r.s[r.i:r.i+5] == "false":
		r.i += 5
		return false, nil
	}
	return false, r.fail(strconv.Quote(name) + " must be true or false")
}

// integer reads a number that must be a whole number an int can hold.
func (r *reader) integer(name string) (int, error) {
	r.space()
	start := r.i
	for r.i < len(r.s) && isNumberByte(r.s[r.i]) {
		r.i++
	}
	tok := r.s[start:r.i]
	if !validNumber(tok) {
		r.i = start
		return 0, r.fail(strconv.Quote(name) + " must be an integer")
	}
	if n, err := strconv.Atoi(tok); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || f != float64(int64(f)) || f < -1<<53 || f > 1<<53 {
		r.i = start
		return 0, r.fail(strconv.Quote(name) + " must be a whole number between -2^53 and 2^53, not " + tok)
	}
	return int(f), nil
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// validNumber reports whether tok is a JSON number.
func validNumber(tok string) bool {
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	switch {
	case i < len(tok) && tok[i] == '0':
		i++
	case i < len(tok) && tok[i] >= '1' && tok[i] <= '9':
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(tok) && tok[i] == '.' {
		i++
		if i == len(tok) || tok[i] < '0' || tok[i] > '9' {
			return false
		}
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		if i == len(tok) || tok[i] < '0' || tok[i] > '9' {
			return false
		}
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
	}
	return i == len(tok)
}

// array reads a JSON array, calling each with r at every element.
func (r *reader) array(name string, each func(r *reader) error) error {
	if r.peek() != '[' {
		return r.fail(strconv.Quote(name) + " must be a list")
	}
	r.i++
	if r.peek() == ']' {
		r.i++
		return nil
	}
	for {
		if err := each(r); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return nil
		default:
			return r.fail("expected ',' or ']' in " + strconv.Quote(name))
		}
	}
}

// maxDepth bounds the nesting skip follows.
const maxDepth = 64

// skip reads and discards any value.
func (r *reader) skip(depth int) error {
	if depth > maxDepth {
		return r.fail("nesting deeper than " + itoa(maxDepth))
	}
	switch c := r.peek(); {
	case c == '"':
		_, err := r.str()
		return err
	case c == '{':
		return r.object(func(string) error { return r.skip(depth + 1) })
	case c == '[':
		return r.array("list", func(r *reader) error { return r.skip(depth + 1) })
	case c == 't' || c == 'f':
		_, err := r.boolean("value")
		return err
	case r.null():
		return nil
	default:
		start := r.i
		for r.i < len(r.s) && isNumberByte(r.s[r.i]) {
			r.i++
		}
		if !validNumber(r.s[start:r.i]) {
			r.i = start
			return r.fail("expected a value")
		}
		return nil
	}
}

// str reads a JSON string at r (which is at its opening quote). A string
// without escapes is returned without copying. Invalid UTF-8 is replaced
// with U+FFFD and unpaired surrogate escapes likewise, as encoding/json
// does.
func (r *reader) str() (string, error) {
	r.i++ // the opening quote
	start := r.i
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == '"':
			s := r.s[start:r.i]
			r.i++
			if !utf8.ValidString(s) {
				return toValidUTF8(s), nil
			}
			return s, nil
		case c == '\\':
			return r.escaped(start)
		case c < 0x20:
			return "", r.fail("control character in a string (escape it)")
		}
		r.i++
	}
	return "", r.fail("unterminated string")
}

// escaped finishes a string that has escapes, from its first escape.
func (r *reader) escaped(start int) (string, error) {
	b := make([]byte, 0, r.i-start+16)
	b = append(b, r.s[start:r.i]...)
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == '"':
			r.i++
			return toValidUTF8(string(b)), nil
		case c < 0x20:
			return "", r.fail("control character in a string (escape it)")
		case c != '\\':
			b = append(b, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.s) {
			break
		}
		e := r.s[r.i+1]
		r.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			c1, ok := r.hex4()
			if !ok {
				return "", r.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(c1) {
				if len(r.s)-r.i >= 6 && r.s[r.i] == '\\' && r.s[r.i+1] == 'u' {
					save := r.i
					r.i += 2
					if c2, ok := r.hex4(); ok {
						if d := utf16.DecodeRune(c1, c2); d != utf8.RuneError {
							b = utf8.AppendRune(b, d)
							continue
						}
					}
					r.i = save
				}
				c1 = utf8.RuneError
			}
			b = utf8.AppendRune(b, c1)
		default:
			r.i -= 2
			return "", r.fail("invalid escape \\" + string(rune(e)))
		}
	}
	return "", r.fail("unterminated string")
}

// hex4 reads four hex digits.
func (r *reader) hex4() (rune, bool) {
	if len(r.s)-r.i < 4 {
		return 0, false
	}
	var v rune
	for _, c := range []byte(r.s[r.i : r.i+4]) {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	r.i += 4
	return v, true
}

// toValidUTF8 replaces each invalid byte with U+FFFD, as encoding/json
// does (strings.ToValidUTF8 would merge runs into one).
func toValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}
