package gitignore

import (
	"strings"
	"testing"
)

// FuzzMatch: whatever the .gitignore content and the path, parsing and
// matching finish without panicking, Match agrees with MatchEntry (a path
// matched by itself is ignored), and the literal and suffix shortcuts agree
// with the general glob matcher.
func FuzzMatch(f *testing.F) {
	f.Add("*.log\n!keep.log\nbuild/\n", "a/build/x.log", false)
	f.Add("a/**/b\n**/c\n[!a-c]?\n", "a/x/b", true)
	f.Add("[[:alpha:]]\\ \n\\#x\n", "q ", false)
	f.Add("[", "[", false)
	f.Add("\\", "\\", true)
	f.Fuzz(func(t *testing.T, content, path string, dir bool) {
		var m Matcher
		m.Add("", []byte(content))
		m.Add("sub", []byte(content))
		got := m.Match(path, dir)
		if m.MatchEntry(path, dir) && !got {
			t.Fatalf("content %q, path %q: MatchEntry is true but Match false", content, path)
		}
		name := path[strings.LastIndexByte(path, '/')+1:]
		for _, p := range m.patterns {
			if p.literal {
				if (wild(p.glob, path, true) == hit) != (p.glob == path) {
					t.Fatalf("literal glob %q, text %q: the glob matcher disagrees with comparison", p.glob, path)
				}
			}
			if p.suffix {
				if (wild(p.glob, name, false) == hit) != strings.HasSuffix(name, p.glob[1:]) {
					t.Fatalf("suffix glob %q, name %q: the glob matcher disagrees with the suffix test", p.glob, name)
				}
			}
		}
	})
}
