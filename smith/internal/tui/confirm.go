package tui

import (
	"fmt"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/smith/internal/textout"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/markdown"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/widget"
)

// question is a plugin's confirmation request shown to the person (the
// permission policy's "Run `bash` `git push`?"); the first waiting one is
// drawn over everything and owns the keys: y yes, n or esc no, enter the
// request's default. ctrl+c still quits (the question is then withdrawn
// with the session).
type question struct {
	req   protocol.ConfirmationRequest
	since time.Time
	// answered is set once the person answered; the question stays until
	// its confirmation_end, but no longer takes keys.
	answered bool
}

// ask shows a confirmation request.
func (a *App) ask(r protocol.ConfirmationRequest) {
	a.questions = append(a.questions, &question{req: r, since: a.now()})
}

// asked closes the question e ends and records in the transcript what
// was asked and how it ended.
func (a *App) asked(e protocol.ConfirmationEnd) {
	prompt := e.ID
	for i, q := range a.questions {
		if q.req.ID == e.ID {
			prompt = fmt.Sprintf("plugin %s asked: %s", q.req.Plugin, q.req.Prompt)
			a.questions = append(a.questions[:i], a.questions[i+1:]...)
			break
		}
	}
	a.tr.add(&item{kind: kindInfo, text: prompt + " — " + textout.Answered(e)})
}

// waiting returns the question that takes the keys, or nil.
func (a *App) waiting() *question {
	for _, q := range a.questions {
		if !q.answered {
			return q
		}
	}
	return nil
}

// questionKey applies k to the waiting question q and reports whether it
// used k: every key but quit is the dialog's while it is open.
func (a *App) questionKey(q *question, k input.Key) bool {
	if a.keys.is(k, actQuit) {
		return false
	}
	var yes bool
	switch {
	case k.Matches("y") || k.Matches("shift+y"):
		yes = true
	case k.Matches("n") || k.Matches("shift+n") || k.Matches("esc"):
	case k.Matches("enter"):
		yes = q.req.Default
	default:
		return true
	}
	q.answered = true
	if err := a.sess.Answer(q.req.ID, yes); err != nil {
		a.tr.add(&item{kind: kindError, text: trimRuntime(err.Error())})
	}
	return true
}

// drawQuestion draws the waiting question centred over the screen: the
// prompt, wrapped, and the keys that answer it.
func (a *App) drawQuestion(q *question) {
	w, h := a.buf.Width(), a.buf.Height()
	bw := min(w, max(min(w-4, 80), 20))
	lines := markdown.Plain(q.req.Prompt, bw-4, screen.Style{})
	def := "no"
	if q.req.Default {
		def = "yes"
	}
	hint := "y yes · n no · enter " + def
	if left := time.Duration(q.req.TimeoutMillis)*time.Millisecond - a.now().Sub(q.since); left > 0 {
		hint += fmt.Sprintf(" · unanswered, it is %s in %s", def, left.Round(time.Second))
	}
	hints := markdown.Plain(hint, bw-4, a.th.Dim)
	bh := min(h, len(lines)+len(hints)+3)
	r := screen.Rect{X: (w - bw) / 2, Y: max((h-bh)/2-1, 0), W: bw, H: bh}
	a.buf.Fill(r, screen.Style{})
	widget.Border(a.buf, r, a.th.Accent, "plugin "+q.req.Plugin+" asks")
	y := r.Y + 1
	for _, ln := range append(append(lines, nil), hints...) {
		if y >= r.Y+r.H-1 {
			break
		}
		ln.Draw(a.buf, r.X+2, y, r.X+r.W-2)
		y++
	}
}
