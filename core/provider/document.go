package provider

import (
	"encoding/json"

	"github.com/smith-agent/smith/core/model"
)

// document is Smith's provider-neutral request document, the snapshot the
// codec turns into a vendor request. Messages follow the model's message
// JSON except that a tool call's arguments travel as arguments_text, the
// exact bytes the model sent (JSON encoding would compact them, and some
// vendors want them back verbatim).
type document struct {
	System          string                 `json:"system,omitempty"`
	Messages        []docMessage           `json:"messages"`
	Tools           []model.ToolDefinition `json:"tools,omitempty"`
	MaxOutputTokens int                    `json:"max_output_tokens,omitempty"`
	Thinking        string                 `json:"thinking,omitempty"`
	ThinkingBudget  int                    `json:"thinking_budget,omitempty"`
	CacheKey        string                 `json:"cache_key,omitempty"`
	BaseURL         string                 `json:"base_url,omitempty"`
	BaseURLFlag     string                 `json:"base_url_flag,omitempty"`
	Environment     map[string]string      `json:"environment,omitempty"`
	Quirks          json.RawMessage        `json:"quirks,omitempty"`
}

type docMessage struct {
	Role       model.Role `json:"role"`
	Content    []docBlock `json:"content"`
	Provider   string     `json:"provider,omitempty"`
	Model      string     `json:"model,omitempty"`
	ResponseID string     `json:"response_id,omitempty"`
	CallID     string     `json:"call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
	IsError    bool       `json:"is_error,omitempty"`
}

type docBlock struct {
	Type          string `json:"type"`
	Text          string `json:"text,omitempty"`
	Signature     []byte `json:"signature,omitempty"`
	Encrypted     []byte `json:"encrypted,omitempty"`
	Redacted      bool   `json:"redacted,omitempty"`
	Producer      string `json:"producer,omitempty"`
	MediaType     string `json:"media_type,omitempty"`
	Data          []byte `json:"data,omitempty"`
	ID            string `json:"id,omitempty"`
	Name          string `json:"name,omitempty"`
	ArgumentsText string `json:"arguments_text,omitempty"`
}

func (p *Provider) document(req *model.Request) (string, error) {
	d := document{System: req.System, Messages: make([]docMessage, 0, len(req.Messages)), Tools: req.Tools,
		MaxOutputTokens: req.MaxOutputTokens, Thinking: p.cfg.Thinking, ThinkingBudget: p.cfg.ThinkingBudget,
		CacheKey: p.cfg.CacheKey, BaseURL: p.cfg.BaseURL, BaseURLFlag: p.cfg.BaseURLFlag, Environment: p.environ, Quirks: p.cfg.Quirks}
	for _, m := range req.Messages {
		switch m := m.(type) {
		case model.UserMessage:
			d.Messages = append(d.Messages, docMessage{Role: model.RoleUser, Content: blocks(m.Content)})
		case model.AssistantMessage:
			d.Messages = append(d.Messages, docMessage{Role: model.RoleAssistant, Content: blocks(m.Content),
				Provider: m.Provider, Model: m.Model, ResponseID: m.ResponseID})
		case model.ToolResultMessage:
			d.Messages = append(d.Messages, docMessage{Role: model.RoleToolResult, Content: blocks(m.Content),
				CallID: m.CallID, Name: m.Name, IsError: m.IsError})
		}
	}
	b, err := json.Marshal(d)
	return string(b), err
}

func blocks(cs []model.Content) []docBlock {
	out := make([]docBlock, 0, len(cs))
	for _, c := range cs {
		switch c := c.(type) {
		case model.Text:
			out = append(out, docBlock{Type: "text", Text: c.Text, Signature: c.Signature, Producer: c.Producer})
		case model.Thinking:
			out = append(out, docBlock{Type: "thinking", Text: c.Text, Signature: c.Signature, Encrypted: c.Encrypted,
				Redacted: c.Redacted, Producer: c.Producer})
		case model.Image:
			out = append(out, docBlock{Type: "image", MediaType: c.MediaType, Data: c.Data})
		case model.ToolCall:
			args := string(c.Arguments)
			if c.ArgumentsError != "" {
				// The call was never run (its result says why). What the
				// model sent is not JSON, and the vendors that take
				// arguments as an object refuse a string, so the call goes
				// back with no arguments.
				args = "{}"
			}
			out = append(out, docBlock{Type: "tool_call", ID: c.ID, Name: c.Name, ArgumentsText: args,
				Signature: c.Signature, Producer: c.Producer})
		}
	}
	return out
}
