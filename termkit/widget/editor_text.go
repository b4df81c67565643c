package widget

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/smith-agent/smith/termkit/screen"
)

// The editor stores its text as lines without their newlines. A paste
// marker is stored in a line as markerLen bytes: markerByte followed by
// three continuation bytes holding 18 bits of paste id. Neither byte value
// can appear in the sanitized text the editor accepts (invalid UTF-8 is
// dropped on insert), so markers cannot be forged by typing or pasting.
const (
	markerByte = 0xFF
	markerLen  = 4
	maxMarkers = 1 << 18
)

// pos is a position in the text: a line index and a byte offset in it,
// always on a grapheme cluster boundary.
type pos struct{ line, col int }

func (p pos) less(q pos) bool {
	return p.line < q.line || (p.line == q.line && p.col < q.col)
}

// encodeMarker returns the stored form of paste id.
func encodeMarker(id int) string {
	return string([]byte{markerByte, 0x80 | byte(id>>12&0x3F), 0x80 | byte(id>>6&0x3F), 0x80 | byte(id&0x3F)})
}

// decodeMarker returns the paste id of the marker at the start of s.
func decodeMarker(s string) int {
	if len(s) < markerLen || s[0] != markerByte {
		return -1
	}
	return int(s[1]&0x3F)<<12 | int(s[2]&0x3F)<<6 | int(s[3]&0x3F)
}

// sanitizeInput returns s as the editor stores it: CRLF and CR become LF
// (or are dropped when newlines is false), tabs are kept, every other
// control character (C0, DEL, C1) and invalid UTF-8 is dropped.
func sanitizeInput(s string, newlines bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\t' && (c != '\n' || !newlines)) || c == 0x7F || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			// invalid byte: dropped
		case r == '\r':
			if newlines && !(i+1 < len(s) && s[i+1] == '\n') {
				b.WriteByte('\n')
			}
		case r == '\n':
			if newlines {
				b.WriteByte('\n')
			}
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0):
			// control: dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// paste is the text a marker stands for.
type paste struct {
	text  string
	label string // "[paste #N +L lines]"
	width int
}

// clusterKind tells plain text clusters from tabs and markers.
type clusterKind uint8

const (
	kindText clusterKind = iota
	kindTab
	kindMarker
)

// walkClusters calls f for each grapheme cluster of s starting at byte
// from (a cluster boundary), with its byte range and kind, until f returns
// false. Markers and tabs are clusters of their own.
func walkClusters(s string, from int, f func(start, end int, k clusterKind) bool) {
	i := from
	for i < len(s) {
		c := s[i]
		if c == markerByte {
			end := min(i+markerLen, len(s))
			if !f(i, end, kindMarker) {
				return
			}
			i = end
			continue
		}
		if c == '\t' {
			if !f(i, i+1, kindTab) {
				return
			}
			i++
			continue
		}
		if c < 0x80 && (i+1 == len(s) || s[i+1] < 0x80) {
			if !f(i, i+1, kindText) {
				return
			}
			i++
			continue
		}
		// A run up to the next marker or tab, segmented in one pass.
		end := len(s)
		for j := i + 1; j < len(s); j++ {
			if s[j] == markerByte || s[j] == '\t' {
				end = j
				break
			}
			if s[j] < 0x80 && s[j-1] < 0x80 {
				end = j // two ASCII bytes: a boundary; the fast path takes over
				break
			}
		}
		it := displaywidth.StringGraphemes(s[i:end])
		for it.Next() {
			n := len(it.Value())
			if !f(i, i+n, kindText) {
				return
			}
			i += n
		}
	}
}

// clusterBefore returns the start of the cluster that ends at col in s.
// It scans from the nearest certain boundary before col (two ASCII bytes,
// a tab or a marker), at most 256 bytes back, else from the line start.
func clusterBefore(s string, col int) int {
	if col <= 0 {
		return 0
	}
	start := 0
	for j := col - 1; j > 0 && j > col-256; j-- {
		if c := s[j]; c == markerByte || c == '\t' || (c < 0x80 && s[j-1] < 0x80) {
			start = j
			break
		}
	}
	prev := start
	walkClusters(s, start, func(a, b int, _ clusterKind) bool {
		if b >= col {
			prev = a
			return false
		}
		return true
	})
	return prev
}

// clusterAfter returns the end of the cluster that starts at col in s.
func clusterAfter(s string, col int) int {
	end := len(s)
	walkClusters(s, col, func(_, b int, _ clusterKind) bool {
		end = b
		return false
	})
	return end
}

// widthCache memoizes screen.Width of non-ASCII clusters.
type widthCache map[string]int

func (c *widthCache) width(g string) int {
	if len(g) == 1 {
		return 1
	}
	if w, ok := (*c)[g]; ok {
		return w
	}
	if *c == nil || len(*c) > 4096 {
		*c = widthCache{}
	}
	w := screen.Width(g)
	(*c)[g] = w
	return w
}

// countLines returns the number of lines of text; a final newline does not
// start another line.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// pasteLabel formats the marker label of paste n of text.
func pasteLabel(n int, text string) string {
	return "[paste #" + strconv.Itoa(n) + " +" + strconv.Itoa(countLines(text)) + " lines]"
}
