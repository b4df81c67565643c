package plugin

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/protocol"
)

// HandlerBudget bounds the delivery of one event to all of its handlers
// together: 2 s of wall time, shared in registration order (each call is
// also bounded by its plugin's fuel and memory). A handler still running
// when it is spent fails; the handlers after it are not called. The time
// a handler waits for a person's answer (ui request-confirmation) is not
// spent: the clock stops while it waits.
const HandlerBudget = 2 * time.Second

// eventKinds maps the protocol's event types to the WIT's event kinds a
// plugin can subscribe to.
var eventKinds = map[string]pluginabi.EventKind{
	"agent_start":           pluginabi.EventKindAgentStart,
	"turn_start":            pluginabi.EventKindTurnStart,
	"turn_end":              pluginabi.EventKindTurnEnd,
	"tool_execution_start":  pluginabi.EventKindToolExecutionStart,
	"tool_execution_end":    pluginabi.EventKindToolExecutionEnd,
	"message_end":           pluginabi.EventKindMessageEnd,
	"agent_end":             pluginabi.EventKindAgentEnd,
	"settled":               pluginabi.EventKindSettled,
	"message_start":         pluginabi.EventKindMessageStart,
	"message_update":        pluginabi.EventKindMessageUpdate,
	"tool_execution_update": pluginabi.EventKindToolExecutionUpdate,
	"provider_retry":        pluginabi.EventKindProviderRetry,
	"provider_failover":     pluginabi.EventKindProviderFailover,
	"queue_update":          pluginabi.EventKindQueueUpdate,
	"compaction_start":      pluginabi.EventKindCompactionStart,
	"compaction_end":        pluginabi.EventKindCompactionEnd,
	"model_change":          pluginabi.EventKindModelChange,
	"notice":                pluginabi.EventKindNotice,
	"plugins_reloaded":      pluginabi.EventKindPluginsReloaded,
}

// disabledHandlers are the plugins whose handler failed in a generation:
// disabled until the next generation.
type disabledHandlers struct {
	mu  sync.Mutex
	why map[string]string
}

func (d *disabledHandlers) is(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.why[name]
	return ok
}

func (d *disabledHandlers) disable(name, why string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.why == nil {
		d.why = make(map[string]string)
	}
	d.why[name] = why
}

// handlers is a binding's [agent.Handlers].
type handlers struct {
	b    *Binding
	subs map[string][]*loaded // event type → subscribed plugins, in load order
}

// Handlers returns the event handlers of the binding's generation, for
// the agent of a session bound to it: each event is delivered to the
// plugins that subscribed to its kind, in load order, through their
// handle-event export, under [HandlerBudget]. A handler's file reads go
// through the binding's roots, read-only, journaled with the causal
// parent "handler:<event>". A handler that fails (a fault, a trap, its
// fuel or the budget spent) is disabled for the generation with one
// diagnostic. It returns nil when no plugin subscribes to anything. It
// is safe for concurrent use.
func (b *Binding) Handlers() agent.Handlers {
	h := &handlers{b: b, subs: make(map[string][]*loaded)}
	for _, l := range b.gen.plugins {
		for _, k := range l.contrib.Subscriptions {
			for typ, kind := range eventKinds {
				if kind == k && !containsPlugin(h.subs[typ], l) {
					h.subs[typ] = append(h.subs[typ], l)
				}
			}
		}
	}
	if len(h.subs) == 0 {
		return nil
	}
	return h
}

// Subscribers returns the names of the generation's plugins that
// subscribe to at least one event, in load order: the handlers a run
// calls, which a frontend may Prepare before the first event.
func (g *Generation) Subscribers() []string {
	var out []string
	for _, l := range g.plugins {
		if len(l.contrib.Subscriptions) > 0 {
			out = append(out, l.art.Name)
		}
	}
	return out
}

func containsPlugin(ls []*loaded, l *loaded) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// Wants reports whether a plugin subscribed to events of type kind.
func (h *handlers) Wants(kind string) bool { return len(h.subs[kind]) > 0 }

// Handle delivers ev to the plugins subscribed to its kind.
func (h *handlers) Handle(ctx context.Context, ev protocol.Event, decision bool) (agent.Outcome, error) {
	kind := protocol.EventType(ev)
	payload, err := protocol.MarshalEvent(ev)
	if err != nil {
		return agent.Outcome{}, fmt.Errorf("plugin: encode the %s event for its handlers: %w", kind, err)
	}
	bud, stop := newBudget(ctx, HandlerBudget)
	defer stop()
	ctx = bud.ctx
	var out agent.Outcome
	var failed error
	for _, l := range h.subs[kind] {
		name := l.art.Name
		if h.b.gen.disabled.is(name) {
			if decision && failed == nil {
				failed = fmt.Errorf("plugin %s, which decides %s, is disabled for this generation after an earlier failure", name, kind)
			}
			continue
		}
		if ctx.Err() != nil {
			if decision && failed == nil {
				failed = fmt.Errorf("the %s budget of the %s handlers ran out before plugin %s decided", HandlerBudget, kind, name)
			}
			continue
		}
		actions, err := h.call(ctx, bud, l, kind, ev.Sequence(), string(payload), decision)
		if err != nil {
			why := fmt.Sprintf("plugin %s: its %s handler failed (%v); it is disabled until the plugins are loaded again", name, kind, err)
			h.b.gen.disabled.disable(name, why)
			out.Diagnostics = append(out.Diagnostics, why)
			if decision && failed == nil {
				failed = fmt.Errorf("plugin %s could not decide: %v", name, err)
			}
			continue
		}
		out.Actions = append(out.Actions, actions...)
	}
	if failed != nil {
		return agent.Outcome{Diagnostics: out.Diagnostics}, failed
	}
	return out, nil
}

// configuration is the JSON object handle-event receives.
func (l *loaded) configuration() string {
	if l.art.Configuration == "" {
		return "{}"
	}
	return l.art.Configuration
}

// call runs l's handle-event export for one event.
func (h *handlers) call(ctx context.Context, bud *budget, l *loaded, kind string, seq uint64, payload string, decision bool) ([]agent.Action, error) {
	in, err := h.b.gen.Acquire(ctx, l.art.Name)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	parent := "handler:" + kind
	st := &callState{ops: h.b.ops, readOnly: true, ui: h.b.ui, vcs: h.b.vcs, state: h.b.state, binding: h.b, callID: parent, budget: bud}
	st.inherit(ctx)
	ictx := context.WithValue(hostops.WithInvocation(ctx, hostops.Invocation{Cwd: h.b.cwd, CallID: parent, Generation: h.b.gen.id}), callKey{}, st)
	got, err := pluginabi.Bind(in).HandleEvent(ictx, pluginabi.Event{Kind: eventKinds[kind], Sequence: seq, Payload: payload},
		pluginabi.HandleOptions{DecisionRequired: decision, Configuration: l.configuration()})
	var fault pluginabi.HandlerFault
	switch {
	case errors.As(err, &fault):
		if fault.Case == pluginabi.HandlerFaultInvalidEvent {
			return nil, fmt.Errorf("it refused the event as invalid: %s", fault.InvalidEvent)
		}
		return nil, errors.New(fault.Unknown)
	case err != nil:
		return nil, budgetFix(l.art.Name, err)
	}
	out := make([]agent.Action, 0, len(got))
	for _, a := range got {
		out = append(out, action(l.art.Name, a))
	}
	return out, nil
}

// action converts a WIT action returned by plugin.
func action(plugin string, a pluginabi.Action) agent.Action {
	out := agent.Action{Plugin: plugin}
	switch a.Case {
	case pluginabi.ActionCancelRun:
		out.Kind, out.Text = agent.ActionCancel, a.CancelRun
	case pluginabi.ActionQueueInput:
		out.Kind, out.Text = agent.ActionQueueInput, a.QueueInput
	case pluginabi.ActionQueueFollowUp:
		out.Kind, out.Text, out.Delivery = agent.ActionQueueInput, a.QueueFollowUp, "follow_up"
	case pluginabi.ActionContinueRun:
		out.Kind = agent.ActionContinue
	case pluginabi.ActionReloadPlugins:
		out.Kind = agent.ActionReload
	case pluginabi.ActionSelectModel:
		out.Kind, out.Model = agent.ActionSelectModel, a.SelectModel.Provider+"/"+a.SelectModel.Model
	case pluginabi.ActionSetToolActivation:
		out.Kind, out.Tool, out.Active = agent.ActionSetTool, a.SetToolActivation.Name, a.SetToolActivation.Active
	case pluginabi.ActionAddContext:
		out.Kind, out.Text = agent.ActionAddContext, a.AddContext
	case pluginabi.ActionReplacePrompt:
		out.Kind, out.Text = agent.ActionReplacePrompt, a.ReplacePrompt
	case pluginabi.ActionLimitOutput:
		out.Kind, out.Limit = agent.ActionLimitOutput, int(min(a.LimitOutput, 1<<31-1))
	case pluginabi.ActionDenyCall:
		out.Kind, out.Text = agent.ActionDenyCall, a.DenyCall
	default:
		// The agent refuses the batch, naming the kind.
		out.Kind = agent.ActionKind(a.Unknown)
		if a.Unknown == "" {
			out.Kind = agent.ActionKind(a.Case.String())
		}
	}
	return out
}
