package textout

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Safe returns s with every control character a terminal would act on
// made visible instead: C0 controls but tab and line feed, and DEL, become
// their Unicode control pictures (ESC is "␛", so "\x1b[2J" prints as
// "␛[2J" and clears nothing; a CRLF line end is a line end); C1 controls (U+0080–U+009F, which some
// terminals take as CSI, OSC, DCS…) and invalid UTF-8 become U+FFFD. No
// ECMA-48 sequence — CSI, OSC, DCS, APC, PM, SOS or a bare ESC — survives
// it. Model text, tool output, file names and error bodies are untrusted
// content, and every line this package prints goes through Safe. Text with
// nothing to neutralize is returned as it is, not copied.
func Safe(s string) string {
	i := unsafeAt(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	rest := s[i:]
	for j, r := range rest { // an invalid byte ranges as utf8.RuneError
		switch {
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r == '\r' && strings.HasPrefix(rest[j+1:], "\n"):
			// a CRLF line end is a line end
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('\u2421')
		case r >= 0x80 && r <= 0x9f:
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeAt returns the index of the first byte Safe must change, or -1.
func unsafeAt(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || (r >= 0x80 && r <= 0x9f) {
			return i
		}
		i += n
	}
	return -1
}

// SafeWriter passes each Write to W through [Safe]; each Write must hold
// whole runes (one formatted line does). It reports len(p) written when W
// took the safe form whole.
type SafeWriter struct{ W io.Writer }

// Write writes Safe(p) to W.
func (s SafeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.W, Safe(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
