package gitignore

import "strings"

// outcome is the result of matching a glob against a text. Besides a hit
// and a plain miss, two misses tell the enclosing stars to stop trying
// longer spans: git's wildmatch prunes its backtracking the same way, and a
// malformed bracket expression ends the whole match through them.
type outcome uint8

const (
	hit         outcome = iota
	miss                // no match here; an enclosing star may try a longer span
	missAll             // no match, whatever the enclosing stars span
	missToStars         // only an enclosing "**" may try a longer span
)

// wild matches text against the glob g. With path set (patterns containing
// a "/"), "*", "?" and bracket expressions never match "/", and "**" next to
// slashes crosses directories; without it (base names) every star may match
// anything. It never allocates.
func wild(g, text string, path bool) outcome {
	gi, ti := 0, 0
	for ; gi < len(g); gi, ti = gi+1, ti+1 {
		c := g[gi]
		if ti == len(text) && c != '*' {
			return missAll
		}
		switch c {
		case '\\':
			// An escaped byte is literal; a trailing "\" matches nothing.
			gi++
			if gi == len(g) || text[ti] != g[gi] {
				return miss
			}
		case '?':
			if path && text[ti] == '/' {
				return miss
			}
		case '[':
			end, in, bad := class(g, gi+1, text[ti])
			if bad {
				return missAll
			}
			if !in || (path && text[ti] == '/') {
				return miss
			}
			gi = end
		case '*':
			var done bool
			var r outcome
			gi, ti, done, r = star(g, gi, text, ti, path)
			if done {
				return r
			}
		default:
			if text[ti] != c {
				return miss
			}
		}
	}
	if ti < len(text) {
		return miss
	}
	return hit
}

// star matches the run of stars at g[gi] against text[ti:]. Either it
// decides the whole match (done, with r), or it consumed a single star up to
// the next "/" of the text: then it returns the positions of the matching
// slashes for wild's loop to step over.
func star(g string, gi int, text string, ti int, path bool) (int, int, bool, outcome) {
	cross := !path // whether this star may span a "/"
	gi++
	if gi < len(g) && g[gi] == '*' {
		before := gi - 2
		for gi < len(g) && g[gi] == '*' {
			gi++
		}
		startsSegment := before < 0 || g[before] == '/'
		endsSegment := gi == len(g) || g[gi] == '/' || (g[gi] == '\\' && gi+1 < len(g) && g[gi+1] == '/')
		cross = startsSegment && endsSegment
		// "**/" may also match no directory at all.
		if cross && gi < len(g) && g[gi] == '/' && wild(g[gi+1:], text[ti:], path) == hit {
			return gi, ti, true, hit
		}
	}
	if gi == len(g) {
		// A trailing "**" matches everything; a trailing "*" the rest of
		// one name.
		if !cross && strings.IndexByte(text[ti:], '/') >= 0 {
			return gi, ti, true, miss
		}
		return gi, ti, true, hit
	}
	if !cross && g[gi] == '/' {
		s := strings.IndexByte(text[ti:], '/')
		if s < 0 {
			return gi, ti, true, miss
		}
		return gi, ti + s, false, hit
	}
	for ti < len(text) {
		if lit := g[gi]; !special(lit) {
			// Skip ahead to the next occurrence of the literal that
			// follows the star; what lies before it belongs to the star.
			for ti < len(text) && (cross || text[ti] != '/') && text[ti] != lit {
				ti++
			}
			if ti == len(text) || text[ti] != lit {
				if cross {
					return gi, ti, true, missAll
				}
				return gi, ti, true, missToStars
			}
		}
		r := wild(g[gi:], text[ti:], path)
		if r != miss {
			if !cross || r != missToStars {
				return gi, ti, true, r
			}
		} else if !cross && text[ti] == '/' {
			return gi, ti, true, missToStars
		}
		ti++
	}
	return gi, ti, true, missAll
}

// special reports whether b starts a wildcard or an escape in a glob.
func special(b byte) bool {
	return b == '*' || b == '?' || b == '[' || b == '\\'
}

// class matches b against the bracket expression whose body starts at g[i]
// (just after the "["). It returns the index of the closing "]" and whether
// b is in the set (negation applied); bad reports a malformed expression
// (no closing "]", an unknown "[:name:]"), which makes the glob match
// nothing.
func class(g string, i int, b byte) (end int, in, bad bool) {
	negated := false
	if i < len(g) && (g[i] == '!' || g[i] == '^') {
		negated = true
		i++
	}
	matched := false
	var prev byte // the previous member, 0 after a range or a [:name:]
	for first := true; ; first = false {
		if i >= len(g) {
			return 0, false, true
		}
		m := g[i]
		if m == ']' && !first {
			break
		}
		switch {
		case m == '\\':
			i++
			if i >= len(g) {
				return 0, false, true
			}
			m = g[i]
			matched = matched || b == m
		case m == '-' && prev != 0 && i+1 < len(g) && g[i+1] != ']':
			i++
			hi := g[i]
			if hi == '\\' {
				i++
				if i >= len(g) {
					return 0, false, true
				}
				hi = g[i]
			}
			matched = matched || (prev <= b && b <= hi)
			m = 0
		case m == '[' && i+1 < len(g) && g[i+1] == ':':
			s := i + 2
			j := s
			for j < len(g) && g[j] != ']' {
				j++
			}
			if j == len(g) {
				return 0, false, true
			}
			if j-s-1 < 0 || g[j-1] != ':' {
				// No ":]": the "[" is an ordinary member.
				matched = matched || b == '['
				break
			}
			ok, known := posix(g[s:j-1], b)
			if !known {
				return 0, false, true
			}
			matched = matched || ok
			i = j
			m = 0
		default:
			matched = matched || b == m
		}
		prev = m
		i++
	}
	return i, matched != negated, false
}

// posix reports whether b belongs to the named POSIX character class, in
// the C locale (bytes from 0x80 belong to none); known is false for a name
// that is no class.
func posix(name string, b byte) (in, known bool) {
	lower := 'a' <= b && b <= 'z'
	upper := 'A' <= b && b <= 'Z'
	digit := '0' <= b && b <= '9'
	space := b == ' ' || ('\t' <= b && b <= '\r')
	graph := '!' <= b && b <= '~'
	switch name {
	case "alnum":
		return lower || upper || digit, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return b == ' ' || b == '\t', true
	case "cntrl":
		return b < 0x20 || b == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return graph, true
	case "lower":
		return lower, true
	case "print":
		return graph || b == ' ', true
	case "punct":
		return graph && !lower && !upper && !digit, true
	case "space":
		return space, true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || ('a' <= b && b <= 'f') || ('A' <= b && b <= 'F'), true
	}
	return false, false
}
