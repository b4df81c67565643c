// Command tools is Smith's built-in tools plugin: read, write, edit, bash,
// find, grep and ls in one WebAssembly module (tools/pluginbuild builds it
// into smith/internal/sysplugins). The plugin is thin: it declares each
// tool with its JSON Schema and description, decodes the host-validated
// arguments, calls the granted fs and process imports — the host
// primitives resolve paths against the invocation's working directory,
// confine them to the allowed roots and record every effect — and formats
// bounded output for the model. Every failure is a tool fault whose message
// says what was wrong and how to retry.
package main

import (
	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/tool"
)

func init() {
	contrib.Export(plugin{})
	tool.Export(plugin{})
}

func main() {}

// plugin implements the contrib and tool exports.
type plugin struct{}

// DeclareContributions returns the seven tools.
func (plugin) DeclareContributions(o contrib.DeclareOptions) (contrib.Contributions, error) {
	if o.WorldVersion != "0.0.0" {
		return contrib.Contributions{}, contrib.RegistrationFault{Case: contrib.RegistrationFaultUnsupportedWorld,
			UnsupportedWorld: "tools: built for smith:plugin@0.0.0, host offers " + o.WorldVersion + "; use the tools plugin embedded in the same smith binary"}
	}
	defs := make([]contrib.ToolDefinition, len(catalog))
	for i, t := range catalog {
		defs[i] = contrib.ToolDefinition{Name: t.name, Description: t.description, InputSchema: t.schema}
	}
	return contrib.Contributions{Tools: defs}, nil
}

// InvokeTool runs one call of a declared tool.
func (plugin) InvokeTool(call tool.ToolCall, o tool.InvokeOptions) (tool.ToolOutput, error) {
	for _, t := range catalog {
		if t.name == call.Name {
			text, err := t.run(effects, call.Arguments, o.WorkingDirectory)
			if err != nil {
				return tool.ToolOutput{}, err
			}
			return textOutput(bound(text, int(o.OutputLimit))), nil
		}
	}
	return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultUnknownTool, UnknownTool: call.Name}
}
