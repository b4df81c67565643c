package route

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// Attempter sends one request to one target and reports how it went: nil
// once the target has accepted the request (the stream started), or the
// failure — a *model.Error for classified provider failures. Failover
// happens only before a target accepts; output already shown is never
// replayed elsewhere.
type Attempter interface {
	Attempt(ctx context.Context, t Target) error
}

// AttemptFunc adapts a function to [Attempter].
type AttemptFunc func(ctx context.Context, t Target) error

// Attempt calls f.
func (f AttemptFunc) Attempt(ctx context.Context, t Target) error { return f(ctx, t) }

// Policy bounds retries and waits. The zero Policy uses the defaults named
// on each field.
type Policy struct {
	// Retries is how many times a transient failure is retried on the same
	// target before failing over. Default 2; negative means none.
	Retries int
	// Backoff is the first wait when the provider gave no hint; each
	// further retry doubles it. Default 1 s.
	Backoff time.Duration
	// MaxBackoff caps a computed wait. Default 30 s.
	MaxBackoff time.Duration
	// MaxHint is the longest provider retry hint waited for; a longer hint
	// fails over at once instead. Default 60 s.
	MaxHint time.Duration
	// Sleep waits d or until ctx ends. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (p Policy) withDefaults() Policy {
	switch {
	case p.Retries == 0:
		p.Retries = 2
	case p.Retries < 0:
		p.Retries = 0
	}
	if p.Backoff <= 0 {
		p.Backoff = time.Second
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = 30 * time.Second
	}
	if p.MaxHint <= 0 {
		p.MaxHint = time.Minute
	}
	if p.Sleep == nil {
		p.Sleep = sleep
	}
	return p
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Action is what the policy did after an attempt.
type Action string

// The actions.
const (
	ActionDone     Action = "done"
	ActionRetry    Action = "retry"
	ActionFailover Action = "failover"
	ActionStop     Action = "stop"
)

// Attempt records one try.
type Attempt struct {
	Target Target
	Err    error
	Action Action
	// Wait is how long the policy waited before the next try.
	Wait time.Duration
}

// Report is the history of a [Run].
type Report struct {
	Attempts []Attempt
	// Served is the target that accepted, when one did.
	Served *Target
}

// FailedError is returned when no target accepted the request. It wraps the
// last failure, so errors.As finds its *model.Error.
type FailedError struct {
	Attempts []Attempt
}

func (e *FailedError) Error() string {
	var b strings.Builder
	b.WriteString("route: no target accepted the request: ")
	for i, a := range e.Attempts {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %v (%s)", a.Target, a.Err, a.Action)
	}
	last := e.Attempts[len(e.Attempts)-1]
	switch last.Action {
	case ActionStop:
		b.WriteString("; the request itself was refused, so no other target was tried: fix it and send it again")
	default:
		b.WriteString("; every target is unavailable: wait, check `smith auth status`, or add targets to the group")
	}
	return b.String()
}

// Unwrap returns the last failure.
func (e *FailedError) Unwrap() error { return e.Attempts[len(e.Attempts)-1].Err }

// Run sends the request through a to each target in order under the
// policy, and returns the report; the error is a *FailedError when no target
// accepted, or ctx's error when it ended first. The number of attempts is at
// most len(targets)×(Retries+1).
func Run(ctx context.Context, targets []Target, a Attempter, p Policy) (Report, error) {
	p = p.withDefaults()
	var rep Report
	if len(targets) == 0 {
		return rep, errors.New("route: no targets to try; resolve a model name first")
	}
	for i := range targets {
		t := targets[i]
		for try := 0; ; try++ {
			if err := ctx.Err(); err != nil {
				return rep, fmt.Errorf("route: cancelled before trying %s: %w", t, err)
			}
			err := a.Attempt(ctx, t)
			if err == nil {
				rep.Attempts = append(rep.Attempts, Attempt{Target: t, Action: ActionDone})
				rep.Served = &targets[i]
				return rep, nil
			}
			action, wait := decide(err, try, p)
			if ctx.Err() != nil {
				action = ActionStop
			}
			rep.Attempts = append(rep.Attempts, Attempt{Target: t, Err: err, Action: action, Wait: wait})
			if action == ActionStop {
				return rep, &FailedError{Attempts: rep.Attempts}
			}
			if action == ActionFailover {
				break
			}
			if err := p.Sleep(ctx, wait); err != nil {
				return rep, fmt.Errorf("route: cancelled while waiting %s to retry %s: %w", wait, t, err)
			}
		}
	}
	return rep, &FailedError{Attempts: rep.Attempts}
}

// decide classifies a failure: what to do next and how long to wait first.
func decide(err error, try int, p Policy) (Action, time.Duration) {
	var me *model.Error
	if !errors.As(err, &me) {
		// Unclassified: a defect of the attempter, not of the target.
		return ActionStop, 0
	}
	switch me.Kind {
	case model.ErrRateLimit, model.ErrQuota, model.ErrAuth, model.ErrNotFound:
		return ActionFailover, 0
	case model.ErrOverloaded, model.ErrServer, model.ErrTransport, model.ErrTruncated:
		if !me.Retryable || try >= p.Retries {
			return ActionFailover, 0
		}
		if me.RetryAfterMillis > 0 {
			hint := time.Duration(me.RetryAfterMillis) * time.Millisecond
			if hint > p.MaxHint {
				return ActionFailover, 0
			}
			return ActionRetry, hint
		}
		wait := p.Backoff << try
		if wait > p.MaxBackoff || wait <= 0 {
			wait = p.MaxBackoff
		}
		return ActionRetry, wait
	}
	// invalid_request, context_overflow, aborted, malformed: no target
	// would do better.
	return ActionStop, 0
}
