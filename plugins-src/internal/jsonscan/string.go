package jsonscan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// String is a JSON string as it appears in the input, quotes and escapes
// included, aliasing the input; nil when the value was null or absent.
type String []byte

// Empty reports whether s is absent, null or "".
func (s String) Empty() bool { return len(s) <= 2 }

// String returns s unquoted: escapes resolved, invalid UTF-8 and lone
// surrogates replaced by U+FFFD as encoding/json does; "" when s is nil.
// Only a string without escapes and with valid UTF-8 is copied as is.
func (s String) String() string {
	if len(s) < 2 {
		return ""
	}
	if in := s[1 : len(s)-1]; plain(in) {
		return string(in)
	}
	return string(appendUnquoted(nil, s))
}

// Bytes returns s unquoted as a new slice; nil when s is nil, empty but
// not nil for "".
func (s String) Bytes() []byte {
	if s == nil {
		return nil
	}
	if len(s) < 2 {
		return []byte{}
	}
	if in := s[1 : len(s)-1]; plain(in) {
		return append([]byte{}, in...)
	}
	return appendUnquoted([]byte{}, s)
}

// Equal reports whether s unquoted is v.
func (s String) Equal(v string) bool {
	if len(s) < 2 {
		return v == ""
	}
	if in := s[1 : len(s)-1]; plain(in) {
		return string(in) == v
	}
	return s.String() == v
}

// plain reports whether in (a string's content) needs no unquoting.
func plain(in []byte) bool { return bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) }

// appendUnquoted appends the content of the validated string literal q
// (quotes included) to dst, resolving escapes the way encoding/json does.
func appendUnquoted(dst, q []byte) []byte {
	in := q[1 : len(q)-1]
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\':
			e := in[i+1]
			i += 2
			switch e {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(in[i:])
				i += 4
				if utf16.IsSurrogate(r) {
					if len(in)-i >= 6 && in[i] == '\\' && in[i+1] == 'u' {
						if r2 := utf16.DecodeRune(r, hex4(in[i+2:])); r2 != utf8.RuneError {
							i += 6
							dst = utf8.AppendRune(dst, r2)
							break
						}
					}
					r = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, r)
			default: // '"', '\\', '/'
				dst = append(dst, e)
			}
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(in[i:])
			i += n
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
