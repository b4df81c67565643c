package conformance

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// result builds the normalized result of the fixtures' expect.json from a
// decoder's events, in the same JSON shape, so the two compare field by
// field.
func result(api string, fr norm.Framing, events []norm.Event) (map[string]any, error) {
	var asm norm.Assembler
	type rawBlock struct {
		kind     string
		args     strings.Builder
		blockTyp string
	}
	var raws []*rawBlock
	// delta_counts counts content deltas: a delta that only carries an
	// opaque payload (a signature, encrypted reasoning, redacted data) is
	// not a text or thinking delta. Decoders emit one delta per vendor
	// delta event (Anthropic also for empty ones, as the
	// expectations count them; Chat chunks carry placeholder "" fields on
	// every chunk, so only non-empty fragments are deltas there).
	counts := map[string]any{"text": 0, "thinking": 0, "tool_args": 0}
	inc := func(k string) { counts[k] = counts[k].(int) + 1 }
	res := map[string]any{"api": api, "response": nil, "error": nil, "usage": nil}
	for _, e := range events {
		if err := asm.Add(e); err != nil {
			return nil, err
		}
		switch e := e.(type) {
		case norm.Start:
			res["response"] = map[string]any{"id": e.ResponseID, "model": e.Model}
		case norm.TextDelta:
			if e.Index == len(raws) {
				raws = append(raws, &rawBlock{kind: "text"})
			}
			if e.Signature == nil {
				inc("text")
			}
		case norm.ThinkingDelta:
			if e.Index == len(raws) {
				raws = append(raws, &rawBlock{kind: "thinking"})
			}
			if e.Signature == nil && e.Encrypted == nil && !e.Redacted {
				inc("thinking")
			}
		case norm.ToolCallStart:
			raws = append(raws, &rawBlock{kind: "tool_call"})
		case norm.ToolCallDelta:
			raws[e.Index].args.WriteString(e.Arguments)
			inc("tool_args")
		case norm.OtherBlock:
			raws = append(raws, &rawBlock{kind: "other", blockTyp: e.Type})
		case norm.Done:
			res["stop"] = map[string]any{"reason": string(e.Reason), "raw": e.Raw}
			res["usage"] = usage(e.Usage)
			res["usage_raw"] = rawJSON(e.UsageRaw)
		case norm.StreamError:
			res["stop"] = map[string]any{"reason": "error", "raw": e.Raw}
			res["usage"] = usage(e.Usage)
			res["usage_raw"] = rawJSON(e.UsageRaw)
			er := map[string]any{"where": "stream", "type": e.Err.ProviderType, "message": e.Err.Message,
				"retryable": e.Err.Retryable}
			if e.Err.Code != "" {
				er["code"] = e.Err.Code
			}
			res["error"] = er
			res["error_kind"] = string(e.Err.Kind)
			res["retry_after_ms"] = e.Err.RetryAfter.Milliseconds()
		}
	}
	msg := asm.Message()
	blocks := []any{}
	var text, thinking strings.Builder
	calls := []any{}
	for i, c := range msg.Content {
		switch c := c.(type) {
		case norm.Text:
			b := map[string]any{"type": "text", "text": c.Text, "signature": str(c.Signature)}
			opt(b, "item_id", c.ItemID)
			opt(b, "phase", c.Phase)
			text.WriteString(c.Text)
			blocks = append(blocks, b)
		case norm.Thinking:
			b := map[string]any{"type": "thinking", "text": c.Text, "signature": str(c.Signature)}
			if c.Redacted {
				b["redacted"] = true
				b["redacted_data"] = string(c.Encrypted)
			} else if c.Encrypted != nil {
				b["signature"] = string(c.Encrypted)
				b["encrypted_content"] = true
			}
			opt(b, "item_id", c.ItemID)
			thinking.WriteString(c.Text)
			blocks = append(blocks, b)
		case norm.ToolCall:
			var args any
			valid := c.ArgumentsError == ""
			if valid {
				_ = json.Unmarshal(c.Arguments, &args)
			}
			b := map[string]any{"type": "tool_call", "id": c.ID, "name": c.Name,
				"arguments_raw": raws[i].args.String(), "arguments": args, "arguments_valid_json": valid,
				"signature": str(c.Signature)}
			opt(b, "item_id", c.ItemID)
			blocks = append(blocks, b)
			calls = append(calls, map[string]any{"id": c.ID, "name": c.Name, "arguments": args})
		case norm.Other:
			blocks = append(blocks, map[string]any{"type": "other", "block_type": c.Type})
		}
	}
	res["blocks"] = blocks
	res["text"] = text.String()
	res["thinking"] = thinking.String()
	res["tool_calls"] = calls
	res["delta_counts"] = counts
	res["framing"] = map[string]any{"line_endings": fr.LineEndings, "event_lines": fr.EventLines,
		"sse_events": fr.Events, "comment_lines": fr.CommentLines, "done_sentinel": fr.Done, "non_sse_text": fr.NonSSE}
	return res, nil
}

func usage(u norm.Usage) any {
	if !u.IsKnown() {
		return nil
	}
	a := func(x norm.Amount) any {
		if v, ok := x.Value(); ok {
			return v
		}
		return nil
	}
	return map[string]any{"input": a(u.Input), "output": a(u.Output), "cache_read": a(u.CacheRead),
		"cache_write": a(u.CacheWrite), "reasoning": a(u.Reasoning), "total": a(u.Total())}
}

func rawJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "invalid JSON: " + string(b)
	}
	return v
}

func str(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

func opt(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

// normalizeJSON round-trips v through JSON so numbers and maps compare
// with values decoded from the fixtures.
func normalizeJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		panic(err)
	}
	return out
}
