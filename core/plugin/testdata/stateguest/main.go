//go:build wasip1

// Command stateguest is a test plugin of the state capability
// (core/runtime plugin_state_test.go): its tool "state" runs the
// operation its arguments name — "write KEY VALUE [EXPECTED]", "read KEY",
// "list", "open OWNER" (another plugin's state), "stale KEY" (a read
// through the handle an earlier call opened), "big KEY" (a value over the
// bound) — and returns the outcome as JSON: the result, or the fault's case
// and text.
package main

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/state"
	"github.com/smith-agent/smith/wit/tool"
	"github.com/smith-agent/smith/wit/types"
)

func init() {
	contrib.Export(plugin{})
	tool.Export(plugin{})
}

func main() {}

type plugin struct{}

func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{Tools: []contrib.ToolDefinition{{
		Name: "state", Description: "Runs a state operation.", InputSchema: `{"type":"object","properties":{"arguments":{"type":"string"}}}`,
	}}}, nil
}

// kept is the handle the last call opened: guest-local, so that "stale"
// can try it in a later call.
var kept uint64

// outcome is what a call returns.
type outcome struct {
	Result any    `json:"result,omitempty"`
	Case   string `json:"case,omitempty"`
	Fault  string `json:"fault,omitempty"`
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	var a struct {
		Arguments string `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(call.Arguments), &a); err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: err.Error()}
	}
	w := strings.Fields(a.Arguments)
	arg := func(i int) string {
		if i < len(w) {
			return w[i]
		}
		return ""
	}
	var res any
	var err error
	if arg(0) == "stale" {
		res, err = state.ReadValue(kept, arg(1))
	} else {
		owner := "stateguest"
		if arg(0) == "open" {
			owner = arg(1)
		}
		var h uint64
		if h, err = state.OpenState(owner); err == nil {
			kept = h
			switch arg(0) {
			case "write":
				var exp *uint64
				if n, perr := strconv.ParseUint(arg(3), 10, 64); perr == nil {
					exp = &n
				}
				res, err = state.WriteValue(h, arg(1), arg(2), exp)
			case "read":
				res, err = state.ReadValue(h, arg(1))
			case "list":
				res, err = state.ListKeys(h)
			case "big":
				res, err = state.WriteValue(h, arg(1), strings.Repeat("x", 70_000), nil)
			case "open":
				res = h
			}
		}
	}
	out := outcome{Result: res}
	if err != nil {
		out = outcome{Fault: err.Error()}
		if f, ok := err.(state.StateFault); ok {
			out.Case = f.Case.String()
		}
	}
	b, _ := json.Marshal(out)
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: string(b)}}}, nil
}
