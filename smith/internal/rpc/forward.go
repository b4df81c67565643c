package rpc

import (
	"context"
	"fmt"
	"sync"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// forwarder writes one session's events as notifications, in order, from
// its own goroutine; it ends when the session closes (after writing what
// the subscription held).
type forwarder struct {
	events <-chan protocol.Event
	stop   func() // ends the subscription
	out    *lineWriter
	log    func(string, ...any)
	done   chan struct{}

	mu      sync.Mutex
	settled uint64        // sequence of the last settled event written
	changed chan struct{} // closed and replaced when settled grows
}

func forward(sub *runtime.Subscription, out *lineWriter, log func(string, ...any)) *forwarder {
	return forwardEvents(sub.Events(), sub.Close, out, log)
}

// forwardEvents forwards the events of a channel; stop ends their source.
func forwardEvents(events <-chan protocol.Event, stop func(), out *lineWriter, log func(string, ...any)) *forwarder {
	f := &forwarder{events: events, stop: stop, out: out, log: log, done: make(chan struct{}), changed: make(chan struct{})}
	go f.run()
	return f
}

func (f *forwarder) run() {
	defer close(f.done)
	for ev := range f.events {
		b, err := protocol.MarshalEvent(ev)
		if err != nil {
			f.log("smith rpc: event %d could not be encoded and was left out: %v", ev.Sequence(), err)
			continue
		}
		f.out.event(b)
		if _, ok := ev.(protocol.Settled); ok {
			f.mu.Lock()
			f.settled = ev.Sequence()
			close(f.changed)
			f.changed = make(chan struct{})
			f.mu.Unlock()
		}
	}
}

// waitSettled waits until a settled event after sequence n has been
// written, the session's events end, or ctx ends.
func (f *forwarder) waitSettled(ctx context.Context, n uint64) error {
	for {
		f.mu.Lock()
		got, changed := f.settled, f.changed
		f.mu.Unlock()
		if got > n {
			return nil
		}
		select {
		case <-changed:
		case <-f.done:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("the settled event was not written before the timeout (is the client reading stdout?): %w", ctx.Err())
		}
	}
}
