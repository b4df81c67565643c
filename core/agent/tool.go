package agent

import (
	"context"
	"encoding/json"

	"github.com/smith-agent/smith/core/model"
)

// Tool is a tool the model may call.
//
// Definition is called once, by [New]; its Parameters must be a JSON Schema
// in the subset the agent validates (see core/internal/jsonschema), and the
// arguments of every call are validated against it before Execute runs.
//
// Execute runs one call. It must observe ctx: when the run is aborted ctx is
// cancelled and Execute should stop and return promptly, reporting in the
// result's Mutation whether its effects happened (not_applied) or may have
// happened (unknown). A Tool must be safe for concurrent use.
type Tool interface {
	Definition() model.ToolDefinition
	Execute(ctx context.Context, call *Call) (Result, error)
}

// Call is one validated tool call handed to [Tool.Execute].
type Call struct {
	// ID is the model's tool-call id; effects use it as their causal parent.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments are the JSON arguments, valid against the tool's schema.
	Arguments json.RawMessage
	// Cwd is the absolute working directory of the call (Config.Cwd).
	Cwd string
	// update forwards partial output to the run.
	update func([]model.Content)
}

// Update reports partial output; the agent emits it as a
// tool_execution_update. It may be called from any goroutine until Execute
// returns, and blocks only while the event consumer is behind.
func (c *Call) Update(partial []model.Content) {
	if c.update != nil {
		c.update(partial)
	}
}

// Result is what a tool call produced.
type Result struct {
	// Content is the output shown to the model.
	Content []model.Content
	// IsError marks a failed call.
	IsError bool
	// Mutation is what the call did to the world. Empty means applied for a
	// success and unknown for a failure.
	Mutation model.Mutation
}
