package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Handlers are the plugins' event handlers as a run sees them: the event
// boundary of SMH-SPEC-PLUG0001. The run goroutine calls them
// synchronously, in event order; an implementation (core/plugin serves
// the plugins' handle-event exports) delivers each event to its handlers
// in registration order under one bounded budget, and disables a handler
// that fails or runs over it for the generation, saying so in the
// Outcome's Diagnostics.
type Handlers interface {
	// Wants reports whether any handler subscribed to events of kind
	// (a [protocol.EventType] name such as "turn_end"). It is called
	// for every event, message_update deltas included, so it must be
	// cheap.
	Wants(kind string) bool
	// Handle delivers ev and returns the handlers' actions, in order.
	// decision is true for an event whose contract requires a decision
	// (tool_execution_start: whether the call may run); Handle returns
	// an error only when such a decision could not be made (a deciding
	// handler failed), and the run then ends with
	// [protocol.EndHandlerFailed] without applying anything its handlers
	// returned. ctx carries the run's cancellation, except at settlement.
	Handle(ctx context.Context, ev protocol.Event, decision bool) (Outcome, error)
}

// Outcome is what the handlers of one event returned.
type Outcome struct {
	// Actions are the handlers' actions, in registration order.
	Actions []Action
	// Diagnostics are the handlers' failures (one each; the handler is
	// disabled for the generation), emitted as warning notices.
	Diagnostics []string
}

// ActionKind names an [Action]; the values are handler.wit's.
type ActionKind string

// The action kinds.
const (
	// ActionCancel cancels the run at once; Text is the reason.
	ActionCancel ActionKind = "cancel-run"
	// ActionQueueInput queues Text as input: Delivery "steer" (the
	// default) after the current tool batch, "follow_up" when the run
	// would otherwise stop.
	ActionQueueInput ActionKind = "queue-input"
	// ActionContinue asks for one more provider request at the
	// turn-complete boundary.
	ActionContinue ActionKind = "continue-run"
	// ActionReload reloads the plugin set at the safe point (the
	// runtime's, through Config.Publish).
	ActionReload ActionKind = "reload-plugins"
	// ActionSelectModel changes the model (Model, "provider/model") for
	// the rest of the run (the runtime's, through Config.Publish).
	ActionSelectModel ActionKind = "select-model"
	// ActionSetTool activates or deactivates the tool Tool for the rest
	// of the run.
	ActionSetTool ActionKind = "set-tool-activation"
	// ActionAddContext adds Text to the model's context, after the system
	// prompt, for the rest of the run; several are kept in order.
	ActionAddContext ActionKind = "add-context"
	// ActionReplacePrompt replaces the system prompt with Text for the
	// rest of the run.
	ActionReplacePrompt ActionKind = "replace-prompt"
	// ActionLimitOutput bounds the output tokens of the rest of the run's
	// requests to Limit (the model's own limit still applies).
	ActionLimitOutput ActionKind = "limit-output"
	// ActionDenyCall is the decision on a tool_execution_start that the
	// call must not run; Text is the reason the model reads in the
	// call's error result. Only valid on that event.
	ActionDenyCall ActionKind = "deny-call"
)

// Action is one typed request a handler returns. Plugin names the plugin
// that returned it, for diagnostics.
type Action struct {
	Kind     ActionKind
	Plugin   string
	Text     string
	Delivery string
	Model    string
	Tool     string
	Active   bool
	Limit    int
}

// Publisher applies the runtime's part of an action batch: reload and
// model selection. Publish validates every action before it applies any
// and returns an error (naming the action and its plugin) without
// changing anything when one is invalid; the batch is then rejected
// whole. A model selection returns the provider and model id the rest of
// the run's requests go to (nil keeps the run's). It is called by the
// run goroutine between provider requests.
type Publisher interface {
	Publish(ctx context.Context, actions []Action) (*Target, error)
}

// Target is where a run's requests go: a provider and the model id
// passed to it.
type Target struct {
	Provider model.Provider
	Model    string
}

// boundary is a run's state at the event boundary.
type boundary struct {
	// handling is true while handlers run: the events they cause (the
	// diagnostics) are not delivered to handlers again.
	handling bool
	// batch are the actions awaiting the next safe point.
	batch []Action
	// continued says a continuation was accepted at this boundary.
	continued bool
	// inactive are the tools deactivated for the rest of the run, with
	// the plugin that did it.
	inactive map[string]string
	// prompt replaces the system prompt when set; notes are added after
	// it; limit bounds the output tokens when above 0. All three hold for
	// the rest of the run.
	prompt *string
	notes  []string
	limit  int
	// denied is the decision on the call being started ("" lets it run).
	denied string
	// failed says a required decision failed: the run ends, and nothing
	// more is delivered or applied.
	failed bool
}

// observe delivers ev to the handlers that want it: a cancellation
// applies at once, the other actions wait for the next safe point. It
// reports a failed required decision.
func (r *Run) observe(ev protocol.Event, decision bool) error {
	h := r.a.cfg.Handlers
	if h == nil || r.b.handling || r.b.failed || !h.Wants(protocol.EventType(ev)) {
		return nil
	}
	r.b.handling = true
	defer func() { r.b.handling = false }()
	ctx := r.ctx
	if _, ok := ev.(protocol.Settled); ok {
		ctx = context.WithoutCancel(r.ctx)
	}
	out, err := h.Handle(context.WithValue(ctx, relayKey{}, &relay{run: r}), ev, decision)
	for _, d := range out.Diagnostics {
		r.emit(protocol.Notice{Seq: r.seq(), Level: protocol.NoticeWarning, Text: d})
	}
	if err != nil {
		r.b.failed, r.b.batch, r.b.denied = true, nil, ""
		return err
	}
	for _, a := range out.Actions {
		switch a.Kind {
		case ActionCancel:
			r.cancel(fmt.Errorf("cancelled by plugin %s: %s", a.Plugin, orDefault(a.Text, "no reason given")))
		case ActionDenyCall:
			if _, ok := ev.(protocol.ToolExecutionStart); !ok {
				r.b.batch = append(r.b.batch, a) // rejected at the safe point
				continue
			}
			if r.b.denied == "" {
				r.b.denied = fmt.Sprintf("denied by plugin %s: %s", a.Plugin, orDefault(a.Text, "no reason given"))
			}
		default:
			r.b.batch = append(r.b.batch, a)
		}
	}
	return nil
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

// safePoint validates the actions gathered since the last one and
// applies them as one batch, or rejects them all with one warning: it
// runs between provider requests, after the stream and the complete tool
// batch. settled says the run has ended: a continuation or a tool change
// is then invalid (the run cannot be reopened), while queued input stays
// for a later run and the runtime's changes apply to it.
func (r *Run) safePoint(settled bool) {
	batch := r.b.batch
	r.b.batch = nil
	if len(batch) == 0 || r.b.failed {
		return
	}
	if err := validateBatch(batch, settled); err != nil {
		r.emit(protocol.Notice{Seq: r.seq(), Level: protocol.NoticeWarning, Text: err.Error() + "; none of the batch's actions was applied"})
		return
	}
	var runtime []Action
	for _, a := range batch {
		if a.Kind == ActionReload || a.Kind == ActionSelectModel {
			runtime = append(runtime, a)
		}
	}
	if len(runtime) > 0 {
		p := r.a.cfg.Publisher
		var err error
		var to *Target
		if p == nil {
			err = fmt.Errorf("plugin %s asked for %s, which this runtime does not apply", runtime[0].Plugin, runtime[0].Kind)
		} else {
			to, err = p.Publish(context.WithoutCancel(r.ctx), runtime)
		}
		if err != nil {
			r.emit(protocol.Notice{Seq: r.seq(), Level: protocol.NoticeWarning, Text: "agent: the plugins' actions were rejected: " + err.Error() + "; none of the batch's actions was applied"})
			return
		}
		if to != nil && to.Provider != nil && !settled {
			r.target = to
		}
	}
	for _, a := range batch {
		switch a.Kind {
		case ActionQueueInput:
			q := &r.a.steer
			if a.Delivery == "follow_up" {
				q = &r.a.followUp
			}
			r.a.enqueue(q, model.UserText(a.Text))
		case ActionContinue:
			r.b.continued = true
		case ActionAddContext:
			r.b.notes = append(r.b.notes, strings.TrimSpace(a.Text))
		case ActionReplacePrompt:
			r.b.prompt = &a.Text
		case ActionLimitOutput:
			r.b.limit = a.Limit
		case ActionSetTool:
			if a.Active {
				delete(r.b.inactive, a.Tool)
			} else {
				if r.b.inactive == nil {
					r.b.inactive = make(map[string]string)
				}
				r.b.inactive[a.Tool] = a.Plugin
			}
		}
	}
}

// validateBatch rejects a batch holding an action that is invalid where
// it was returned, or two that conflict (no implicit winner is chosen).
func validateBatch(batch []Action, settled bool) error {
	var model, prompt, limit *Action
	tools := make(map[string]*Action)
	for i := range batch {
		a := &batch[i]
		switch a.Kind {
		case ActionQueueInput:
			if strings.TrimSpace(a.Text) == "" {
				return fmt.Errorf("agent: plugin %s queued empty input", a.Plugin)
			}
			if a.Delivery != "" && a.Delivery != "steer" && a.Delivery != "follow_up" {
				return fmt.Errorf("agent: plugin %s queued input with delivery %q; use steer or follow_up", a.Plugin, a.Delivery)
			}
		case ActionContinue:
			if settled {
				return fmt.Errorf("agent: plugin %s asked to continue a run that has ended; a settled run cannot be reopened (queue input instead: it starts the next run)", a.Plugin)
			}
		case ActionReload:
		case ActionSelectModel:
			if a.Model == "" {
				return fmt.Errorf("agent: plugin %s selected an empty model", a.Plugin)
			}
			if model != nil && model.Model != a.Model {
				return fmt.Errorf("agent: plugins %s and %s selected different models (%s, %s) at one boundary", model.Plugin, a.Plugin, model.Model, a.Model)
			}
			model = a
		case ActionSetTool:
			if settled {
				return fmt.Errorf("agent: plugin %s changed tool %s for a run that has ended", a.Plugin, a.Tool)
			}
			if p, ok := tools[a.Tool]; ok && p.Active != a.Active {
				return fmt.Errorf("agent: plugins %s and %s both changed tool %s at one boundary, one activating and one deactivating it", p.Plugin, a.Plugin, a.Tool)
			}
			tools[a.Tool] = a
		case ActionAddContext, ActionReplacePrompt, ActionLimitOutput:
			if settled {
				return fmt.Errorf("agent: plugin %s returned %s for a run that has ended; it changes only the rest of a run", a.Plugin, a.Kind)
			}
			switch {
			case a.Kind != ActionLimitOutput && strings.TrimSpace(a.Text) == "":
				return fmt.Errorf("agent: plugin %s returned %s with no text", a.Plugin, a.Kind)
			case a.Kind == ActionLimitOutput && a.Limit <= 0:
				return fmt.Errorf("agent: plugin %s limited the output to %d tokens; give a bound above 0", a.Plugin, a.Limit)
			case a.Kind == ActionReplacePrompt:
				if prompt != nil && prompt.Text != a.Text {
					return fmt.Errorf("agent: plugins %s and %s replaced the system prompt with different texts at one boundary", prompt.Plugin, a.Plugin)
				}
				prompt = a
			case a.Kind == ActionLimitOutput:
				if limit != nil && limit.Limit != a.Limit {
					return fmt.Errorf("agent: plugins %s and %s limited the output differently (%d, %d tokens) at one boundary", limit.Plugin, a.Plugin, limit.Limit, a.Limit)
				}
				limit = a
			}
		case ActionDenyCall:
			return fmt.Errorf("agent: plugin %s returned deny-call outside a tool_execution_start decision", a.Plugin)
		case ActionCancel:
		default:
			return fmt.Errorf("agent: plugin %s returned action %q, which this runtime does not know", a.Plugin, a.Kind)
		}
	}
	return nil
}

// handlerFailure ends a run whose required decision failed
// ([protocol.EndHandlerFailed]).
type handlerFailure struct{ err error }

func (f *handlerFailure) Error() string {
	return "agent: a plugin's required decision failed: " + f.err.Error() + "; the run stopped and nothing its handlers returned was applied"
}

// advertised returns the tool definitions of the next request: the
// agent's, less those deactivated for the run.
func (r *Run) advertised() []model.ToolDefinition {
	if len(r.b.inactive) == 0 {
		return r.a.defs
	}
	out := make([]model.ToolDefinition, 0, len(r.a.defs))
	for _, d := range r.a.defs {
		if _, off := r.b.inactive[d.Name]; !off {
			out = append(out, d)
		}
	}
	return out
}
