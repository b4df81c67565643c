package jsonscan

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// htmlSafe marks the ASCII bytes a JSON string holds unescaped: the
// printable ones except '"', '\\' and, as encoding/json escapes them for
// HTML, '<', '>' and '&'.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// AppendQuote appends s to dst as a JSON string, escaped byte for byte as
// json.Marshal escapes a string: '"' and '\\' with a backslash; \b, \f,
// \n, \r and \t in short form; other control characters, '<', '>' and '&'
// as \u00XX; U+2028 and U+2029 as \u2028 and \u2029; each byte of invalid
// UTF-8 as \ufffd.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if htmlSafe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendCompact appends the valid JSON text src to dst as json.Marshal
// writes a json.RawMessage: without insignificant whitespace, and with
// '<', '>', '&', U+2028 and U+2029 in strings escaped as in
// [AppendQuote]. src must be valid JSON (as the Decoder accepts it).
func AppendCompact(dst, src []byte) []byte {
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if !inString {
			switch c {
			case ' ', '\t', '\n', '\r':
				continue
			case '"':
				inString = true
			}
			dst = append(dst, c)
			continue
		}
		switch {
		case c == '"':
			inString = false
		case c == '\\':
			dst = append(dst, c, src[i+1])
			i++
			continue
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			continue
		case c == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xa8:
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xf])
			i += 2
			continue
		}
		dst = append(dst, c)
	}
	return dst
}
