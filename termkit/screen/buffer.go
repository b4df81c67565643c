package screen

import "strings"

// Rect is a rectangle of cells: columns X to X+W-1, rows Y to Y+H-1.
type Rect struct {
	X, Y, W, H int
}

// Empty reports whether r holds no cell.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Intersect returns the cells r and o share.
func (r Rect) Intersect(o Rect) Rect {
	x0, y0 := max(r.X, o.X), max(r.Y, o.Y)
	x1, y1 := min(r.X+r.W, o.X+o.W), min(r.Y+r.H, o.Y+o.H)
	if x1 <= x0 || y1 <= y0 {
		return Rect{}
	}
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// Cell is one terminal cell. Content is one grapheme cluster, already
// sanitized, and Width its column count (1 or 2). A wide cell is followed
// by a continuation cell with Width 0 and empty Content, which the
// renderer never writes. The blank cell is a space of width 1.
type Cell struct {
	Content string
	Width   uint8
	Style   Style
}

// Blank is an empty cell in the default style.
var Blank = Cell{Content: " ", Width: 1}

// continuation reports whether c is the right half of a wide cell.
func (c Cell) continuation() bool { return c.Width == 0 }

// Buffer is a grid of cells in row-major order. Its zero value is an empty
// 0×0 buffer; use [NewBuffer]. Not safe for concurrent use.
type Buffer struct {
	w, h  int
	cells []Cell
}

// NewBuffer returns a w×h buffer of blank cells; negative sizes count as 0.
func NewBuffer(w, h int) *Buffer {
	b := &Buffer{}
	b.Resize(w, h)
	return b
}

// Width returns the number of columns.
func (b *Buffer) Width() int { return b.w }

// Height returns the number of rows.
func (b *Buffer) Height() int { return b.h }

// Bounds returns the rectangle of the whole buffer.
func (b *Buffer) Bounds() Rect { return Rect{0, 0, b.w, b.h} }

// Resize makes the buffer w×h and blanks every cell.
func (b *Buffer) Resize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	b.w, b.h = w, h
	if cap(b.cells) >= w*h {
		b.cells = b.cells[:w*h]
	} else {
		b.cells = make([]Cell, w*h)
	}
	b.Clear()
}

// Clear blanks every cell.
func (b *Buffer) Clear() {
	for i := range b.cells {
		b.cells[i] = Blank
	}
}

// Cell returns the cell at column x, row y, or Blank outside the buffer.
func (b *Buffer) Cell(x, y int) Cell {
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return Blank
	}
	return b.cells[y*b.w+x]
}

// Row returns row y's cells; the slice aliases the buffer and must not be
// modified. It is nil outside the buffer.
func (b *Buffer) Row(y int) []Cell {
	if y < 0 || y >= b.h {
		return nil
	}
	return b.cells[y*b.w : (y+1)*b.w]
}

// Fill sets every cell of r (clipped to the buffer) to a space in style st.
func (b *Buffer) Fill(r Rect, st Style) {
	r = r.Intersect(b.Bounds())
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			b.put(x, y, Cell{Content: " ", Width: 1, Style: st})
		}
	}
}

// put stores c at (x, y), which must be inside the buffer, blanking the
// other half of any wide cell it overwrites.
func (b *Buffer) put(x, y int, c Cell) {
	row := b.cells[y*b.w : (y+1)*b.w]
	old := row[x]
	if old.continuation() && x > 0 {
		row[x-1] = Cell{Content: " ", Width: 1, Style: row[x-1].Style}
	}
	if old.Width == 2 && x+1 < b.w {
		row[x+1] = Cell{Content: " ", Width: 1, Style: old.Style}
	}
	row[x] = c
}

// SetString draws s on row y from column x to the right edge of the
// buffer, and returns the column after the last cell drawn. See
// [Buffer.SetStringMax].
func (b *Buffer) SetString(x, y int, s string, st Style) int {
	return b.SetStringMax(x, y, b.w, s, st)
}

// SetStringMax draws s on row y from column x up to but excluding column
// maxX (clipped to the buffer), and returns the column after the last cell
// drawn. Text is sanitized as by [Sanitize] (tabs expanded from x, controls
// shown as pictures), so it cannot emit control sequences. A wide cluster
// that does not fit before maxX is replaced by a space and ends the draw.
// Cells left of column 0 are skipped but still counted.
func (b *Buffer) SetStringMax(x, y, maxX int, s string, st Style) int {
	if y < 0 || y >= b.h {
		return x
	}
	maxX = min(maxX, b.w)
	graphemes(s, 0, func(g string, w int) bool {
		if x+w > maxX {
			if x < maxX && x >= 0 {
				b.put(x, y, Cell{Content: " ", Width: 1, Style: st})
				x++
			}
			return false
		}
		if x < 0 {
			if x+w > 0 { // a wide cluster straddling column 0
				b.put(0, y, Cell{Content: " ", Width: 1, Style: st})
			}
			x += w
			return true
		}
		b.put(x, y, Cell{Content: g, Width: uint8(w), Style: st})
		if w == 2 {
			b.put(x+1, y, Cell{Style: st})
		}
		x += w
		return true
	})
	return x
}

// SetCell stores c at (x, y) if inside the buffer. c.Content is sanitized
// and measured; only its first grapheme cluster is kept, and a wide cluster
// in the last column becomes a space.
func (b *Buffer) SetCell(x, y int, c Cell) {
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return
	}
	b.SetStringMax(x, y, x+2, firstCluster(c.Content), c.Style)
}

func firstCluster(s string) string {
	out := ""
	graphemes(s, 0, func(g string, _ int) bool {
		out = g
		return false
	})
	if out == "" {
		return " "
	}
	return out
}

// SetStyle changes the style of the cells in r (clipped) without touching
// their content.
func (b *Buffer) SetStyle(r Rect, st Style) {
	r = r.Intersect(b.Bounds())
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			b.cells[y*b.w+x].Style = st
		}
	}
}

// String returns the buffer's text, one line per row, trailing spaces
// trimmed; useful in tests.
func (b *Buffer) String() string {
	var sb strings.Builder
	for y := 0; y < b.h; y++ {
		var line strings.Builder
		for _, c := range b.Row(y) {
			line.WriteString(c.Content)
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}
