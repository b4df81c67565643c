package config

import "bytes"

// literalKeys finds the values written after key= in src (quoted,
// raw or bare, terminated or not), so that no diagnostic of the KDL parser
// can echo a literal credential, even from a file that does not parse.
func literalKeys(src []byte) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		j, ok := afterKeyEquals(src, i)
		if !ok {
			continue
		}
		if v := valueAt(src, j); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// afterKeyEquals reports whether src holds "key", optional blanks, '='
// and optional blanks at i, and returns the index after them.
func afterKeyEquals(src []byte, i int) (int, bool) {
	if !bytes.HasPrefix(src[i:], []byte("key")) {
		return 0, false
	}
	j := skipBlanks(src, i+3)
	if j >= len(src) || src[j] != '=' {
		return 0, false
	}
	return skipBlanks(src, j+1), true
}

func skipBlanks(src []byte, j int) int {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	return j
}

// valueAt returns the text of the value starting at src[j]: a raw
// string's content up to its closing quote and hashes, a quoted string's
// content up to its closing quote or the end of the line, or a bare word.
func valueAt(src []byte, j int) string {
	if j >= len(src) {
		return ""
	}
	rest := src[j:]
	switch {
	case rest[0] == '#':
		h := 0
		for h < len(rest) && rest[h] == '#' {
			h++
		}
		if h >= len(rest) || rest[h] != '"' {
			return ""
		}
		body := rest[h+1:]
		end := bytes.Index(body, append([]byte{'"'}, bytes.Repeat([]byte{'#'}, h)...))
		if end < 0 {
			end = len(body)
		}
		return string(body[:end])
	case rest[0] == '"':
		body := rest[1:]
		end := 0
		for end < len(body) && body[end] != '"' && body[end] != '\n' {
			if body[end] == '\\' {
				end++
			}
			end++
		}
		return string(body[:min(end, len(body))])
	}
	end := 0
	for end < len(rest) && !bytes.ContainsRune([]byte(" \t\r\n;{}\"="), rune(rest[end])) {
		end++
	}
	return string(rest[:end])
}
