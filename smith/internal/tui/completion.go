package tui

import (
	"slices"
	"strings"

	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/widget"
)

// completion is the list of /commands matching what is typed, shown
// above the input box while the input is a command name.
type completion struct {
	matches []cmdEntry
	sel     int
}

// maxCompletionRows bounds the list.
const maxCompletionRows = 8

// updateCompletion opens, refreshes or closes the list after an edit.
func (a *App) updateCompletion() {
	v := a.editor.Value()
	if !strings.HasPrefix(v, "/") || strings.ContainsAny(v, " \n") || strings.HasPrefix(v, "//") {
		a.comp = nil
		return
	}
	prefix := strings.TrimPrefix(v, "/")
	type scored struct {
		e     cmdEntry
		score int
	}
	var hits []scored
	for _, e := range a.commandNames() {
		switch {
		case strings.HasPrefix(e.name, prefix):
			hits = append(hits, scored{e, 1 << 20})
		default:
			if s, _, ok := widget.Fuzzy(prefix, e.name); ok {
				hits = append(hits, scored{e, s})
			}
		}
	}
	slices.SortStableFunc(hits, func(x, y scored) int { return y.score - x.score })
	if len(hits) == 0 {
		a.comp = nil
		return
	}
	c := &completion{}
	for _, h := range hits {
		c.matches = append(c.matches, h.e)
	}
	a.comp = c
}

// key handles the list's keys; false leaves k to the input box.
func (c *completion) key(a *App, k input.Key) bool {
	switch {
	case k.Matches("up"), k.Matches("ctrl+p"):
		c.sel = (c.sel + len(c.matches) - 1) % len(c.matches)
	case k.Matches("down"), k.Matches("ctrl+n"):
		c.sel = (c.sel + 1) % len(c.matches)
	case a.keys.is(k, actComplete):
		a.editor.SetValue("/" + c.matches[c.sel].name + " ")
		a.comp = nil
	case a.keys.is(k, actSubmit):
		e := c.matches[c.sel]
		if strings.TrimPrefix(a.editor.Value(), "/") != e.name && e.args != "" && !strings.HasPrefix(e.args, "[") {
			// It needs arguments: complete it and let the user type them.
			a.editor.SetValue("/" + e.name + " ")
			a.comp = nil
			return true
		}
		a.editor.SetValue("/" + e.name)
		a.comp = nil
		a.enter("")
	default:
		return false
	}
	return true
}

// draw shows the list just above the input box's border.
func (c *completion) draw(a *App, l layout) {
	bottom := l.editor.Y
	if !l.border.Empty() {
		bottom = l.border.Y
	}
	n := min(len(c.matches), maxCompletionRows, bottom)
	if n <= 0 {
		return
	}
	first := 0
	if c.sel >= n {
		first = c.sel - n + 1
	}
	w := a.buf.Width()
	for i := range n {
		e := c.matches[first+i]
		y := bottom - n + i
		st, hst := a.th.Dim, a.th.Dim
		if first+i == c.sel {
			st = a.th.Selection
			hst = a.th.Selection
		}
		a.buf.Fill(screen.Rect{X: 0, Y: y, W: w, H: 1}, st)
		name := "/" + strings.TrimSpace(e.name+" "+e.args)
		x := a.buf.SetStringMax(1, y, w, name, st)
		a.buf.SetStringMax(max(x+2, 24), y, w, screen.Truncate(e.help, max(w-max(x+2, 24), 0), "…"), hst)
	}
}
