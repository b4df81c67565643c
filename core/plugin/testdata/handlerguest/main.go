//go:build wasip1

// Command handlerguest is a test plugin of core/plugin's event handler
// dispatch (handlers_test.go): it subscribes to turn_end,
// tool_execution_start, message_end and settled, and answers from the
// event's payload: a turn whose answer asks "please continue" queues
// input and continues; one saying "keep it brief" adds context, replaces
// the prompt, bounds the output and continues; a call whose arguments name secret.txt is
// cancelled, one naming private is denied; a message saying TRAP makes it trap; one saying "switch
// model" selects another; a decision it is asked for says so in the
// queued input; a user message saying "follow up please" queues a
// follow-up (message_start); a model change to a model named "announce"
// queues a follow-up (model_change, also between runs), and so does a
// reload of the plugins (plugins_reloaded). A call whose arguments say "confirm" is asked about
// (ui request-confirmation, after a ui notification): it runs when the
// person says yes and is denied, with the answer or the fault, otherwise.
package main

import (
	"strings"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/handler"
	"github.com/smith-agent/smith/wit/types"
	"github.com/smith-agent/smith/wit/ui"
)

func init() {
	contrib.Export(plugin{})
	handler.Export(plugin{})
}

func main() {}

type plugin struct{}

func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{Subscriptions: []types.EventKind{types.EventKindTurnEnd, types.EventKindToolExecutionStart,
		types.EventKindMessageEnd, types.EventKindSettled, types.EventKindMessageStart, types.EventKindModelChange,
		types.EventKindPluginsReloaded}}, nil
}

// settledRuns counts the settled events seen: guest-local state.
var settledRuns int

func (plugin) HandleEvent(ev handler.Event, opts handler.HandleOptions) ([]handler.Action, error) {
	p := ev.Payload
	switch ev.Kind {
	case types.EventKindPluginsReloaded:
		return []handler.Action{{Case: handler.ActionQueueFollowUp, QueueFollowUp: "handlerguest saw the reload"}}, nil
	case types.EventKindModelChange:
		if strings.Contains(p, "announce") {
			return []handler.Action{{Case: handler.ActionQueueFollowUp, QueueFollowUp: "handlerguest saw the model change"}}, nil
		}
	case types.EventKindMessageStart:
		if strings.Contains(p, "follow up please") && strings.Contains(p, `"role":"user"`) {
			return []handler.Action{{Case: handler.ActionQueueFollowUp, QueueFollowUp: "a follow-up from handlerguest"}}, nil
		}
	case types.EventKindMessageEnd:
		if strings.Contains(p, "TRAP") {
			panic("handlerguest: told to trap")
		}
		if strings.Contains(p, "switch model") && strings.Contains(p, `"role":"assistant"`) {
			return []handler.Action{{Case: handler.ActionSelectModel, SelectModel: handler.ModelSelection{Provider: "mock", Model: "other"}}}, nil
		}
	case types.EventKindToolExecutionStart:
		if !opts.DecisionRequired {
			return nil, handler.HandlerFault{Case: handler.HandlerFaultInvalidEvent, InvalidEvent: "tool_execution_start without a decision"}
		}
		if strings.Contains(p, "secret.txt") {
			return []handler.Action{{Case: handler.ActionCancelRun, CancelRun: "handlerguest refuses secret.txt"}}, nil
		}
		if strings.Contains(p, "confirm") {
			ui.ShowNotification("handlerguest asks about a call", ui.NotifyOptions{Severity: ui.SeverityWarning})
			yes, err := ui.RequestConfirmation("run this call?", ui.ConfirmOptions{TimeoutMs: 60_000})
			switch {
			case err != nil:
				return []handler.Action{{Case: handler.ActionDenyCall, DenyCall: "not asked: " + err.Error()}}, nil
			case !yes:
				return []handler.Action{{Case: handler.ActionDenyCall, DenyCall: "the person said no"}}, nil
			}
			return nil, nil
		}
		if strings.Contains(p, "private") {
			return []handler.Action{{Case: handler.ActionDenyCall, DenyCall: "handlerguest keeps private/ closed"}}, nil
		}
	case types.EventKindTurnEnd:
		if strings.Contains(p, "keep it brief") {
			return []handler.Action{{Case: handler.ActionAddContext, AddContext: "handlerguest: the user is in a hurry"},
				{Case: handler.ActionReplacePrompt, ReplacePrompt: "You are terse."}, {Case: handler.ActionLimitOutput, LimitOutput: 64},
				{Case: handler.ActionContinueRun}}, nil
		}
		if strings.Contains(p, "please continue") {
			return []handler.Action{{Case: handler.ActionQueueInput, QueueInput: "go on, says handlerguest"}, {Case: handler.ActionContinueRun}}, nil
		}
	case types.EventKindSettled:
		settledRuns++
		if settledRuns == 1 {
			return []handler.Action{{Case: handler.ActionContinueRun}}, nil
		}
	}
	return nil, nil
}
