package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// DefaultMaxTokens is sent when the request sets no output bound; the API
// requires max_tokens. With thinking enabled and no output bound, max_tokens
// is the thinking budget plus DefaultMaxTokens, since the budget counts
// against max_tokens and must stay below it.
const DefaultMaxTokens = 4096

// BuildRequest returns the streaming Messages request for r. The credential
// is a reference (x-api-key ← secretRef); thinking blocks are sent back
// with their signatures verbatim, tool results follow their calls in one
// user message. The history must already be in this provider's terms (see
// package handoff): foreign thinking and ids are not transformed here.
// With thinking, a level's budget is lowered to fit below max_tokens
// (see thinkingBudget).
func BuildRequest(r *norm.Request, secretRef string) (*norm.HTTPRequest, error) {
	maxTokens := r.MaxTokens
	if maxTokens == 0 {
		maxTokens = DefaultMaxTokens
	}
	body := map[string]any{"model": r.Model, "max_tokens": maxTokens, "stream": true}
	cache := map[string]any{"type": "ephemeral"}
	if r.System != "" {
		sys := map[string]any{"type": "text", "text": r.System}
		if r.CacheKey != "" {
			sys["cache_control"] = cache
		}
		body["system"] = []any{sys}
	}
	msgs, err := messages(r.Messages)
	if err != nil {
		return nil, err
	}
	if r.CacheKey != "" {
		markLast(msgs, cache)
	}
	body["messages"] = msgs
	if len(r.Tools) > 0 {
		tools := make([]any, len(r.Tools))
		for i, t := range r.Tools {
			tools[i] = map[string]any{"name": t.Name, "description": t.Description, "input_schema": t.Parameters}
		}
		body["tools"] = tools
		body["tool_choice"] = map[string]any{"type": "auto", "disable_parallel_tool_use": false}
	}
	if r.Thinking != norm.ThinkingDefault && r.Thinking != norm.ThinkingOff {
		budget, limit, err := thinkingBudget(r)
		if err != nil {
			return nil, err
		}
		body["max_tokens"] = limit
		body["thinking"] = map[string]any{"type": "enabled", "budget_tokens": budget}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("anthropic: encode request body: %w", err)
	}
	return &norm.HTTPRequest{Method: "POST", Path: "/v1/messages", Body: b, Headers: []norm.Header{
		{Name: "content-type", Value: "application/json"},
		{Name: "accept", Value: "text/event-stream"},
		{Name: "anthropic-version", Value: "2023-06-01"},
		{Name: "x-api-key", SecretRef: secretRef},
	}}, nil
}

func messages(in []norm.Message) ([]any, error) {
	var out []any
	var results []any // tool_result blocks waiting for their user message
	flush := func() {
		if len(results) > 0 {
			out = append(out, map[string]any{"role": "user", "content": results})
			results = nil
		}
	}
	for i, m := range in {
		switch m := m.(type) {
		case norm.UserMessage:
			blocks := userBlocks(m.Content)
			if len(results) > 0 { // tool results come first in the same user turn
				results = append(results, blocks...)
				flush()
				continue
			}
			out = append(out, map[string]any{"role": "user", "content": blocks})
		case norm.ToolResultMessage:
			r := map[string]any{"type": "tool_result", "tool_use_id": m.CallID, "content": userBlocks(m.Content)}
			if m.IsError {
				r["is_error"] = true
			}
			results = append(results, r)
		case norm.AssistantMessage:
			flush()
			blocks, err := assistantBlocks(m.Content)
			if err != nil {
				return nil, fmt.Errorf("anthropic: message %d: %w", i, err)
			}
			if len(blocks) > 0 {
				out = append(out, map[string]any{"role": "assistant", "content": blocks})
			}
		}
	}
	flush()
	return out, nil
}

// markLast puts a cache breakpoint on the last block of the last message,
// so the whole conversation prefix is cached for the next turn (with the
// system prompt's, two of the four breakpoints the API allows).
func markLast(msgs []any, cache map[string]any) {
	if len(msgs) == 0 {
		return
	}
	blocks, _ := msgs[len(msgs)-1].(map[string]any)["content"].([]any)
	if len(blocks) == 0 {
		return
	}
	if b, ok := blocks[len(blocks)-1].(map[string]any); ok {
		b["cache_control"] = cache
	}
}

func userBlocks(cs []norm.Content) []any {
	out := []any{}
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Text:
			if c.Text != "" {
				out = append(out, map[string]any{"type": "text", "text": c.Text})
			}
		case norm.Image:
			out = append(out, map[string]any{"type": "image", "source": map[string]any{
				"type": "base64", "media_type": c.MediaType, "data": base64.StdEncoding.EncodeToString(c.Data)}})
		}
	}
	return out
}

func assistantBlocks(cs []norm.Content) ([]any, error) {
	var out []any
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Thinking:
			switch {
			case c.Redacted:
				out = append(out, map[string]any{"type": "redacted_thinking", "data": string(c.Encrypted)})
			case len(c.Signature) > 0:
				out = append(out, map[string]any{"type": "thinking", "thinking": c.Text, "signature": string(c.Signature)})
			case c.Text != "":
				// Unsigned thinking (a cut-off stream) is rejected as
				// thinking; keep its content as text.
				out = append(out, map[string]any{"type": "text", "text": c.Text})
			}
		case norm.Text:
			if c.Text != "" {
				out = append(out, map[string]any{"type": "text", "text": c.Text})
			}
		case norm.ToolCall:
			input := c.Arguments
			if c.ArgumentsError != "" {
				input = json.RawMessage("{}") // never executed; its result says why
			}
			out = append(out, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": input})
		case norm.Other:
			out = append(out, c.Raw)
		case norm.Image:
			return nil, fmt.Errorf("an assistant message cannot carry an image")
		}
	}
	return out, nil
}
