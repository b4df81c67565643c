package plugin

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/wasmhost"
)

// UI is how the plugins granted "ui" reach the person using the frontend
// (the ui capability's intents). The runtime implements it per session;
// its methods are called from plugin calls, possibly concurrently.
type UI interface {
	// Notify shows a notification. It must not wait for the person.
	Notify(ctx context.Context, n Notification)
	// Confirm asks a yes/no question and waits for the answer, at most
	// q.Timeout, after which it returns q.Default. It returns ErrNoUser at
	// once when nobody can answer in this frontend, and ErrDismissed when
	// the question was withdrawn unanswered (the run was aborted, the
	// session closed). ctx ends the wait as a dismissal.
	Confirm(ctx context.Context, q Confirmation) (bool, error)
}

// Notification is a plugin's notification ([UI.Notify]).
type Notification struct {
	// Plugin is the plugin that sent it.
	Plugin string
	// Level is "info", "warning" or "error".
	Level string
	// Text is the message: printable text of at most IntentTextBytes
	// bytes, redacted of the registered secrets.
	Text string
}

// Confirmation is a plugin's yes/no question ([UI.Confirm]).
type Confirmation struct {
	// Plugin is the plugin that asks.
	Plugin string
	// CallID is what the plugin was running when it asked: a tool call's
	// id, "handler:EVENT" or "command:NAME".
	CallID string
	// Prompt is the question, sanitized like Notification.Text.
	Prompt string
	// Default is the answer assumed when the person gives none within
	// Timeout.
	Default bool
	// Timeout bounds the wait: the plugin's, else DefaultConfirmTimeout,
	// at most MaxConfirmTimeout.
	Timeout time.Duration
}

// The outcomes of a confirmation other than an answer.
var (
	// ErrNoUser: nobody can answer in this frontend (smith eval, MCP, an
	// RPC client that does not answer confirmations).
	ErrNoUser = errors.New("no one can answer here")
	// ErrDismissed: the question was withdrawn before it was answered.
	ErrDismissed = errors.New("the question was dismissed")
)

// Bounds of the ui capability. A confirmation the plugin gives no timeout
// waits DefaultConfirmTimeout; none waits longer than MaxConfirmTimeout.
// A notification's text or a confirmation's prompt is cut at
// IntentTextBytes.
const (
	DefaultConfirmTimeout = 10 * time.Minute
	MaxConfirmTimeout     = time.Hour
	IntentTextBytes       = 2 << 10
)

// uiHost serves the ui capability of one plugin.
//
// What each intent does where nobody can answer is fixed here, not left
// to the frontend: a notification outside a call, or with no UI bound, is
// written to the plugin log (persisted); a confirmation is answered
// no-user (refused; the runtime announces it with an event).
type uiHost struct {
	name string
	h    *Host
	log  *logHost
}

var _ pluginabi.UIImports = (*uiHost)(nil)

// ShowNotification serves ui show-notification.
func (u *uiHost) ShowNotification(ctx context.Context, message string, o pluginabi.NotifyOptions) error {
	st, _ := ctx.Value(callKey{}).(*callState)
	level := severityName(o.Severity)
	if st == nil || st.ui == nil || st.permits("ui") != "" {
		return u.log.WriteLog(ctx, "notification (no one to show it to): "+message, pluginabi.LogOptions{Level: logLevel(level)})
	}
	st.ui.Notify(ctx, Notification{Plugin: u.name, Level: level, Text: u.text(st, message)})
	return nil
}

// RequestConfirmation serves ui request-confirmation. The wait for the
// answer is not charged to the call's time budgets.
func (u *uiHost) RequestConfirmation(ctx context.Context, prompt string, o pluginabi.ConfirmOptions) (bool, error) {
	st, _ := ctx.Value(callKey{}).(*callState)
	if st == nil {
		return false, pluginabi.UIFault{Case: pluginabi.UIFaultUnknown,
			Unknown: "ui: request-confirmation is available only during a tool call, a command or an event handler"}
	}
	if why := st.permits("ui"); why != "" {
		return false, pluginabi.UIFault{Case: pluginabi.UIFaultUnknown, Unknown: why}
	}
	if st.ui == nil {
		return false, pluginabi.UIFault{Case: pluginabi.UIFaultNoUser}
	}
	timeout := DefaultConfirmTimeout
	if o.TimeoutMs > 0 {
		timeout = min(time.Duration(o.TimeoutMs)*time.Millisecond, MaxConfirmTimeout)
	}
	q := Confirmation{Plugin: u.name, CallID: st.callID, Prompt: u.text(st, prompt), Default: o.DefaultAnswer, Timeout: timeout}
	var (
		yes bool
		err error
	)
	wasmhost.Unmetered(ctx, func() {
		ctx := ctx
		if st.budget != nil {
			ctx = st.budget.pause()
			defer st.budget.resume()
		}
		yes, err = st.ui.Confirm(ctx, q)
	})
	switch {
	case err == nil:
		return yes, nil
	case errors.Is(err, ErrNoUser):
		return false, pluginabi.UIFault{Case: pluginabi.UIFaultNoUser}
	case errors.Is(err, ErrDismissed):
		return false, pluginabi.UIFault{Case: pluginabi.UIFaultDismissed}
	}
	return false, pluginabi.UIFault{Case: pluginabi.UIFaultUnknown, Unknown: u.text(st, err.Error())}
}

// text is s as an intent shows it: redacted of the call's registered
// secrets, printable, cut at IntentTextBytes.
func (u *uiHost) text(st *callState, s string) string {
	if sec := st.ops.Secrets; sec != nil {
		s = sec.RedactString(s)
	}
	out, cut := sanitize(s, IntentTextBytes)
	if cut > 0 {
		out += fmt.Sprintf(" [%d more bytes cut]", cut)
	}
	return out
}

// severityName is the level a notification is shown with; a severity
// newer than this host is info, as the world says.
func severityName(s pluginabi.Severity) string {
	switch s {
	case pluginabi.SeverityWarning:
		return "warning"
	case pluginabi.SeverityError:
		return "error"
	}
	return "info"
}

func logLevel(level string) pluginabi.Level {
	switch level {
	case "warning":
		return pluginabi.LevelWarning
	case "error":
		return pluginabi.LevelError
	}
	return pluginabi.LevelInfo
}

// budget is a call's wall-time budget that a wait for a person does not
// spend: the handlers' HandlerBudget. Its context is cancelled with
// errBudget when the time runs out; pause stops the clock, resume starts
// it again with what was left.
type budget struct {
	mu     sync.Mutex
	parent context.Context
	cancel context.CancelCauseFunc
	ctx    context.Context
	timer  *time.Timer
	left   time.Duration
	since  time.Time
	paused int
}

// errBudget is the cause of a budget's cancellation.
var errBudget = errors.New("the handlers' time budget ran out")

// newBudget returns a budget of d on parent; stop releases it.
func newBudget(parent context.Context, d time.Duration) (b *budget, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	b = &budget{parent: parent, cancel: cancel, ctx: ctx, left: d, since: time.Now()}
	b.timer = time.AfterFunc(d, func() { cancel(errBudget) })
	return b, func() { b.timer.Stop(); cancel(context.Canceled) }
}

// pause stops the clock and returns the context to wait on: the
// parent's, so that an abort still ends the wait while the budget does
// not; the budget's own once it has run out.
func (b *budget) pause() context.Context {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.paused == 0 && b.timer.Stop() {
		b.left -= time.Since(b.since)
	}
	b.paused++
	if b.ctx.Err() != nil {
		return b.ctx
	}
	return b.parent
}

// resume starts the clock again with the time left.
func (b *budget) resume() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.paused--
	if b.paused > 0 || b.ctx.Err() != nil {
		return
	}
	b.since = time.Now()
	b.timer.Reset(max(b.left, 0))
}
