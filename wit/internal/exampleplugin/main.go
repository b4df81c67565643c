//go:build wasip1

// Command exampleplugin is a small plugin of the real smith:plugin world:
// a tool reading a file through the fs capability, and a provider codec
// whose decoder is a resource. core/internal/pluginabi builds it with the
// standard toolchain and runs it end to end; it is also the shape of the
// example in the wit package documentation.
package main

import (
	"strings"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/fs"
	"github.com/smith-agent/smith/wit/provider"
	"github.com/smith-agent/smith/wit/tool"
	"github.com/smith-agent/smith/wit/types"
)

func init() {
	contrib.Export(plugin{})
	tool.Export(plugin{})
	provider.Export(plugin{})
}

func main() {}

type plugin struct{}

func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{
		Tools: []contrib.ToolDefinition{{
			Name: "cat", Description: "Prints a file.", InputSchema: `{"type":"object"}`,
		}},
		Providers:     []contrib.ProviderDefinition{{Name: "lines", DisplayName: "Lines", SecretNames: []string{"lines-key"}}},
		Subscriptions: []types.EventKind{types.EventKindTurnEnd, types.EventKindSettled},
	}, nil
}

func (plugin) InvokeTool(call tool.ToolCall, _ tool.InvokeOptions) (tool.ToolOutput, error) {
	if call.Name != "cat" {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultUnknownTool, UnknownTool: call.Name}
	}
	text, err := fs.ReadFile("notes.txt", fs.ReadOptions{ByteLimit: 1 << 20})
	if err != nil {
		return tool.ToolOutput{}, tool.ToolFault{Case: tool.ToolFaultEffectFailure, EffectFailure: err.Error()}
	}
	return tool.ToolOutput{Content: []types.ContentBlock{{Case: types.ContentBlockText, Text: text.Text}}}, nil
}

// BuildRequest sends the document as the body, authenticated by a secret
// reference the host substitutes.
func (plugin) BuildRequest(s provider.RequestSnapshot, _ provider.BuildOptions) (provider.RequestTemplate, error) {
	if s.Provider != "lines" {
		return provider.RequestTemplate{}, provider.CodecFault{Case: provider.CodecFaultUnknownProvider, UnknownProvider: s.Provider}
	}
	return provider.RequestTemplate{
		Method: provider.HTTPMethodPost,
		URL:    []provider.TemplatePart{{Case: provider.TemplatePartLiteral, Literal: "https://example.invalid/v1/" + s.Model}},
		Headers: []provider.HeaderTemplate{{Name: "authorization", Value: []provider.TemplatePart{
			{Case: provider.TemplatePartLiteral, Literal: "Bearer "},
			{Case: provider.TemplatePartSecret, Secret: provider.SecretReference{Name: "lines-key"}},
		}}},
		Body: []byte(s.Document),
	}, nil
}

func (plugin) ClassifyFailure(body []byte, o provider.ClassifyOptions) provider.Failure {
	f := provider.Failure{Kind: types.FailureKindServer, Message: string(body), Retryable: true}
	if o.Status == 429 {
		f.Kind = types.FailureKindRateLimit
		ms := uint64(1000)
		f.RetryAfterMs = &ms
	}
	for _, h := range o.Headers {
		if h.Name == "request-id" {
			id := h.Value
			f.RequestID = &id
		}
	}
	return f
}

func (plugin) NewDecoder(provider.DecodeOptions) provider.Decoder { return &decoder{} }

// decoder turns "text: <delta>" lines into text deltas; a partial line waits
// for the next chunk.
type decoder struct{ partial string }

func (d *decoder) DecodeChunk(chunk []byte) ([]provider.StreamEvent, error) {
	d.partial += string(chunk)
	var out []provider.StreamEvent
	for {
		line, rest, ok := strings.Cut(d.partial, "\n")
		if !ok {
			return out, nil
		}
		d.partial = rest
		text, found := strings.CutPrefix(line, "text: ")
		if !found {
			return nil, provider.CodecFault{Case: provider.CodecFaultMalformedResponse, MalformedResponse: line}
		}
		out = append(out, provider.StreamEvent{Case: provider.StreamEventTextDelta, TextDelta: provider.ContentDelta{Text: text}})
	}
}

func (d *decoder) Finish() ([]provider.StreamEvent, error) {
	if d.partial != "" {
		return nil, provider.CodecFault{Case: provider.CodecFaultMalformedResponse, MalformedResponse: "truncated line " + d.partial}
	}
	return []provider.StreamEvent{{Case: provider.StreamEventDone, Done: provider.ResponseEnd{Reason: provider.StopReasonEnd}}}, nil
}
