package markdown

import (
	"bytes"
	"strings"
)

// Stream renders a growing document, such as an answer being streamed,
// incrementally. It keeps the lines of the stable prefix: the top-level
// blocks that end before a blank line followed by a complete line that
// starts a new top-level block. Such blocks are closed (no fence, list,
// table or block quote is open across the blank line), so more text cannot
// change them; Set parses and lays out only what follows. Closed code
// blocks still in the tail are highlighted once and reused.
//
// Set(src, w) returns exactly what [Render](src, w, th) returns. A
// document that defines link references ("[x]: /url") is rendered whole
// on every Set, since a definition can change any link above it.
//
// The zero Stream draws in the zero Theme; [NewStream] sets one. A Stream is not safe
// for concurrent use.
type Stream struct {
	th    Theme
	width int
	pre   string // the source of the cached prefix
	lines []Line // its lines
	code  codeCache
}

// NewStream returns an empty Stream drawing in theme th.
func NewStream(th Theme) *Stream { return &Stream{th: th} }

// Set lays out src at width (a width below 1 counts as 1). When src
// extends the source of the last call at the same width, only the text
// after the stable prefix is parsed and laid out again; otherwise the
// cache is dropped first. The returned slice is new on every call; the
// lines in it must not be modified.
func (s *Stream) Set(src string, width int) []Line {
	width = max(width, 1)
	if width != s.width || !strings.HasPrefix(src, s.pre) {
		s.width, s.pre, s.lines = width, "", nil
		s.code = codeCache{}
	}
	tail := []byte(src[len(s.pre):])
	d, ok := renderDoc(tail, width, s.th, &s.code)
	if ok && d.refs && s.pre != "" {
		s.pre, s.lines = "", nil
		tail = []byte(src)
		d, ok = renderDoc(tail, width, s.th, &s.code)
	}
	defer s.code.sweep()
	if !ok {
		s.pre, s.lines = "", nil
		return Render(src, width, s.th)
	}
	k := 0
	if !d.refs {
		k = stableCut(tail, d.starts)
	}
	if k > 0 {
		s.lines = appendChunks(s.lines, d.chunks[:k])
		s.pre = src[:len(s.pre)+d.starts[k]]
	}
	return join([][]Line{s.lines, join(d.chunks[k:])})
}

// appendChunks appends the non-empty chunks to dst as join does.
func appendChunks(dst []Line, chunks [][]Line) []Line {
	for _, c := range chunks {
		if len(c) == 0 {
			continue
		}
		if len(dst) > 0 {
			dst = append(dst, nil)
		}
		dst = append(dst, c...)
	}
	return dst
}

// stableCut returns the largest k ≥ 1 such that the blocks before block k
// are final, or 0. Block k must start on a complete line (the line that
// closed block k-1 is then known in full) right after a blank line.
func stableCut(src []byte, starts []int) int {
	for k := len(starts) - 1; k >= 1; k-- {
		s := starts[k]
		if s <= 0 || starts[k-1] < 0 || starts[k-1] >= s {
			continue
		}
		if bytes.IndexByte(src[s:], '\n') < 0 {
			continue
		}
		if prev := lineStart(src, s-1); prev >= starts[k-1] && blank(src[prev:s-1]) {
			return k
		}
	}
	return 0
}

// blank reports whether line holds only spaces, tabs and carriage
// returns.
func blank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
