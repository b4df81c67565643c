package screen

import (
	"io"
	"strconv"
)

// RendererOptions says what the terminal can do. The zero value is the
// most conservative terminal: no colour, no synchronized output, no
// hyperlinks.
type RendererOptions struct {
	// Profile is the colour profile; colours are converted down to it.
	// NoColor (the zero value) draws attributes only.
	Profile Profile
	// SyncOutput wraps every frame in synchronized output (BSU "CSI ?2026h"
	// … ESU "CSI ?2026l") so the terminal shows it at once. Without it the
	// cursor is hidden while a frame is written.
	SyncOutput bool
	// Hyperlinks emits OSC 8 for cells whose Style.Link is set; without it
	// links are drawn as plain text.
	Hyperlinks bool
}

// Renderer turns buffers into terminal output, writing only the cells that
// differ from what it last rendered. Its zero value is not usable; call
// [NewRenderer]. It assumes it owns the whole screen with autowrap off (as
// [term.Terminal] sets it up in fullscreen mode). Not safe for concurrent
// use.
type Renderer struct {
	opt   RendererOptions
	front *Buffer // what the terminal shows
	out   []byte

	cx, cy   int // terminal cursor, -1 when unknown
	pen      Style
	shown    bool // terminal cursor visible
	want     struct{ x, y int }
	wantShow bool

	dirty []bool
}

// NewRenderer returns a renderer that will repaint the whole screen on its
// first [Renderer.Render].
func NewRenderer(opt RendererOptions) *Renderer {
	return &Renderer{opt: opt, cx: -1, cy: -1, shown: true}
}

// Options returns the options the renderer was made with.
func (r *Renderer) Options() RendererOptions { return r.opt }

// SetCursor places the terminal cursor at (x, y) after each frame and shows
// it, or hides it when visible is false (the default).
func (r *Renderer) SetCursor(x, y int, visible bool) {
	r.want.x, r.want.y, r.wantShow = x, y, visible
}

// Invalidate forgets what the terminal shows, so the next Render clears
// the screen and repaints everything. Call it after a resize or after
// anything else wrote to the terminal.
func (r *Renderer) Invalidate() { r.front = nil }

// Buffered returns the number of bytes rendered but not yet flushed.
func (r *Renderer) Buffered() int { return len(r.out) }

// Flush writes the pending output in one Write and forgets it, also on
// error (the next Render then repaints everything, since the terminal's
// state is unknown).
func (r *Renderer) Flush(w io.Writer) error {
	if len(r.out) == 0 {
		return nil
	}
	_, err := w.Write(r.out)
	r.out = r.out[:0]
	if err != nil {
		r.front = nil
		return err
	}
	return nil
}

func (r *Renderer) csi(args ...int) {
	r.out = append(r.out, "\x1b["...)
	for i, a := range args {
		if i > 0 {
			r.out = append(r.out, ';')
		}
		r.out = strconv.AppendInt(r.out, int64(a), 10)
	}
}

func (r *Renderer) moveTo(x, y int) {
	if r.cx == x && r.cy == y {
		return
	}
	r.csi(y+1, x+1)
	r.out = append(r.out, 'H')
	r.cx, r.cy = x, y
}

// effective returns st as this terminal will show it.
func (r *Renderer) effective(st Style) Style {
	st.Fg = r.opt.Profile.convert(st.Fg)
	st.Bg = r.opt.Profile.convert(st.Bg)
	if !r.opt.Hyperlinks {
		st.Link = ""
	}
	return st
}

func appendColor(out []byte, c Color, base int) []byte {
	switch c.kind() {
	case colorIndexed:
		n := int(uint8(c))
		switch {
		case n < 8:
			out = append(out, ';')
			out = strconv.AppendInt(out, int64(base+n), 10)
		case n < 16:
			out = append(out, ';')
			out = strconv.AppendInt(out, int64(base+60+n-8), 10)
		default:
			out = append(out, ';')
			out = strconv.AppendInt(out, int64(base+8), 10)
			out = append(out, ";5;"...)
			out = strconv.AppendInt(out, int64(n), 10)
		}
	case colorRGB:
		rr, gg, bb := c.rgb()
		out = append(out, ';')
		out = strconv.AppendInt(out, int64(base+8), 10)
		out = append(out, ";2;"...)
		out = strconv.AppendInt(out, int64(rr), 10)
		out = append(out, ';')
		out = strconv.AppendInt(out, int64(gg), 10)
		out = append(out, ';')
		out = strconv.AppendInt(out, int64(bb), 10)
	}
	return out
}

// linkSafe drops every byte of uri that could end or extend the OSC.
func linkSafe(uri string) string {
	for i := 0; i < len(uri); i++ {
		if c := uri[i]; c < 0x20 || c == 0x7F || c >= 0x80 {
			b := make([]byte, 0, len(uri))
			for j := 0; j < len(uri); j++ {
				if c := uri[j]; c >= 0x21 && c < 0x7F {
					b = append(b, c)
				}
			}
			return string(b)
		}
	}
	return uri
}

func (r *Renderer) setPen(st Style) {
	if st.Link != r.pen.Link {
		r.out = append(r.out, "\x1b]8;;"...)
		r.out = append(r.out, linkSafe(st.Link)...)
		r.out = append(r.out, "\x1b\\"...)
	}
	if st.Fg != r.pen.Fg || st.Bg != r.pen.Bg || st.Attr != r.pen.Attr {
		r.out = append(r.out, "\x1b[0"...)
		for _, a := range attrSGR {
			if st.Attr&a.a != 0 {
				r.out = append(r.out, ';')
				r.out = append(r.out, a.code...)
			}
		}
		r.out = appendColor(r.out, st.Fg, 30)
		r.out = appendColor(r.out, st.Bg, 40)
		r.out = append(r.out, 'm')
	}
	r.pen = st
}

func (r *Renderer) writeCell(x, y int, c Cell) {
	r.moveTo(x, y)
	r.setPen(r.effective(c.Style))
	r.out = append(r.out, c.Content...)
	r.cx += int(c.Width)
	if r.cx >= r.front.w {
		r.cx = -1 // autowrap off: the cursor sticks at the margin
	}
	r.front.cells[y*r.front.w+x] = c
	if c.Width == 2 && x+1 < r.front.w {
		r.front.cells[y*r.front.w+x+1] = Cell{Style: c.Style}
	}
}

func (r *Renderer) begin() {
	if r.opt.SyncOutput {
		r.out = append(r.out, "\x1b[?2026h"...)
	}
	if r.shown {
		r.out = append(r.out, "\x1b[?25l"...)
		r.shown = false
	}
}

// Render appends to the pending output what turns the terminal's screen
// into b: on the first call (or after [Renderer.Invalidate] or a size
// change) a clear and every non-blank cell, afterwards only the cells that
// changed. A frame with no change and no cursor move appends nothing.
func (r *Renderer) Render(b *Buffer) {
	start := len(r.out)
	began := false
	if r.front == nil || r.front.w != b.w || r.front.h != b.h {
		r.front = NewBuffer(b.w, b.h)
		r.begin()
		began = true
		r.out = append(r.out, "\x1b[0m"...)
		if r.pen.Link != "" {
			r.out = append(r.out, "\x1b]8;;\x1b\\"...)
		}
		r.pen = Style{}
		r.out = append(r.out, "\x1b[H\x1b[2J"...)
		r.cx, r.cy = 0, 0
	}
	if cap(r.dirty) < b.w {
		r.dirty = make([]bool, b.w)
	}
	for y := 0; y < b.h; y++ {
		nrow, orow := b.Row(y), r.front.Row(y)
		first, last, wide := -1, -1, false
		dirty := r.dirty[:b.w]
		for x := range nrow {
			d := nrow[x] != orow[x]
			dirty[x] = d
			if d {
				if first < 0 {
					first = x
				}
				last = x
				if nrow[x].Width != 1 || orow[x].Width != 1 {
					wide = true
				}
			}
		}
		if first < 0 {
			continue
		}
		if !began {
			r.begin()
			began = true
		}
		if wide {
			// Repaint the whole changed span so that no half of a wide
			// cluster is left behind on either end.
			if first > 0 && (nrow[first].continuation() || orow[first].continuation()) {
				first--
			}
			if last+1 < b.w && (nrow[last].Width == 2 || orow[last].Width == 2) {
				last++
			}
			for x := first; x <= last; x++ {
				if !nrow[x].continuation() {
					r.writeCell(x, y, nrow[x])
				} else if x == first {
					r.writeCell(x, y, Cell{Content: " ", Width: 1, Style: nrow[x].Style})
				}
			}
			copy(orow, nrow)
			continue
		}
		for x := first; x <= last; x++ {
			if dirty[x] {
				r.writeCell(x, y, nrow[x])
			}
		}
	}
	cursorMoves := r.wantShow != r.shown || (r.wantShow && (r.cx != r.want.x || r.cy != r.want.y))
	if !began && !cursorMoves {
		r.out = r.out[:start]
		return
	}
	if !began {
		r.begin()
	}
	if r.pen != (Style{}) {
		if r.pen.Link != "" {
			r.out = append(r.out, "\x1b]8;;\x1b\\"...)
		}
		if r.pen.Fg != 0 || r.pen.Bg != 0 || r.pen.Attr != 0 {
			r.out = append(r.out, "\x1b[0m"...)
		}
		r.pen = Style{}
	}
	if r.wantShow {
		x := min(max(r.want.x, 0), max(b.w-1, 0))
		y := min(max(r.want.y, 0), max(b.h-1, 0))
		r.moveTo(x, y)
		if !r.shown {
			r.out = append(r.out, "\x1b[?25h"...)
			r.shown = true
		}
	}
	if r.opt.SyncOutput {
		r.out = append(r.out, "\x1b[?2026l"...)
	}
}
