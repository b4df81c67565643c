//go:build wasip1

// Command vcsguest is a test plugin of the vcs capability
// (core/runtime vcs_plugin_test.go): its tool "vcs" and its command
// "vcs-op" run the operation their arguments name — "turns", "diff" (of a
// turn, or of the last one), "undo", "redo", "restore turn:N" or
// "snapshot NOTE…", with "force" and "rewind" as further words of the
// restores — and return the outcome as JSON:
// the result, or the fault.
package main

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/tool"
	"github.com/smith-agent/smith/wit/types"
	"github.com/smith-agent/smith/wit/vcs"
)

func init() {
	contrib.Export(plugin{})
	tool.Export(plugin{})
}

func main() {}

type plugin struct{}

func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{
		Tools: []contrib.ToolDefinition{{
			Name: "vcs", Description: "Runs a vcs operation.", InputSchema: `{"type":"object","properties":{"arguments":{"type":"string"}}}`,
		}},
		Commands: []contrib.CommandDefinition{{Name: "vcs-op", Description: "Runs a vcs operation."}},
	}, nil
}

// outcome is what a call returns.
type outcome struct {
	Result any    `json:"result,omitempty"`
	Fault  string `json:"fault,omitempty"`
	// Case is the fault's case; Conflict its paths.
	Case     string   `json:"case,omitempty"`
	Conflict []string `json:"conflict,omitempty"`
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	var a struct {
		Arguments string `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(call.Arguments), &a); err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: err.Error()}
	}
	words := strings.Fields(a.Arguments)
	if len(words) == 0 {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: "name an operation"}
	}
	var o vcs.RestoreOptions
	var target string
	for _, w := range words[1:] {
		switch w {
		case "force":
			o.Force = true
		case "rewind":
			o.Rewind = true
		default:
			target = w
		}
	}
	var res any
	var err error
	switch words[0] {
	case "turns":
		res, err = vcs.ListTurns()
	case "diff":
		var d vcs.DiffOptions
		if n, perr := strconv.Atoi(target); perr == nil {
			u := uint32(n)
			d.Turn = &u
		} else if target != "" {
			d.Older = &target
		}
		res, err = vcs.CompareFiles(d)
	case "undo":
		res, err = vcs.UndoTurn(o)
	case "redo":
		res, err = vcs.RedoTurn(o)
	case "restore":
		res, err = vcs.RestoreFiles(target, o)
	case "snapshot":
		res, err = vcs.TakeSnapshot(strings.Join(words[1:], " "))
	default:
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: "no operation " + words[0]}
	}
	out := outcome{Result: res}
	if err != nil {
		out = outcome{Fault: err.Error()}
		if f, ok := err.(vcs.VCSFault); ok {
			out.Case, out.Conflict = f.Case.String(), f.Conflict
		}
	}
	b, _ := json.Marshal(out)
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: string(b)}}}, nil
}
