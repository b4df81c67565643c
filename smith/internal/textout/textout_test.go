package textout

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

func TestWriter(t *testing.T) {
	long := strings.Repeat("line\n", 20)
	tests := []struct {
		name   string
		events []protocol.Event
		want   string
	}{
		{name: "streamed text ends its line", events: []protocol.Event{
			protocol.MessageUpdate{Delta: model.TextDelta{Text: "Hello "}},
			protocol.MessageUpdate{Delta: model.TextDelta{Text: "there"}},
			protocol.AgentEnd{Reason: protocol.EndCompleted},
		}, want: "Hello there\n"},
		{name: "tool call and result", events: []protocol.Event{
			protocol.MessageUpdate{Delta: model.TextDelta{Text: "Reading."}},
			protocol.ToolExecutionStart{Name: "read", Arguments: json.RawMessage(`{"path":"a"}`)},
			protocol.ToolExecutionEnd{Result: model.ToolResultMessage{Content: []model.Content{model.Text{Text: "x\ny\n"}}}},
		}, want: "Reading.\n→ read {\"path\":\"a\"}\n  x\n  y\n"},
		{name: "long result is cut", events: []protocol.Event{
			protocol.ToolExecutionEnd{Result: model.ToolResultMessage{Content: []model.Content{model.Text{Text: long}}}},
		}, want: strings.Repeat("  line\n", resultLines) + "  … 8 more lines\n"},
		{name: "error result and abnormal end", events: []protocol.Event{
			protocol.ToolExecutionEnd{Result: model.ToolResultMessage{IsError: true, Content: []model.Content{model.Text{Text: "no such file"}}}},
			protocol.MessageEnd{Message: model.AssistantMessage{Error: &model.Error{Kind: model.ErrOverloaded, Message: "busy"}}},
			protocol.AgentEnd{Reason: protocol.EndProviderError},
		}, want: "  error: no such file\nmodel error (overloaded): busy\n[run ended: provider_error]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			w := &Writer{W: &b}
			for _, ev := range tt.events {
				if err := w.Event(ev); err != nil {
					t.Fatal(err)
				}
			}
			if b.String() != tt.want {
				t.Fatalf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}
