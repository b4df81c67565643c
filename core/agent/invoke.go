package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/internal/jsonschema"
	"github.com/smith-agent/smith/core/model"
)

// Invoke runs one call of t outside a run, as a run would: a frontend
// calling a tool directly (core/runtime's Session.CallTool, for MCP). The
// arguments are validated against t's schema before anything runs; a
// panicking tool is a failed call; the result's mutation state is
// explicit. Cancelling ctx cancels the call, and a tool that has not
// returned grace after that is answered with an unknown mutation state.
// update, when non-nil, receives the tool's partial output (see
// [Call.Update]) from the tool's goroutines — after Invoke has returned,
// too, from a tool that did not stop within grace. Invoke is safe for
// concurrent use.
func Invoke(ctx context.Context, t Tool, c model.ToolCall, cwd string, grace time.Duration, update func([]model.Content)) model.ToolResultMessage {
	d := t.Definition()
	schema, err := compiled(d.Parameters)
	if err != nil {
		return failed(c, model.MutationNotApplied, "tool %q was not run: its schema does not compile: %v; report this to the tool's plugin", c.Name, err)
	}
	if res, ok := validate(c, schema); !ok {
		return res
	}
	call := &Call{ID: c.ID, Name: c.Name, Arguments: c.Arguments, Cwd: cwd, update: update}
	finished := start(ctx, t, call)
	select {
	case o := <-finished:
		return normalize(c, o, ctx.Err() != nil, "cancelled")
	case <-ctx.Done():
	}
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case o := <-finished:
		return normalize(c, o, true, "cancelled")
	case <-timer.C:
		return failed(c, model.MutationUnknown, "tool %q did not stop within %s of the cancellation; whether its effects happened is unknown", c.Name, grace)
	}
}

// schemas caches the schemas Invoke compiles, by their text: a
// generation's tools are few and their schemas immutable.
var schemas sync.Map // string → *jsonschema.Schema

func compiled(parameters []byte) (*jsonschema.Schema, error) {
	if v, ok := schemas.Load(string(parameters)); ok {
		return v.(*jsonschema.Schema), nil
	}
	s, err := jsonschema.Compile(parameters)
	if err != nil {
		return nil, err
	}
	schemas.Store(string(parameters), s)
	return s, nil
}

// validate answers a call whose arguments cannot run (cut off, not JSON,
// not matching the schema) without running it; ok reports that they can.
func validate(c model.ToolCall, schema *jsonschema.Schema) (res model.ToolResultMessage, ok bool) {
	if c.ArgumentsError != "" {
		return failed(c, model.MutationNotApplied, "tool %q was not run: %s; call it again with the arguments as one JSON object matching its schema", c.Name, c.ArgumentsError), false
	}
	if err := schema.Validate(c.Arguments); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return failed(c, model.MutationNotApplied, "tool %q was not run: its arguments do not match the schema: %v; fix them and call it again", c.Name, err), false
		}
		return failed(c, model.MutationNotApplied, "tool %q was not run: %v", c.Name, err), false
	}
	return model.ToolResultMessage{}, true
}

func failed(c model.ToolCall, m model.Mutation, format string, args ...any) model.ToolResultMessage {
	return model.ToolResultMessage{CallID: c.ID, Name: c.Name, IsError: true, Mutation: m,
		Content: []model.Content{model.Text{Text: fmt.Sprintf(format, args...)}}}
}

type outcome struct {
	res Result
	err error
}

// start runs t on call in a goroutine of its own; the channel receives
// its outcome (a panic is a failed call whose effects are unknown).
func start(ctx context.Context, t Tool, call *Call) <-chan outcome {
	finished := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o = outcome{res: Result{Mutation: model.MutationUnknown}, err: fmt.Errorf("the tool panicked: %v", p)}
			}
			finished <- o
		}()
		o.res, o.err = t.Execute(ctx, call)
	}()
	return finished
}

// normalize turns a tool's outcome into its result: a failure never
// passes silently as a success, and an empty mutation state is made
// explicit. stopped says the call's context ended (by an abort or a
// cancellation, named by how); a cancellation error then says so.
func normalize(c model.ToolCall, o outcome, stopped bool, how string) model.ToolResultMessage {
	res := model.ToolResultMessage{CallID: c.ID, Name: c.Name, Content: o.res.Content,
		IsError: o.res.IsError || o.err != nil, Mutation: o.res.Mutation}
	if o.err != nil {
		text := o.err.Error()
		if stopped && errors.Is(o.err, context.Canceled) {
			text = how + ": " + text
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
