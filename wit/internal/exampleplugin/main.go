//go:build wasip1

package main

import (
	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/fs"
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
		Name: "cat", Description: "Prints a file.", InputSchema: `{"type":"object"}`,
	}}}, nil
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	text, err := fs.ReadFile("notes.txt", fs.ReadOptions{ByteLimit: 1 << 20})
	if err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultEffectFailure, EffectFailure: err.Error()}
	}
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: text.Text}}}, nil
}
