// Command toy-provider is the provider example of docs/plugins.md: the
// codec of "toy", a made-up vendor whose server takes
//
//	POST {base-url}/chat
//	{"model": "...", "system": "...", "tools": [{"name": "...", "description": "...", "schema": {...}}],
//	 "messages": [{"role": "user", "text": "..."},
//	              {"role": "assistant", "text": "...", "calls": [{"id": "...", "name": "...", "arguments": "{...}"}]},
//	              {"role": "tool_result", "id": "...", "text": "..."}]}
//
// and answers one JSON object per line: {"text": "..."} for each piece of
// the answer, {"call": {"id": "...", "name": "...", "arguments": "{...}"}}
// for each tool call, then {"done": "end"|"tool_use"|"length", "input": N,
// "output": N}. A codec is pure
// computation: it turns Smith's request document into a request template
// (secrets stay references), decodes the response chunk by chunk, and
// classifies a failed response; the host sends the request.
package main

import (
	"encoding/json"
	"strings"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/provider"
	"github.com/smith-agent/smith/wit/types"
)

func init() {
	contrib.Export(plugin{})
	provider.Export(plugin{})
}

func main() {}

type plugin struct{}

// DeclareContributions declares the provider, its optional key (the "?"),
// and the one model it serves.
func (plugin) DeclareContributions(contrib.DeclareOptions) (contrib.Contributions, error) {
	return contrib.Contributions{
		Providers: []contrib.ProviderDefinition{{Name: "toy", DisplayName: "Toy", SecretNames: []string{"toy-key?"}}},
		Models: []contrib.ModelDefinition{{
			Provider: "toy", Name: "echo-1", DisplayName: "Toy Echo 1",
			ContextWindow: 8192, OutputLimit: 1024, SupportsTools: true,
		}},
	}, nil
}

// document is the part of Smith's request document this codec reads.
type document struct {
	System      string `json:"system"`
	BaseURL     string `json:"base_url"`      // from the provider's block in smith.kdl
	BaseURLFlag string `json:"base_url_flag"` // from --base-url, which wins
	Tools       []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"` // a JSON Schema
	} `json:"tools"`
	Messages []struct {
		Role    string `json:"role"`
		CallID  string `json:"call_id"`
		Content []struct {
			Type          string `json:"type"`
			Text          string `json:"text"`
			ID            string `json:"id"`
			Name          string `json:"name"`
			ArgumentsText string `json:"arguments_text"`
		} `json:"content"`
	} `json:"messages"`
}

// The vendor's request.
type (
	request struct {
		Model    string    `json:"model"`
		System   string    `json:"system,omitempty"`
		Tools    []tool    `json:"tools,omitempty"`
		Messages []message `json:"messages"`
	}
	tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
	}
	message struct {
		Role  string `json:"role"`
		ID    string `json:"id,omitempty"`
		Text  string `json:"text"`
		Calls []call `json:"calls,omitempty"`
	}
	call struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
)

// BuildRequest turns the document into the vendor's request.
func (plugin) BuildRequest(s provider.RequestSnapshot, _ provider.BuildOptions) (provider.RequestTemplate, error) {
	if s.Provider != "toy" {
		return provider.RequestTemplate{}, provider.CodecFault{Case: provider.CodecFaultUnknownProvider, UnknownProvider: s.Provider}
	}
	var d document
	if err := json.Unmarshal([]byte(s.Document), &d); err != nil {
		return provider.RequestTemplate{}, provider.CodecFault{Case: provider.CodecFaultUnsupportedRequest, UnsupportedRequest: err.Error()}
	}
	body := request{Model: s.Model, System: d.System, Messages: []message{}}
	for _, t := range d.Tools {
		body.Tools = append(body.Tools, tool{Name: t.Name, Description: t.Description, Schema: t.Parameters})
	}
	for _, m := range d.Messages {
		out := message{Role: m.Role, ID: m.CallID}
		for _, c := range m.Content {
			switch c.Type {
			case "text":
				out.Text += c.Text
			case "tool_call":
				out.Calls = append(out.Calls, call{ID: c.ID, Name: c.Name, Arguments: c.ArgumentsText})
			}
			// Other blocks (thinking, images) this vendor does not take.
		}
		body.Messages = append(body.Messages, out)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return provider.RequestTemplate{}, provider.CodecFault{Case: provider.CodecFaultUnknown, Unknown: err.Error()}
	}
	base := d.BaseURL
	if d.BaseURLFlag != "" {
		base = d.BaseURLFlag
	}
	base = strings.TrimSuffix(base, "/")
	if base == "" {
		base = "http://127.0.0.1:8089"
	}
	lit := func(s string) []provider.TemplatePart {
		return []provider.TemplatePart{{Case: provider.TemplatePartLiteral, Literal: s}}
	}
	return provider.RequestTemplate{
		Method: provider.HTTPMethodPost,
		URL:    lit(base + "/chat"),
		Headers: []provider.HeaderTemplate{
			{Name: "content-type", Value: lit("application/json")},
			// The host puts the key's value here; without a key it leaves
			// the header out, since the secret is optional.
			{Name: "authorization", Value: []provider.TemplatePart{
				{Case: provider.TemplatePartLiteral, Literal: "Bearer "},
				{Case: provider.TemplatePartSecret, Secret: provider.SecretReference{Name: "toy-key?"}},
			}},
		},
		Body: b,
	}, nil
}

// ClassifyFailure says what a response with an error status means.
func (plugin) ClassifyFailure(body []byte, o provider.ClassifyOptions) provider.Failure {
	status := o.Status
	f := provider.Failure{Kind: types.FailureKindServer, Message: strings.TrimSpace(string(body)), Retryable: status >= 500, HTTPStatus: &status}
	switch {
	case status == 401 || status == 403:
		f.Kind = types.FailureKindAuth
	case status == 429:
		f.Kind, f.Retryable = types.FailureKindRateLimit, true
	case status >= 400 && status < 500:
		f.Kind = types.FailureKindInvalidRequest
	}
	return f
}

// NewDecoder starts decoding one response.
func (plugin) NewDecoder(provider.DecodeOptions) provider.Decoder { return &decoder{} }

// decoder decodes the response's lines; a line split across chunks waits
// for the rest.
type decoder struct {
	started bool // the start event is out
	partial string
	blocks  uint32                // content blocks so far: text, then each call
	inText  bool                  // a text block is open
	end     *provider.ResponseEnd // from the done line
}

type line struct {
	Text   *string `json:"text"`
	Call   *call   `json:"call"`
	Done   string  `json:"done"`
	Input  *uint64 `json:"input"`
	Output *uint64 `json:"output"`
}

func (d *decoder) DecodeChunk(chunk []byte) ([]provider.StreamEvent, error) {
	d.partial += string(chunk)
	var out []provider.StreamEvent
	if !d.started {
		// A stream begins with its start; this vendor sends no response id.
		d.started = true
		out = append(out, provider.StreamEvent{Case: provider.StreamEventStart})
	}
	for {
		raw, rest, ok := strings.Cut(d.partial, "\n")
		if !ok {
			return out, nil
		}
		d.partial = rest
		if strings.TrimSpace(raw) == "" {
			continue
		}
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			return nil, provider.CodecFault{Case: provider.CodecFaultMalformedResponse, MalformedResponse: "not a JSON line: " + raw}
		}
		switch {
		case l.Text != nil:
			if !d.inText {
				d.inText = true
				d.blocks++
			}
			out = append(out, provider.StreamEvent{Case: provider.StreamEventTextDelta, TextDelta: provider.ContentDelta{Index: d.blocks - 1, Text: *l.Text}})
		case l.Call != nil:
			// A call is a block of its own: its start, its arguments
			// (in one delta here; a vendor may send them in pieces), its end.
			out = d.closeText(out)
			i := d.blocks
			d.blocks++
			out = append(out,
				provider.StreamEvent{Case: provider.StreamEventToolCallStart, ToolCallStart: provider.ToolCallStart{Index: i, ID: l.Call.ID, Name: l.Call.Name}},
				provider.StreamEvent{Case: provider.StreamEventToolCallDelta, ToolCallDelta: provider.ContentDelta{Index: i, Text: l.Call.Arguments}},
				provider.StreamEvent{Case: provider.StreamEventBlockEnd, BlockEnd: provider.BlockEnd{Index: i}})
		case l.Done != "":
			out = d.closeText(out)
			d.end = &provider.ResponseEnd{Reason: provider.StopReasonEnd, RawStop: &l.Done}
			switch l.Done {
			case "tool_use":
				d.end.Reason = provider.StopReasonToolUse
			case "length":
				d.end.Reason = provider.StopReasonLength
			}
			out = append(out, provider.StreamEvent{Case: provider.StreamEventUsage, Usage: provider.Usage{Input: l.Input, Output: l.Output}})
		}
	}
}

// closeText ends the open text block, if any.
func (d *decoder) closeText(out []provider.StreamEvent) []provider.StreamEvent {
	if !d.inText {
		return out
	}
	d.inText = false
	return append(out, provider.StreamEvent{Case: provider.StreamEventBlockEnd, BlockEnd: provider.BlockEnd{Index: d.blocks - 1}})
}

// Finish ends the response with its done event.
func (d *decoder) Finish() ([]provider.StreamEvent, error) {
	if d.end == nil {
		return nil, provider.CodecFault{Case: provider.CodecFaultMalformedResponse, MalformedResponse: "the response ended before its done line"}
	}
	return []provider.StreamEvent{{Case: provider.StreamEventDone, Done: *d.end}}, nil
}
