package session

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// encodeMessage encodes m as canonical CBOR: the structure of its JSON
// form (see messageValue).
func encodeMessage(m model.Message) ([]byte, error) {
	v := messageValue(m)
	if v == nil {
		return nil, fmt.Errorf("session: encode message: %T is not a message type", m)
	}
	b, err := sessionfmt.EncodeContent(v)
	if err != nil {
		return nil, fmt.Errorf("session: encode %s message: %w", m.Role(), err)
	}
	return b, nil
}

// decodeMessage decodes entry content written by encodeMessage.
func decodeMessage(content []byte) (model.Message, error) {
	var v any
	if err := sessionfmt.DecodeContent(content, &v); err != nil {
		return nil, err
	}
	n, err := toJSONValue(v)
	if err != nil {
		return nil, fmt.Errorf("session: decode message content: %w", err)
	}
	args, err := rawArguments(n)
	if err != nil {
		return nil, fmt.Errorf("session: decode message content: %w", err)
	}
	j, err := json.Marshal(n)
	if err != nil {
		return nil, fmt.Errorf("session: decode message content: %w", err)
	}
	m, err := model.UnmarshalMessage(j)
	if am, ok := m.(model.AssistantMessage); ok && err == nil {
		// encoding/json compacted the arguments; restore the exact bytes.
		k := 0
		for i, c := range am.Content {
			if tc, ok := c.(model.ToolCall); ok && k < len(args) {
				tc.Arguments = json.RawMessage(args[k])
				am.Content[i] = tc
				k++
			}
		}
		m = am
	}
	return m, err
}

// toJSONValue turns decoded CBOR (maps with interface keys) into values
// encoding/json accepts.
func toJSONValue(v any) (any, error) {
	switch t := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("map key %v is %T, not a string", k, k)
			}
			c, err := toJSONValue(e)
			if err != nil {
				return nil, err
			}
			out[ks] = c
		}
		return out, nil
	case map[string]any:
		for k, e := range t {
			c, err := toJSONValue(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
		return t, nil
	case []any:
		for i := range t {
			c, err := toJSONValue(t[i])
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
		return t, nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("number %v has no JSON form", t)
		}
	case []byte:
		return nil, fmt.Errorf("unexpected byte string in message content")
	}
	return v, nil
}

// rawArguments turns the text-string arguments of tool-call blocks back
// into raw JSON and returns their exact texts in block order.
func rawArguments(v any) ([]string, error) {
	m, ok := v.(map[string]any)
	if !ok || m["role"] != string(model.RoleAssistant) {
		return nil, nil
	}
	var args []string
	blocks, _ := m["content"].([]any)
	for i, b := range blocks {
		bm, ok := b.(map[string]any)
		if !ok || bm["type"] != "tool_call" {
			continue
		}
		s, ok := bm["arguments"].(string)
		if !ok || !json.Valid([]byte(s)) {
			return nil, fmt.Errorf("content[%d]: tool-call arguments are not a JSON text", i)
		}
		bm["arguments"] = json.RawMessage(s)
		args = append(args, s)
	}
	return args, nil
}
