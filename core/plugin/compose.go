package plugin

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
)

// The bounds of child calls (the compose capability).
const (
	// MaxChildDepth bounds a chain of children: a child's child's … 3
	// deep, so that a plugin calling itself fits its pool of instances.
	MaxChildDepth = 3
	// MaxChildren bounds the children one call makes: 64.
	MaxChildren = 64
	// childAcquireWait bounds a child's wait for an instance of its
	// plugin: 5 seconds. The callers up the chain may hold them all.
	childAcquireWait = 5 * time.Second
)

// childKey carries, into a child's Execute, what its callState inherits.
type childKey struct{}

// child is what a child call inherits from the call that made it.
type child struct {
	depth    int             // 1 for a child of a top-level call
	allowed  map[string]bool // the capabilities its effects may use
	readOnly bool            // its caller may only read (a handler, a prompt)
}

// composeHost serves the compose capability of one plugin.
type composeHost struct {
	name   string
	grants []string
}

var _ pluginabi.ComposeImports = (*composeHost)(nil)

// InvokeChild serves compose invoke-child: the tool runs from the caller's
// binding (the same generation), under the caller's context, with the
// capabilities both the caller's authority and the tool's plugin hold,
// after the permission policy's decision; it is recorded as a tool.child
// effect of the caller's call.
func (c *composeHost) InvokeChild(ctx context.Context, call pluginabi.ChildCall) (pluginabi.ChildResult, error) {
	st, _ := ctx.Value(callKey{}).(*callState)
	if st == nil || st.binding == nil {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultUnavailable,
			Unavailable: "compose: a child call can be made only during a tool call, a command or an event handler of a session"}
	}
	if why := st.permits("compose"); why != "" {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultUnauthorized, Unauthorized: why}
	}
	if st.depth >= MaxChildDepth {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultExhausted,
			Exhausted: fmt.Sprintf("call %s is a child %d deep; children go at most %d deep", st.callID, st.depth, MaxChildDepth)}
	}
	st.mu.Lock()
	st.children++
	n := st.children
	st.mu.Unlock()
	if n > MaxChildren {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultExhausted,
			Exhausted: fmt.Sprintf("call %s made %d children; a call makes at most %d", st.callID, n, MaxChildren)}
	}
	target := st.binding.tool(call.Name)
	if target == nil {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultUnavailable,
			Unavailable: fmt.Sprintf("no tool %q in this session's plugins (%s)", call.Name, strings.Join(st.binding.toolNames(), ", "))}
	}
	// The child's effects may use what the caller may, and its own plugin
	// was granted: authority only narrows along the chain.
	callerMay := st.allowed
	if callerMay == nil {
		callerMay = setOf(c.grants)
	}
	allowed := map[string]bool{}
	for _, g := range target.t.plugin.art.Grants {
		if callerMay[g] {
			allowed[g] = true
		}
	}
	cctx := context.WithValue(ctx, childKey{}, child{depth: st.depth + 1, allowed: allowed, readOnly: st.readOnly})
	// The decision runs as a child too: a handler that makes children of
	// its own is bounded by the same depth.
	if why := st.binding.decide(cctx, fmt.Sprintf("%s/child-%d", st.callID, n), call); why != "" {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultDenied, Denied: why}
	}
	// The child is the tool.child effect of its caller's call: its id is
	// the effect's intent entry, which its own effects name as parent.
	inv, _ := hostops.InvocationFrom(ctx)
	input, _ := json.Marshal(map[string]any{"caller": c.name, "name": call.Name, "arguments": json.RawMessage(call.Arguments), "depth": st.depth + 1})
	if st.ops == nil || st.ops.Journal == nil {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultUnknown, Unknown: "compose: this call has no effect journal to record its child in"}
	}
	e, err := st.ops.Journal.Begin(ctx, effect.Intent{Kind: session.ChildCallKind, Parent: st.callID, Generation: inv.Generation, Input: input})
	if err != nil {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultUnknown, Unknown: fmt.Sprintf("compose: recording the child failed: %v", err)}
	}
	id := e.Intent().ID
	res, err := target.Execute(cctx, &agent.Call{ID: id, Arguments: json.RawMessage(call.Arguments), Cwd: inv.Cwd})
	o := effect.Outcome{Mutation: res.Mutation, Err: err}
	if err == nil {
		o.Output, _ = json.Marshal(map[string]any{"is_error": res.IsError, "text": model.TextOf(res.Content)})
	}
	if _, cerr := e.Complete(o); cerr != nil && err == nil {
		err = cerr
	}
	if err != nil {
		return pluginabi.ChildResult{}, pluginabi.ChildFault{Case: pluginabi.ChildFaultUnknown, Unknown: fmt.Sprintf("compose: child %s (%s): %v", id, call.Name, err)}
	}
	if res.Mutation != model.MutationNotApplied {
		st.mu.Lock()
		st.applied = st.applied || res.Mutation == model.MutationApplied
		st.unknown = st.unknown || res.Mutation == model.MutationUnknown
		st.mu.Unlock()
	}
	out := pluginabi.ChildResult{IsError: res.IsError}
	for _, b := range res.Content {
		switch b := b.(type) {
		case model.Text:
			out.Content = append(out.Content, pluginabi.ContentBlock{Case: pluginabi.ContentBlockText, Text: b.Text})
		case model.Image:
			out.Content = append(out.Content, pluginabi.ContentBlock{Case: pluginabi.ContentBlockImage, Image: pluginabi.Image{MediaType: b.MediaType, Data: b.Data}})
		}
	}
	return out, nil
}

// tool returns the binding's plugin tool called name, or nil.
func (b *Binding) tool(name string) *pluginTool {
	for _, t := range b.tools {
		if p, ok := t.(*pluginTool); ok && p.t.def.Name == name {
			return p
		}
	}
	return nil
}

// toolNames lists the binding's tools, sorted.
func (b *Binding) toolNames() []string {
	var out []string
	for _, t := range b.tools {
		out = append(out, t.Definition().Name)
	}
	slices.Sort(out)
	return out
}

// Decide asks the permission policy (the generation's handlers that
// decide tool_execution_start) about a call a frontend makes outside any
// run — an MCP tools/call — as the agent asks about the model's calls. It
// returns why the call may not run, or "". Safe for concurrent use.
func (b *Binding) Decide(ctx context.Context, callID, name string, args json.RawMessage) string {
	return b.decide(ctx, callID, pluginabi.ChildCall{Name: name, Arguments: string(args)})
}

// decide asks the handlers that decide tool calls (the permission policy)
// about a child call, as the agent asks about the model's; it returns why
// the call may not run, or "".
func (b *Binding) decide(ctx context.Context, id string, call pluginabi.ChildCall) string {
	h := b.handlers()
	if h == nil || !h.Wants("tool_execution_start") {
		return ""
	}
	out, err := h.Handle(ctx, protocol.ToolExecutionStart{CallID: id, Name: call.Name, Arguments: json.RawMessage(call.Arguments)}, true)
	if err != nil {
		return "the permission decision failed: " + err.Error()
	}
	for _, a := range out.Actions {
		if a.Kind == agent.ActionDenyCall || a.Kind == agent.ActionCancel {
			return fmt.Sprintf("denied by plugin %s: %s", a.Plugin, cmp.Or(strings.TrimSpace(a.Text), "no reason given"))
		}
	}
	return ""
}

// inherit makes st a child's when ctx is a child call's (compose): its
// depth, the capabilities it may use, and whether it may only read.
func (st *callState) inherit(ctx context.Context) {
	if c, ok := ctx.Value(childKey{}).(child); ok {
		st.depth, st.allowed = c.depth, c.allowed
		st.readOnly = st.readOnly || c.readOnly
	}
}

// permits returns why the call's effects may not use capability cap
// (a child whose caller's authority lacks it), or "".
func (st *callState) permits(cp string) string {
	if st.allowed == nil || st.allowed[cp] {
		return ""
	}
	return fmt.Sprintf("call %s is a child call whose caller may not use %q: a plugin reaches through another plugin's tool only what it was granted itself", st.callID, cp)
}

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
