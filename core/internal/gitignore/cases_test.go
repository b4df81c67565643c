package gitignore

// matchCase is one path asked of the .gitignore files of a tree: files maps
// a directory ("" for the root) to its .gitignore's content.
type matchCase struct {
	name  string
	files map[string]string
	path  string
	dir   bool
	want  bool
}

// root is a tree with one .gitignore, at the root.
func root(content string) map[string]string { return map[string]string{"": content} }

// matchCases are the hand-written cases, covering every rule of gitignore(5);
// TestMatchTable checks their expectations and TestAgainstGit checks each
// against git itself.
var matchCases = []matchCase{
	// Blank lines, comments, escapes.
	{name: "blank lines match nothing", files: root("\n\n   \n"), path: "a", want: false},
	{name: "comment line", files: root("#a\n"), path: "#a", want: false},
	{name: "comment does not match the commented name", files: root("# a\n"), path: "a", want: false},
	{name: "escaped hash", files: root("\\#a\n"), path: "#a", want: true},
	{name: "hash inside a pattern is literal", files: root("a#b\n"), path: "a#b", want: true},
	{name: "escaped bang", files: root("\\!a\n"), path: "!a", want: true},
	{name: "escaped bang is no negation", files: root("*\n\\!a\n"), path: "!a", want: true},
	{name: "bang inside a pattern is literal", files: root("a!\n"), path: "a!", want: true},
	{name: "trailing spaces trimmed", files: root("a   \n"), path: "a", want: true},
	{name: "trailing spaces do not match a name with them", files: root("a  \n"), path: "a ", want: false},
	{name: "escaped trailing space kept", files: root("a\\ \n"), path: "a ", want: true},
	{name: "escaped trailing space then unescaped ones", files: root("a\\   \n"), path: "a ", want: true},
	{name: "escaped trailing space needs it", files: root("a\\ \n"), path: "a", want: false},
	{name: "space before an escape kept", files: root("a \\b\n"), path: "a b", want: true},
	{name: "leading spaces kept", files: root(" a\n"), path: " a", want: true},
	{name: "leading spaces are not trimmed", files: root(" a\n"), path: "a", want: false},
	{name: "trailing tab kept", files: root("a\t\n"), path: "a", want: false},
	{name: "crlf line ending", files: root("a\r\nb\r\n"), path: "b", want: true},
	{name: "no final newline", files: root("x\na"), path: "a", want: true},
	{name: "byte order mark skipped", files: root("\xef\xbb\xbfa\n"), path: "a", want: true},
	{name: "trailing backslash matches nothing", files: root("a\\\n"), path: "a", want: false},
	{name: "escaped ordinary letter", files: root("\\a\n"), path: "a", want: true},

	// Negation and precedence.
	{name: "negation re-includes", files: root("*.log\n!keep.log\n"), path: "keep.log", want: false},
	{name: "negation leaves others", files: root("*.log\n!keep.log\n"), path: "x.log", want: true},
	{name: "last match wins", files: root("!keep.log\n*.log\n"), path: "keep.log", want: true},
	{name: "negation alone ignores nothing", files: root("!a\n"), path: "a", want: false},
	{name: "nested file overrides root", files: map[string]string{"": "*.log\n", "d": "!*.log\n"}, path: "d/x.log", want: false},
	{name: "nested negation only below its dir", files: map[string]string{"": "*.log\n", "d": "!*.log\n"}, path: "e/x.log", want: true},
	{name: "root overridden back in deeper file", files: map[string]string{"": "a\n", "d": "!a\n", "d/e": "a\n"}, path: "d/e/a", want: true},
	{name: "excluded dir cannot be re-included into", files: root("build/\n!build/keep.go\n"), path: "build/keep.go", want: true},
	{name: "excluded dir by name cannot be re-included into", files: root("d\n!d/f\n"), path: "d/f", want: true},
	{name: "dir contents excluded, one re-included", files: root("build/*\n!build/keep.go\n"), path: "build/keep.go", want: false},
	{name: "dir contents excluded, others stay", files: root("build/*\n!build/keep.go\n"), path: "build/x.go", want: true},
	{name: "re-included dir", files: root("d*\n!dd\n"), path: "dd/f", dir: false, want: false},
	{name: "nested negation cannot lift an excluded parent", files: map[string]string{"": "d/\n", "d": "!f\n"}, path: "d/f", want: true},
	{name: "everything but one", files: root("*\n!a\n"), path: "a", want: false},
	{name: "everything but a dir, its files excluded by star", files: root("*\n!d/\n"), path: "d/f", want: true},
	{name: "everything but a dir and its files", files: root("*\n!d/\n!d/*\n"), path: "d/f", want: false},

	// Directories only.
	{name: "trailing slash matches a dir", files: root("build/\n"), path: "build", dir: true, want: true},
	{name: "trailing slash skips a file", files: root("build/\n"), path: "build", want: false},
	{name: "trailing slash matches a deep dir", files: root("build/\n"), path: "a/b/build", dir: true, want: true},
	{name: "trailing slash excludes the dir's files", files: root("build/\n"), path: "a/build/x", want: true},
	{name: "trailing slash anchored dir", files: root("/a/b/\n"), path: "a/b", dir: true, want: true},
	{name: "trailing slash glob dir", files: root("*.d/\n"), path: "x.d", dir: true, want: true},
	{name: "trailing slash glob file", files: root("*.d/\n"), path: "x.d", want: false},
	{name: "negated dir-only leaves file", files: root("a\n!a/\n"), path: "a", want: true},
	{name: "negated dir-only lifts dir", files: root("a\n!a/\n"), path: "a", dir: true, want: false},

	// Anchoring.
	{name: "no slash matches at any depth", files: root("a.o\n"), path: "x/y/a.o", want: true},
	{name: "leading slash anchors", files: root("/a.o\n"), path: "x/a.o", want: false},
	{name: "leading slash matches at root", files: root("/a.o\n"), path: "a.o", want: true},
	{name: "middle slash anchors", files: root("x/a.o\n"), path: "y/x/a.o", want: false},
	{name: "middle slash matches from root", files: root("x/a.o\n"), path: "x/a.o", want: true},
	{name: "nested anchored to its dir", files: map[string]string{"s": "/g.go\n"}, path: "s/g.go", want: true},
	{name: "nested anchored not deeper", files: map[string]string{"s": "/g.go\n"}, path: "s/t/g.go", want: false},
	{name: "nested anchored not at root", files: map[string]string{"s": "/g.go\n"}, path: "g.go", want: false},
	{name: "nested unanchored below its dir", files: map[string]string{"s": "g.go\n"}, path: "s/t/g.go", want: true},
	{name: "nested unanchored not beside its dir", files: map[string]string{"s": "g.go\n"}, path: "g.go", want: false},
	{name: "nested not in a sibling with shared prefix", files: map[string]string{"s": "g.go\n"}, path: "st/g.go", want: false},
	{name: "nested middle slash", files: map[string]string{"s": "t/g.go\n"}, path: "s/t/g.go", want: true},
	{name: "nested middle slash not from root", files: map[string]string{"s": "t/g.go\n"}, path: "t/g.go", want: false},
	{name: "nested dir does not match itself", files: map[string]string{"s": "s\n"}, path: "s", dir: true, want: false},
	{name: "pattern of a parent path name", files: root("a\n"), path: "a/b", want: true},

	// Wildcards.
	{name: "star", files: root("*.o\n"), path: "a.o", want: true},
	{name: "star matches empty", files: root("a*\n"), path: "a", want: true},
	{name: "star stops at slash", files: root("a/*.o\n"), path: "a/b/c.o", want: false},
	{name: "star in anchored pattern", files: root("a/*.o\n"), path: "a/c.o", want: true},
	{name: "star alone spans a name only", files: root("a/*\n"), path: "a/b", dir: true, want: true},
	{name: "star slash star", files: root("*/*\n"), path: "a/b", want: true},
	{name: "star slash star deep via parent", files: root("*/*\n"), path: "a/b/c", want: true},
	{name: "star slash needs a dir", files: root("*/b\n"), path: "b", want: false},
	{name: "question mark", files: root("a?c\n"), path: "abc", want: true},
	{name: "question mark needs one", files: root("a?c\n"), path: "ac", want: false},
	{name: "question mark not slash", files: root("a?c\n"), path: "a/c", want: false},
	{name: "escaped star is literal", files: root("a\\*\n"), path: "a*", want: true},
	{name: "escaped star not wildcard", files: root("a\\*\n"), path: "ab", want: false},
	{name: "question mark not slash in a path pattern", files: root("x/a?c\n"), path: "x/a/c", want: false},
	{name: "question mark in a path pattern", files: root("x/a?c\n"), path: "x/abc", want: true},
	{name: "escaped question", files: root("\\?\n"), path: "x", want: false},

	// Bracket expressions.
	{name: "class", files: root("[ab].c\n"), path: "b.c", want: true},
	{name: "class miss", files: root("[ab].c\n"), path: "c.c", want: false},
	{name: "range", files: root("x[0-9]\n"), path: "x7", want: true},
	{name: "range miss", files: root("x[0-9]\n"), path: "xa", want: false},
	{name: "negated bang", files: root("x[!0-9]\n"), path: "xa", want: true},
	{name: "negated bang miss", files: root("x[!0-9]\n"), path: "x1", want: false},
	{name: "negated caret", files: root("x[^a]\n"), path: "xb", want: true},
	{name: "negated caret miss", files: root("x[^a]\n"), path: "xa", want: false},
	{name: "bracket first is literal", files: root("[]a]\n"), path: "]", want: true},
	{name: "negated bracket first is literal", files: root("[!]]\n"), path: "]", want: false},
	{name: "escape in class", files: root("[\\]]\n"), path: "]", want: true},
	{name: "escaped dash in class", files: root("[a\\-c]\n"), path: "b", want: false},
	{name: "escaped dash in class matches dash", files: root("[a\\-c]\n"), path: "-", want: true},
	{name: "dash last is literal", files: root("[a-]\n"), path: "-", want: true},
	{name: "dash first is literal", files: root("[-a]\n"), path: "-", want: true},
	{name: "posix class", files: root("[[:digit:]]x\n"), path: "5x", want: true},
	{name: "posix class miss", files: root("[[:digit:]]x\n"), path: "ax", want: false},
	{name: "punct class", files: root("[[:punct:]]\n"), path: "!", want: true},
	{name: "punct class has no digits", files: root("[[:punct:]]\n"), path: "1", want: false},
	{name: "unknown posix class matches nothing", files: root("[[:nope:]]\n"), path: "a", want: false},
	{name: "unterminated class matches nothing", files: root("[ab\n"), path: "[ab", want: false},
	{name: "class never matches slash", files: root("a[!b]c\n"), path: "a/c", want: false},
	{name: "class with open bracket member", files: root("[[a]\n"), path: "[", want: true},

	// Double stars.
	{name: "leading double star", files: root("**/foo\n"), path: "a/b/foo", want: true},
	{name: "leading double star at root", files: root("**/foo\n"), path: "foo", want: true},
	{name: "leading double star with dir", files: root("**/foo/bar\n"), path: "x/foo/bar", want: true},
	{name: "leading double star with dir miss", files: root("**/foo/bar\n"), path: "x/foo/y/bar", want: false},
	{name: "trailing double star", files: root("abc/**\n"), path: "abc/x/y", want: true},
	{name: "trailing double star not the dir", files: root("abc/**\n"), path: "abc", dir: true, want: false},
	{name: "middle double star zero dirs", files: root("a/**/b\n"), path: "a/b", want: true},
	{name: "middle double star many dirs", files: root("a/**/b\n"), path: "a/x/y/b", want: true},
	{name: "middle double star anchored", files: root("a/**/b\n"), path: "z/a/x/b", want: false},
	{name: "other double star acts like star", files: root("a**b\n"), path: "axxb", want: true},
	{name: "other double star stops at slash", files: root("x/a**b\n"), path: "x/a/b", want: false},
	{name: "double star suffix acts like star", files: root("x/**b\n"), path: "x/y/b", want: false},
	{name: "triple star like double", files: root("***/foo\n"), path: "a/foo", want: true},
	{name: "double star alone", files: root("**\n"), path: "a/b", want: true},
	{name: "nested double star", files: map[string]string{"d": "**/x\n"}, path: "d/a/x", want: true},
	{name: "nested double star not outside", files: map[string]string{"d": "**/x\n"}, path: "x", want: false},
}
