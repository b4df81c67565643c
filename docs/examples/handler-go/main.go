// Command push-guard is the event handler example of docs/plugins.md. It
// decides every tool call before it runs — the required decision on
// tool_execution_start — and so can refuse one before any effect:
//
//   - a bash command that runs git push runs only if the user says yes
//     (ui request-confirmation; where nobody can be asked, as in smith
//     eval, it is refused);
//   - a write or edit of a file inside .git/ never runs.
//
// A refusal is a deny-call action: the model gets the reason as the
// call's error result, and the session records it. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o push-guard.wasm .
//
// and try it with smith --plugin . (the TUI shows the question).
package main

import (
	"encoding/json"
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

// ask asks the user a yes/no question, notify tells them something: the
// ui capability in WebAssembly (wasm.go), fakes in the tests.
var (
	ask    func(prompt string, o ui.ConfirmOptions) (bool, error)
	notify func(message string)
)

type plugin struct{}

// DeclareContributions subscribes to the start of every tool call.
func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{Subscriptions: []types.EventKind{types.EventKindToolExecutionStart}}, nil
}

// call is what the guard reads of a tool_execution_start event (see
// docs/events.md): the tool's name and two of its arguments.
type call struct {
	Name      string `json:"name"`
	Arguments struct {
		Command string `json:"command"`
		Path    string `json:"path"`
	} `json:"arguments"`
}

// HandleEvent decides one tool call: a deny-call action, or none to let
// it run.
func (plugin) HandleEvent(ev handler.Event, _ handler.HandleOptions) ([]handler.Action, error) {
	if ev.Kind != types.EventKindToolExecutionStart {
		return nil, nil
	}
	var c call
	if err := json.Unmarshal([]byte(ev.Payload), &c); err != nil {
		return nil, handler.HandlerFault{Case: handler.HandlerFaultInvalidEvent, InvalidEvent: "push-guard: the event is not JSON: " + err.Error()}
	}
	why := decide(c)
	if why == "" {
		return nil, nil
	}
	notify("push-guard stopped a " + c.Name + " call")
	return []handler.Action{{Case: handler.ActionDenyCall, DenyCall: why}}, nil
}

// decide returns why c must not run, or "" when it may.
func decide(c call) string {
	switch c.Name {
	case "write", "edit":
		p := strings.TrimPrefix(strings.ReplaceAll(c.Arguments.Path, `\`, "/"), "./")
		if p == ".git" || strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/") {
			return "push-guard: the files inside .git/ are git's own; change them with git commands"
		}
	case "bash":
		if !strings.Contains(c.Arguments.Command, "git push") {
			return ""
		}
		yes, err := ask("Let the agent run `"+c.Arguments.Command+"`?", ui.ConfirmOptions{TimeoutMs: 120_000})
		switch {
		case err != nil:
			return "push-guard: git push needs the user's approval, and it could not be asked for (" + fault(err) + "); tell the user what to push"
		case !yes:
			return "push-guard: the user did not approve the push; do not push"
		}
	}
	return ""
}

// fault says why the user could not be asked.
func fault(err error) string {
	f, ok := err.(ui.UIFault)
	switch {
	case !ok:
		return err.Error()
	case f.Case == ui.UIFaultNoUser:
		return "nobody can answer here"
	case f.Case == ui.UIFaultDismissed:
		return "the question was withdrawn"
	}
	return f.Unknown
}
