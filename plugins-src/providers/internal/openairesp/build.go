package openairesp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// BuildRequest returns the streaming Responses request for r, for stateless
// use (store:false): every earlier output item is replayed — reasoning
// items with their id and encrypted_content, messages with their phase,
// function calls by call_id, other items verbatim — and message and
// function-call items keep their item ids when their reasoning is
// replayed (see assistantItems).
// Authorization is "Bearer " + the credential named by secretRef.
func BuildRequest(r *norm.Request, secretRef string) (*norm.HTTPRequest, error) {
	body := map[string]any{"model": r.Model, "stream": true, "store": false}
	var input []any
	if r.System != "" {
		input = append(input, map[string]any{"role": "developer", "content": r.System})
	}
	for i, m := range r.Messages {
		items, err := toItems(m)
		if err != nil {
			return nil, fmt.Errorf("openairesp: message %d: %w", i, err)
		}
		input = append(input, items...)
	}
	body["input"] = input
	if len(r.Tools) > 0 {
		tools := make([]any, len(r.Tools))
		for i, t := range r.Tools {
			tools[i] = map[string]any{"type": "function", "name": t.Name, "description": t.Description,
				"parameters": t.Parameters, "strict": false}
		}
		body["tools"] = tools
		body["tool_choice"] = "auto"
	}
	if r.MaxTokens > 0 {
		body["max_output_tokens"] = r.MaxTokens
	}
	switch r.Thinking {
	case norm.ThinkingDefault:
	case norm.ThinkingOff:
		body["reasoning"] = map[string]any{"effort": "none"}
	default:
		body["reasoning"] = map[string]any{"effort": string(r.Thinking), "summary": "auto"}
		body["include"] = []any{"reasoning.encrypted_content"}
	}
	if r.CacheKey != "" {
		body["prompt_cache_key"] = r.CacheKey
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("openairesp: encode request body: %w", err)
	}
	return &norm.HTTPRequest{Method: "POST", Path: "/responses", Body: b, Headers: []norm.Header{
		{Name: "content-type", Value: "application/json"},
		{Name: "accept", Value: "text/event-stream"},
		{Name: "authorization", Value: "Bearer ", SecretRef: secretRef},
	}}, nil
}

func toItems(m norm.Message) ([]any, error) {
	switch m := m.(type) {
	case norm.UserMessage:
		return []any{map[string]any{"role": "user", "content": inputParts(m.Content)}}, nil
	case norm.ToolResultMessage:
		var text strings.Builder
		var parts []any
		for _, c := range m.Content {
			switch c := c.(type) {
			case norm.Text:
				text.WriteString(c.Text)
			case norm.Image:
				parts = append(parts, imagePart(c))
			}
		}
		var output any = text.String()
		if len(parts) > 0 {
			output = append([]any{map[string]any{"type": "input_text", "text": text.String()}}, parts...)
		}
		return []any{map[string]any{"type": "function_call_output", "call_id": m.CallID, "output": output}}, nil
	case norm.AssistantMessage:
		return assistantItems(m)
	}
	return nil, fmt.Errorf("unknown message type %T", m)
}

func inputParts(cs []norm.Content) []any {
	parts := []any{}
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Text:
			parts = append(parts, map[string]any{"type": "input_text", "text": c.Text})
		case norm.Image:
			parts = append(parts, imagePart(c))
		}
	}
	return parts
}

func imagePart(c norm.Image) any {
	return map[string]any{"type": "input_image", "detail": "auto",
		"image_url": "data:" + c.MediaType + ";base64," + base64.StdEncoding.EncodeToString(c.Data)}
}
