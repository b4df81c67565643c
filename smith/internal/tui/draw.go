package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/widget"
)

// layout is where each part of the screen goes in a frame.
type layout struct {
	transcript, queued, border, editor, status screen.Rect
}

// maxQueuedRows bounds the queued-input list above the input box.
const maxQueuedRows = 3

// place divides a w×h screen: the transcript takes what the input box, the
// queued input and the status line leave, and keeps at least one row down
// to 20×5. Smaller screens drop the border, then the status line.
func (a *App) place(w, h int) layout {
	var l layout
	y := h
	if h >= 3 {
		y--
		l.status = screen.Rect{X: 0, Y: y, W: w, H: 1}
	}
	ed := a.activeEditor()
	eh := min(ed.Height(w), max(y-2, 1))
	y -= eh
	l.editor = screen.Rect{X: 0, Y: y, W: w, H: eh}
	if h >= 4 {
		y--
		l.border = screen.Rect{X: 0, Y: y, W: w, H: 1}
	}
	if q := min(len(a.queued), maxQueuedRows); q > 0 && y-q >= 2 {
		y -= q
		l.queued = screen.Rect{X: 0, Y: y, W: w, H: q}
	}
	l.transcript = screen.Rect{X: 0, Y: 0, W: w, H: max(y, 0)}
	return l
}

func (a *App) activeEditor() *widget.Editor {
	if a.search != nil {
		return a.search
	}
	return &a.editor
}

// draw renders a frame and writes it in one write.
func (a *App) draw() {
	start := a.now()
	w, h := a.buf.Width(), a.buf.Height()
	if w <= 0 || h <= 0 {
		return
	}
	a.buf.Clear()
	l := a.place(w, h)
	a.view.Draw(a.buf, l.transcript, &a.tr)
	a.lastTranscript = l.transcript
	a.drawSelection(l.transcript)
	if a.view.HiddenBelow() && l.transcript.H > 0 {
		hint := " ↓ more below · ctrl+end "
		if w < 30 {
			hint = " ↓ "
		}
		x := max(w-screen.Width(hint), 0)
		st := a.th.StatusAccent
		st.Attr |= screen.Reverse
		a.buf.SetStringMax(x, l.transcript.Y+l.transcript.H-1, w, hint, st)
	}
	a.drawQueued(l.queued)
	if !l.border.Empty() {
		a.buf.SetStringMax(0, l.border.Y, w, strings.Repeat("─", w), a.th.Border)
	}
	cx, cy := a.activeEditor().Draw(a.buf, l.editor)
	if a.comp != nil {
		a.comp.draw(a, l)
	}
	a.drawStatus(l.status)
	showCursor := true
	if a.over != nil {
		a.over.draw(a, l)
		showCursor = false
	}
	if q := a.waiting(); q != nil {
		a.drawQuestion(q)
		showCursor = false
	}
	a.rend.SetCursor(cx, cy, showCursor)
	a.rend.Render(a.buf)
	n := a.rend.Buffered()
	_ = a.rend.Flush(writerFunc(a.term.Write))
	a.lastFrame = a.now()
	if a.o.Debug != nil {
		fmt.Fprintf(a.o.Debug, "frame %dx%d %d bytes %s\n", w, h, n, a.lastFrame.Sub(start))
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func (a *App) drawQueued(r screen.Rect) {
	for i := 0; i < r.H && i < len(a.queued); i++ {
		q := a.queued[i]
		label := "queued follow-up: "
		if q.steer {
			label = "queued steer: "
		}
		if i == r.H-1 && len(a.queued) > r.H {
			label = fmt.Sprintf("+%d more queued; ", len(a.queued)-r.H+1) + label
		}
		text := label + oneLine(q.text, 400)
		a.buf.SetStringMax(r.X, r.Y+i, r.X+r.W, screen.Truncate(text, r.W, "…"), a.th.Queued)
	}
}

// spinner frames, one per 100 ms.
var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (a *App) drawStatus(r screen.Rect) {
	if r.Empty() {
		return
	}
	widget.DrawStatus(a.buf, r, a.segments(a.layout.StatusLeft, r.W), a.segments(a.layout.StatusRight, r.W))
}

// defaultLayout is the layout when no plugin contributes one.
var defaultLayout = protocol.Layout{StatusLeft: []string{"activity"}, StatusRight: []string{"model", "thinking", "context", "cost"},
	Prompt: "› ", Placeholder: "Ask Smith something — / for commands, ctrl+c twice to quit"}

// segments draws the named status segments, " · " between two; a name
// this Smith does not know draws nothing.
func (a *App) segments(names []string, width int) []widget.Segment {
	var out []widget.Segment
	for _, n := range names {
		seg, ok := a.segment(n, width)
		if !ok {
			continue
		}
		if len(out) > 0 {
			out = append(out, widget.Segment{Text: " · ", Style: a.th.Status})
		}
		out = append(out, seg)
	}
	return out
}

// segment is one status segment: activity, model, thinking, tokens,
// context or cost; ok is false when it has nothing to show.
func (a *App) segment(name string, width int) (widget.Segment, bool) {
	now := a.now()
	switch name {
	case "activity":
		switch {
		case a.flash != "" && now.Before(a.flashUntil):
			return widget.Segment{Text: a.flash, Style: a.th.StatusAccent}, true
		case a.busy:
			el := now.Sub(a.started)
			frame := spinner[int(el/(100*time.Millisecond))%len(spinner)]
			what := "working"
			switch {
			case a.compacting:
				what = "compacting the context"
			case a.summarizing:
				what = "summarizing the branch left"
			case !a.firstToken:
				what = "waiting for the model"
			}
			return widget.Segment{Text: fmt.Sprintf("%s %s %s · esc to abort", frame, what, elapsed(el)), Style: a.th.StatusAccent}, true
		}
		a.flash = ""
		hint := "/ for commands"
		if a.search != nil {
			hint = "enter: older match · esc: close"
		}
		return widget.Segment{Text: hint, Style: a.th.Status}, true
	case "model":
		m := a.model
		if m == "" {
			m = "no model"
		}
		// The activity matters most: the model's name (which may be a
		// long path) gives way first.
		return widget.Segment{Text: screen.Truncate(m, max(width/3, 8), "…"), Style: a.th.StatusAccent}, true
	case "thinking":
		return widget.Segment{Text: a.thinking, Style: a.th.Status}, a.thinking != ""
	case "tokens":
		u := a.stats.Usage
		in, ok1 := u.Input.Add(u.CacheRead).Add(u.CacheWrite).Value()
		out, ok2 := u.Output.Value()
		return widget.Segment{Text: "in " + tokens(in) + " · out " + tokens(out), Style: a.th.Status}, ok1 && ok2 && a.stats.Responses > 0
	case "context":
		n, ok := a.stats.ContextTokens.Value()
		if !ok {
			return widget.Segment{}, false
		}
		s := tokens(n) + " tokens"
		if a.stats.ContextPercent >= 0 && a.stats.ContextWindow > 0 {
			s += fmt.Sprintf(" (%d%% of %s)", a.stats.ContextPercent, tokens(int64(a.stats.ContextWindow)))
		}
		return widget.Segment{Text: s, Style: a.th.Status}, true
	case "cost":
		if c, ok := a.stats.Usage.CostNanoUSD.Value(); ok && a.stats.Responses > 0 {
			return widget.Segment{Text: textout.Dollars(c), Style: a.th.Status}, true
		}
		if c, ok := a.cost.Value(); ok && c > 0 {
			return widget.Segment{Text: textout.Dollars(c), Style: a.th.Status}, true
		}
		if a.stats.Responses > 0 {
			// Unknown is said, never shown as $0.
			return widget.Segment{Text: "cost unknown", Style: a.th.Status}, true
		}
	}
	return widget.Segment{}, false
}

// tokens is a count like 950, 12.3k or 1.2M.
func tokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e3), ".0") + "k"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
}

// elapsed is a duration like 0.4s, 12s or 3m05s.
func elapsed(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
