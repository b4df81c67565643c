package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
	"github.com/smith-agent/smith/termkit/input"
	"github.com/smith-agent/smith/termkit/screen"
	"github.com/smith-agent/smith/termkit/widget"
)

// Terminal is what the interactive mode needs of the terminal;
// *term.Terminal implements it, and tests pass a fake.
type Terminal interface {
	// Events delivers keys, pastes, mouse, focus and resize events; it is
	// closed when the terminal is.
	Events() <-chan input.Event
	// Size returns the columns and rows.
	Size() (w, h int)
	// Write writes a frame.
	Write(p []byte) (int, error)
	// Copy puts text on the clipboard (OSC 52).
	Copy(text string) error
}

// Options configure [Run].
type Options struct {
	// Runtime is the runtime the session runs in; required.
	Runtime *runtime.Runtime
	// Session is the session to continue; nil starts a new one at the
	// first prompt, named from it.
	Session *runtime.Session
	// Prompt, when not empty, is submitted as soon as the first frame is
	// drawn.
	Prompt string
	// Notes, when set, returns the runtime's notes not yet shown (a
	// plugin skipped, a project file ignored); the transcript shows them
	// as warnings at start and after each run.
	Notes func() []string
	// PickSession opens the session picker at start (smith --resume with
	// no id).
	PickSession bool
	// Term is the terminal; required.
	Term Terminal
	// Render says what the terminal can draw.
	Render screen.RendererOptions
	// Theme holds the user's theme styles, role → style words (from
	// [Configure]); they override the plugins'.
	Theme map[string]string
	// Keys holds the user's key bindings, action → comma-separated keys
	// (from [Configure]); they override the plugins'.
	Keys map[string]string
	// Clipboard, when not nil, copies text on terminals without OSC 52
	// (a native clipboard command); it returns what it used.
	Clipboard func(text string) (string, error)
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Debug, when not nil, receives one line per frame: its size in
	// bytes and how long it took.
	Debug io.Writer
}

// queuedInput is input waiting for the active run.
type queuedInput struct {
	text  string
	steer bool
}

// App is the interactive mode's state. Everything is owned by the loop
// goroutine of [Run]; runtime calls that may take long run on a worker and
// post their result back.
type App struct {
	o    Options
	rt   *runtime.Runtime
	sess *runtime.Session
	sub  *runtime.Subscription
	term Terminal
	now  func() time.Time
	th   Theme
	keys keymap
	// layout is the status line's segments and the input box's text.
	layout protocol.Layout

	tr     transcript
	view   widget.ScrollView
	editor widget.Editor
	search *widget.Editor
	over   *overlay
	comp   *completion
	// questions are the plugins' confirmation requests not yet ended,
	// oldest first (confirm.go).
	questions []*question

	buf  *screen.Buffer
	rend *screen.Renderer

	// runtime state as last reported
	busy, firstToken bool
	// summarizing is set while a move in /tree summarises the branch
	// left behind (which makes the app busy).
	summarizing bool
	// compacting is set while a compaction runs; compactOnly when it is
	// a compaction asked for by /compact, outside a run, that made the
	// app busy.
	compacting, compactOnly bool
	started                 time.Time
	blocks                  map[int]*item
	calls                   map[string]*item
	queued                  []queuedInput
	model, thinking         string
	stats                   protocol.Stats
	cost                    model.Amount
	commands                []protocol.Command

	flash      string
	flashUntil time.Time
	quitArmed  time.Time
	quit       bool
	sel        selection
	// lastTranscript is where the transcript was drawn, for clicks.
	lastTranscript screen.Rect
	lastFrame      time.Time

	// pendingModel is a model chosen before the session exists.
	pendingModel string

	posts chan func()
	work  chan func()
	ctx   context.Context

	// wsess is the worker's view of the session: touched only by the
	// worker goroutine.
	wsess *runtime.Session
}

// Run runs the interactive mode until the user quits or ctx ends, and
// returns the session shown last (nil when none was started). It draws
// into o.Term and leaves restoring the terminal to its owner.
func Run(ctx context.Context, o Options) (*runtime.Session, error) {
	if o.Runtime == nil || o.Term == nil {
		return nil, errors.New("tui: Options.Runtime and Options.Term are required")
	}
	a := newApp(ctx, o)
	defer a.close()
	err := a.loop()
	return a.sess, err
}

func newApp(ctx context.Context, o Options) *App {
	a := &App{o: o, rt: o.Runtime, term: o.Term, now: o.Now, ctx: ctx,
		blocks: map[int]*item{}, calls: map[string]*item{},
		posts: make(chan func(), 64), work: make(chan func(), 64)}
	if a.now == nil {
		a.now = time.Now
	}
	a.th = baseTheme()
	a.th.applyStyles(o.Theme, func(string) string { return "smith.kdl" })
	a.keys, _ = newKeymap(protocol.Presentation{}, o.Keys)
	a.tr.th = &a.th
	a.layout = defaultLayout
	a.editor = widget.Editor{Prompt: a.layout.Prompt, Placeholder: a.layout.Placeholder,
		MaxHeight: 10, PlaceholderStyle: a.th.Dim, MarkerStyle: a.th.Accent}
	w, h := o.Term.Size()
	a.buf = screen.NewBuffer(w, h)
	a.rend = screen.NewRenderer(o.Render)
	conf := a.rt.Configuration()
	a.model, a.thinking = conf.Model.Value, string(conf.Thinking.Value)
	if o.Session != nil {
		a.wsess = o.Session
		a.attach(o.Session)
	}
	a.showNotes()
	go a.worker()
	a.loadCommands()
	a.loadPresentation()
	return a
}

// showNotes adds the runtime's notes not yet shown to the transcript.
// Called on the UI goroutine.
func (a *App) showNotes() {
	if a.o.Notes == nil {
		return
	}
	for _, n := range a.o.Notes() {
		a.tr.add(&item{kind: kindWarning, text: n})
	}
}

// loadPresentation applies the plugins' key bindings and theme when the
// generation is loaded, under the user's own.
func (a *App) loadPresentation() {
	a.do(func() func() {
		p, err := a.rt.Presentation(a.ctx)
		return func() {
			if err != nil {
				a.tr.add(&item{kind: kindWarning, text: "the plugins' key bindings and theme could not be loaded: " + trimRuntime(err.Error())})
				return
			}
			th := baseTheme()
			warn := th.applyStyles(p.Theme, func(role string) string { return fmt.Sprintf("plugin %q, theme role %s", p.From["theme."+role], role) })
			th.applyStyles(a.o.Theme, func(string) string { return "smith.kdl" })
			a.th = th
			a.tr.epoch++
			keys, kw := newKeymap(p, a.o.Keys)
			a.keys = keys
			if p.Layout != nil {
				a.layout = *p.Layout
				a.editor.Prompt, a.editor.Placeholder = a.layout.Prompt, a.layout.Placeholder
			}
			a.editor.PlaceholderStyle, a.editor.MarkerStyle = a.th.Dim, a.th.Accent
			for _, w := range append(warn, kw...) {
				a.tr.add(&item{kind: kindWarning, text: w})
			}
		}
	})
}

// worker runs the runtime calls that may block, one at a time and in the
// order they were asked for, so input stays responsive.
func (a *App) worker() {
	for {
		select {
		case f := <-a.work:
			f()
		case <-a.ctx.Done():
			return
		}
	}
}

// do runs f on the worker; then posts its result function to the loop.
func (a *App) do(f func() func()) {
	select {
	case a.work <- func() {
		done := f()
		if done != nil {
			a.post(done)
		}
	}:
	default:
		a.setFlash("busy: too many operations waiting; try again")
	}
}

// post runs f on the loop goroutine.
func (a *App) post(f func()) {
	select {
	case a.posts <- f:
	case <-a.ctx.Done():
	}
}

// attach makes s the session shown: the transcript and the run's state
// start over, then s's history is drawn and its events subscribed. A nil
// s shows no session: the next prompt starts one.
func (a *App) attach(s *runtime.Session) {
	if a.sub != nil {
		a.sub.Close()
	}
	a.sess, a.sub = s, nil
	a.tr = transcript{th: &a.th, expanded: a.tr.expanded}
	a.view.Follow()
	a.blocks, a.calls, a.queued = map[int]*item{}, map[string]*item{}, nil
	a.busy, a.stats = false, protocol.Stats{}
	if s == nil {
		return
	}
	if msgs, err := s.History(); err != nil {
		a.tr.add(&item{kind: kindError, text: err.Error()})
	} else {
		a.history(msgs)
	}
	info := s.Info()
	m := s.Model()
	a.model, a.thinking = m.Name, m.Thinking
	a.sub = s.Subscribe()
	a.refreshStats()
	if len(a.tr.items) > 0 {
		a.tr.add(&item{kind: kindInfo, text: "resumed session " + sessionLabel(info)})
	}
}

func (a *App) refreshStats() {
	if a.sess != nil {
		a.stats = a.sess.Stats()
	}
}

func (a *App) loadCommands() {
	a.do(func() func() {
		cmds, err := a.rt.Commands(a.ctx)
		return func() {
			if err == nil {
				a.commands = cmds
			}
		}
	})
}

// close ends the session's run and subscription.
func (a *App) close() {
	if a.sub != nil {
		a.sub.Close()
	}
}

// subEvents is the subscription's channel, or nil (blocks) without one.
func (a *App) subEvents() <-chan protocol.Event {
	if a.sub == nil {
		return nil
	}
	return a.sub.Events()
}

// frameInterval caps the frame rate while output streams; keys draw at
// once.
const frameInterval = 16 * time.Millisecond

func (a *App) loop() error {
	a.draw()
	if a.o.PickSession {
		a.openResume()
	}
	if a.o.Prompt != "" {
		a.submit(a.o.Prompt, protocol.DeliverPrompt)
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var frame <-chan time.Time
	dirty := true
	for !a.quit {
		if dirty && frame == nil {
			wait := frameInterval - a.now().Sub(a.lastFrame)
			if wait <= 0 {
				a.draw()
				dirty = false
			} else {
				frame = time.After(wait)
			}
		}
		// The ticker wakes the loop only while something animates: an idle
		// TUI sleeps until input or an event arrives.
		var ticks <-chan time.Time
		if a.busy || a.flash != "" {
			ticks = tick.C
		}
		select {
		case ev, ok := <-a.term.Events():
			if !ok {
				return nil
			}
			a.input(ev)
			// A key is drawn at once: typing must never wait for a frame.
			a.drain()
			a.draw()
			dirty = false
		case ev := <-a.subEvents():
			a.feed(ev)
			a.drain()
			dirty = true
		case f := <-a.posts:
			f()
			dirty = true
		case <-frame:
			frame = nil
			if dirty {
				a.draw()
				dirty = false
			}
		case <-ticks:
			// The spinner, the elapsed time and flash messages.
			dirty = true
		case <-a.ctx.Done():
			return nil
		}
	}
	a.shutdown()
	return nil
}

// drain applies the events already waiting, so one frame shows them all.
func (a *App) drain() {
	for range 512 {
		select {
		case ev := <-a.subEvents():
			a.feed(ev)
		case f := <-a.posts:
			f()
		default:
			return
		}
	}
}

// shutdown aborts an active run and waits (bounded) for it to settle, so
// its results are recorded before the session closes.
func (a *App) shutdown() {
	if a.sess == nil {
		return
	}
	a.sess.Abort()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), 5*time.Second)
	defer cancel()
	_, _ = a.sess.Wait(ctx)
}

// setFlash shows a one-line message in the status line for a few seconds.
func (a *App) setFlash(s string) {
	a.flash, a.flashUntil = s, a.now().Add(4*time.Second)
}

// workerSession returns the worker's session, creating it at the first
// prompt (named from it, with the model chosen before it existed) and
// subscribing to it before anything is submitted, so no event is missed.
// Called on the worker only: wsess is the worker's.
func (a *App) workerSession(hint, modelName string) (*runtime.Session, *runtime.Subscription, error) {
	if a.wsess != nil {
		return a.wsess, nil, nil
	}
	s, err := a.rt.NewSession(a.ctx, runtime.NewSessionOptions{NameHint: hint})
	if err != nil {
		return nil, nil, err
	}
	sub := s.Subscribe()
	a.wsess = s
	if modelName != "" {
		if err := s.SetModel(a.ctx, protocol.SetModelParams{Model: modelName}); err != nil {
			return s, sub, err
		}
	}
	return s, sub, nil
}

// adopt makes a session the worker created the one shown.
func (a *App) adopt(s *runtime.Session, sub *runtime.Subscription) {
	if a.sub != nil {
		a.sub.Close()
	}
	a.sess, a.sub = s, sub
}

// submit sends input: a prompt when idle, else queued as steer or
// follow-up.
func (a *App) submit(text string, d protocol.Delivery) {
	if a.busy && d == protocol.DeliverPrompt {
		d = protocol.DeliverSteer
	}
	if a.busy {
		// Shown as queued until the runtime reports the queue.
		a.queued = append(a.queued, queuedInput{text: text, steer: d == protocol.DeliverSteer})
	}
	a.view.Follow()
	modelName := a.pendingModel
	a.pendingModel = ""
	a.do(func() func() {
		s, sub, err := a.workerSession(text, modelName)
		if err == nil {
			err = s.Submit(a.ctx, protocol.PromptParams{Text: text, Delivery: d})
			if errors.Is(err, runtime.ErrBusy) {
				err = s.Submit(a.ctx, protocol.PromptParams{Text: text, Delivery: protocol.DeliverSteer})
			}
		}
		return func() {
			if sub != nil {
				a.adopt(s, sub)
			}
			if err != nil {
				a.tr.add(&item{kind: kindError, text: trimRuntime(err.Error())})
			}
		}
	})
}

// abort aborts the active run.
func (a *App) abort() {
	if a.sess != nil && a.busy {
		a.sess.Abort()
		a.setFlash("aborting…")
	}
}

func sessionLabel(info protocol.SessionInfo) string {
	if info.Name != "" {
		return info.Name
	}
	return info.ID
}

func trimRuntime(s string) string {
	const p = "runtime: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}
