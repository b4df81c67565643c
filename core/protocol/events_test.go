package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// samples holds one event of every variant with every field set, in the
// order of EventTypes.
func samples() []Event {
	usage := model.Usage{Input: model.Known(10), Output: model.Known(5), CacheRead: model.Known(2), CacheWrite: model.Unknown(),
		Reasoning: model.Known(1), CostNanoUSD: model.Known(1234)}
	result := model.ToolResultMessage{CallID: "call_1", Name: "read", Content: []model.Content{model.Text{Text: "hi"}}, Mutation: model.MutationApplied}
	answer := model.AssistantMessage{Content: []model.Content{model.Text{Text: "ok"}, model.ToolCall{ID: "call_1", Name: "read", Arguments: json.RawMessage(`{"path":"a"}`)}},
		Provider: "anthropic", Model: "claude", ResponseID: "msg_1", Stop: model.StopToolUse, Usage: usage}
	rate := &model.Error{Kind: model.ErrRateLimit, Message: "slow down", Retryable: true, RetryAfterMillis: 2000, HTTPStatus: 429, RequestID: "req_1"}
	return []Event{
		AgentStart{Seq: Seq{N: 1}, Run: 1},
		TurnStart{Seq: Seq{N: 2}, Turn: 1},
		MessageStart{Seq: Seq{N: 3}, Message: model.UserText("read a")},
		MessageUpdate{Seq: Seq{N: 4}, Delta: model.TextDelta{Index: 0, Text: "ok"}},
		MessageEnd{Seq: Seq{N: 5}, Message: answer},
		ToolExecutionStart{Seq: Seq{N: 6}, CallID: "call_1", Name: "read", Arguments: json.RawMessage(`{"path":"a"}`)},
		ToolExecutionUpdate{Seq: Seq{N: 7}, CallID: "call_1", Name: "read", Partial: []model.Content{model.Text{Text: "h"}}},
		ToolExecutionEnd{Seq: Seq{N: 8}, CallID: "call_1", Name: "read", Result: result},
		TurnEnd{Seq: Seq{N: 9}, Turn: 1, Message: answer, ToolResults: []model.ToolResultMessage{result}},
		CompactionStart{Seq: Seq{N: 10}, Reason: "threshold"},
		CompactionEnd{Seq: Seq{N: 11}, Error: "the summary was cut off", CompactResult: CompactResult{Reason: CompactThreshold,
			Entry: "01JCOMPACTION0000000000000", Summarized: 40, Kept: 6, TokensBefore: 150000, TokensAfter: 21000, SummaryBytes: 4096, Usage: usage}},
		QueueUpdate{Seq: Seq{N: 12}, Steer: []model.UserMessage{model.UserText("stop")}, FollowUp: []model.UserMessage{}},
		ProviderRetry{Seq: Seq{N: 13}, Target: "anthropic/claude", Attempt: 1, Error: rate, WaitMillis: 2000},
		ProviderFailover{Seq: Seq{N: 14}, From: "anthropic/claude", To: "openai/gpt-5", Error: rate},
		ModelChange{Seq: Seq{N: 15}, Model: "fast", Thinking: "high"},
		PluginsReloaded{Seq: Seq{N: 15}, Generation: 3, Previous: 2, Plugins: []string{"tools", "product", "shout"}, Deferred: 1},
		Notice{Seq: Seq{N: 16}, Level: NoticeWarning, Text: "AGENTS.md was cut at 32 KiB", Plugin: "notes"},
		ConfirmationRequest{Seq: Seq{N: 17}, ID: "q1", Plugin: "permissions", CallID: "handler:tool_execution_start",
			Prompt: "May bash run `git push`?", TimeoutMillis: 600000},
		ConfirmationEnd{Seq: Seq{N: 18}, ID: "q1", Outcome: ConfirmAnswered, Answer: true},
		AgentEnd{Seq: Seq{N: 19}, Reason: EndProviderError, Error: "model: overloaded: busy", Cost: model.Known(1234)},
		Settled{Seq: Seq{N: 20}},
	}
}

// TestEveryEventRoundTrips: each variant encodes with its type first,
// decodes to an equal value, and EventTypes lists the variants in order.
func TestEveryEventRoundTrips(t *testing.T) {
	evs := samples()
	if len(evs) != len(EventTypes) {
		t.Fatalf("%d samples for %d event types", len(evs), len(EventTypes))
	}
	for i, ev := range evs {
		t.Run(EventTypes[i], func(t *testing.T) {
			if got := EventType(ev); got != EventTypes[i] {
				t.Fatalf("EventType = %q; EventTypes[%d] = %q", got, i, EventTypes[i])
			}
			b, err := MarshalEvent(ev)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte(`{"type":"`+EventTypes[i]+`",`)) || bytes.ContainsRune(b, '\n') {
				t.Fatalf("encoding %s: want one line starting with its type", b)
			}
			back, err := UnmarshalEvent(b)
			if err != nil {
				t.Fatalf("decode %s: %v", b, err)
			}
			if !reflect.DeepEqual(back, ev) {
				t.Fatalf("round trip of %s:\n got %#v\nwant %#v", b, back, ev)
			}
			if back.Sequence() != ev.Sequence() {
				t.Fatalf("Sequence = %d", back.Sequence())
			}
		})
	}
}

func TestMarshalEventRefusesNil(t *testing.T) {
	if _, err := MarshalEvent(nil); err == nil {
		t.Fatal("MarshalEvent(nil) succeeded")
	}
}

func TestParseDelivery(t *testing.T) {
	tests := []struct {
		name, in string
		want     Delivery
		err      bool
	}{
		{name: "empty is prompt", in: "", want: DeliverPrompt},
		{name: "steer", in: "steer", want: DeliverSteer},
		{name: "follow up", in: "follow_up", want: DeliverFollowUp},
		{name: "unknown", in: "later", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDelivery(tt.in)
			if (err != nil) != tt.err || got != tt.want {
				t.Fatalf("ParseDelivery(%q) = %q, %v", tt.in, got, err)
			}
		})
	}
}

func TestCommandResultRoundTrips(t *testing.T) {
	in := CommandResult{Content: []model.Content{model.Text{Text: "done"}}, Prompt: "write AGENTS.md"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out CommandResult
	if err := json.Unmarshal(b, &out); err != nil || !reflect.DeepEqual(out, in) {
		t.Fatalf("round trip of %s = %#v, %v", b, out, err)
	}
}
