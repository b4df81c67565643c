package provider

import (
	"encoding/json"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestBlocksToolCallArguments: a tool call's arguments travel as their
// exact text, except a call whose arguments were not valid JSON (never
// run), which goes back with none.
func TestBlocksToolCallArguments(t *testing.T) {
	for _, tt := range []struct {
		name string
		call model.ToolCall
		want string
	}{
		{name: "exact text", call: model.ToolCall{ID: "c1", Name: "read", Arguments: json.RawMessage(`{ "path" : "a" }`)}, want: `{ "path" : "a" }`},
		{name: "invalid arguments", call: model.ToolCall{ID: "c2", Name: "read", Arguments: json.RawMessage(`"{\"path\": "`),
			ArgumentsError: "the arguments were cut off before the tool call ended"}, want: "{}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := blocks([]model.Content{tt.call})
			if len(got) != 1 || got[0].Type != "tool_call" || got[0].ArgumentsText != tt.want || got[0].ID != tt.call.ID {
				t.Errorf("blocks = %+v; want one tool_call with arguments_text %q", got, tt.want)
			}
		})
	}
}
