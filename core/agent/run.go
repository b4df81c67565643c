package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// Run is one active run of an [Agent]. Its goroutine owns the run's state;
// callers talk to it through the event channel, Abort, and the agent's
// queue methods.
type Run struct {
	a      *Agent
	ctx    context.Context
	cancel context.CancelCauseFunc
	events chan protocol.Event
	queued chan struct{}
	done   chan struct{}
	number int
	prompt []model.UserMessage
	end    protocol.AgentEnd
	turn   int
	ended  atomic.Bool // agent_end was emitted
	// spent is what the run's responses and compactions cost; spentSet
	// says it was counted (the zero Amount is unknown).
	spent    model.Amount
	spentSet bool
	// b is the run's state at the plugins' event boundary.
	b boundary
	// target, when set, is where the rest of the run's requests go (a
	// handler selected another model); nil sends them to the agent's.
	target *Target
	// idle, for the stand-in run of [Agent.Observe], collects the events
	// emitted instead of sending them.
	idle *[]protocol.Event
}

// errAborted is the cause of an abort requested through [Run.Abort].
var errAborted = errors.New("agent: run aborted")

// Events returns the run's events, in order, ending with [protocol.AgentEnd] and
// [protocol.Settled], after which the channel is closed. The consumer must drain it:
// the run blocks while the channel (of capacity Config.EventBuffer) is full.
func (r *Run) Events() <-chan protocol.Event { return r.events }

// Abort cancels the run at once: the provider stream and any running tool
// see their context cancelled. It is safe to call any number of times, from
// any goroutine.
func (r *Run) Abort() { r.cancel(errAborted) }

// Wait blocks until the run has settled and returns its protocol.AgentEnd. The
// events must be drained concurrently.
func (r *Run) Wait() protocol.AgentEnd {
	<-r.done
	return r.end
}

// Done is closed when the run has settled.
func (r *Run) Done() <-chan struct{} { return r.done }

// emit sends ev to the consumer, then delivers it to the handlers that
// want it, except the events whose handlers run at their own point:
// tool_execution_start (a decision, see execute) and settled (before it
// is sent, see loop).
func (r *Run) emit(ev protocol.Event) {
	if r.idle != nil {
		*r.idle = append(*r.idle, ev)
	} else {
		r.events <- ev
	}
	switch ev.(type) {
	case protocol.ToolExecutionStart, protocol.Settled:
	default:
		if r.a.cfg.Handlers != nil {
			_ = r.observe(ev, false) // only a decision fails
		}
	}
}

func (r *Run) seq() protocol.Seq { return protocol.Seq{N: r.a.cfg.Sequence()} }

// emitQueue emits a queue_update with the current queue.
func (r *Run) emitQueue() {
	steer, follow := r.a.Queued()
	if steer == nil {
		steer = []model.UserMessage{}
	}
	if follow == nil {
		follow = []model.UserMessage{}
	}
	r.emit(protocol.QueueUpdate{Seq: r.seq(), Steer: steer, FollowUp: follow})
}

// drainQueued emits a queue_update if input was queued since the last one.
func (r *Run) drainQueued() {
	select {
	case <-r.queued:
		r.emitQueue()
	default:
	}
}

// queueLen returns the length of queue q.
func (r *Run) queueLen(q *[]model.UserMessage) int {
	r.a.mu.Lock()
	defer r.a.mu.Unlock()
	return len(*q)
}

// take removes and returns the queue q at a lifecycle boundary.
func (r *Run) take(q *[]model.UserMessage) []model.UserMessage {
	r.drainQueued()
	r.a.mu.Lock()
	got := *q
	*q = nil
	r.a.mu.Unlock()
	if len(got) > 0 {
		r.emitQueue()
	}
	return got
}

// record makes m durable, appends it to the history, and emits message_end.
// When recording fails the message stays out of the history, message_end is
// still emitted (every start has its end) and the error ends the run.
func (r *Run) record(m model.Message) error {
	err := r.a.cfg.Recorder.Record(context.WithoutCancel(r.ctx), m)
	if err != nil {
		err = fmt.Errorf("agent: record %s message: %w", m.Role(), err)
	} else {
		r.a.mu.Lock()
		r.a.history = append(r.a.history, m)
		r.a.mu.Unlock()
	}
	r.emit(protocol.MessageEnd{Seq: r.seq(), Message: m})
	return err
}

// deliver emits and records complete input messages.
func (r *Run) deliver(msgs []model.UserMessage) error {
	for _, m := range msgs {
		r.emit(protocol.MessageStart{Seq: r.seq(), Message: m})
		if err := r.record(m); err != nil {
			return err
		}
	}
	return nil
}

func (r *Run) aborted() bool { return r.ctx.Err() != nil }

func (r *Run) loop() {
	r.emit(protocol.AgentStart{Seq: r.seq(), Run: r.number})
	r.end = r.turns()
	// The stop overrides what the run's last boundary asked of the run
	// itself (a continuation, a tool change, its prompt, context and
	// output bound); queued input and the
	// runtime's changes still apply, for the next run.
	r.b.batch = slices.DeleteFunc(r.b.batch, func(a Action) bool {
		switch a.Kind {
		case ActionContinue, ActionSetTool, ActionAddContext, ActionReplacePrompt, ActionLimitOutput:
			return true
		}
		return false
	})
	r.end.Cost = r.a.cost()
	r.end.Seq = r.seq()
	r.emit(r.end)
	r.ended.Store(true)
	// Every stream and tool goroutine of the run has finished or been
	// abandoned after its grace period by now. The settled handlers run
	// before settled is sent, and a run started meanwhile waits for them
	// (Start waits for done).
	// The handlers see settled with agent_end's number: its own is
	// given when it is sent, after the handlers' diagnostics.
	_ = r.observe(protocol.Settled{Seq: r.end.Seq}, false)
	r.safePoint(true)
	r.drainQueued()
	r.emit(protocol.Settled{Seq: r.seq()})
	r.a.mu.Lock()
	r.a.active = nil
	r.a.mu.Unlock()
	close(r.events)
	r.cancel(nil)
	close(r.done)
}

// turns runs turns until a stop condition and returns the (unsequenced)
// protocol.AgentEnd.
func (r *Run) turns() protocol.AgentEnd {
	if err := r.closeInterrupted(); err != nil {
		return protocol.AgentEnd{Reason: protocol.EndRecordFailed, Error: err.Error()}
	}
	// source is the queue to deliver from at the next turn's start. It is
	// only taken once the turn really starts, so input queued when the run
	// ends (abort, turn limit) stays queued.
	var source *[]model.UserMessage
	switch {
	case r.queueLen(&r.a.steer) > 0:
		source = &r.a.steer
	case len(r.prompt) == 0:
		source = &r.a.followUp
	}
	first := true
	// overflowed is the error of a request the provider refused as too
	// long for the context window: compact, then send it again; retried
	// says the request being sent is that second try, which is not
	// retried again. auto is off after a threshold compaction failed, for
	// the rest of the run.
	var overflowed *model.Error
	retried, auto := false, true
	for {
		if r.aborted() {
			return r.abortEnd()
		}
		if max := r.a.cfg.MaxTurns; max > 0 && r.turn >= max {
			return protocol.AgentEnd{Reason: protocol.EndMaxTurns, Error: fmt.Sprintf("agent: the run stopped at its limit of %d model turns; continue the session to go on", max)}
		}
		if end, over := r.overBudget(); over {
			return end
		}
		if c := r.a.cfg.Compactor; c != nil {
			compacted := false
			switch {
			case overflowed != nil:
				failed := overflowed
				overflowed = nil
				if !r.compact(protocol.CompactOverflow) {
					if r.aborted() {
						return r.abortEnd()
					}
					return protocol.AgentEnd{Reason: protocol.EndProviderError, Error: failed.Error() + "; compacting the context to fit it failed (compaction_end says why)"}
				}
				compacted, retried = true, true
			case auto && c.Due(r.request(), r.notify):
				compacted = r.compact(protocol.CompactThreshold)
				auto = compacted
			}
			if r.aborted() {
				return r.abortEnd()
			}
			if compacted && source == nil && r.queueLen(&r.a.steer) > 0 {
				// Steering input queued during the compaction starts
				// this turn, as it would have after the tool batch.
				source = &r.a.steer
			}
		}
		if end, over := r.overBudget(); over {
			// A compaction spent the rest of the budget.
			return end
		}
		var pending []model.UserMessage
		if first {
			pending, first = r.prompt, false
		}
		if source != nil {
			pending = append(pending, r.take(source)...)
			source = nil
		}
		r.turn++
		r.emit(protocol.TurnStart{Seq: r.seq(), Turn: r.turn})
		if err := r.deliver(pending); err != nil {
			r.emit(protocol.TurnEnd{Seq: r.seq(), Turn: r.turn, Message: model.AssistantMessage{Content: []model.Content{}}, ToolResults: []model.ToolResultMessage{}})
			return protocol.AgentEnd{Reason: protocol.EndRecordFailed, Error: err.Error()}
		}

		msg, err := r.stream()
		r.spend(msg.Usage.CostNanoUSD)
		if err != nil {
			r.emit(protocol.TurnEnd{Seq: r.seq(), Turn: r.turn, Message: msg, ToolResults: []model.ToolResultMessage{}})
			return protocol.AgentEnd{Reason: protocol.EndRecordFailed, Error: err.Error()}
		}
		calls := msg.ToolCalls()
		var results []model.ToolResultMessage
		switch {
		case msg.Error != nil || msg.Stop != model.StopToolUse:
			why := "the response was cut off by the output limit before the call was complete"
			switch {
			case msg.Error != nil && msg.Error.Kind == model.ErrAborted:
				why = "the run was aborted before the call ran"
			case msg.Error != nil:
				why = "the response failed before the call could run: " + msg.Error.Error()
			}
			results, err = r.skip(calls, why)
		default:
			results, err = r.execute(calls)
		}
		r.emit(protocol.TurnEnd{Seq: r.seq(), Turn: r.turn, Message: msg, ToolResults: nonNil(results)})
		var hf *handlerFailure
		switch {
		case errors.As(err, &hf):
			return protocol.AgentEnd{Reason: protocol.EndHandlerFailed, Error: err.Error()}
		case err != nil:
			return protocol.AgentEnd{Reason: protocol.EndRecordFailed, Error: err.Error()}
		case r.aborted() || (msg.Error != nil && msg.Error.Kind == model.ErrAborted):
			return r.abortEnd()
		case msg.Error != nil && msg.Error.Kind == model.ErrContextOverflow && r.a.cfg.Compactor != nil && !retried:
			// Compact at the next turn's start, then send it again.
			overflowed, source = msg.Error, nil
			if r.queueLen(&r.a.steer) > 0 {
				source = &r.a.steer
			}
			continue
		case msg.Error != nil:
			return protocol.AgentEnd{Reason: protocol.EndProviderError, Error: msg.Error.Error()}
		case msg.Stop == model.StopLength:
			return protocol.AgentEnd{Reason: protocol.EndLength}
		case msg.Stop == model.StopRefusal:
			return protocol.AgentEnd{Reason: protocol.EndRefusal}
		}
		retried = false
		// The safe point: the handlers' actions of this turn apply.
		r.safePoint(false)
		continued := r.b.continued
		r.b.continued = false
		// Boundary after the complete tool batch: steering input first.
		r.drainQueued()
		switch {
		case r.aborted():
			// A handler cancelled the run at the boundary.
			return r.abortEnd()
		case r.queueLen(&r.a.steer) > 0:
			source = &r.a.steer
		case len(calls) > 0:
		case r.queueLen(&r.a.followUp) > 0:
			// The agent would stop: follow-up input.
			source = &r.a.followUp
		case continued:
			// A handler asked for one more request; the queued input and
			// the tool follow-up above would have satisfied it.
		default:
			return protocol.AgentEnd{Reason: protocol.EndCompleted}
		}
	}
}

func (r *Run) abortEnd() protocol.AgentEnd {
	msg := "agent: run aborted"
	if c := context.Cause(r.ctx); c != nil && !errors.Is(c, errAborted) {
		msg = "agent: run aborted: " + c.Error()
	}
	return protocol.AgentEnd{Reason: protocol.EndAborted, Error: msg}
}

// skip answers every call with an error result without running it, so that
// every call stays paired with a result.
func (r *Run) skip(calls []model.ToolCall, why string) ([]model.ToolResultMessage, error) {
	var results []model.ToolResultMessage
	for _, c := range calls {
		res := model.ToolResultMessage{CallID: c.ID, Name: c.Name, IsError: true, Mutation: model.MutationNotApplied,
			Content: []model.Content{model.Text{Text: "not executed: " + why}}}
		r.emit(protocol.MessageStart{Seq: r.seq(), Message: res})
		if err := r.record(res); err != nil {
			return results, err
		}
		results = append(results, res)
	}
	return results, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return slices.Clip(s)
}

// closeInterrupted answers the tool calls of the history's last assistant
// message that have no result — the previous process ended mid-batch — so
// that every call stays paired before new input is added. Their effects
// are unknown: the effect journal's recovery holds the evidence.
func (r *Run) closeInterrupted() error {
	r.a.mu.Lock()
	h := r.a.history
	last := -1
	for i := len(h) - 1; i >= 0; i-- {
		if _, ok := h[i].(model.AssistantMessage); ok {
			last = i
			break
		}
		if _, ok := h[i].(model.ToolResultMessage); !ok {
			break
		}
	}
	var open []model.ToolCall
	if last >= 0 {
		answered := make(map[string]bool)
		for _, m := range h[last+1:] {
			answered[m.(model.ToolResultMessage).CallID] = true
		}
		for _, c := range h[last].(model.AssistantMessage).ToolCalls() {
			if !answered[c.ID] {
				open = append(open, c)
			}
		}
	}
	r.a.mu.Unlock()
	for _, c := range open {
		res := failed(c, model.MutationUnknown, "interrupted: the previous session ended before this call completed; whether its effects happened is unknown (see the session's effect records)")
		r.emit(protocol.MessageStart{Seq: r.seq(), Message: res})
		if err := r.record(res); err != nil {
			return err
		}
	}
	return nil
}
