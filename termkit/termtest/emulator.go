package termtest

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/smith-agent/smith/termkit/screen"
)

// Emulator is an in-memory terminal that understands the sequences the
// termkit renderer emits: cursor position (CUP), cursor moves, SGR, erase
// in display and line, private modes (synchronized output, cursor
// visibility, …) and OSC 8 hyperlinks, with autowrap off. Anything else is
// recorded as an error, so tests also catch stray output. Its zero value is
// not usable; call [NewEmulator].
type Emulator struct {
	buf     *screen.Buffer
	x, y    int
	pen     screen.Style
	pending []byte
	modes   map[int]bool
	errs    []string
	// Writes counts Write calls; Bytes the bytes written.
	Writes, Bytes int
	// FramesOutsideSync counts writes of printable text while
	// synchronized output (mode 2026) was off.
	FramesOutsideSync int
}

// NewEmulator returns a w×h emulator showing a blank screen with the
// cursor visible at the top left.
func NewEmulator(w, h int) *Emulator {
	return &Emulator{buf: screen.NewBuffer(w, h), modes: map[int]bool{25: true}}
}

// Screen returns the emulated screen; it aliases the emulator's state.
func (e *Emulator) Screen() *screen.Buffer { return e.buf }

// Cursor returns the cursor position and whether it is visible.
func (e *Emulator) Cursor() (x, y int, visible bool) { return e.x, e.y, e.modes[25] }

// Mode reports whether private mode n (as in CSI ? n h) is set.
func (e *Emulator) Mode(n int) bool { return e.modes[n] }

// Err returns the sequences the emulator did not understand, or nil.
func (e *Emulator) Err() error {
	if len(e.errs) == 0 {
		return nil
	}
	return fmt.Errorf("termtest: %d unsupported sequence(s): %s", len(e.errs), strings.Join(e.errs, ", "))
}

// Write plays p. A sequence split across writes is completed by the next
// write. It never fails.
func (e *Emulator) Write(p []byte) (int, error) {
	e.Writes++
	e.Bytes += len(p)
	e.pending = append(e.pending, p...)
	n := e.parse(e.pending)
	e.pending = append(e.pending[:0], e.pending[n:]...)
	return len(p), nil
}

// parse consumes complete units of p and returns how many bytes it used.
func (e *Emulator) parse(p []byte) int {
	i := 0
	for i < len(p) {
		c := p[i]
		switch {
		case c == 0x1b:
			n := e.escape(p[i:])
			if n == 0 {
				return i
			}
			i += n
		case c == '\r':
			e.x = 0
			i++
		case c == '\n':
			e.y = min(e.y+1, e.buf.Height()-1)
			i++
		case c < 0x20 || c == 0x7f:
			e.errs = append(e.errs, fmt.Sprintf("control %#x", c))
			i++
		default:
			j := i
			for j < len(p) && p[j] >= 0x20 && p[j] != 0x7f {
				j++
			}
			text := p[i:j]
			// Hold back an incomplete UTF-8 tail.
			k := len(text)
			for k > 0 && k > len(text)-utf8.UTFMax && !utf8.RuneStart(text[k-1]) {
				k--
			}
			if k > 0 && !utf8.FullRune(text[k-1:]) {
				text = text[:k-1]
			}
			if len(text) == 0 {
				return i
			}
			e.print(string(text))
			i += len(text)
		}
	}
	return i
}

func (e *Emulator) print(s string) {
	if !e.modes[2026] {
		e.FramesOutsideSync++
	}
	g := displaywidth.StringGraphemes(s)
	w := e.buf.Width()
	for g.Next() {
		v := g.Value()
		cw := min(g.Width(), 2)
		if cw == 0 {
			continue
		}
		if e.x+cw > w {
			e.x = max(w-cw, 0)
		}
		e.buf.SetStringMax(e.x, e.y, w, v, e.pen)
		e.x = min(e.x+cw, w-1)
		if e.x+cw > w {
			e.x = w - 1
		}
	}
}

// escape handles one escape sequence at the start of p and returns its
// length, or 0 if it is incomplete.
func (e *Emulator) escape(p []byte) int {
	if len(p) < 2 {
		return 0
	}
	switch p[1] {
	case '[':
		for j := 2; j < len(p); j++ {
			if p[j] >= 0x40 && p[j] <= 0x7e {
				e.csi(string(p[2:j]), p[j])
				return j + 1
			}
		}
		return 0
	case ']':
		for j := 2; j < len(p); j++ {
			if p[j] == 0x07 {
				e.osc(string(p[2:j]))
				return j + 1
			}
			if p[j] == 0x1b && j+1 < len(p) && p[j+1] == '\\' {
				e.osc(string(p[2:j]))
				return j + 2
			}
		}
		return 0
	}
	e.errs = append(e.errs, strconv.Quote(string(p[:2])))
	return 2
}

func (e *Emulator) osc(body string) {
	if rest, ok := strings.CutPrefix(body, "8;"); ok {
		if _, uri, ok := strings.Cut(rest, ";"); ok {
			e.pen.Link = uri
			return
		}
	}
	e.errs = append(e.errs, strconv.Quote("OSC "+body))
}

func ints(params string, def int) []int {
	if params == "" {
		return []int{def}
	}
	var out []int
	for _, f := range strings.Split(params, ";") {
		n, err := strconv.Atoi(f)
		if err != nil {
			n = def
		}
		out = append(out, n)
	}
	return out
}

func (e *Emulator) csi(params string, final byte) {
	w, h := e.buf.Width(), e.buf.Height()
	if rest, ok := strings.CutPrefix(params, "?"); ok && (final == 'h' || final == 'l') {
		for _, m := range ints(rest, 0) {
			e.modes[m] = final == 'h'
		}
		return
	}
	switch final {
	case 'H':
		a := ints(params, 1)
		row, col := a[0], 1
		if len(a) > 1 {
			col = a[1]
		}
		e.y, e.x = min(max(row, 1), h)-1, min(max(col, 1), w)-1
	case 'A':
		e.y = max(e.y-ints(params, 1)[0], 0)
	case 'B':
		e.y = min(e.y+ints(params, 1)[0], h-1)
	case 'C':
		e.x = min(e.x+ints(params, 1)[0], w-1)
	case 'D':
		e.x = max(e.x-ints(params, 1)[0], 0)
	case 'J':
		if ints(params, 0)[0] == 2 {
			e.buf.Fill(e.buf.Bounds(), screen.Style{Bg: e.pen.Bg})
			return
		}
		e.errs = append(e.errs, strconv.Quote("CSI "+params+"J"))
	case 'K':
		switch ints(params, 0)[0] {
		case 0:
			e.buf.Fill(screen.Rect{X: e.x, Y: e.y, W: w - e.x, H: 1}, screen.Style{Bg: e.pen.Bg})
		case 2:
			e.buf.Fill(screen.Rect{X: 0, Y: e.y, W: w, H: 1}, screen.Style{Bg: e.pen.Bg})
		default:
			e.errs = append(e.errs, strconv.Quote("CSI "+params+"K"))
		}
	case 'm':
		e.sgr(ints(params, 0))
	default:
		e.errs = append(e.errs, strconv.Quote("CSI "+params+string(final)))
	}
}

var sgrAttr = map[int]screen.Attr{1: screen.Bold, 2: screen.Dim, 3: screen.Italic, 4: screen.Underline, 5: screen.Blink, 7: screen.Reverse, 9: screen.Strike}

func (e *Emulator) sgr(a []int) {
	for i := 0; i < len(a); i++ {
		n := a[i]
		switch {
		case n == 0:
			e.pen = screen.Style{Link: e.pen.Link}
		case sgrAttr[n] != 0:
			e.pen.Attr |= sgrAttr[n]
		case n >= 30 && n <= 37:
			e.pen.Fg = screen.Indexed(uint8(n - 30))
		case n >= 90 && n <= 97:
			e.pen.Fg = screen.Indexed(uint8(n - 90 + 8))
		case n >= 40 && n <= 47:
			e.pen.Bg = screen.Indexed(uint8(n - 40))
		case n >= 100 && n <= 107:
			e.pen.Bg = screen.Indexed(uint8(n - 100 + 8))
		case n == 39:
			e.pen.Fg = 0
		case n == 49:
			e.pen.Bg = 0
		case n == 38 || n == 48:
			var c screen.Color
			switch {
			case i+2 < len(a) && a[i+1] == 5:
				c = screen.Indexed(uint8(a[i+2]))
				i += 2
			case i+4 < len(a) && a[i+1] == 2:
				c = screen.RGB(uint8(a[i+2]), uint8(a[i+3]), uint8(a[i+4]))
				i += 4
			default:
				e.errs = append(e.errs, fmt.Sprintf("SGR %v", a))
				return
			}
			if n == 38 {
				e.pen.Fg = c
			} else {
				e.pen.Bg = c
			}
		default:
			e.errs = append(e.errs, fmt.Sprintf("SGR %d", n))
		}
	}
}
