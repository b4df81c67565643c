package session

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/model"
)

// messageValue returns the structure of m's JSON form as plain values —
// the keys and values encoding/json would write, integers as int64, byte
// slices as their base64 text, tool-call arguments as their exact text —
// without writing the JSON: the strings are m's own, so a message of
// megabytes is not copied before it is encoded (it was three times, with
// a JSON round trip). TestMessageEncodingGolden holds it to the bytes the
// round trip wrote.
func messageValue(m model.Message) map[string]any {
	switch m := m.(type) {
	case model.UserMessage:
		return map[string]any{"role": string(model.RoleUser), "content": contentValues(m.Content)}
	case model.AssistantMessage:
		v := map[string]any{"role": string(model.RoleAssistant), "content": contentValues(m.Content), "usage": usageValue(m.Usage)}
		putString(v, "provider", m.Provider)
		putString(v, "model", m.Model)
		putString(v, "response_id", m.ResponseID)
		putString(v, "stop", string(m.Stop))
		if m.Error != nil {
			v["error"] = errorValue(m.Error)
		}
		return v
	case model.ToolResultMessage:
		v := map[string]any{"role": string(model.RoleToolResult), "call_id": jsonString(m.CallID), "name": jsonString(m.Name),
			"content": contentValues(m.Content), "mutation": jsonString(string(m.Mutation))}
		if m.IsError {
			v["is_error"] = true
		}
		return v
	}
	return nil
}

// contentValues returns the blocks' values; a nil list is null, as in JSON.
func contentValues(cs []model.Content) any {
	if cs == nil {
		return nil
	}
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = contentValue(c)
	}
	return out
}

func contentValue(c model.Content) map[string]any {
	switch c := c.(type) {
	case model.Text:
		v := map[string]any{"type": "text", "text": jsonString(c.Text)}
		putBytes(v, "signature", c.Signature)
		putString(v, "producer", c.Producer)
		return v
	case model.Thinking:
		v := map[string]any{"type": "thinking", "text": jsonString(c.Text)}
		putBytes(v, "signature", c.Signature)
		putBytes(v, "encrypted", c.Encrypted)
		if c.Redacted {
			v["redacted"] = true
		}
		putString(v, "producer", c.Producer)
		return v
	case model.Image:
		data := any(nil)
		if c.Data != nil {
			data = base64.StdEncoding.EncodeToString(c.Data)
		}
		return map[string]any{"type": "image", "media_type": jsonString(c.MediaType), "data": data}
	case model.ToolCall:
		// Arguments are kept byte-exact, as a text string.
		v := map[string]any{"type": "tool_call", "id": jsonString(c.ID), "name": jsonString(c.Name), "arguments": string(c.Arguments)}
		putString(v, "arguments_error", c.ArgumentsError)
		putBytes(v, "signature", c.Signature)
		putString(v, "producer", c.Producer)
		return v
	}
	return nil
}

func usageValue(u model.Usage) map[string]any {
	return map[string]any{"input": amountValue(u.Input), "output": amountValue(u.Output), "cache_read": amountValue(u.CacheRead),
		"cache_write": amountValue(u.CacheWrite), "reasoning": amountValue(u.Reasoning), "cost_nano_usd": amountValue(u.CostNanoUSD)}
}

// amountValue is a known amount's value, null for an unknown one.
func amountValue(a model.Amount) any {
	if n, ok := a.Value(); ok {
		return n
	}
	return nil
}

func errorValue(e *model.Error) map[string]any {
	v := map[string]any{"kind": jsonString(string(e.Kind)), "message": jsonString(e.Message), "retryable": e.Retryable}
	if e.RetryAfterMillis != 0 {
		v["retry_after_ms"] = e.RetryAfterMillis
	}
	if e.HTTPStatus != 0 {
		v["http_status"] = int64(e.HTTPStatus)
	}
	putString(v, "provider_type", e.ProviderType)
	putString(v, "code", e.Code)
	putString(v, "request_id", e.RequestID)
	return v
}

// putString sets an omitempty string field.
func putString(v map[string]any, key, s string) {
	if s != "" {
		v[key] = jsonString(s)
	}
}

// putBytes sets an omitempty byte-slice field as its base64 text.
func putBytes(v map[string]any, key string, b []byte) {
	if len(b) > 0 {
		v[key] = base64.StdEncoding.EncodeToString(b)
	}
}

// jsonString is s as encoding/json writes it: each byte that is not part
// of valid UTF-8 becomes U+FFFD. Valid text (every provider's) is returned
// as it is, not copied.
func jsonString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
