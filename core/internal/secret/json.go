package secret

import (
	"bytes"
	"encoding/json"
)

// JSON text
//
// Redact replaces bytes wherever they spell a pattern, which in JSON text
// can split an escape sequence: a secret "nXYZ…" matches the bytes of
// `\nXYZ…` (a newline, then "XYZ…"), and replacing them leaves `\${secret:
// NAME}`, which no JSON parser accepts, so a request body or a tool call's
// arguments would become unreadable. RedactJSON, ContainsJSON and
// JSONStream take a match in JSON text only where replacing it keeps the
// text JSON:
//
//   - a match that starts inside a string must start and end outside an
//     escape sequence (not after a backslash that begins one, not inside
//     \uXXXX) and end in the same string. Its bytes are then the string's
//     own text, and the secret's JSON-escaped forms (see encodings) find
//     a value that holds '"', '\' or control characters there.
//   - a match that starts outside strings (a secret made of digits and the
//     like, in a number) must not reach into a string; it is replaced as
//     Redact replaces it, so the secret does not stay, even though the text
//     is then no longer JSON.
//
// A match of the other kinds spells bytes that are not the secret once the
// text is decoded (a newline and "XYZ…" are not "nXYZ…"), and stays. Text
// that is not JSON at all is redacted as Redact does (RedactJSON checks
// when it would leave a match; JSONStream cannot, and treats what it is
// given as JSON).

// escBackslash in jsonScan.esc: the last byte was the backslash of an
// escape.
const escBackslash = -1

// jsonScan follows JSON text byte by byte, far enough to tell whether a
// position is in a string and in an escape sequence.
type jsonScan struct {
	pos   int  // the position in the text the state is at
	inStr bool // inside a string's quotes
	esc   int8 // 0: not in an escape; escBackslash; or the hex digits of \uXXXX still to come
}

func (s *jsonScan) step(c byte) {
	switch {
	case s.esc == escBackslash:
		if c == 'u' {
			s.esc = 4
		} else {
			s.esc = 0
		}
	case s.esc > 0:
		s.esc--
	case !s.inStr:
		s.inStr = c == '"'
	case c == '\\':
		s.esc = escBackslash
	case c == '"':
		s.inStr = false
	}
}

// advance moves s to position to of b; it never moves back.
func (s *jsonScan) advance(b []byte, to int) {
	for ; s.pos < to; s.pos++ {
		s.step(b[s.pos])
	}
}

// jsonCursor is the JSON state a cursor keeps (see cursor.js).
type jsonCursor struct {
	scan     jsonScan
	rejected bool // a match was left because of where it lies
}

// accept reports whether b[p:e], a match whose window starts at base ≤ p,
// may be replaced without breaking the JSON text b (see the comment at
// the top of this file). The windows' bases increase, so the state is
// advanced to base once and copied from there.
func (j *jsonCursor) accept(b []byte, base, p, e int) bool {
	j.scan.advance(b, base)
	s := j.scan
	s.advance(b, p)
	ok := false
	switch {
	case s.esc != 0:
	case !s.inStr:
		ok = bytes.IndexByte(b[p:e], '"') < 0
	default:
		ok = true
		for i := p; i < e && ok; i++ {
			s.step(b[i])
			ok = s.inStr
		}
		ok = ok && s.esc == 0
	}
	if !ok {
		j.rejected = true
	}
	return ok
}

// RedactJSON is Redact for JSON text, such as a request body or a tool
// call's arguments: it never splits an escape sequence or a string's
// quotes, so valid JSON stays valid (but for a secret matched outside
// strings, see the comment at the top of json.go). Text that is not valid
// JSON is redacted as Redact does.
func (s *Set) RedactJSON(b []byte) ([]byte, bool) {
	m := s.load()
	js := &jsonCursor{}
	out, ok := m.redactWith(b, js)
	if js.rejected && !json.Valid(b) {
		return m.redact(b)
	}
	return out, ok
}

// RedactJSONString is RedactJSON for strings.
func (s *Set) RedactJSONString(v string) string {
	out, ok := s.RedactJSON([]byte(v))
	if !ok {
		return v
	}
	return string(out)
}

// ContainsJSON reports whether RedactJSON would change b.
func (s *Set) ContainsJSON(b []byte) bool {
	_, ok := s.RedactJSON(b)
	return ok
}

// JSONStream returns a Stream redacting JSON text that arrives in pieces,
// such as a tool call's streamed arguments, as RedactJSON would redact it
// whole; it assumes the text is JSON (it cannot check before the end).
func (s *Set) JSONStream() *Stream { return &Stream{set: s, json: true} }
