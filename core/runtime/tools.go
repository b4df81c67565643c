package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// ToolAbortGrace is how long [Session.CallTool] waits, once its context
// has ended, for a tool that ignores the cancellation before it answers
// with an unknown mutation state: 5s, the agent's default.
const ToolAbortGrace = 5 * time.Second

// Tools lists the session's active tools — the built-in tools and the
// active plugins' — in name order, with their descriptions and argument
// schemas. The first call waits for the plugins to load and binds the
// tools to the session's journal.
func (s *Session) Tools(ctx context.Context) ([]protocol.ToolInfo, error) {
	tools, err := s.toolsBound(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.ToolInfo, 0, len(tools))
	for _, t := range tools {
		d := t.Definition()
		out = append(out, protocol.ToolInfo{Name: d.Name, Description: d.Description, Parameters: d.Parameters})
	}
	slices.SortFunc(out, func(a, b protocol.ToolInfo) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// toolsBound binds the session's tools if needed and returns them.
func (s *Session) toolsBound(ctx context.Context) ([]agent.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if err := s.bindTools(ctx); err != nil {
		return nil, err
	}
	return s.binding.Tools(), nil
}

// CallTool runs one tool call made by a frontend (MCP's tools/call) through
// the same durable-effect path as a model's calls: the session's tools,
// bound to its journal and confined to the working directory. The
// arguments are validated against the tool's schema before any effect;
// every effect is journaled in the session with p.CallID as its causal
// parent (the intent's cause is the session's selected entry, as for
// other effects the host makes on its own behalf).
//
// Nothing is added to the conversation: no tool call and no tool result
// message, so the session stays a valid conversation for a later run
// (the model never sees a result whose call it did not make), while the
// journal keeps the evidence and the tools' memory of what was read and
// written. A session that holds nothing yet first records its metadata.
//
// progress, when non-nil, receives the tool's partial output as it
// arrives, from the tool's goroutines, and never after CallTool returns.
// Cancelling ctx cancels the call (a running command is stopped, and its
// outcome is journaled); a tool that does not stop within
// [ToolAbortGrace] is answered with an unknown mutation state.
//
// An unknown tool or a malformed p is an error wrapping [ErrUsage]; a call
// whose arguments do not match the schema, or that fails, is a result
// with IsError set. Refused with [ErrBusy] while a run is active.
//
// Each call runs between two snapshots of the worktree, and one that
// changed files is recorded as a turn of the session's file history (see
// [Session.snapshotCall]), so `smith session diff` and `undo` cover it;
// calls wait for each other while snapshots are on. It is safe for
// concurrent use.
func (s *Session) CallTool(ctx context.Context, p protocol.CallToolParams, progress func([]model.Content)) (model.ToolResultMessage, error) {
	if !strings.Contains(p.CallID, ":") {
		return model.ToolResultMessage{}, usagef("runtime: tool call id %q names no frontend; use \"<frontend>:<request id>\", such as \"mcp:7\"", p.CallID)
	}
	args := p.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	t, b, err := s.toolsPrepareCall(ctx, p.Name)
	if err != nil {
		return model.ToolResultMessage{}, err
	}
	c := model.ToolCall{ID: p.CallID, Name: p.Name, Arguments: args}
	// The permission policy decides a frontend's call as it decides the
	// model's: a deny rule or a mode holds for every caller.
	if why := b.Decide(ctx, c.ID, c.Name, c.Arguments); why != "" {
		return model.ToolResultMessage{CallID: c.ID, Name: c.Name, IsError: true, Mutation: model.MutationNotApplied,
			Content: []model.Content{model.Text{Text: "not executed: " + why}}}, nil
	}
	if progress == nil {
		return s.snapshotCall(ctx, func() model.ToolResultMessage { return agent.Invoke(ctx, t, c, s.rt.cfg.Cwd, ToolAbortGrace, nil) }), nil
	}
	// The tool's updates (a command's output among them, see core/plugin)
	// reach progress until CallTool returns, and never after.
	var mu sync.Mutex
	open := true
	update := func(p []model.Content) {
		mu.Lock()
		defer mu.Unlock()
		if open {
			progress(p)
		}
	}
	defer func() {
		mu.Lock()
		open = false
		mu.Unlock()
	}()
	return s.snapshotCall(ctx, func() model.ToolResultMessage { return agent.Invoke(ctx, t, c, s.rt.cfg.Cwd, ToolAbortGrace, update) }), nil
}

// toolsPrepareCall finds the active tool called name and makes the
// session ready to journal its effects; it returns the binding the tool
// is of, which decides the call.
func (s *Session) toolsPrepareCall(ctx context.Context, name string) (agent.Tool, *plugin.Binding, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, errClosed
	}
	if s.running() {
		return nil, nil, ErrBusy
	}
	if err := s.bindTools(ctx); err != nil {
		return nil, nil, err
	}
	tools := s.binding.Tools()
	var names []string
	for _, t := range tools {
		n := t.Definition().Name
		if n == name {
			if err := s.beginFile(); err != nil {
				return nil, nil, err
			}
			return t, s.binding, nil
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return nil, nil, usagef("runtime: tool %q is not available; available tools: %s", name, strings.Join(names, ", "))
}
