package streamasm

import "strings"

// textBuffer accumulates a block's streamed text in chunks and joins them
// once, into a string of exactly the text's size. (A strings.Builder grows
// by a quarter at a time once it is large: a 6 MB answer allocated 30 MB
// on its way and kept up to a quarter more than it needed.) The zero
// textBuffer is empty.
type textBuffer struct {
	chunks [][]byte
	n      int
	joined string // the text once String joined it; chunks is then nil
}

// Chunks start at minChunk bytes and double up to maxChunk.
const (
	minChunk = 256
	maxChunk = 1 << 20
)

// WriteString appends s.
func (t *textBuffer) WriteString(s string) {
	if s == "" {
		return
	}
	if t.joined != "" {
		// Text after the join (not in a well-formed stream): start over
		// from the joined text.
		t.chunks, t.joined = [][]byte{[]byte(t.joined)}, ""
	}
	t.n += len(s)
	if k := len(t.chunks); k > 0 {
		if last := t.chunks[k-1]; cap(last)-len(last) >= len(s) {
			t.chunks[k-1] = append(last, s...)
			return
		}
	}
	size := minChunk
	if k := len(t.chunks); k > 0 {
		size = min(2*cap(t.chunks[k-1]), maxChunk)
	}
	c := make([]byte, 0, max(size, len(s)))
	t.chunks = append(t.chunks, append(c, s...))
}

// String returns the text, joining the chunks the first time.
func (t *textBuffer) String() string {
	if t.joined != "" || t.n == 0 {
		return t.joined
	}
	var b strings.Builder
	b.Grow(t.n)
	for _, c := range t.chunks {
		b.Write(c)
	}
	t.joined, t.chunks = b.String(), nil
	return t.joined
}
