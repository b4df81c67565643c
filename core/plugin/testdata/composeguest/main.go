//go:build wasip1

// Command composeguest is a test plugin of the compose capability
// (core/runtime compose_test.go): its tool "delegate" runs the tool its
// arguments name as a child — {"target":"read","args":{…}} — through a
// chain of "chain" delegate children first, and returns the outcome as
// JSON: the child's result, or the fault's case and text.
package main

import (
	"encoding/json"

	"github.com/smith-agent/smith/wit/compose"
	"github.com/smith-agent/smith/wit/contrib"
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
		Name: "delegate", Description: "Runs another tool as a child.",
		InputSchema: `{"type":"object","properties":{"target":{"type":"string"},"args":{"type":"object"},"chain":{"type":"integer"}},"required":["target"]}`,
	}}}, nil
}

type args struct {
	Target string          `json:"target"`
	Args   json.RawMessage `json:"args,omitempty"`
	Chain  int             `json:"chain,omitempty"`
}

type outcome struct {
	Text    string `json:"text,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	Case    string `json:"case,omitempty"`
	Fault   string `json:"fault,omitempty"`
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	var a args
	if err := json.Unmarshal([]byte(call.Arguments), &a); err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: err.Error()}
	}
	c := compose.ChildCall{Name: a.Target, Arguments: string(a.Args)}
	if a.Args == nil {
		c.Arguments = "{}"
	}
	if a.Chain > 0 {
		next, _ := json.Marshal(args{Target: a.Target, Args: a.Args, Chain: a.Chain - 1})
		c = compose.ChildCall{Name: "delegate", Arguments: string(next)}
	}
	var out outcome
	res, err := compose.InvokeChild(c)
	if err != nil {
		out.Fault = err.Error()
		if f, ok := err.(compose.ChildFault); ok {
			out.Case = f.Case.String()
		}
	} else {
		out.IsError = res.IsError
		for _, b := range res.Content {
			if b.Case == types.ContentBlockText {
				out.Text += b.Text
			}
		}
	}
	b, _ := json.Marshal(out)
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: string(b)}}}, nil
}
