package agent

import (
	"context"

	"github.com/smith-agent/smith/core/protocol"
)

// relayKey finds a run's relay in the context of its handler and tool
// calls.
type relayKey struct{}

// relay emits events on behalf of the code a run calls. A handler runs
// on the run's goroutine and emits directly; a tool runs on its own, and
// its events are handed to the run's loop (runTool), which emits them in
// order with the call's updates.
type relay struct {
	run *Run            // set for handlers
	ch  chan relayed    // set for tools
	off <-chan struct{} // closed when the call was abandoned
}

type relayed struct {
	mk   func(protocol.Seq) protocol.Event
	done chan struct{}
}

// Relay emits the event mk makes on the run ctx belongs to, stamped with
// the run's next sequence number, in order with the run's own events,
// and reports whether it did: ctx must be (derived from) the context of a
// handler or tool call of an active run, and false means it is not (a
// command run between runs, an MCP call, a handler given an event
// between runs by [Agent.Observe]). Relay returns once the event is
// emitted, or false once the call is abandoned. The runtime uses it for
// the events plugins cause during a call (ui confirmations and
// notifications).
func Relay(ctx context.Context, mk func(protocol.Seq) protocol.Event) bool {
	rl, _ := ctx.Value(relayKey{}).(*relay)
	switch {
	case rl == nil, rl.run != nil && rl.run.idle != nil:
		return false // no run: the caller publishes the event itself
	case rl.run != nil:
		rl.run.emit(mk(rl.run.seq()))
		return true
	}
	q := relayed{mk: mk, done: make(chan struct{})}
	select {
	case rl.ch <- q:
	case <-rl.off:
		return false
	}
	select {
	case <-q.done:
		return true
	case <-rl.off:
		return false
	}
}
