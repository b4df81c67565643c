package widget

import "unicode"

// Fuzzy scores.
const (
	scoreMatch     = 16 // each matched rune
	bonusConsec    = 12 // a match right after the previous one
	bonusPrefix    = 14 // a match at the first rune
	bonusWordStart = 10 // a match after a separator (space, punctuation)
	bonusCamel     = 8  // an upper-case match after a lower-case rune
	maxLeadPenalty = 10 // the cap of the penalty for runes before the first match
)

// Fuzzy matches pattern against s as a case-insensitive subsequence. It
// returns the best score, the rune indexes in s of the matched runes, and
// whether it matched. Every matched rune scores; consecutive matches, word
// starts (after a space or punctuation, or a camelCase hump) and a match at
// the first rune score more; each skipped rune between matches costs 1,
// and runes before the first match cost 1 each up to 10. An empty pattern
// matches everything with score 0.
func Fuzzy(pattern, s string) (score int, positions []int, ok bool) {
	var f fuzzer
	return f.match(pattern, s, true)
}

// fuzzer holds scratch space reused across matches.
type fuzzer struct {
	pat          []rune
	str, low     []rune
	bonus        []int
	score        []int   // m×n table, minInt where no match ends
	from         []int32 // back pointers: previous match index
	lastPat      string
	lastPatValid bool
}

const minInt = -1 << 40

func (f *fuzzer) setPattern(p string) {
	if f.lastPatValid && f.lastPat == p {
		return
	}
	f.pat = f.pat[:0]
	for _, r := range p {
		f.pat = append(f.pat, unicode.ToLower(r))
	}
	f.lastPat, f.lastPatValid = p, true
}

func isSeparator(r rune) bool {
	return !(unicode.IsLetter(r) || unicode.IsDigit(r))
}

// match scores s; positions are computed only when wantPos is set.
func (f *fuzzer) match(pattern, s string, wantPos bool) (int, []int, bool) {
	f.setPattern(pattern)
	m := len(f.pat)
	if m == 0 {
		return 0, nil, true
	}
	// Quick reject: greedy subsequence test, no allocation.
	j := 0
	for _, r := range s {
		if j < m && unicode.ToLower(r) == f.pat[j] {
			j++
		}
	}
	if j < m {
		return 0, nil, false
	}
	f.str, f.low, f.bonus = f.str[:0], f.low[:0], f.bonus[:0]
	prev, i := ' ', 0
	for _, r := range s {
		f.str = append(f.str, r)
		f.low = append(f.low, unicode.ToLower(r))
		b := 0
		switch {
		case i == 0:
			b = bonusPrefix
		case isSeparator(prev) && !isSeparator(r):
			b = bonusWordStart
		case unicode.IsLower(prev) && unicode.IsUpper(r):
			b = bonusCamel
		}
		f.bonus = append(f.bonus, b)
		prev = r
		i++
	}
	n := len(f.str)
	if cap(f.score) < m*n {
		f.score = make([]int, m*n)
		f.from = make([]int32, m*n)
	}
	sc, from := f.score[:m*n], f.from[:m*n]
	for j := range m {
		row := sc[j*n : (j+1)*n]
		// best holds max over k ≤ i-2 of score[j-1][k] + k, and its k.
		best, bestK := minInt, int32(-1)
		for i := range n {
			if j > 0 && i >= 2 {
				if v := sc[(j-1)*n+i-2]; v > minInt && v+i-2 > best {
					best, bestK = v+i-2, int32(i-2)
				}
			}
			row[i] = minInt
			if f.low[i] != f.pat[j] {
				continue
			}
			base := scoreMatch + f.bonus[i]
			if j == 0 {
				row[i] = base - min(i, maxLeadPenalty)
				from[j*n+i] = -1
				continue
			}
			cand, k := minInt, int32(-1)
			if i >= 1 {
				if v := sc[(j-1)*n+i-1]; v > minInt {
					cand, k = v+bonusConsec, int32(i-1)
				}
			}
			if best > minInt {
				if v := best - (i - 1); v > cand {
					cand, k = v, bestK
				}
			}
			if cand > minInt {
				row[i] = base + cand
				from[j*n+i] = k
			}
		}
	}
	last := sc[(m-1)*n : m*n]
	bi := -1
	for i, v := range last {
		if v > minInt && (bi < 0 || v > last[bi]) {
			bi = i
		}
	}
	if bi < 0 {
		return 0, nil, false
	}
	score := last[bi]
	if !wantPos {
		return score, nil, true
	}
	pos := make([]int, m)
	for j, i := m-1, int32(bi); j >= 0; j-- {
		pos[j] = int(i)
		i = from[j*n+int(i)]
	}
	return score, pos, true
}
