package guest

import (
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
)

// Document is Smith's provider-neutral JSON request document, the
// request-snapshot's document. Messages use the host's message JSON
// (role user, assistant or tool_result; content blocks text, thinking,
// image, tool_call; byte fields base64). BaseURL and BaseURLFlag are the
// base URL overrides from configuration and from a flag; Environment carries the host's *_BASE_URL
// variables so the codec, which knows the conventional name, can pick its
// own; Quirks override an openai-chat server's quirk flags.
type Document struct {
	System          string             `json:"system,omitempty"`
	Messages        []json.RawMessage  `json:"messages"`
	Tools           []DocumentTool     `json:"tools,omitempty"`
	MaxOutputTokens int                `json:"max_output_tokens,omitempty"`
	Thinking        string             `json:"thinking,omitempty"`
	ThinkingBudget  int                `json:"thinking_budget,omitempty"`
	CacheKey        string             `json:"cache_key,omitempty"`
	BaseURL         string             `json:"base_url,omitempty"`
	BaseURLFlag     string             `json:"base_url_flag,omitempty"`
	Environment     map[string]string  `json:"environment,omitempty"`
	Quirks          *openaichat.Quirks `json:"quirks,omitempty"`
}

// DocumentTool advertises one tool; Parameters is a JSON Schema object.
type DocumentTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

type docBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Signature []byte          `json:"signature"`
	Encrypted []byte          `json:"encrypted"`
	Redacted  bool            `json:"redacted"`
	Producer  string          `json:"producer"`
	Format    string          `json:"format"`
	ItemID    string          `json:"item_id"`
	Phase     string          `json:"phase"`
	MediaType string          `json:"media_type"`
	Data      []byte          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// ArgumentsText, when set, is the arguments' exact text and wins over
	// Arguments (which JSON encoding compacts).
	ArgumentsText string `json:"arguments_text"`
}

type docMessage struct {
	Role       string     `json:"role"`
	Content    []docBlock `json:"content"`
	Provider   string     `json:"provider"`
	Model      string     `json:"model"`
	ResponseID string     `json:"response_id"`
	CallID     string     `json:"call_id"`
	Name       string     `json:"name"`
	IsError    bool       `json:"is_error"`
}

// request converts the document into the codecs' request for model.
func (d *Document) request(model string) (*norm.Request, error) {
	r := &norm.Request{Model: model, System: d.System, MaxTokens: d.MaxOutputTokens,
		Thinking: norm.ThinkingLevel(d.Thinking), ThinkingBudget: d.ThinkingBudget, CacheKey: d.CacheKey}
	for _, t := range d.Tools {
		r.Tools = append(r.Tools, norm.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	for i, raw := range d.Messages {
		var m docMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("guest: messages[%d] of the request document: %w", i, err)
		}
		msg, err := m.norm()
		if err != nil {
			return nil, fmt.Errorf("guest: messages[%d] of the request document: %w", i, err)
		}
		r.Messages = append(r.Messages, msg)
	}
	return r, nil
}

func (m docMessage) norm() (norm.Message, error) {
	content := make([]norm.Content, 0, len(m.Content))
	for i, b := range m.Content {
		c, err := b.norm(m.Provider)
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", i, err)
		}
		content = append(content, c)
	}
	switch m.Role {
	case "user":
		return norm.UserMessage{Content: content}, nil
	case "assistant":
		return norm.AssistantMessage{Content: content, Provider: m.Provider, Model: m.Model, ResponseID: m.ResponseID}, nil
	case "tool_result":
		return norm.ToolResultMessage{CallID: m.CallID, Name: m.Name, Content: content, IsError: m.IsError}, nil
	}
	return nil, fmt.Errorf("unknown role %q; want user, assistant or tool_result", m.Role)
}

func (b docBlock) norm(provider string) (norm.Content, error) {
	producer := b.Producer
	if producer == "" {
		producer = provider
	}
	// A signature may frame vendor metadata (see [norm.PackMeta]): a
	// Responses item id and phase, a thinking signature's format, or a
	// server-side block carried as an empty text block.
	meta, sig := norm.UnpackMeta(b.Signature)
	if len(sig) == 0 {
		sig = nil
	}
	switch b.Type {
	case "text":
		if meta.Other != "" {
			return norm.Other{Type: meta.Other, Raw: json.RawMessage(sig), Producer: producer}, nil
		}
		return norm.Text{Text: b.Text, Signature: sig, Producer: producer, ItemID: or(b.ItemID, meta.Item), Phase: or(b.Phase, meta.Phase)}, nil
	case "thinking":
		return norm.Thinking{Text: b.Text, Signature: sig, Encrypted: b.Encrypted, Redacted: b.Redacted,
			Format: or(b.Format, meta.Format), ItemID: or(b.ItemID, meta.Item), Producer: producer}, nil
	case "image":
		return norm.Image{MediaType: b.MediaType, Data: b.Data}, nil
	case "tool_call":
		args := b.Arguments
		if b.ArgumentsText != "" {
			args = json.RawMessage(b.ArgumentsText)
		}
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		return norm.ToolCall{ID: b.ID, Name: b.Name, Arguments: args, Signature: sig, ItemID: or(b.ItemID, meta.Item), Producer: producer}, nil
	}
	return nil, fmt.Errorf("unknown block type %q; want text, thinking, image or tool_call", b.Type)
}

// or returns a, or b when a is empty.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
