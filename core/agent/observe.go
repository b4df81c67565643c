package agent

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/protocol"
)

// Observe delivers ev, an event of the session that happened while no run
// was active — a model change, a compaction or a queue change asked for
// between runs, a notice — to the handlers that want it, and applies their
// actions at once, as at a settled run's boundary: queued input waits for
// the next run, a reload is published, and what changes only a run
// (continue-run, a tool's activation, the context, the prompt, the output
// bound) is refused with a warning, as is a cancel (there is no run). It
// returns the events the handling caused (the handlers' diagnostics and
// warnings, numbered by Config.Sequence), for the caller to publish after
// ev. It returns [ErrRunActive] while a run is active: a run's own
// boundary delivers its events. ctx bounds the handlers. Calls must not
// overlap each other. A run started meanwhile does not wait (Start never
// waits on handlers, whose actions may need the caller's locks): the two
// may call the handlers at once, each call on its own plugin instance.
func (a *Agent) Observe(ctx context.Context, ev protocol.Event) ([]protocol.Event, error) {
	h := a.cfg.Handlers
	if h == nil || !h.Wants(protocol.EventType(ev)) {
		return nil, nil
	}
	a.mu.Lock()
	busy := a.active != nil && !a.active.ended.Load()
	a.mu.Unlock()
	if busy {
		return nil, ErrRunActive
	}
	var out []protocol.Event
	r := &Run{a: a, ctx: ctx, idle: &out}
	r.cancel = func(cause error) {
		r.emit(protocol.Notice{Seq: r.seq(), Level: protocol.NoticeWarning, Text: fmt.Sprintf("agent: no run is active, so nothing was cancelled (%v)", cause)})
	}
	_ = r.observe(ev, false) // no decision is asked between runs
	// A warning of the first batch may itself be handled once more; no
	// further round, so a handler cannot loop on its own warnings.
	for range 2 {
		r.safePoint(true)
	}
	return out, nil
}
