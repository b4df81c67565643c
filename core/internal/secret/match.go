package secret

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// The matcher finds every occurrence of a fixed set of patterns, all at
// least minLen ≥ 8 bytes long, by sampling. It looks at the 4-byte window
// starting at every step-th position only, step = minLen-3 (at most
// maxStep): an occurrence starting at p covers the window at the first
// multiple of step at or after p, at an offset below step, and its first
// minLen bytes hold that window entirely. A bitmap indexed by a hash of
// every 4-byte gram at offsets 0..step-1 of every pattern rejects almost
// all windows with one load; a window that passes is looked up exactly in
// the sorted grams, and each (pattern, offset) candidate it names is
// compared.
//
// An occurrence is found at exactly one window and the windows are visited
// in order, so the starts found at one window all precede those of the next
// one; within a window the longest pattern per start is kept. Taking the
// occurrences by increasing start and skipping those that overlap the last
// one taken yields the leftmost-longest matches.
type matcher struct {
	secrets []Secret       // sorted by name
	forms   [][]string     // encodings of each secret's value
	refs    []string       // Reference of each secret
	index   map[string]int // name → index in secrets

	pats   []string // patterns, without duplicates
	owner  []int32  // the index of each pattern's secret
	minLen int
	maxLen int
	step   int

	byFirst [256][]int32 // the patterns starting with each byte

	// The index is built at first use, so that a run of Adds at start-up
	// builds it once.
	once   sync.Once
	shift  uint32
	bitmap []uint64
	grams  []uint64 // gram<<32 | pattern<<8 | offset, sorted
	// prefixes is a bitmap indexed by a hash of each pattern's first
	// gramLen bytes, for Stream's partial.
	prefixes []uint64
}

const (
	gramLen     = 4
	maxStep     = 32
	hashMul     = 0x9e3779b1
	prefixShift = 32 - 16 // prefixes has 1<<16 bits
)

var emptyMatcher = &matcher{}

// newMatcher builds the matcher of secrets, which it sorts by name; forms
// holds each one's encodings in the same order.
func newMatcher(secrets []Secret, forms [][]string) *matcher {
	m := &matcher{secrets: secrets, forms: forms, index: make(map[string]int, len(secrets))}
	sort.Sort(byName{secrets, forms})
	n := 0
	for _, f := range forms {
		n += len(f)
	}
	seen := make(map[string]bool, n)
	m.pats = make([]string, 0, n)
	m.owner = make([]int32, 0, n)
	add := func(i int, f string) {
		if seen[f] {
			return // the same bytes from an earlier form or secret
		}
		seen[f] = true
		m.byFirst[f[0]] = append(m.byFirst[f[0]], int32(len(m.pats)))
		m.pats = append(m.pats, f)
		m.owner = append(m.owner, int32(i))
		if m.minLen == 0 || len(f) < m.minLen {
			m.minLen = len(f)
		}
		m.maxLen = max(m.maxLen, len(f))
	}
	// Plaintexts first, so that a secret's value wins over an encoding
	// of another one that happens to spell the same bytes.
	m.refs = make([]string, len(secrets))
	for i, s := range secrets {
		m.index[s.Name] = i
		m.refs[i] = Reference(s.Name)
		add(i, forms[i][0])
	}
	for i := range secrets {
		for _, f := range forms[i][1:] {
			add(i, f)
		}
	}
	if len(m.pats) == 0 {
		return m
	}
	m.step = min(m.minLen-gramLen+1, maxStep)
	return m
}

// build builds the index of the patterns' grams and prefixes.
func (m *matcher) build() {
	n := len(m.pats) * m.step
	hbits := min(max(bits.Len(uint(16*n)), 10), 24)
	m.shift = uint32(32 - hbits)
	m.bitmap = make([]uint64, 1<<hbits/64)
	m.grams = make([]uint64, 0, n)
	m.prefixes = make([]uint64, 1<<(32-prefixShift)/64)
	for i, p := range m.pats {
		h := binary.LittleEndian.Uint32([]byte(p[:gramLen])) * hashMul >> prefixShift
		m.prefixes[h>>6] |= 1 << (h & 63)
		for off := 0; off < m.step; off++ {
			v := binary.LittleEndian.Uint32([]byte(p[off : off+gramLen]))
			h := v * hashMul >> m.shift
			m.bitmap[h>>6] |= 1 << (h & 63)
			m.grams = append(m.grams, uint64(v)<<32|uint64(i)<<8|uint64(off))
		}
	}
	slices.Sort(m.grams)
}

type byName struct {
	s []Secret
	f [][]string
}

func (b byName) Len() int           { return len(b.s) }
func (b byName) Less(i, j int) bool { return b.s[i].Name < b.s[j].Name }
func (b byName) Swap(i, j int) {
	b.s[i], b.s[j] = b.s[j], b.s[i]
	b.f[i], b.f[j] = b.f[j], b.f[i]
}

// cursor iterates over the leftmost-longest matches in b that start before
// limit.
type cursor struct {
	m       *matcher
	b       []byte
	limit   int
	next    int // the next window to examine
	base    int // the start position of best[0]
	k       int // the next slot of best to take
	lastEnd int // the end of the last match taken
	best    [maxStep]int32
	js      *jsonCursor // set for JSON text: matches that would break it are left
}

func (c *cursor) init(m *matcher, b []byte, limit int) {
	c.m, c.b, c.limit = m, b, limit
	c.k = maxStep // nothing to take
	if len(m.pats) == 0 || len(b) < m.minLen {
		c.next = len(b) // no window
		return
	}
	m.once.Do(m.build)
}

// match returns the start and the pattern index of the next match.
func (c *cursor) match() (start, pat int, ok bool) {
	for {
		for c.k < c.m.step {
			k := c.k
			c.k++
			if pi := c.best[k]; pi != 0 {
				c.best[k] = 0
				p := c.base + k
				if p >= c.lastEnd {
					c.lastEnd = p + len(c.m.pats[pi-1])
					return p, int(pi - 1), true
				}
			}
		}
		if !c.fill() {
			return 0, 0, false
		}
	}
}

// fill examines windows until one holds a match and records its matches in
// best; it reports whether there was one.
func (c *cursor) fill() bool {
	b, step, shift, bitmap := c.b, c.m.step, c.m.shift, c.m.bitmap
	last := min(len(b)-gramLen, c.limit+step-2)
	for j := c.next; j <= last; j += step {
		v := binary.LittleEndian.Uint32(b[j:])
		h := v * hashMul >> shift
		if bitmap[h>>6]&(1<<(h&63)) != 0 && c.verify(j, v) {
			c.next = j + step
			c.base = j - step + 1
			c.k = 0
			return true
		}
	}
	c.next = len(b)
	return false
}

// verify compares the candidates of the window at j, whose bytes are v, and
// records those that match.
func (c *cursor) verify(j int, v uint32) bool {
	found := false
	base := j - c.m.step + 1
	grams := c.m.grams
	i, _ := slices.BinarySearch(grams, uint64(v)<<32)
	for ; i < len(grams) && uint32(grams[i]>>32) == v; i++ {
		pi, off := int32(grams[i]>>8&0xffffff), int(grams[i]&0xff)
		p := j - off
		if p < c.lastEnd || p >= c.limit {
			continue
		}
		pat := c.m.pats[pi]
		e := p + len(pat)
		if e > len(c.b) || string(c.b[p:e]) != pat {
			continue
		}
		if c.js != nil && !c.js.accept(c.b, max(base, 0), p, e) {
			continue
		}
		k := p - base
		if cur := c.best[k]; cur == 0 || len(c.m.pats[cur-1]) < len(pat) {
			c.best[k] = pi + 1
		}
		found = true
	}
	return found
}

// appendRedacted appends to dst the redaction of b up to the later of limit
// and the end of the last match starting before limit, and returns how much
// of b that was and whether there was a match.
// js, when set, makes it redact b as JSON text.
func (m *matcher) appendRedacted(dst, b []byte, limit int, js *jsonCursor) (_ []byte, consumed int, replaced bool) {
	var c cursor
	c.init(m, b, limit)
	c.js = js
	last := 0
	for {
		p, pi, ok := c.match()
		if !ok {
			break
		}
		dst = append(dst, b[last:p]...)
		dst = append(dst, m.refs[m.owner[pi]]...)
		last = p + len(m.pats[pi])
		replaced = true
	}
	if last < limit {
		dst = append(dst, b[last:limit]...)
		last = limit
	}
	return dst, last, replaced
}

// redact returns b, or a redacted copy of b, and whether anything matched.
func (m *matcher) redact(b []byte) ([]byte, bool) { return m.redactWith(b, nil) }

// redactWith is redact, of JSON text when js is set.
func (m *matcher) redactWith(b []byte, js *jsonCursor) ([]byte, bool) {
	var c cursor
	c.init(m, b, len(b))
	c.js = js
	p, pi, ok := c.match()
	if !ok {
		return b, false
	}
	out := make([]byte, 0, len(b)+len(m.refs[m.owner[pi]]))
	last := 0
	for ok {
		out = append(out, b[last:p]...)
		out = append(out, m.refs[m.owner[pi]]...)
		last = p + len(m.pats[pi])
		p, pi, ok = c.match()
	}
	return append(out, b[last:]...), true
}

// contains reports whether b holds a match.
func (m *matcher) contains(b []byte) bool {
	var c cursor
	c.init(m, b, len(b))
	_, _, ok := c.match()
	return ok
}
