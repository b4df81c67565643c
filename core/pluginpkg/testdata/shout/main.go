//go:build wasip1

// Command shout is a tiny user plugin for core/pluginpkg's and smith's
// tests: one tool, shout, that returns its text argument in capitals. It
// needs no capability.
package main

import (
	"encoding/json"
	"strings"

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
		Name: "shout", Description: "Returns the text in capitals.",
		InputSchema: `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
	}}}, nil
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	if call.Name != "shout" {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultUnknownTool, UnknownTool: call.Name}
	}
	var args struct{ Text string }
	if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: err.Error()}
	}
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: strings.ToUpper(args.Text) + "!"}}}, nil
}
