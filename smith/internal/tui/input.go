package tui

import (
	"strings"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/widget"
)

// quitWindow is how long a first ctrl+c waits for the second.
const quitWindow = 2 * time.Second

// input applies one terminal event.
func (a *App) input(ev input.Event) {
	switch ev := ev.(type) {
	case input.Key:
		if ev.Event != input.Release {
			a.key(ev)
		}
	case input.Paste:
		switch {
		case a.over != nil:
			a.over.paste(a, ev.Text)
		case a.search != nil:
			a.search.Paste(strings.ReplaceAll(ev.Text, "\n", " "))
			a.runSearch(len(a.tr.items))
		default:
			a.editor.Paste(ev.Text)
		}
	case input.Mouse:
		a.mouse(ev)
	case input.Resize:
		a.buf.Resize(ev.Width, ev.Height)
		a.rend.Invalidate()
	case input.Focus:
		// Nothing to change: the layout is the same in and out of focus.
	}
}

func (a *App) key(k input.Key) {
	if q := a.waiting(); q != nil && a.questionKey(q, k) {
		return
	}
	if a.over != nil {
		a.over.key(a, k)
		return
	}
	if a.search != nil {
		a.searchKey(k)
		return
	}
	km := a.keys
	switch {
	case km.is(k, actQuit):
		switch {
		case !a.editor.Empty():
			a.editor.Reset()
		case a.now().Sub(a.quitArmed) < quitWindow:
			a.quit = true
		default:
			a.quitArmed = a.now()
			a.setFlash("press ctrl+c again to quit")
		}
		return
	case k.Matches("ctrl+d") && a.editor.Empty():
		a.quit = true
		return
	case km.is(k, actAbort):
		if a.comp != nil {
			a.comp = nil
			return
		}
		a.abort()
		return
	case km.is(k, actPageUp):
		a.view.PageUp(&a.tr)
		return
	case km.is(k, actPageDown):
		a.view.PageDown(&a.tr)
		return
	case km.is(k, actLineUp):
		a.view.ScrollUp(&a.tr, 1)
		return
	case km.is(k, actLineDown):
		a.view.ScrollDown(&a.tr, 1)
		return
	case km.is(k, actToEnd):
		a.view.Follow()
		return
	case km.is(k, actToStart):
		a.view.ScrollToStart(&a.tr)
		return
	case km.is(k, actExpand):
		a.tr.expanded = !a.tr.expanded
		a.tr.epoch++
		return
	case km.is(k, actSearch):
		a.search = &widget.Editor{Prompt: "search: ", MaxHeight: 1, PlaceholderStyle: a.th.Dim,
			Placeholder: "type to search the transcript; enter: older match, esc: close"}
		return
	case km.is(k, actCopyLast):
		a.copyLast()
		return
	case km.is(k, actRedraw):
		a.rend.Invalidate()
		return
	case km.is(k, actModelPick):
		a.openModels()
		return
	}
	if a.comp != nil && a.comp.key(a, k) {
		return
	}
	switch {
	case km.is(k, actSubmit):
		a.enter(protocol.DeliverPrompt)
		return
	case km.is(k, actFollowUp) && a.busy && !a.editor.Empty():
		a.enter(protocol.DeliverFollowUp)
		return
	}
	if a.editor.HandleKey(k) {
		a.updateCompletion()
	}
}

// enter submits the input box: a /command runs, anything else is sent.
func (a *App) enter(d protocol.Delivery) {
	text := a.editor.Value()
	if strings.TrimSpace(text) == "" {
		return
	}
	a.editor.AddHistory(text)
	a.editor.Reset()
	a.comp = nil
	if strings.HasPrefix(text, "/") && !strings.HasPrefix(text, "//") {
		a.command(strings.TrimPrefix(text, "/"))
		return
	}
	text = strings.TrimPrefix(text, "/") // "//x" sends "/x"
	a.submit(text, d)
}

func (a *App) searchKey(k input.Key) {
	switch {
	case k.Matches("esc"), k.Matches("ctrl+c"):
		a.search, a.tr.match = nil, nil
	case k.Matches("enter"), a.keys.is(k, actSearch):
		from := len(a.tr.items)
		if a.tr.match != nil {
			for i, it := range a.tr.items {
				if it == a.tr.match {
					from = i
				}
			}
		}
		a.runSearch(from)
	default:
		if a.search.HandleKey(k) {
			a.runSearch(len(a.tr.items))
		}
	}
}

// runSearch shows the last match before item from.
func (a *App) runSearch(from int) {
	q := strings.TrimSpace(a.search.Value())
	if q == "" {
		a.tr.match = nil
		return
	}
	i := a.tr.find(q, from)
	if i < 0 {
		a.setFlash("no match for " + q + " above")
		return
	}
	a.tr.match = a.tr.items[i]
	a.view.ScrollTo(&a.tr, i)
}

// mouse scrolls on the wheel and selects with the left button.
func (a *App) mouse(m input.Mouse) {
	switch m.Button {
	case input.WheelUp:
		a.view.ScrollUp(&a.tr, 3)
		return
	case input.WheelDown:
		a.view.ScrollDown(&a.tr, 3)
		return
	}
	a.selectMouse(m)
}
