package gitignore

import "strings"

// pattern is one parsed gitignore line.
type pattern struct {
	base     string // directory of its .gitignore, relative to the root; "" for the root
	glob     string // without "!", the trailing "/" and (anchored) the leading "/"
	negate   bool   // "!": a match re-includes
	dirOnly  bool   // trailing "/": matches directories only
	basename bool   // no "/" in the pattern: matched against the last name of a path
	literal  bool   // glob has no wildcard or escape: compared as is
	suffix   bool   // a base-name glob "*LITERAL": compared as a suffix
}

// parseLine parses one line of a .gitignore in dir; ok is false for a line
// that holds no pattern (blank, comment, or nothing left once "!", the
// trailing "/" and trailing spaces are taken away).
func parseLine(dir, line string) (pattern, bool) {
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i] // git reads patterns as C strings
	}
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return pattern{}, false
	}
	line = trimSpaces(line)
	p := pattern{base: dir}
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	if !strings.Contains(line, "/") {
		p.basename = true
	} else {
		line = strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return pattern{}, false // "!", "/", spaces: git keeps them, but they match no path
	}
	p.glob = line
	p.literal = !strings.ContainsAny(line, "*?[\\")
	p.suffix = p.basename && strings.HasPrefix(line, "*") && !strings.ContainsAny(line[1:], "*?[\\")
	return p, true
}

// trimSpaces drops trailing spaces that no "\" escapes (tabs stay).
func trimSpaces(s string) string {
	end := len(s)
	spaces := -1 // start of the current run of unescaped spaces
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if spaces < 0 {
				spaces = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s // a trailing "\" escapes nothing; the line stays
			}
			spaces = -1
		default:
			spaces = -1
		}
	}
	if spaces >= 0 {
		end = spaces
	}
	return s[:end]
}

// matches reports whether p matches path (slash-separated, relative to the
// root, name its last element); the path must lie below p's directory.
func (p *pattern) matches(path, name string, dir bool) bool {
	if p.dirOnly && !dir {
		return false
	}
	rel := path
	if p.base != "" {
		if len(path) <= len(p.base) || path[len(p.base)] != '/' || path[:len(p.base)] != p.base {
			return false
		}
		rel = path[len(p.base)+1:]
	}
	switch {
	case !p.basename && p.literal:
		return rel == p.glob
	case !p.basename:
		return wild(p.glob, rel, true) == hit
	case p.literal:
		return name == p.glob
	case p.suffix:
		return strings.HasSuffix(name, p.glob[1:])
	}
	return wild(p.glob, name, false) == hit
}
