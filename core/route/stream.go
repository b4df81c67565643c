package route

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// Opener starts a stream for one target, typically the target provider's
// [model.Provider.Stream] with the request's model set to t.Model.
type Opener func(ctx context.Context, t Target) model.Stream

// Stream runs the failover policy over streams and returns at once; the
// work happens as the caller pulls events. A target has accepted once its
// stream yields a first event that is not an error; that event and the
// rest of the target's stream follow. Before that, every failed attempt is
// reported in the stream as a routing notice — [model.Retrying] before the
// wait for a retry, [model.FailingOver] when the request moves to the next
// target — so a frontend can say what is happening while it waits. A
// stream whose first event is a [model.StreamError] is closed and its
// classified error decides what happens next, as in [Run]; a stream that
// ends without any event counts as truncated. When no target accepts, the
// stream ends with one [model.StreamError] carrying the last failure, its
// message naming every attempt. Failures after the first event are not
// failed over (output may already have been shown); they reach the caller
// through the stream.
//
// Next must not be called concurrently with itself; Close may be called
// from any goroutine and ends a wait at once.
func Stream(ctx context.Context, targets []Target, open Opener, p Policy) model.Stream {
	pl, err := newPlan(targets, p)
	s := &routed{ctx: ctx, open: open, plan: pl, closed: make(chan struct{})}
	if err != nil {
		s.end = failure(model.NewError(model.ErrInvalidRequest, "%v", err))
	}
	return s
}

// routed is the stream [Stream] returns.
type routed struct {
	ctx  context.Context
	open Opener
	plan *plan
	// wait is the retry wait still to be slept before the next attempt.
	wait time.Duration
	// first is the accepted stream's first event, not yet returned.
	first    model.StreamEvent
	accepted model.Stream
	// end is the terminal event of a request no target accepted.
	end      model.StreamEvent
	finished bool
	// pending is an attempt that has yielded only notices so far (a
	// provider saying it is still waiting), and its target: it is neither
	// accepted nor failed yet.
	pending       model.Stream
	pendingTarget Target

	mu        sync.Mutex
	current   model.Stream // the attempt in flight, closed by Close
	closed    chan struct{}
	closeOnce sync.Once
}

func (s *routed) Next() (model.StreamEvent, bool) {
	switch {
	case s.accepted != nil:
		if ev := s.first; ev != nil {
			s.first = nil
			return ev, true
		}
		return s.accepted.Next()
	case s.finished:
		return nil, false
	case s.end != nil:
		s.finished = true
		return s.end, true
	}
	if s.wait > 0 {
		err := s.sleep(s.wait)
		s.wait = 0
		if err != nil {
			s.finished = true
			return failure(model.NewError(model.ErrAborted, "the request was cancelled while waiting to retry %s: %v", s.plan.target(), err)), true
		}
	}
	t, attempt := s.pendingTarget, s.pending
	s.pending = nil
	if attempt == nil {
		t = s.plan.target()
		attempt = s.open(s.ctx, t)
		s.mu.Lock()
		s.current = attempt
		s.mu.Unlock()
	}
	ev, ok := attempt.Next()
	var err error
	switch se, isErr := ev.(model.StreamError); {
	case !ok:
		err = model.NewError(model.ErrTruncated, "the stream of %s ended before its first event", t)
	case isErr && se.Err == nil:
		err = model.NewError(model.ErrMalformed, "the stream of %s failed without a classified error", t)
	case isErr:
		err = se.Err
	case model.IsNotice(ev):
		// Not an answer yet: pass the notice on, keep waiting on the
		// attempt.
		s.pending, s.pendingTarget = attempt, t
		return ev, true
	default:
		s.plan.accepted()
		s.accepted, s.first = attempt, ev
		return s.Next()
	}
	_ = attempt.Close()
	at := s.plan.failed(s.ctx, err)
	var me *model.Error
	errors.As(err, &me)
	switch {
	case at.Action == ActionRetry:
		s.wait = at.Wait
		return model.Retrying{Target: t.String(), Attempt: s.plan.try, Err: me, Wait: at.Wait}, true
	case at.Action == ActionFailover && !s.plan.done():
		return model.FailingOver{From: t.String(), To: s.plan.target().String(), Err: me}, true
	}
	// Stopped, or every target failed: one terminal error, the last
	// failure's, saying how many attempts there were.
	fe := &FailedError{Attempts: s.plan.rep.Attempts}
	e := model.NewError(model.ErrAborted, "%s (%s)", err, fe.Summary())
	if me != nil {
		c := *me
		c.Message = fmt.Sprintf("%s (%s)", me.Message, fe.Summary())
		e = &c
	}
	s.finished = true
	return failure(e), true
}

// sleep waits d, or until the context ends or the stream is closed.
func (s *routed) sleep(d time.Duration) error {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	go func() {
		select {
		case <-s.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := s.plan.p.Sleep(ctx, d); err != nil {
		if ctx.Err() != nil && s.ctx.Err() == nil {
			return fmt.Errorf("the stream was closed")
		}
		return err
	}
	return nil
}

func (s *routed) Close() error {
	s.closeOnce.Do(func() { close(s.closed) })
	s.mu.Lock()
	cur := s.current
	s.mu.Unlock()
	if cur != nil {
		return cur.Close()
	}
	return nil
}

func failure(e *model.Error) model.StreamEvent { return model.StreamError{Err: e} }
