package agent

import (
	"context"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// execute runs the batch of calls in order. Calls reached after an abort
// are answered without running. The error is a recording failure.
func (r *Run) execute(calls []model.ToolCall) ([]model.ToolResultMessage, error) {
	results := make([]model.ToolResultMessage, 0, len(calls))
	for i, c := range calls {
		if r.aborted() {
			rest, err := r.skip(calls[i:], "the run was aborted before the call ran")
			return append(results, rest...), err
		}
		start := protocol.ToolExecutionStart{Seq: r.seq(), CallID: c.ID, Name: c.Name, Arguments: c.Arguments}
		r.emit(start)
		if err := r.observe(start, true); err != nil {
			// The decision could not be made: nothing of the batch runs
			// and nothing the handlers returned applies.
			rest, rerr := r.skip(calls[i:], "the decision whether it may run failed: "+err.Error())
			if rerr == nil {
				rerr = &handlerFailure{err}
			}
			return append(results, rest...), rerr
		}
		if r.aborted() {
			// A handler cancelled the run.
			r.b.denied = ""
			rest, err := r.skip(calls[i:], "the run was aborted before the call ran")
			return append(results, rest...), err
		}
		var res model.ToolResultMessage
		if why := r.b.denied; why != "" {
			r.b.denied = ""
			res = failed(c, model.MutationNotApplied, "not executed: %s", why)
		} else {
			res = r.runTool(c)
		}
		r.emit(protocol.ToolExecutionEnd{Seq: r.seq(), CallID: c.ID, Name: c.Name, Result: res})
		r.emit(protocol.MessageStart{Seq: r.seq(), Message: res})
		if err := r.record(res); err != nil {
			return results, err
		}
		results = append(results, res)
	}
	return results, nil
}

// runTool validates and runs one call, relaying its updates.
func (r *Run) runTool(c model.ToolCall) model.ToolResultMessage {
	t, ok := r.a.tools[c.Name]
	if p, off := r.b.inactive[c.Name]; ok && off {
		return failed(c, model.MutationNotApplied, "tool %q is deactivated for this run by plugin %s; call another tool", c.Name, p)
	}
	if !ok {
		return failed(c, model.MutationNotApplied, "tool %q is not available; available tools: %s", c.Name, strings.Join(r.a.names, ", "))
	}
	if res, ok := validate(c, t.schema); !ok {
		return res
	}

	updates := make(chan []model.Content, 16)
	abandoned := make(chan struct{})
	call := &Call{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Cwd: r.a.cfg.Cwd}
	call.update = func(p []model.Content) {
		select {
		case updates <- p:
		case <-abandoned:
		}
	}
	relays := make(chan relayed)
	finished := start(context.WithValue(r.ctx, relayKey{}, &relay{ch: relays, off: abandoned}), t.tool, call)

	done := r.ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case p := <-updates:
			r.emit(protocol.ToolExecutionUpdate{Seq: r.seq(), CallID: c.ID, Name: c.Name, Partial: p})
		case q := <-relays:
			r.emit(q.mk(r.seq()))
			close(q.done)
		case <-r.queued:
			r.emitQueue()
		case o := <-finished:
			for flushed := false; !flushed; {
				select {
				case p := <-updates:
					r.emit(protocol.ToolExecutionUpdate{Seq: r.seq(), CallID: c.ID, Name: c.Name, Partial: p})
				default:
					flushed = true
				}
			}
			r.drainQueued()
			close(abandoned)
			return normalize(c, o, r.aborted(), "aborted")
		case <-done:
			done = nil
			grace = time.After(r.a.cfg.AbortGrace)
		case <-grace:
			close(abandoned)
			return failed(c, model.MutationUnknown, "tool %q did not stop within %s of the abort; whether its effects happened is unknown", c.Name, r.a.cfg.AbortGrace)
		}
	}
}
