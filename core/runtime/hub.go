package runtime

import (
	"context"
	"errors"
	"sync"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// SubscriberBuffer is how many events a [Subscription] holds for a
// consumer that has not read them yet. When it is full, a new
// message_update delta that continues the same content block as the last
// held one is merged into it (coalesced); any other event waits until the
// consumer reads (back-pressure on the run).
const SubscriberBuffer = 256

// backlogSize bounds the events kept, while nobody subscribes, for the
// first subscriber.
const backlogSize = 256

// hub is a session's event stream: it stamps every event with the next
// sequence number and fans it out to the subscriptions. Events published
// while there is no subscription are kept (up to backlogSize, oldest
// dropped) and delivered to the first one. It is safe for concurrent use;
// publish calls must come in the order the events happened (one publisher
// at a time: the run's pump, or the session while no run is active).
type hub struct {
	mu      sync.Mutex
	seq     uint64
	subs    []*Subscription
	backlog []protocol.Event
	closed  bool
}

// next returns the next sequence number; the agent stamps its events with
// it, so runtime and agent events share one order.
func (h *hub) next() uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	return h.seq
}

// publish delivers ev, already stamped, to every subscription; it blocks
// while a subscription is full of events that cannot be coalesced.
func (h *hub) publish(ev protocol.Event) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	subs := h.subs
	if len(subs) == 0 {
		if len(h.backlog) == backlogSize {
			h.backlog = h.backlog[1:]
		}
		h.backlog = append(h.backlog, ev)
	}
	h.mu.Unlock()
	for _, s := range subs {
		s.push(ev)
	}
}

// subscribe adds a subscription; the first one receives the backlog.
func (h *hub) subscribe() *Subscription {
	s := &Subscription{h: h, ready: make(chan struct{}, 1), out: make(chan protocol.Event), done: make(chan struct{}), space: make(chan struct{}, 1)}
	h.mu.Lock()
	if h.closed {
		close(s.done)
		close(s.out)
		h.mu.Unlock()
		return s
	}
	s.queue = append(s.queue, h.backlog...)
	backlog := len(s.queue) > 0
	h.backlog = nil
	h.subs = append(h.subs, s)
	h.mu.Unlock()
	if backlog {
		s.signal()
	}
	go s.pump()
	return s
}

func (h *hub) remove(s *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, x := range h.subs {
		if x == s {
			h.subs = append(h.subs[:i:i], h.subs[i+1:]...)
			return
		}
	}
}

// close ends every subscription once it has delivered what it holds.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	subs := h.subs
	h.subs = nil
	h.mu.Unlock()
	for _, s := range subs {
		s.finish()
	}
}

// Subscription is one consumer of a session's events, in sequence order.
// Read them from [Subscription.Events]; a consumer that falls behind gets
// consecutive deltas of one content block coalesced (their sequence
// numbers then skip) and, once [SubscriberBuffer] other events wait, holds
// the run back until it reads. Close it when done; the channel is closed
// after the session closes (and what it held is delivered) or the
// subscription is closed. Its methods are safe for concurrent use.
type Subscription struct {
	h     *hub
	mu    sync.Mutex
	queue []protocol.Event
	// ready signals the pump that the queue grew; space signals blocked
	// publishers that it shrank.
	ready, space chan struct{}
	out          chan protocol.Event
	done         chan struct{}
	closeOnce    sync.Once
	ending       bool // the hub closed: deliver the queue, then end
	coalesced    int
}

// Events returns the channel of events.
func (s *Subscription) Events() <-chan protocol.Event { return s.out }

// Next returns the next event, or an error when ctx ends first or the
// subscription is over ([ErrClosed]).
func (s *Subscription) Next(ctx context.Context) (protocol.Event, error) {
	select {
	case ev, ok := <-s.out:
		if !ok {
			return nil, ErrClosed
		}
		return ev, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Coalesced counts the deltas merged into earlier ones because the
// consumer was behind.
func (s *Subscription) Coalesced() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.coalesced
}

// Close ends the subscription; events not yet read are dropped and the
// session no longer waits for this consumer.
func (s *Subscription) Close() {
	s.closeOnce.Do(func() {
		s.h.remove(s)
		close(s.done)
	})
}

// ErrClosed is returned by [Subscription.Next] when the subscription is
// over.
var ErrClosed = errors.New("runtime: the subscription is closed (the session closed, or Close was called)")

func (s *Subscription) signal() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// push queues ev, coalescing or waiting when the queue is full.
func (s *Subscription) push(ev protocol.Event) {
	for {
		s.mu.Lock()
		if len(s.queue) < SubscriberBuffer {
			s.queue = append(s.queue, ev)
			s.mu.Unlock()
			s.signal()
			return
		}
		if merged, ok := coalesce(s.queue[len(s.queue)-1], ev); ok {
			s.queue[len(s.queue)-1] = merged
			s.coalesced++
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		select {
		case <-s.space:
		case <-s.done:
			return
		}
	}
}

// finish marks the subscription ending: the pump delivers what is queued
// and closes the channel.
func (s *Subscription) finish() {
	s.mu.Lock()
	s.ending = true
	s.mu.Unlock()
	s.signal()
}

// pump moves queued events to the channel, one at a time.
func (s *Subscription) pump() {
	defer close(s.out)
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			ending := s.ending
			s.mu.Unlock()
			if ending {
				return
			}
			select {
			case <-s.ready:
				continue
			case <-s.done:
				return
			}
		}
		ev := s.queue[0]
		s.queue[0] = nil
		s.queue = s.queue[1:]
		s.mu.Unlock()
		select {
		case <-s.space:
		default:
		}
		select {
		case s.space <- struct{}{}:
		default:
		}
		select {
		case s.out <- ev:
		case <-s.done:
			return
		}
	}
}

// coalesce merges b into a when both are message_update deltas that extend
// the same content block (text, thinking or tool-call arguments); the
// result carries b's sequence number.
func coalesce(a, b protocol.Event) (protocol.Event, bool) {
	ua, ok1 := a.(protocol.MessageUpdate)
	ub, ok2 := b.(protocol.MessageUpdate)
	if !ok1 || !ok2 {
		return nil, false
	}
	switch da := ua.Delta.(type) {
	case model.TextDelta:
		db, ok := ub.Delta.(model.TextDelta)
		if !ok || db.Index != da.Index {
			return nil, false
		}
		da.Text += db.Text
		da.Signature = joinBytes(da.Signature, db.Signature)
		return protocol.MessageUpdate{Seq: ub.Seq, Delta: da}, true
	case model.ThinkingDelta:
		db, ok := ub.Delta.(model.ThinkingDelta)
		if !ok || db.Index != da.Index {
			return nil, false
		}
		da.Text += db.Text
		da.Signature = joinBytes(da.Signature, db.Signature)
		da.Encrypted = joinBytes(da.Encrypted, db.Encrypted)
		da.Redacted = da.Redacted || db.Redacted
		return protocol.MessageUpdate{Seq: ub.Seq, Delta: da}, true
	case model.ToolCallDelta:
		db, ok := ub.Delta.(model.ToolCallDelta)
		if !ok || db.Index != da.Index {
			return nil, false
		}
		da.Arguments += db.Arguments
		return protocol.MessageUpdate{Seq: ub.Seq, Delta: da}, true
	}
	return nil, false
}

func joinBytes(a, b []byte) []byte {
	if len(a)+len(b) == 0 {
		return nil
	}
	return append(append(make([]byte, 0, len(a)+len(b)), a...), b...)
}
