package widget

import (
	"strings"

	"github.com/smith-agent/smith/termkit/screen"
)

// Segment is a run of status line text in one style. Text is drawn
// sanitized, newlines and tabs as spaces.
type Segment struct {
	Text  string
	Style screen.Style
}

// DrawStatus draws a status line on r's first row: the left segments from
// the left edge and the right segments against the right edge, with at
// least one column between them. When they do not fit, the left side is
// cut first (ending in "…"), then the right side is cut too and the left
// dropped. Cells not covered by a segment are left as they are; fill r
// first for a background. It is valid down to a width of 1.
func DrawStatus(b *screen.Buffer, r screen.Rect, left, right []Segment) {
	if r.Empty() {
		return
	}
	lw, rw := segmentsWidth(left), segmentsWidth(right)
	gap := 0
	if lw > 0 && rw > 0 {
		gap = 1
	}
	switch {
	case lw+gap+rw <= r.W:
		drawSegments(b, r.X, r.Y, r.X+lw, left)
	case rw+gap < r.W:
		drawSegments(b, r.X, r.Y, r.X+r.W-rw-gap, left)
	default:
		rw = min(rw, r.W)
	}
	drawSegments(b, r.X+r.W-rw, r.Y, r.X+r.W, right)
}

func cleanSegment(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
}

func segmentsWidth(segs []Segment) int {
	n := 0
	for _, s := range segs {
		n += screen.Width(cleanSegment(s.Text))
	}
	return n
}

// drawSegments draws segs from x up to maxX, cutting with "…" (in the
// style of the segment that is cut) when they do not fit.
func drawSegments(b *screen.Buffer, x, y, maxX int, segs []Segment) {
	total := segmentsWidth(segs)
	if x+total <= maxX {
		for _, s := range segs {
			x = b.SetStringMax(x, y, maxX, cleanSegment(s.Text), s.Style)
		}
		return
	}
	for _, s := range segs {
		t := cleanSegment(s.Text)
		room := maxX - x
		if room <= 0 {
			return
		}
		if w := screen.Width(t); w < room {
			x = b.SetStringMax(x, y, maxX, t, s.Style)
			continue
		}
		// This segment reaches the edge: cut it, keeping a column for "…".
		b.SetStringMax(x, y, maxX, screen.Truncate(t, room-1, "")+"…", s.Style)
		return
	}
}
