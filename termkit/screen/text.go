package screen

import (
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// TabWidth is the distance between tab stops used when tabs are expanded.
const TabWidth = 8

// picture returns the visible stand-in for a control or invalid grapheme,
// and whether g needed one. C0 controls become the Unicode control
// pictures (ESC is drawn as "␛"), DEL "␡", C1 controls and invalid UTF-8
// "�".
func picture(g string) (string, bool) {
	r, size := utf8.DecodeRuneInString(g)
	switch {
	case r == utf8.RuneError && size <= 1:
		return "\uFFFD", true
	case r < 0x20:
		return string(rune(0x2400 + r)), true
	case r == 0x7F:
		return "\u2421", true
	case r >= 0x80 && r < 0xA0:
		return "\uFFFD", true
	}
	if !utf8.ValidString(g) {
		return "\uFFFD", true
	}
	return g, false
}

// graphemes calls f for each display unit of s with its width, in order:
// tabs expanded to spaces (stops every TabWidth columns counted from col),
// controls replaced by pictures, zero-width clusters dropped. It stops when
// f returns false.
func graphemes(s string, col int, f func(g string, w int) bool) {
	for len(s) > 0 {
		// ASCII fast path, unless a combining mark or joiner may follow.
		if c := s[0]; c >= 0x20 && c < 0x7F && (len(s) == 1 || s[1] < 0x80) {
			if !f(s[:1], 1) {
				return
			}
			s = s[1:]
			col++
			continue
		}
		if s[0] == '\t' {
			n := TabWidth - col%TabWidth
			for range n {
				if !f(" ", 1) {
					return
				}
			}
			col += n
			s = s[1:]
			continue
		}
		it := displaywidth.StringGraphemes(s)
		if !it.Next() {
			return
		}
		g := it.Value()
		s = s[len(g):]
		if p, bad := picture(g); bad {
			if !f(p, 1) {
				return
			}
			col++
			continue
		}
		w := it.Width()
		if w == 0 {
			continue
		}
		if w > 2 {
			w = 2
		}
		if !f(g, w) {
			return
		}
		col += w
	}
}

// Sanitize returns s as it will be drawn: tabs expanded to spaces (stops
// every [TabWidth] columns from the start of s), control characters (C0,
// DEL, C1, including ESC and newlines) replaced by visible pictures such as
// "␛", invalid UTF-8 by "�", and zero-width clusters with no base dropped.
// The result never contains a byte that a terminal interprets as control.
// Split multi-line text into lines before sanitizing.
func Sanitize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7F || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	graphemes(s, 0, func(g string, _ int) bool {
		b.WriteString(g)
		return true
	})
	return b.String()
}

// Width returns the number of columns s takes once sanitized (see
// [Sanitize]): grapheme clusters measured with Unicode 17 tables, wide
// clusters (CJK, emoji, ZWJ sequences) 2 columns, combining marks 0,
// ambiguous East Asian characters 1.
func Width(s string) int {
	n := 0
	graphemes(s, 0, func(_ string, w int) bool {
		n += w
		return true
	})
	return n
}

// Truncate returns the longest prefix of Sanitize(s) that fits in max
// columns; if s had to be cut and tail is not empty, the prefix is
// shortened further so that tail (sanitized too) fits after it.
func Truncate(s string, max int, tail string) string {
	if max <= 0 {
		return ""
	}
	if Width(s) <= max {
		return Sanitize(s)
	}
	tail = Sanitize(tail)
	limit := max - Width(tail)
	if limit < 0 {
		limit, tail = max, ""
	}
	var b strings.Builder
	used := 0
	graphemes(s, 0, func(g string, w int) bool {
		if used+w > limit {
			return false
		}
		used += w
		b.WriteString(g)
		return true
	})
	return b.String() + tail
}
