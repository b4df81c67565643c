package openairesp

import (
	"fmt"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// assistantItems returns the input items that replay one earlier response.
//
// Reasoning items are replayed only whole: with their id and
// encrypted_content (the history from another model has already lost them
// to package handoff). The message and function_call items that follow a
// reasoning item are paired with it by their item ids (msg_…, fc_…), so
// the ids are sent exactly when the response's reasoning is replayed: an
// fc_ or msg_ id without its reasoning item is refused, and without ids
// the items stand on their own (function calls are linked to their
// outputs by call_id either way). Text blocks of one message item (same
// item id and phase) become one message; a message keeps its phase
// (commentary or final_answer).
func assistantItems(m norm.AssistantMessage) ([]any, error) {
	withIDs := false
	for _, c := range m.Content {
		if t, ok := c.(norm.Thinking); ok && replayable(t) {
			withIDs = true
		}
	}
	var items []any
	var text strings.Builder
	itemID, phase, open := "", "", false
	flushText := func() {
		if open && text.Len() > 0 {
			items = append(items, messageItem(text.String(), itemID, phase, withIDs))
		}
		text.Reset()
		open = false
	}
	for _, c := range m.Content {
		switch c := c.(type) {
		case norm.Text:
			if open && (c.ItemID != itemID || c.Phase != phase) {
				flushText()
			}
			itemID, phase, open = c.ItemID, c.Phase, true
			text.WriteString(c.Text)
		case norm.Thinking:
			if !replayable(c) {
				continue // only a complete reasoning item can be replayed
			}
			flushText()
			summary := []any{}
			if c.Text != "" {
				summary = append(summary, map[string]any{"type": "summary_text", "text": c.Text})
			}
			items = append(items, map[string]any{"type": "reasoning", "id": c.ItemID, "summary": summary,
				"encrypted_content": string(c.Encrypted)})
		case norm.ToolCall:
			flushText()
			args := string(c.Arguments)
			if c.ArgumentsError != "" {
				args = "{}" // never executed; its result says why
			}
			item := map[string]any{"type": "function_call", "call_id": c.ID, "name": c.Name, "arguments": args}
			if withIDs && c.ItemID != "" {
				item["id"] = c.ItemID
			}
			items = append(items, item)
		case norm.Other:
			flushText()
			items = append(items, c.Raw)
		case norm.Image:
			return nil, fmt.Errorf("an assistant message cannot carry an image")
		}
	}
	flushText()
	return items, nil
}

// replayable reports whether a thinking block is a whole reasoning item.
func replayable(t norm.Thinking) bool { return len(t.Encrypted) > 0 && t.ItemID != "" }

// messageItem returns an assistant message item: the output message with
// its id when ids are sent, otherwise the plain role/content form.
func messageItem(text, id, phase string, withID bool) map[string]any {
	var item map[string]any
	if withID && id != "" {
		item = map[string]any{"type": "message", "role": "assistant", "id": id, "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	} else {
		item = map[string]any{"role": "assistant", "content": text}
	}
	if phase != "" {
		item["phase"] = phase // gpt-5.x tells commentary from the final answer
	}
	return item
}
