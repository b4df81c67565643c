package widget

import "github.com/smith-agent/smith/termkit/screen"

// noWrap is the text width used before the first Draw.
const noWrap = 1 << 30

// clusterWidth returns the columns of the cluster line[a:b] of kind k at
// column col of a row w columns wide. A tab reaches the next tab stop,
// clipped to the row end.
func (e *Editor) clusterWidth(line string, a, b int, k clusterKind, col, w int) int {
	switch k {
	case kindTab:
		return max(min(screen.TabWidth-col%screen.TabWidth, w-col), 1)
	case kindMarker:
		if p := e.pastes[decodeMarker(line[a:b])]; p != nil {
			return p.width
		}
		return 1
	}
	return e.widths.width(line[a:b])
}

// wrap appends to dst the byte offsets where the visual rows of line start
// at text width w (the first is 0) and returns it. Rows break after the
// last space or tab that fits, else before the cluster that does not fit;
// one space may hang past a full row (it is not drawn, and the cursor
// before it is shown in the last column); a cluster wider than w gets a
// row of its own. A line whose last row is full gets an empty last row,
// where the cursor at its end is shown. Wrapping stops once more than limit
// rows are known (limit > 0) or a row starts after byte stop (stop ≥ 0).
func (e *Editor) wrap(dst []int, line string, w, limit, stop int) []int {
	dst = append(dst[:0], 0)
	col, brk, from := 0, -1, 0
	done := func() bool {
		return (limit > 0 && len(dst) > limit) || (stop >= 0 && dst[len(dst)-1] > stop)
	}
	for {
		restart := -1
		walkClusters(line, from, func(a, b int, k clusterKind) bool {
			cw := e.clusterWidth(line, a, b, k, col, w)
			if col == w && k == kindText && line[a] == ' ' {
				// One space may hang past a full row, so that a word
				// filling the row exactly does not push a lone space to
				// the next row.
				col++
				brk = b
				return true
			}
			if col > 0 && (col >= w || col+cw > w) {
				if brk > dst[len(dst)-1] && brk < a {
					restart = brk
					return false
				}
				dst = append(dst, a)
				col, brk = 0, -1
				if done() {
					return false
				}
				cw = e.clusterWidth(line, a, b, k, 0, w)
			}
			col += cw
			if k == kindTab || line[a] == ' ' {
				brk = b
			}
			return true
		})
		if restart < 0 {
			break
		}
		dst = append(dst, restart)
		col, brk, from = 0, -1, restart
		if done() {
			return dst
		}
	}
	if col >= w && len(line) > 0 && !done() {
		dst = append(dst, len(line))
	}
	return dst
}

// rowCount returns the number of visual rows of line l at width w. Counts
// are cached per line, so scrolling over unchanged lines costs nothing.
func (e *Editor) rowCount(l, w int) int {
	if len(e.counts) != len(e.lines) {
		e.counts = make([]rowCountEntry, len(e.lines))
	}
	c := &e.counts[l]
	if c.n > 0 && c.w == w && c.line == e.lines[l] {
		return c.n
	}
	e.rows = e.wrap(e.rows, e.lines[l], w, 0, -1)
	*c = rowCountEntry{line: e.lines[l], w: w, n: len(e.rows)}
	return c.n
}

// rowCountEntry caches the row count of one line.
type rowCountEntry struct {
	line string
	w, n int
}

// locate returns the visual row of p within its line and its column.
func (e *Editor) locate(p pos, w int) (row, x int) {
	line := e.lines[p.line]
	e.rows = e.wrap(e.rows, line, w, 0, p.col)
	for i, s := range e.rows {
		if s <= p.col {
			row = i
		}
	}
	start := e.rows[row]
	walkClusters(line, start, func(a, b int, k clusterKind) bool {
		if a >= p.col {
			return false
		}
		x += e.clusterWidth(line, a, b, k, x, w)
		return true
	})
	return row, x
}

// colAt returns the cursor position in row row of line l closest to column
// goal without passing it.
func (e *Editor) colAt(l, row, goal, w int) int {
	line := e.lines[l]
	e.rows = e.wrap(e.rows, line, w, row+1, -1)
	row = min(row, len(e.rows)-1)
	start, end, last := e.rows[row], len(line), true
	if row+1 < len(e.rows) {
		end, last = e.rows[row+1], false
	}
	best, x := start, 0
	walkClusters(line, start, func(a, b int, k clusterKind) bool {
		if a >= end || x > goal {
			return false
		}
		best = a
		x += e.clusterWidth(line, a, b, k, x, w)
		if b == end && last && x <= goal {
			best = b
		}
		return true
	})
	return best
}

// promptWidth returns the columns the prompt takes in an area w wide: 0
// when the area is not wider than the prompt.
func (e *Editor) promptWidth(w int) int {
	pw := screen.Width(e.Prompt)
	if pw >= w {
		return 0
	}
	return pw
}

// Height returns the rows the text needs at width (wrapped, with the
// prompt), from 1 to MaxHeight. Its cost is bounded by the rows counted.
func (e *Editor) Height(width int) int {
	e.init()
	mh := e.maxHeight()
	w := width - e.promptWidth(width)
	if w <= 0 || e.Empty() {
		return 1
	}
	n := 0
	for l := range e.lines {
		e.rows = e.wrap(e.rows, e.lines[l], w, mh, -1)
		n += len(e.rows)
		if n >= mh {
			return mh
		}
	}
	return max(n, 1)
}

// back returns the visual row n rows before p (p.col holds a row index).
func (e *Editor) back(p pos, n, w int) pos {
	for n > 0 {
		if p.col >= n {
			p.col -= n
			return p
		}
		n -= p.col + 1
		if p.line == 0 {
			return pos{}
		}
		p.line--
		p.col = e.rowCount(p.line, w) - 1
	}
	return p
}

// rowsFrom counts the visual rows from p (a row position) to the end of the
// text, stopping at limit.
func (e *Editor) rowsFrom(p pos, limit, w int) int {
	n := 0
	for l := p.line; l < len(e.lines) && n < limit; l++ {
		n += e.rowCount(l, w)
		if l == p.line {
			n -= p.col
		}
	}
	return min(n, limit)
}

// scroll moves e.top so that the cursor row cur (a row position) is one of
// the h rows shown and no row is left empty while text is hidden above,
// and returns the cursor's row in the view.
func (e *Editor) scroll(cur pos, h, w int) int {
	top := e.top
	top.line = min(max(top.line, 0), len(e.lines)-1)
	top.col = min(max(top.col, 0), e.rowCount(top.line, w)-1)
	if low := e.back(cur, h-1, w); top.less(low) {
		top = low
	}
	if cur.less(top) {
		top = cur
	}
	if n := e.rowsFrom(top, h, w); n < h {
		top = e.back(top, h-n, w)
	}
	e.top = top
	// Distance from top to cur; at most h-1 by construction.
	d := 0
	for p := top; p.line < cur.line; p = (pos{p.line + 1, 0}) {
		d += e.rowCount(p.line, w) - p.col
	}
	if top.line == cur.line {
		return cur.col - top.col
	}
	return d + cur.col
}

// Draw draws the text wrapped to r's width in at most MaxHeight rows from
// r's top, scrolled so that the cursor row is visible, and returns the
// cell of the cursor for the terminal cursor (r.X, r.Y for an empty r).
// The rows it uses are filled with Style first. An empty editor shows the
// Placeholder.
func (e *Editor) Draw(b *screen.Buffer, r screen.Rect) (cx, cy int) {
	e.init()
	h := min(r.H, e.maxHeight())
	if r.W <= 0 || h <= 0 {
		return r.X, r.Y
	}
	b.Fill(screen.Rect{X: r.X, Y: r.Y, W: r.W, H: h}, e.Style)
	pw := e.promptWidth(r.W)
	w := r.W - pw
	e.width = w
	x0, maxX := r.X+pw, r.X+r.W
	if e.Empty() {
		if pw > 0 {
			b.SetStringMax(r.X, r.Y, x0, e.Prompt, e.PromptStyle)
		}
		if e.Placeholder != "" {
			b.SetStringMax(x0, r.Y, maxX, screen.Truncate(e.Placeholder, w, "…"), e.PlaceholderStyle)
		}
		e.top = pos{}
		return x0, r.Y
	}
	crow, ccol := e.locate(e.cur, w)
	vy := e.scroll(pos{e.cur.line, crow}, h, w)
	y := 0
	for l, row := e.top.line, e.top.col; l < len(e.lines) && y < h; l, row = l+1, 0 {
		line := e.lines[l]
		e.rows = e.wrap(e.rows, line, w, row+h-y, -1)
		for ; row < len(e.rows) && y < h; row++ {
			if l == 0 && row == 0 && pw > 0 {
				b.SetStringMax(r.X, r.Y+y, x0, e.Prompt, e.PromptStyle)
			}
			end := len(line)
			if row+1 < len(e.rows) {
				end = e.rows[row+1]
			}
			e.drawRow(b, x0, r.Y+y, w, line, e.rows[row], end)
			y++
		}
	}
	return x0 + min(ccol, w-1), r.Y + min(max(vy, 0), h-1)
}

// drawRow draws line[start:end] at (x0, y), w columns at most. Runs of
// plain text are drawn with one SetStringMax call each.
func (e *Editor) drawRow(b *screen.Buffer, x0, y, w int, line string, start, end int) {
	x, run, runX := 0, -1, 0
	flush := func(to int) {
		if run >= 0 {
			b.SetStringMax(x0+runX, y, x0+w, line[run:to], e.Style)
			run = -1
		}
	}
	walkClusters(line, start, func(a, c int, k clusterKind) bool {
		if a >= end || x >= w {
			flush(a)
			return false
		}
		cw := e.clusterWidth(line, a, c, k, x, w)
		if k == kindText {
			if run < 0 {
				run, runX = a, x
			}
			x += cw
			if c == end {
				flush(c)
			}
			return true
		}
		flush(a)
		switch k {
		case kindTab:
			b.Fill(screen.Rect{X: x0 + x, Y: y, W: min(cw, w-x), H: 1}, e.Style)
		case kindMarker:
			label := "[paste]"
			if p := e.pastes[decodeMarker(line[a:c])]; p != nil {
				label = p.label
			}
			b.SetStringMax(x0+x, y, x0+w, screen.Truncate(label, w-x, "…"), e.MarkerStyle)
		}
		x += cw
		return true
	})
	flush(end)
}
