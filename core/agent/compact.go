package agent

import (
	"context"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Compactor compacts the conversation history: it replaces the older part
// with a summary so that the requests fit the model's context window. The
// agent calls it from the run's goroutine only, at a boundary between
// provider requests — no stream open, every tool call answered, queued
// input still queued — so input queued meanwhile is delivered after the
// compaction according to its delivery mode.
type Compactor interface {
	// Due reports whether req, the request the agent is about to send
	// (before the input pending for the turn is added), should be
	// compacted first: its estimated size crossed the threshold. When
	// compacting would not help (say, the last compaction left the
	// context above the threshold too), it returns false and may emit a
	// notice through notify, which works as Compact's does.
	Due(req *model.Request, notify func(protocol.Event)) bool
	// Compact summarises the older part of history (the agent's current
	// history) for reason ([protocol.CompactThreshold] or
	// [protocol.CompactOverflow]) and returns the history the next request
	// continues from, with the compaction_end event that reports it (its
	// sequence number is set by the agent). On failure it returns a nil
	// history and end.Error says what happened and what to do next; the
	// history stays as it was. ctx is the run's: an abort cancels it.
	// notify emits an event of the summary request (a retry, a failover,
	// a notice) into the run's stream, sequence number included.
	Compact(ctx context.Context, reason string, history []model.Message, notify func(protocol.Event)) ([]model.Message, protocol.CompactionEnd)
	// PriorCost returns the cost of the conversation the history no
	// longer holds (the summarised responses and the summary requests), in
	// billionths of a US dollar; unknown when any part is. AgentEnd.Cost
	// adds it.
	PriorCost() model.Amount
}

// SetHistory replaces the conversation history, for a compaction made
// while no run is active. It returns [ErrRunActive] while a run is active;
// a run that has ended but not yet settled makes it wait, as
// [Agent.Retarget] does. The queued input stays.
func (a *Agent) SetHistory(h []model.Message) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.awaitSettledLocked(); err != nil {
		return err
	}
	a.history = slices.Clone(h)
	return nil
}

// request returns the request the next round would send from the current
// history.
func (r *Run) request() *model.Request {
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	return &model.Request{Model: r.a.cfg.Model, System: r.system(), MaxOutputTokens: r.b.limit,
		Messages: r.a.history[:len(r.a.history):len(r.a.history)], Tools: r.advertised()}
}

// system is the system prompt of the run's next request: the agent's, or
// the one a handler put in its place, with the context handlers added.
// Called by the run goroutine, which alone changes r.b.
func (r *Run) system() string {
	s := r.a.cfg.System
	if r.b.prompt != nil {
		s = *r.b.prompt
	}
	if len(r.b.notes) == 0 {
		return s
	}
	return strings.Join(append([]string{s}, r.b.notes...), "\n\n")
}

// notify emits ev, an event of the compactor's, with the next sequence
// number.
func (r *Run) notify(ev protocol.Event) { r.emit(protocol.Numbered(ev, r.a.cfg.Sequence())) }

// compact runs a compaction for reason between rounds, bracketed by
// compaction_start and compaction_end, and reports whether it replaced the
// history.
func (r *Run) compact(reason string) bool {
	c := r.a.cfg.Compactor
	r.emit(protocol.CompactionStart{Seq: r.seq(), Reason: reason})
	r.a.mu.Lock()
	history := slices.Clone(r.a.history)
	r.a.mu.Unlock()
	next, end := c.Compact(r.ctx, reason, history, r.notify)
	r.spend(end.Usage.CostNanoUSD)
	ok := end.Error == "" && next != nil
	if ok {
		r.a.mu.Lock()
		r.a.history = slices.Clone(next)
		r.a.mu.Unlock()
	}
	end.Seq = r.seq()
	r.emit(end)
	return ok
}
