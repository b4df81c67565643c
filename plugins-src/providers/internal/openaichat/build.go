package openaichat

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// BuildRequest returns the streaming Chat Completions request for r, shaped
// by q. Authorization is "Bearer " + the credential named by secretRef;
// servers without a key get no Authorization header (secretRef ""). An
// optional reference (endpoints.OptionalKey) is templated the same way;
// the host leaves the header out when no key is configured.
func BuildRequest(r *norm.Request, q Quirks, secretRef string) (*norm.HTTPRequest, error) {
	body := map[string]any{"model": r.Model, "stream": true}
	if !q.NoStreamUsage {
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	var msgs []any
	if r.System != "" {
		role := "system"
		if q.DeveloperRole {
			role = "developer"
		}
		msgs = append(msgs, map[string]any{"role": role, "content": r.System})
	}
	m, err := messages(r.Messages, q)
	if err != nil {
		return nil, err
	}
	body["messages"] = append(msgs, m...)
	if len(r.Tools) > 0 {
		tools := make([]any, len(r.Tools))
		for i, t := range r.Tools {
			fn := map[string]any{"name": t.Name, "description": t.Description, "parameters": t.Parameters}
			if !q.NoStrict {
				fn["strict"] = false
			}
			tools[i] = map[string]any{"type": "function", "function": fn}
		}
		body["tools"] = tools
		body["tool_choice"] = "auto"
	}
	if r.MaxTokens > 0 {
		field := q.MaxTokensField
		if field == "" {
			field = "max_completion_tokens"
		}
		body[field] = r.MaxTokens
	}
	if err := thinking(body, r.Thinking, q); err != nil {
		return nil, err
	}
	if q.UsageInclude {
		body["usage"] = map[string]any{"include": true}
	}
	if r.CacheKey != "" && !q.NoPromptCacheKey {
		body["prompt_cache_key"] = r.CacheKey
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("openaichat: encode request body: %w", err)
	}
	h := []norm.Header{{Name: "content-type", Value: "application/json"}, {Name: "accept", Value: "text/event-stream"}}
	if secretRef != "" {
		h = append(h, norm.Header{Name: "authorization", Value: "Bearer ", SecretRef: secretRef})
	}
	return &norm.HTTPRequest{Method: "POST", Path: "/chat/completions", Headers: h, Body: b}, nil
}

func thinking(body map[string]any, level norm.ThinkingLevel, q Quirks) error {
	if level == norm.ThinkingDefault {
		return nil
	}
	switch q.ThinkingFormat {
	case "", "openai":
		effort := string(level)
		if level == norm.ThinkingOff {
			effort = "none"
		}
		body["reasoning_effort"] = effort
	case "openrouter":
		if level == norm.ThinkingOff {
			body["reasoning"] = map[string]any{"enabled": false}
		} else {
			body["reasoning"] = map[string]any{"effort": string(level)}
		}
	case "enable_thinking":
		body["enable_thinking"] = level != norm.ThinkingOff
	case "none":
	default:
		return fmt.Errorf("openaichat: unknown thinking_format %q in the server's quirks; want openai, openrouter, enable_thinking or none", q.ThinkingFormat)
	}
	return nil
}

func messages(in []norm.Message, q Quirks) ([]any, error) {
	var out []any
	var images []any // tool-result images, sent in one user message after the tool messages
	flush := func() {
		if len(images) > 0 {
			parts := append([]any{map[string]any{"type": "text", "text": "Images returned by the tool calls above:"}}, images...)
			out = append(out, map[string]any{"role": "user", "content": parts})
			images = nil
		}
	}
	for i, m := range in {
		switch m := m.(type) {
		case norm.UserMessage:
			flush()
			out = append(out, map[string]any{"role": "user", "content": userContent(m.Content)})
		case norm.ToolResultMessage:
			var text strings.Builder
			for _, c := range m.Content {
				switch c := c.(type) {
				case norm.Text:
					text.WriteString(c.Text)
				case norm.Image:
					images = append(images, imagePart(c))
				}
			}
			tm := map[string]any{"role": "tool", "tool_call_id": clip(m.CallID, q.MaxToolCallIDLen), "content": text.String()}
			if q.ToolResultName {
				tm["name"] = m.Name
			}
			out = append(out, tm)
		case norm.AssistantMessage:
			flush()
			am, err := assistant(m, q)
			if err != nil {
				return nil, fmt.Errorf("openaichat: message %d: %w", i, err)
			}
			if am != nil {
				out = append(out, am)
			}
		}
	}
	flush()
	return out, nil
}

func userContent(cs []norm.Content) any {
	if len(cs) == 1 {
		if t, ok := cs[0].(norm.Text); ok {
			return t.Text
		}
	}
	parts := []any{}
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Text:
			parts = append(parts, map[string]any{"type": "text", "text": c.Text})
		case norm.Image:
			parts = append(parts, imagePart(c))
		}
	}
	return parts
}

func imagePart(c norm.Image) any {
	return map[string]any{"type": "image_url", "image_url": map[string]any{
		"url": "data:" + c.MediaType + ";base64," + base64.StdEncoding.EncodeToString(c.Data)}}
}

func assistant(m norm.AssistantMessage, q Quirks) (map[string]any, error) {
	out := map[string]any{"role": "assistant"}
	var text, reasoning strings.Builder
	var details []any
	var calls []any
	for _, c := range m.Content {
		switch c := c.(type) {
		case norm.Text:
			text.WriteString(c.Text)
		case norm.Thinking:
			reasoning.WriteString(c.Text)
			if q.ReasoningDetails && (c.Text != "" || len(c.Signature) > 0 || len(c.Encrypted) > 0) {
				d := map[string]any{"type": "reasoning.text", "text": c.Text, "index": len(details)}
				if len(c.Signature) > 0 {
					d["signature"] = string(c.Signature)
				}
				if len(c.Encrypted) > 0 {
					d = map[string]any{"type": "reasoning.encrypted", "data": string(c.Encrypted), "index": len(details)}
				}
				if c.Format != "" {
					d["format"] = c.Format
				}
				details = append(details, d)
			}
		case norm.ToolCall:
			args := string(c.Arguments)
			if c.ArgumentsError != "" {
				args = "{}" // never executed; its result says why
			}
			calls = append(calls, map[string]any{"id": clip(c.ID, q.MaxToolCallIDLen), "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": args}})
		case norm.Image:
			return nil, fmt.Errorf("an assistant message cannot carry an image")
		}
	}
	if text.Len() > 0 {
		out["content"] = text.String()
	}
	if len(calls) > 0 {
		out["tool_calls"] = calls
	}
	// DeepSeek-style servers reject a tool-call turn without its reasoning
	// field, even an empty one.
	if q.EchoReasoning != "" && (reasoning.Len() > 0 || len(calls) > 0) {
		out[q.EchoReasoning] = reasoning.String()
	}
	if len(details) > 0 {
		out["reasoning_details"] = details
	}
	if len(out) == 1 {
		return nil, nil // nothing to send back (an empty or failed turn)
	}
	return out, nil
}

func clip(id string, n int) string {
	if n > 0 && len(id) > n {
		return id[:n]
	}
	return id
}
