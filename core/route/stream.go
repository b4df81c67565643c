package route

import (
	"context"

	"github.com/smith-agent/smith/core/model"
)

// Opener starts a stream for one target, typically the target provider's
// [model.Provider.Stream] with the request's model set to t.Model.
type Opener func(ctx context.Context, t Target) model.Stream

// Open runs the failover policy over streams: a target has accepted once
// its stream yields a first event that is not an error. That first event is
// not lost: the returned stream yields it again, then the rest. A stream
// whose first event is a [model.StreamError] is closed and its classified
// error decides what happens next, as in [Run]; a stream that ends without
// any event counts as truncated. Failures after the first event are not
// failed over (output may already have been shown); they reach the caller
// through the stream.
func Open(ctx context.Context, targets []Target, open Opener, p Policy) (model.Stream, Report, error) {
	var accepted *primed
	a := AttemptFunc(func(ctx context.Context, t Target) error {
		s := open(ctx, t)
		ev, ok := s.Next()
		if !ok {
			_ = s.Close()
			return model.NewError(model.ErrTruncated, "the stream of %s ended before its first event", t)
		}
		if se, isErr := ev.(model.StreamError); isErr {
			_ = s.Close()
			if se.Err == nil {
				return model.NewError(model.ErrMalformed, "the stream of %s failed without a classified error", t)
			}
			return se.Err
		}
		accepted = &primed{first: ev, rest: s}
		return nil
	})
	rep, err := Run(ctx, targets, a, p)
	if err != nil {
		return nil, rep, err
	}
	return accepted, rep, nil
}

// primed replays one event ahead of a stream.
type primed struct {
	first model.StreamEvent
	sent  bool
	rest  model.Stream
}

func (s *primed) Next() (model.StreamEvent, bool) {
	if !s.sent {
		s.sent = true
		return s.first, true
	}
	return s.rest.Next()
}

func (s *primed) Close() error { return s.rest.Close() }
