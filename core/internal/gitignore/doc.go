// Package gitignore decides which paths gitignore patterns exclude, with the
// semantics of git itself (gitignore(5)), held to `git check-ignore` by a
// differential test.
//
// A [Matcher] collects the lines of .gitignore files, each with the
// directory it came from, and answers for slash-separated paths relative to
// the root:
//
//	var m gitignore.Matcher
//	m.Add("", []byte("*.log\nbuild/\n!keep.log\n"))
//	m.Add("src", []byte("/gen_*.go\n"))
//	m.Match("a/b/x.log", false)      // true: a pattern without "/" matches a name at any depth
//	m.Match("keep.log", false)       // false: the last matching pattern wins, here a negation
//	m.Match("build/keep.log", false) // true: an excluded directory's files cannot be re-included
//	m.Match("src/gen_a.go", false)   // true; "src/x/gen_a.go" is not (anchored to src)
//
// Patterns are parsed once, when added; matching never allocates. The rules
// implemented: blank lines and "#" comments are skipped; "\#" and "\!"
// escape a leading "#" or "!"; trailing spaces are trimmed unless escaped
// with "\"; a trailing "\r" is dropped; "!" negates; the last matching
// pattern wins, and the patterns of a deeper .gitignore come after (so
// override) those of its ancestors; a trailing "/" matches only directories;
// a "/" at the start or in the middle anchors the pattern to its
// .gitignore's directory, otherwise it matches a name at any depth below
// it; "*", "?" and "[...]" (ranges, "[!...]", "[^...]", "\" escapes,
// "[:alpha:]"-style classes in the C locale) never match "/"; "**/" at the
// start, "/**" at the end and "/**/" in the middle cross directories, any
// other "**" acts like "*". A malformed class ("[" without "]", an unknown
// "[:name:]") and a trailing unescaped "\" make a pattern match nothing, as
// in git. Case is significant (git's core.ignoreCase=false).
package gitignore
