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
//
// A request is tried on each target in order. A rate limit, an exhausted
// quota, a rejected credential or an unavailable model fails over to the
// next target at once; on the last target (a single model is its own last
// target) a rate limit is retried like a transient failure instead, since
// waiting is then the only way to succeed. A transient failure
// (overloaded, server error, transport error, truncated stream) is retried
// on the same target up to Retries times, each wait the provider's retry
// hint when it gave one (up to MaxHint) or else Backoff doubled per retry
// (up to MaxBackoff), and then fails over. The waits of one request never
// add up to more than MaxTotalWait: a wait that would cross it fails over
// (or, on the last target, ends the request). An invalid request, a
// context overflow or an unclassified failure stops at once.
type Policy struct {
	// Retries is how many times a retryable failure is retried on the same
	// target before failing over. Default 4; negative means none.
	Retries int
	// Backoff is the first wait when the provider gave no hint; each
	// further retry doubles it. Default 1 s.
	Backoff time.Duration
	// MaxBackoff caps a computed wait. Default 30 s.
	MaxBackoff time.Duration
	// MaxHint is the longest provider retry hint waited for; a longer hint
	// fails over at once instead. Default 60 s.
	MaxHint time.Duration
	// MaxTotalWait bounds the sum of one request's waits. Default 2 min.
	MaxTotalWait time.Duration
	// Sleep waits d or until ctx ends. Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (p Policy) withDefaults() Policy {
	switch {
	case p.Retries == 0:
		p.Retries = 4
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
	if p.MaxTotalWait <= 0 {
		p.MaxTotalWait = 2 * time.Minute
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

// Summary says in a few words what was tried: "1 attempt on p/a", "5
// attempts on p/a", "4 attempts over 2 targets (p/a ×3, q/b)".
func (e *FailedError) Summary() string {
	var order []Target
	count := map[Target]int{}
	for _, a := range e.Attempts {
		if count[a.Target] == 0 {
			order = append(order, a.Target)
		}
		count[a.Target]++
	}
	n := len(e.Attempts)
	attempts := fmt.Sprintf("%d attempts", n)
	if n == 1 {
		attempts = "1 attempt"
	}
	if len(order) == 1 {
		return fmt.Sprintf("%s on %s", attempts, order[0])
	}
	parts := make([]string, len(order))
	for i, t := range order {
		parts[i] = t.String()
		if c := count[t]; c > 1 {
			parts[i] += fmt.Sprintf(" ×%d", c)
		}
	}
	return fmt.Sprintf("%s over %d targets (%s)", attempts, len(order), strings.Join(parts, ", "))
}

// Unwrap returns the last failure.
func (e *FailedError) Unwrap() error { return e.Attempts[len(e.Attempts)-1].Err }

// Run sends the request through a to each target in order under the
// policy, and returns the report; the error is a *FailedError when no target
// accepted, or ctx's error when it ended first. The number of attempts is at
// most len(targets)×(Retries+1).
func Run(ctx context.Context, targets []Target, a Attempter, p Policy) (Report, error) {
	pl, err := newPlan(targets, p)
	if err != nil {
		return Report{}, err
	}
	for {
		t := pl.target()
		if err := ctx.Err(); err != nil {
			return pl.rep, fmt.Errorf("route: cancelled before trying %s: %w", t, err)
		}
		err := a.Attempt(ctx, t)
		if err == nil {
			pl.accepted()
			return pl.rep, nil
		}
		at := pl.failed(ctx, err)
		switch {
		case at.Action == ActionStop:
			return pl.rep, &FailedError{Attempts: pl.rep.Attempts}
		case at.Action == ActionRetry:
			if err := pl.p.Sleep(ctx, at.Wait); err != nil {
				return pl.rep, fmt.Errorf("route: cancelled while waiting %s to retry %s: %w", at.Wait, t, err)
			}
		case pl.done():
			return pl.rep, &FailedError{Attempts: pl.rep.Attempts}
		}
	}
}

// plan is the policy's state over one request: the target being tried, its
// failed tries so far, the time waited and the report.
type plan struct {
	targets []Target
	p       Policy
	i, try  int
	waited  time.Duration
	rep     Report
}

func newPlan(targets []Target, p Policy) (*plan, error) {
	if len(targets) == 0 {
		return nil, errors.New("route: no targets to try; resolve a model name first")
	}
	return &plan{targets: targets, p: p.withDefaults()}, nil
}

// target is the target to try next.
func (pl *plan) target() Target { return pl.targets[pl.i] }

// done reports whether every target has been given up.
func (pl *plan) done() bool { return pl.i >= len(pl.targets) }

// accepted records that the current target accepted the request.
func (pl *plan) accepted() {
	pl.rep.Attempts = append(pl.rep.Attempts, Attempt{Target: pl.target(), Action: ActionDone})
	pl.rep.Served = &pl.targets[pl.i]
}

// failed records a failure of the current target and decides what comes
// next; after a failover the plan points at the next target (or is done).
func (pl *plan) failed(ctx context.Context, err error) Attempt {
	last := pl.i == len(pl.targets)-1
	action, wait := decide(err, pl.try, last, pl.p)
	if action == ActionRetry && pl.waited+wait > pl.p.MaxTotalWait {
		action, wait = ActionFailover, 0
	}
	if ctx.Err() != nil {
		action, wait = ActionStop, 0
	}
	at := Attempt{Target: pl.target(), Err: err, Action: action, Wait: wait}
	pl.rep.Attempts = append(pl.rep.Attempts, at)
	switch action {
	case ActionRetry:
		pl.try++
		pl.waited += wait
	case ActionFailover:
		pl.i++
		pl.try = 0
	}
	return at
}

// decide classifies a failure: what to do next and how long to wait first.
// last says whether no target follows this one.
func decide(err error, try int, last bool, p Policy) (Action, time.Duration) {
	var me *model.Error
	if !errors.As(err, &me) {
		// Unclassified: a defect of the attempter, not of the target.
		return ActionStop, 0
	}
	switch me.Kind {
	case model.ErrRateLimit:
		if !last {
			return ActionFailover, 0
		}
		// The only target left: waiting out the limit is the way on.
		return backoff(me, try, p)
	case model.ErrQuota, model.ErrAuth, model.ErrNotFound:
		return ActionFailover, 0
	case model.ErrOverloaded, model.ErrServer, model.ErrTransport, model.ErrTruncated:
		return backoff(me, try, p)
	}
	// invalid_request, context_overflow, aborted, malformed: no target
	// would do better.
	return ActionStop, 0
}

// backoff retries a retryable failure after its hint or the doubled
// backoff, or fails over once the retries are used up.
func backoff(me *model.Error, try int, p Policy) (Action, time.Duration) {
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
