package runtime

import (
	"context"
	"slices"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Queue returns the session's queued input: steering input waiting for the
// active run's next tool-batch boundary and follow-up input waiting for it
// to stop.
func (s *Session) Queue() protocol.Queue {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue()
}

// queue returns the queues. Called with s.mu held.
func (s *Session) queue() protocol.Queue {
	q := protocol.Queue{Steer: []model.UserMessage{}, FollowUp: []model.UserMessage{}}
	steer, follow := s.carrySteer, s.carryFollow
	if s.agent != nil {
		steer, follow = s.agent.Queued()
	}
	q.Steer = append(q.Steer, steer...)
	q.FollowUp = append(q.FollowUp, follow...)
	return q
}

// SetQueue replaces queued input: a nil field of p keeps that queue, an
// empty list clears it. Each message must hold content. During a run the
// run announces the new queues with a queue_update; while the session is
// idle the session publishes one itself. It returns the queues after the
// change (input the run takes at the same moment may already be gone).
func (s *Session) SetQueue(ctx context.Context, p protocol.SetQueueParams) (protocol.Queue, error) {
	for _, q := range []*[]model.UserMessage{p.Steer, p.FollowUp} {
		if q == nil {
			continue
		}
		for i, m := range *q {
			if len(m.Content) == 0 {
				return protocol.Queue{}, usagef("runtime: queued message %d has no content; give it a text block, or leave it out", i)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return protocol.Queue{}, errClosed
	}
	if s.agent != nil {
		if p.Steer != nil {
			s.agent.SetSteer(*p.Steer)
		}
		if p.FollowUp != nil {
			s.agent.SetFollowUp(*p.FollowUp)
		}
	} else {
		if p.Steer != nil {
			s.carrySteer = slices.Clone(*p.Steer)
		}
		if p.FollowUp != nil {
			s.carryFollow = slices.Clone(*p.FollowUp)
		}
	}
	q := s.queue()
	if !s.running() && (p.Steer != nil || p.FollowUp != nil) {
		s.publishIdle(protocol.QueueUpdate{Seq: protocol.Seq{N: s.hub.next()}, Steer: q.Steer, FollowUp: q.FollowUp})
	}
	return q, nil
}
