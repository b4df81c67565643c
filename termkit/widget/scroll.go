package widget

import "github.com/smith-agent/smith/termkit/screen"

// ScrollSource is what a [ScrollView] shows: a list of items, each some
// rows tall at a given width. The view asks only for the items it draws
// and the ones it walks past while scrolling, so a source should cache
// the layout of an item per width.
type ScrollSource interface {
	// Len returns the number of items.
	Len() int
	// Height returns the rows item i takes at width; at least 0.
	Height(i, width int) int
	// DrawRow draws row of item i into b at (x, y), at most width cells.
	DrawRow(b *screen.Buffer, i, row, x, y, width int)
}

// ScrollView is a virtualized view of a [ScrollSource]: a transcript whose
// per-frame work scales with the visible rows, not with its length.
//
// It either follows the end (the default: new rows appear at the bottom)
// or is anchored at an item row the user scrolled to, which stays at the
// top of the view while items are appended or the last one grows, so the
// view never jumps under a reader. Scrolling down to the end follows
// again. The zero value follows. Not safe for concurrent use.
type ScrollView struct {
	anchored bool
	item     int // the top row's item, when anchored
	row      int // the top row within item
	width    int // the width the anchor was computed at
	height   int // the view's height at the last Draw
	below    int // rows hidden below the view at the last Draw (anchored only)
}

// Following reports whether the view follows the end.
func (v *ScrollView) Following() bool { return !v.anchored }

// Follow makes the view follow the end.
func (v *ScrollView) Follow() { v.anchored = false }

// Top returns the item and row at the top of the view as last drawn or
// scrolled to; when following it reports the values of the last Draw.
func (v *ScrollView) Top() (item, row int) { return v.item, v.row }

// HiddenBelow reports whether rows are hidden below the view (the user
// scrolled up), as of the last Draw.
func (v *ScrollView) HiddenBelow() bool { return v.anchored && v.below > 0 }

// ScrollTo anchors item i's first row at the top of the view.
func (v *ScrollView) ScrollTo(src ScrollSource, i int) {
	if n := src.Len(); i >= n {
		i = n - 1
	}
	v.anchored, v.item, v.row = true, max(i, 0), 0
}

// ScrollUp moves the view n rows towards the start.
func (v *ScrollView) ScrollUp(src ScrollSource, n int) {
	if n <= 0 || src.Len() == 0 || v.width <= 0 {
		return
	}
	if !v.anchored {
		v.anchorFromEnd(src)
	}
	item, row := v.item, v.row-n
	for row < 0 && item > 0 {
		item--
		row += src.Height(item, v.width)
	}
	v.item, v.row = item, max(row, 0)
}

// ScrollDown moves the view n rows towards the end; reaching the end makes
// it follow again.
func (v *ScrollView) ScrollDown(src ScrollSource, n int) {
	if !v.anchored || n <= 0 {
		return
	}
	item, row := v.item, v.row+n
	for item < src.Len() {
		h := src.Height(item, v.width)
		if row < h {
			break
		}
		row -= h
		item++
	}
	if item >= src.Len() {
		v.anchored = false
		return
	}
	v.item, v.row = item, row
	// Following again once the end is on screen.
	if v.rowsFrom(src, item, row, v.height+1) <= v.height {
		v.anchored = false
	}
}

// PageUp scrolls up one view height less two rows of overlap.
func (v *ScrollView) PageUp(src ScrollSource) { v.ScrollUp(src, max(v.height-2, 1)) }

// PageDown scrolls down one view height less two rows of overlap.
func (v *ScrollView) PageDown(src ScrollSource) { v.ScrollDown(src, max(v.height-2, 1)) }

// ScrollToStart anchors the first row of the first item at the top.
func (v *ScrollView) ScrollToStart(src ScrollSource) { v.ScrollTo(src, 0) }

// anchorFromEnd sets the anchor to the top row of the view that follows
// the end.
func (v *ScrollView) anchorFromEnd(src ScrollSource) {
	need := v.height
	item := src.Len()
	row := 0
	for item > 0 && need > 0 {
		item--
		h := src.Height(item, v.width)
		if h >= need {
			row = h - need
			need = 0
			break
		}
		need -= h
	}
	v.anchored, v.item, v.row = true, item, row
}

// rowsFrom counts the rows from (item, row) to the end, stopping once it
// reaches limit.
func (v *ScrollView) rowsFrom(src ScrollSource, item, row, limit int) int {
	n := -row
	for i := item; i < src.Len() && n < limit; i++ {
		n += src.Height(i, v.width)
	}
	return n
}

// Draw draws the visible rows of src into r of b. A width change keeps the
// anchored item at the top (its row clamped). When the end of src comes
// into view the view follows it again.
func (v *ScrollView) Draw(b *screen.Buffer, r screen.Rect, src ScrollSource) {
	if r.Empty() {
		return
	}
	v.width, v.height = r.W, r.H
	following := !v.anchored
	if following {
		v.anchorFromEnd(src)
	}
	n := src.Len()
	item, row := v.item, v.row
	if item >= n {
		item, row = max(n-1, 0), 0
	}
	if item < n {
		if h := src.Height(item, r.W); row >= h {
			row = max(h-1, 0)
		}
	}
	v.item, v.row = item, row
	y, end := r.Y, r.Y+r.H
	last, lastRow, lastH := -1, 0, 0
	for i := item; i < n && y < end; i++ {
		h := src.Height(i, r.W)
		for ; row < h && y < end; row++ {
			src.DrawRow(b, i, row, r.X, y, r.W)
			y++
			last, lastRow, lastH = i, row, h
		}
		row = 0
	}
	v.below = 0
	if last >= 0 && (last < n-1 || lastRow < lastH-1) {
		v.below = 1
	}
	v.anchored = !following && v.below > 0
	if !following && y < end && (v.item > 0 || v.row > 0) {
		// The end came into view leaving rows empty: follow it, filling
		// the view from the bottom in this same frame.
		b.Fill(r, screen.Style{})
		v.Draw(b, r, src)
	}
}
