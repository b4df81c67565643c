package provider

import "unicode/utf8"

// appendJSONString appends s to dst as a JSON string exactly as
// encoding/json.Marshal writes a Go string holding s's bytes (HTML
// characters, U+2028 and U+2029 escaped; each invalid UTF-8 byte as
// \ufffd), without the copies Marshal makes of a large value: an
// exchange's output carries the whole response body (FuzzAppendJSONString
// holds it to Marshal).
func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	dst, _ = appendEscaped(dst, s, true)
	return append(dst, '"')
}

// appendJSONChunks appends the concatenation of chunks to dst as
// appendJSONString would, without joining them: a rune split across
// chunks is carried to the next one.
func appendJSONChunks(dst []byte, chunks [][]byte) []byte {
	dst = append(dst, '"')
	var cbuf, pbuf [utf8.UTFMax]byte
	carry := cbuf[:0] // an incomplete rune at the end of what was written
	for _, c := range chunks {
		for len(carry) > 0 && len(c) > 0 {
			probe := append(pbuf[:0], carry...)
			j := 0
			for j < len(c) && !utf8.FullRune(probe) {
				probe = append(probe, c[j])
				j++
			}
			if !utf8.FullRune(probe) {
				carry, c = append(cbuf[:0], probe...), c[j:]
				break
			}
			_, size := utf8.DecodeRune(probe)
			dst, _ = appendEscaped(dst, probe[:size], true)
			if size >= len(carry) {
				c, carry = c[size-len(carry):], cbuf[:0]
			} else {
				// An invalid first byte: what followed it starts over.
				carry = append(cbuf[:0], carry[size:]...)
			}
		}
		if len(carry) > 0 {
			continue
		}
		var rest []byte
		dst, rest = appendEscaped(dst, c, false)
		carry = append(cbuf[:0], rest...)
	}
	dst, _ = appendEscaped(dst, carry, true)
	return append(dst, '"')
}

// appendEscaped appends s's bytes escaped for a JSON string. Unless final,
// an incomplete rune at the end of s is not written but returned, for the
// caller to complete from what follows.
func appendEscaped(dst, s []byte, final bool) ([]byte, []byte) {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
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
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
			}
			i++
			start = i
			continue
		}
		if !final && !utf8.FullRune(s[i:]) {
			return append(dst, s[start:i]...), s[i:]
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...), nil
}
