package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/internal/jsonschema"
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
		r.emit(protocol.ToolExecutionStart{Seq: r.seq(), CallID: c.ID, Name: c.Name, Arguments: c.Arguments})
		res := r.runTool(c)
		r.emit(protocol.ToolExecutionEnd{Seq: r.seq(), CallID: c.ID, Name: c.Name, Result: res})
		r.emit(protocol.MessageStart{Seq: r.seq(), Message: res})
		if err := r.record(res); err != nil {
			return results, err
		}
		results = append(results, res)
	}
	return results, nil
}

func failed(c model.ToolCall, m model.Mutation, format string, args ...any) model.ToolResultMessage {
	return model.ToolResultMessage{CallID: c.ID, Name: c.Name, IsError: true, Mutation: m,
		Content: []model.Content{model.Text{Text: fmt.Sprintf(format, args...)}}}
}

type outcome struct {
	res Result
	err error
}

// runTool validates and runs one call, relaying its updates.
func (r *Run) runTool(c model.ToolCall) model.ToolResultMessage {
	t, ok := r.a.tools[c.Name]
	if !ok {
		return failed(c, model.MutationNotApplied, "tool %q is not available; available tools: %s", c.Name, strings.Join(r.a.names, ", "))
	}
	if c.ArgumentsError != "" {
		return failed(c, model.MutationNotApplied, "tool %q was not run: %s; call it again with the arguments as one JSON object matching its schema", c.Name, c.ArgumentsError)
	}
	if err := t.schema.Validate(c.Arguments); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return failed(c, model.MutationNotApplied, "tool %q was not run: its arguments do not match the schema: %v; fix them and call it again", c.Name, err)
		}
		return failed(c, model.MutationNotApplied, "tool %q was not run: %v", c.Name, err)
	}

	updates := make(chan []model.Content, 16)
	finished := make(chan outcome, 1)
	abandoned := make(chan struct{})
	call := &Call{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Cwd: r.a.cfg.Cwd}
	call.update = func(p []model.Content) {
		select {
		case updates <- p:
		case <-abandoned:
		}
	}
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o = outcome{res: Result{Mutation: model.MutationUnknown}, err: fmt.Errorf("the tool panicked: %v", p)}
			}
			finished <- o
		}()
		o.res, o.err = t.tool.Execute(r.ctx, call)
	}()

	done := r.ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case p := <-updates:
			r.emit(protocol.ToolExecutionUpdate{Seq: r.seq(), CallID: c.ID, Name: c.Name, Partial: p})
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
			return r.toolResult(c, o)
		case <-done:
			done = nil
			grace = time.After(r.a.cfg.AbortGrace)
		case <-grace:
			close(abandoned)
			return failed(c, model.MutationUnknown, "tool %q did not stop within %s of the abort; whether its effects happened is unknown", c.Name, r.a.cfg.AbortGrace)
		}
	}
}

// toolResult normalizes a tool's outcome: a failure never passes silently
// as a success, and an empty mutation state is made explicit.
func (r *Run) toolResult(c model.ToolCall, o outcome) model.ToolResultMessage {
	res := model.ToolResultMessage{CallID: c.ID, Name: c.Name, Content: o.res.Content,
		IsError: o.res.IsError || o.err != nil, Mutation: o.res.Mutation}
	if o.err != nil {
		text := o.err.Error()
		if r.aborted() && errors.Is(o.err, context.Canceled) {
			text = "aborted: " + text
		}
		res.Content = append(res.Content[:len(res.Content):len(res.Content)], model.Text{Text: text})
	}
	switch res.Mutation {
	case model.MutationApplied, model.MutationNotApplied, model.MutationUnknown:
	case "":
		res.Mutation = model.MutationApplied
		if res.IsError {
			res.Mutation = model.MutationUnknown
		}
	default:
		res.Content = append(res.Content, model.Text{Text: fmt.Sprintf("(the tool reported an invalid mutation state %q; recorded as unknown)", res.Mutation)})
		res.Mutation = model.MutationUnknown
	}
	if res.Content == nil {
		res.Content = []model.Content{}
	}
	return res
}
