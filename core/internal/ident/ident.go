package ident

// Class reports whether an ASCII byte belongs to a character class.
type Class func(c byte) bool

// Letter is [A-Za-z].
func Letter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// Lower is [a-z].
func Lower(c byte) bool { return c >= 'a' && c <= 'z' }

// LowerAlnumDash is [a-z0-9-].
func LowerAlnumDash(c byte) bool { return Lower(c) || c >= '0' && c <= '9' || c == '-' }

// Alnum is [A-Za-z0-9].
func Alnum(c byte) bool { return Letter(c) || c >= '0' && c <= '9' }

// Valid reports whether s is 1 to max bytes long, its first byte is in
// first and every other byte is in rest: the regular expression
// `^[first][rest]{0,max-1}$`. It is safe for concurrent use.
func Valid(s string, max int, first, rest Class) bool {
	if len(s) == 0 || len(s) > max || !first(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !rest(s[i]) {
			return false
		}
	}
	return true
}

// Distance is the Levenshtein distance of a and b, counted in bytes: the
// fewest single-byte insertions, deletions and substitutions that turn a
// into b. It serves "did you mean" suggestions.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
