package tui

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
)

// selection is a range of screen cells the user dragged over with the
// left button, in reading order; it is copied on release.
type selection struct {
	active, dragging bool
	x0, y0, x1, y1   int
}

// ordered returns the range with its start first.
func (s selection) ordered() (x0, y0, x1, y1 int) {
	if s.y1 < s.y0 || (s.y1 == s.y0 && s.x1 < s.x0) {
		return s.x1, s.y1, s.x0, s.y0
	}
	return s.x0, s.y0, s.x1, s.y1
}

func (a *App) selectMouse(m input.Mouse) {
	if m.Button != input.ButtonLeft && !(m.Action == input.MouseMotion && a.sel.dragging) && m.Action != input.MouseRelease {
		return
	}
	switch m.Action {
	case input.MousePress:
		a.sel = selection{active: true, dragging: true, x0: m.X, y0: m.Y, x1: m.X, y1: m.Y}
	case input.MouseMotion:
		if a.sel.dragging {
			a.sel.x1, a.sel.y1 = m.X, m.Y
		}
	case input.MouseRelease:
		if !a.sel.dragging {
			return
		}
		a.sel.dragging = false
		a.sel.x1, a.sel.y1 = m.X, m.Y
		if a.sel.x0 == a.sel.x1 && a.sel.y0 == a.sel.y1 {
			a.sel.active = false // a click, not a selection
			a.toggleAt(m.Y)
			return
		}
		a.copy(a.selectedText())
	}
}

// toggleAt opens or closes the tool call or thinking block drawn at screen
// row y of the transcript.
func (a *App) toggleAt(y int) {
	r := a.lastTranscript
	if y < r.Y || y >= r.Y+r.H {
		return
	}
	first, top := a.view.Top()
	i := a.tr.itemAt(first, top, y-r.Y, r.W)
	if i < 0 {
		return
	}
	if it := a.tr.items[i]; it.kind == kindTool || it.kind == kindThinking {
		it.open = !it.open
		it.touch()
	}
}

// drawSelection shows the selected cells reversed, within r.
func (a *App) drawSelection(r screen.Rect) {
	if !a.sel.active {
		return
	}
	x0, y0, x1, y1 := a.sel.ordered()
	for y := max(y0, r.Y); y <= y1 && y < r.Y+r.H; y++ {
		from, to := 0, r.W-1
		if y == y0 {
			from = x0
		}
		if y == y1 {
			to = x1
		}
		if to >= from {
			a.buf.SetStyle(screen.Rect{X: from, Y: y, W: to - from + 1, H: 1}, a.th.Selection)
		}
	}
}

// selectedText is the text of the selected cells as the screen shows it,
// trailing blanks of each row dropped.
func (a *App) selectedText() string {
	x0, y0, x1, y1 := a.sel.ordered()
	var out []string
	for y := y0; y <= y1 && y < a.buf.Height(); y++ {
		from, to := 0, a.buf.Width()-1
		if y == y0 {
			from = x0
		}
		if y == y1 {
			to = x1
		}
		var sb strings.Builder
		row := a.buf.Row(y)
		for x := max(from, 0); x <= to && x < len(row); x++ {
			sb.WriteString(row[x].Content)
		}
		out = append(out, strings.TrimRight(sb.String(), " "))
	}
	return strings.Join(out, "\n")
}

// copyLast copies the last answer's text.
func (a *App) copyLast() {
	for i := len(a.tr.items) - 1; i >= 0; i-- {
		if it := a.tr.items[i]; it.kind == kindAssistant && it.text != "" {
			a.copy(it.text)
			return
		}
	}
	a.setFlash("nothing to copy yet: no answer in this session")
}

// copy puts text on the clipboard: OSC 52 where the terminal takes it, and
// the native clipboard command when one was given; the flash says which
// worked, and says so honestly when neither did.
func (a *App) copy(text string) {
	if text == "" {
		return
	}
	n := len([]rune(text))
	var used []string
	var errs []string
	if err := a.term.Copy(text); err == nil {
		used = append(used, "the terminal (OSC 52)")
	} else {
		errs = append(errs, err.Error())
	}
	if a.o.Clipboard != nil {
		if via, err := a.o.Clipboard(text); err == nil {
			used = append(used, via)
		} else {
			errs = append(errs, err.Error())
		}
	}
	if len(used) == 0 {
		a.setFlash("could not copy: " + strings.Join(errs, "; "))
		return
	}
	a.setFlash(fmt.Sprintf("copied %d character%s to %s", n, plural(n), strings.Join(used, " and ")))
}
