package gitignore

import (
	"bytes"
	"strings"
)

// Matcher holds the patterns of gitignore files in the order they were
// added. Add the files of a directory's ancestors before the directory's
// own: later patterns take precedence. The zero value matches nothing. Add
// must not run concurrently with anything else; Match may run concurrently
// with itself.
type Matcher struct {
	patterns []pattern
}

// Add parses the content of the .gitignore of dir (slash-separated,
// relative to the root, "" or "." for the root) and appends its patterns.
// Lines end at "\n" (a "\r" before it is dropped); a leading UTF-8 byte
// order mark, blank lines and comments are skipped.
func (m *Matcher) Add(dir string, content []byte) {
	content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	for len(content) > 0 {
		line := content
		if i := bytes.IndexByte(content, '\n'); i >= 0 {
			line, content = content[:i], content[i+1:]
		} else {
			content = nil
		}
		m.AddLine(dir, string(line))
	}
}

// AddLine appends the pattern of one gitignore line, read as if it were in
// the .gitignore of dir; a blank or comment line adds nothing.
func (m *Matcher) AddLine(dir, line string) {
	dir = strings.Trim(dir, "/")
	if dir == "." {
		dir = ""
	}
	if p, ok := parseLine(dir, line); ok {
		m.patterns = append(m.patterns, p)
	}
}

// Len returns the number of patterns held.
func (m *Matcher) Len() int { return len(m.patterns) }

// Match reports whether git would ignore path (slash-separated, relative to
// the root, no trailing "/"; dir says whether it names a directory): it or
// one of its parent directories is matched, last, by a pattern that is not
// a negation. A file below an excluded directory cannot be re-included.
func (m *Matcher) Match(path string, dir bool) bool {
	if len(m.patterns) == 0 {
		return false
	}
	start := 0
	for {
		i := strings.IndexByte(path[start:], '/')
		if i < 0 {
			break
		}
		if m.MatchEntry(path[:start+i], true) {
			return true
		}
		start += i + 1
	}
	return m.MatchEntry(path, dir)
}

// MatchEntry is Match for a path whose parent directories are known not
// to be ignored, as in a walk that skips ignored directories: only the
// patterns matching path itself count.
func (m *Matcher) MatchEntry(path string, dir bool) bool {
	name := path[strings.LastIndexByte(path, '/')+1:]
	for i := len(m.patterns) - 1; i >= 0; i-- {
		if p := &m.patterns[i]; p.matches(path, name, dir) {
			return !p.negate
		}
	}
	return false
}
