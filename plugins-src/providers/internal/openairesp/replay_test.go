package openairesp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

func TestAssistantItems(t *testing.T) {
	reasoning := norm.Thinking{Text: "Plan.", Encrypted: []byte("enc"), ItemID: "rs_1", Producer: "openai"}
	call := norm.ToolCall{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"location":"Florence"}`), ItemID: "fc_1"}
	wantReasoning := map[string]any{"type": "reasoning", "id": "rs_1", "encrypted_content": "enc",
		"summary": []any{map[string]any{"type": "summary_text", "text": "Plan."}}}
	wantCall := func(withID bool) map[string]any {
		m := map[string]any{"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": `{"location":"Florence"}`}
		if withID {
			m["id"] = "fc_1"
		}
		return m
	}
	outputMessage := func(id, phase, text string) map[string]any {
		m := map[string]any{"type": "message", "role": "assistant", "id": id, "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
		if phase != "" {
			m["phase"] = phase
		}
		return m
	}
	tests := []struct {
		name    string
		content []norm.Content
		want    []any
	}{
		{name: "replayed reasoning carries the message and call item ids",
			content: []norm.Content{reasoning, norm.Text{Text: "Checking.", ItemID: "msg_1", Phase: "commentary"}, call},
			want:    []any{wantReasoning, outputMessage("msg_1", "commentary", "Checking."), wantCall(true)}},
		{name: "without replayable reasoning no item ids are sent",
			content: []norm.Content{norm.Thinking{Text: "Plan.", ItemID: "rs_1"}, norm.Text{Text: "Checking.", ItemID: "msg_1", Phase: "commentary"}, call},
			want:    []any{map[string]any{"role": "assistant", "content": "Checking.", "phase": "commentary"}, wantCall(false)}},
		{name: "text blocks of one item are one message; another item or phase starts a new one",
			content: []norm.Content{reasoning,
				norm.Text{Text: "a", ItemID: "msg_1", Phase: "commentary"}, norm.Text{Text: "b", ItemID: "msg_1", Phase: "commentary"},
				norm.Text{Text: "c", ItemID: "msg_2", Phase: "final_answer"}},
			want: []any{wantReasoning, outputMessage("msg_1", "commentary", "ab"), outputMessage("msg_2", "final_answer", "c")}},
		{name: "a text block without an item id stays a plain message",
			content: []norm.Content{reasoning, norm.Text{Text: "x"}},
			want:    []any{wantReasoning, map[string]any{"role": "assistant", "content": "x"}}},
		{name: "other items go back verbatim",
			content: []norm.Content{norm.Other{Type: "web_search_call", Raw: json.RawMessage(`{"type":"web_search_call","id":"ws_1","status":"completed"}`)}},
			want:    []any{map[string]any{"type": "web_search_call", "id": "ws_1", "status": "completed"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &norm.Request{Model: "gpt-5", Messages: []norm.Message{norm.AssistantMessage{Provider: "openai", Model: "gpt-5", Content: tc.content}}}
			h, err := BuildRequest(r, "OPENAI_API_KEY")
			if err != nil {
				t.Fatal(err)
			}
			var body struct{ Input []any }
			if err := json.Unmarshal(h.Body, &body); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(body.Input, tc.want) {
				got, _ := json.Marshal(body.Input)
				want, _ := json.Marshal(tc.want)
				t.Errorf("input items\n%s\nwant\n%s", got, want)
			}
		})
	}
}
