package normtrace

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// Document returns r as the provider plugin's request document (the JSON
// shape of the guest package's Document: system, messages with the host's
// message JSON, tools, max_output_tokens, thinking, thinking_budget,
// cache_key), which the guest's parser turns back into a request equal to
// r (as [RequestTrace] shows it) — for every request such a document can
// express. What it cannot express comes back as the parser makes it:
//
//   - an assistant message's Stop, StopRaw, Usage and Error, and a tool
//     call's ArgumentsError, come back zero;
//   - a tool call's empty Arguments come back as "{}";
//   - a block's empty Producer comes back as its message's Provider;
//   - an Other block's Type must be non-empty and free of NUL bytes (it is
//     sent as a text block whose signature frames the type, see
//     [norm.PackMeta]), else it comes back as a Text block;
//   - a tool's Parameters come back without the space around the value,
//     and Parameters that are not valid JSON come back as a JSON string
//     holding them;
//   - strings are JSON strings, so invalid UTF-8 comes back as U+FFFD.
//
// Byte fields are written in standard base64, a signature framed so that
// the parser's [norm.UnpackMeta] returns it unchanged. Keys the document
// leaves empty are left out. Document never fails.
func Document(r *norm.Request) []byte {
	b := []byte{'{'}
	b = member(b, "system", r.System, true)
	b = append(b, `"messages":[`...)
	for i, m := range r.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendDocMessage(b, m)
	}
	b = append(b, ']')
	if len(r.Tools) > 0 {
		b = append(b, `,"tools":[`...)
		for i, t := range r.Tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = quoteJSON(b, t.Name)
			b = append(b, `,"description":`...)
			b = quoteJSON(b, t.Description)
			if len(t.Parameters) > 0 {
				b = append(b, `,"parameters":`...)
				b = appendJSONValue(b, t.Parameters)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.MaxTokens != 0 {
		b = strconv.AppendInt(append(b, `,"max_output_tokens":`...), int64(r.MaxTokens), 10)
	}
	b = member(b, "thinking", string(r.Thinking), false)
	if r.ThinkingBudget != 0 {
		b = strconv.AppendInt(append(b, `,"thinking_budget":`...), int64(r.ThinkingBudget), 10)
	}
	b = member(b, "cache_key", r.CacheKey, false)
	return append(b, '}')
}

// member appends `"key":"value",` (first) or `,"key":"value"`; an empty
// value is left out.
func member(b []byte, key, value string, first bool) []byte {
	if value == "" {
		return b
	}
	if !first {
		b = append(b, ',')
	}
	b = append(append(append(b, '"'), key...), `":`...)
	b = quoteJSON(b, value)
	if first {
		b = append(b, ',')
	}
	return b
}

func quoteJSON(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

func base64JSON(b, v []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

// appendJSONValue appends raw as a JSON value: itself without surrounding
// space when it is valid JSON, else a JSON string holding it.
func appendJSONValue(b, raw []byte) []byte {
	if t := bytes.TrimSpace(raw); json.Valid(t) {
		return append(b, t...)
	}
	return quoteJSON(b, string(raw))
}

func appendDocMessage(b []byte, m norm.Message) []byte {
	var content []norm.Content
	switch m := m.(type) {
	case norm.UserMessage:
		b = append(b, `{"role":"user"`...)
		content = m.Content
	case norm.AssistantMessage:
		b = append(b, `{"role":"assistant"`...)
		b = member(b, "provider", m.Provider, false)
		b = member(b, "model", m.Model, false)
		b = member(b, "response_id", m.ResponseID, false)
		content = m.Content
	case norm.ToolResultMessage:
		b = append(b, `{"role":"tool_result"`...)
		b = member(b, "call_id", m.CallID, false)
		b = member(b, "name", m.Name, false)
		if m.IsError {
			b = append(b, `,"is_error":true`...)
		}
		content = m.Content
	default:
		b = append(b, `{"role":"?"`...)
	}
	b = append(b, `,"content":[`...)
	for i, c := range content {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendDocBlock(b, c)
	}
	return append(b, "]}"...)
}

// signature appends a signature framed so that norm.UnpackMeta returns
// payload unchanged (or, with m set, m and payload).
func signature(b []byte, m norm.Meta, payload []byte) []byte {
	sig := norm.PackMeta(m, payload)
	if len(sig) == 0 {
		return b
	}
	return base64JSON(append(b, `,"signature":`...), sig)
}

func appendDocBlock(b []byte, c norm.Content) []byte {
	switch c := c.(type) {
	case norm.Text:
		b = append(b, `{"type":"text"`...)
		b = member(b, "text", c.Text, false)
		b = signature(b, norm.Meta{}, c.Signature)
		b = member(b, "producer", c.Producer, false)
		b = member(b, "item_id", c.ItemID, false)
		b = member(b, "phase", c.Phase, false)
	case norm.Thinking:
		b = append(b, `{"type":"thinking"`...)
		b = member(b, "text", c.Text, false)
		b = signature(b, norm.Meta{}, c.Signature)
		if len(c.Encrypted) > 0 {
			b = base64JSON(append(b, `,"encrypted":`...), c.Encrypted)
		}
		if c.Redacted {
			b = append(b, `,"redacted":true`...)
		}
		b = member(b, "producer", c.Producer, false)
		b = member(b, "format", c.Format, false)
		b = member(b, "item_id", c.ItemID, false)
	case norm.Image:
		b = append(b, `{"type":"image"`...)
		b = member(b, "media_type", c.MediaType, false)
		if len(c.Data) > 0 {
			b = base64JSON(append(b, `,"data":`...), c.Data)
		}
	case norm.ToolCall:
		b = append(b, `{"type":"tool_call"`...)
		b = member(b, "id", c.ID, false)
		b = member(b, "name", c.Name, false)
		b = member(b, "arguments_text", string(c.Arguments), false)
		b = signature(b, norm.Meta{}, c.Signature)
		b = member(b, "producer", c.Producer, false)
		b = member(b, "item_id", c.ItemID, false)
	case norm.Other:
		b = append(b, `{"type":"text"`...)
		b = signature(b, norm.Meta{Other: c.Type}, c.Raw)
		b = member(b, "producer", c.Producer, false)
	default:
		b = append(b, `{"type":"?"`...)
	}
	return append(b, '}')
}
