package config

import "unicode/utf8"

// maxDepth bounds how deeply a configuration file nests blocks ({ … })
// and block comments (/* /* … */ */). The KDL parser recurses once per
// level, so a hostile file of a few hundred kilobytes could otherwise
// exhaust the stack; smith.kdl needs three levels.
const maxDepth = 64

// tooDeep returns the 1-based line and column of the first block or
// block comment in src that opens deeper than maxDepth, and true; or
// false when src nests no deeper. It reads src only as far as KDL 2's
// lexical structure decides what is a brace: quoted, raw and multi-line
// strings and line comments are skipped. It never fails: input that is
// not KDL is left to the parser to report.
func tooDeep(src []byte) (line, col int, found bool) {
	line, start := 1, 0 // start is the offset of the current line
	at := func(i int) (int, int) { return line, utf8.RuneCount(src[start:i]) + 1 }
	blocks, comments := 0, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			line, start = line+1, i+1
			continue
		}
		if comments > 0 {
			switch {
			case c == '*' && i+1 < len(src) && src[i+1] == '/':
				comments--
				i++
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				if comments++; comments > maxDepth {
					l, c := at(i)
					return l, c, true
				}
				i++
			}
			continue
		}
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			comments = 1
			i++
		case c == '{':
			if blocks++; blocks > maxDepth {
				l, c := at(i)
				return l, c, true
			}
		case c == '}':
			if blocks > 0 {
				blocks--
			}
		case c == '"' || c == '#':
			end := stringEnd(src, i)
			for j := i; j < end; j++ {
				if src[j] == '\n' {
					line, start = line+1, j+1
				}
			}
			i = end - 1
		}
	}
	return 0, 0, false
}

// stringEnd returns the offset just past the string starting at src[i]
// (a quoted "…", multi-line """…""", or raw #"…"# with any number of
// hashes), or i+1 when src[i] starts none (a lone '#', as in #true).
func stringEnd(src []byte, i int) int {
	hashes := 0
	for i+hashes < len(src) && src[i+hashes] == '#' {
		hashes++
	}
	q := i + hashes
	if q >= len(src) || src[q] != '"' {
		return i + 1
	}
	quotes := 1
	if q+2 < len(src) && src[q+1] == '"' && src[q+2] == '"' {
		quotes = 3
	}
	for j := q + quotes; j < len(src); j++ {
		switch {
		case src[j] == '\\' && hashes == 0:
			j++ // an escape: the next byte is never the closing quote
		case src[j] == '"' && closes(src, j, quotes, hashes):
			return j + quotes + hashes
		}
	}
	return len(src)
}

// closes reports whether the quotes at src[j] end a string opened with
// quotes quote characters and hashes hashes.
func closes(src []byte, j, quotes, hashes int) bool {
	if j+quotes+hashes > len(src) {
		return false
	}
	for k := 0; k < quotes; k++ {
		if src[j+k] != '"' {
			return false
		}
	}
	for k := 0; k < hashes; k++ {
		if src[j+quotes+k] != '#' {
			return false
		}
	}
	return true
}
