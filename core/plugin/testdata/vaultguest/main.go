//go:build wasip1

// Command vaultguest is a test tool plugin of core/plugin's secrets
// capability (secrets_test.go): its tool "vault" stores the secret its
// arguments give (store-secret), then checks the name they give
// (check-secret), and returns both outcomes as JSON.
package main

import (
	"encoding/json"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/secrets"
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
		Name: "vault", Description: "Stores a secret, then checks one.", InputSchema: `{"type":"object"}`,
	}}}, nil
}

// args are the tool's arguments.
type args struct {
	Name      string  `json:"name"`
	Value     string  `json:"value"`
	ExpiresMs *uint64 `json:"expires_ms"`
	Check     string  `json:"check"`
}

// result is the tool's output.
type result struct {
	Stored     bool   `json:"stored"`
	StoreFault string `json:"store_fault,omitempty"`
	Has        bool   `json:"has"`
	CheckFault string `json:"check_fault,omitempty"`
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	var a args
	if err := json.Unmarshal([]byte(call.Arguments), &a); err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultInvalidArguments, InvalidArguments: err.Error()}
	}
	var r result
	if a.Name != "" {
		if err := secrets.StoreSecret(a.Name, a.Value, secrets.StoreOptions{ExpiresAtMs: a.ExpiresMs}); err != nil {
			r.StoreFault = err.Error()
		} else {
			r.Stored = true
		}
	}
	if a.Check != "" {
		has, err := secrets.CheckSecret(a.Check)
		if err != nil {
			r.CheckFault = err.Error()
		}
		r.Has = has
	}
	b, _ := json.Marshal(r)
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: string(b)}}}, nil
}
