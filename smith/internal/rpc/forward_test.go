package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// TestEveryEventForwarded: every event of the vocabulary — the run, the
// messages and their deltas, tools, compaction, the queue, retries,
// failovers, model changes, plugin reloads and notices — becomes one notification line,
// in order, carrying the event exactly as protocol.MarshalEvent writes it.
func TestEveryEventForwarded(t *testing.T) {
	err := model.NewError(model.ErrOverloaded, "busy")
	evs := []protocol.Event{
		protocol.AgentStart{Seq: protocol.Seq{N: 1}, Run: 1},
		protocol.TurnStart{Seq: protocol.Seq{N: 2}, Turn: 1},
		protocol.MessageStart{Seq: protocol.Seq{N: 3}, Message: model.AssistantMessage{}},
		protocol.MessageUpdate{Seq: protocol.Seq{N: 4}, Delta: model.TextDelta{Text: "hi"}},
		protocol.MessageEnd{Seq: protocol.Seq{N: 5}, Message: model.AssistantMessage{Content: []model.Content{model.Text{Text: "hi"}}, Stop: model.StopEnd}},
		protocol.ToolExecutionStart{Seq: protocol.Seq{N: 6}, CallID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)},
		protocol.ToolExecutionUpdate{Seq: protocol.Seq{N: 7}, CallID: "c1", Name: "bash", Partial: []model.Content{model.Text{Text: "a"}}},
		protocol.ToolExecutionEnd{Seq: protocol.Seq{N: 8}, CallID: "c1", Name: "bash", Result: model.ToolResultMessage{CallID: "c1", Name: "bash"}},
		protocol.TurnEnd{Seq: protocol.Seq{N: 9}, Turn: 1},
		protocol.CompactionStart{Seq: protocol.Seq{N: 10}, Reason: "threshold"},
		protocol.CompactionEnd{Seq: protocol.Seq{N: 11}},
		protocol.QueueUpdate{Seq: protocol.Seq{N: 12}, Steer: []model.UserMessage{}, FollowUp: []model.UserMessage{model.UserText("x")}},
		protocol.ProviderRetry{Seq: protocol.Seq{N: 13}, Target: "a/b", Attempt: 1, Error: err, WaitMillis: 500},
		protocol.ProviderFailover{Seq: protocol.Seq{N: 14}, From: "a/b", To: "c/d", Error: err},
		protocol.ModelChange{Seq: protocol.Seq{N: 15}, Model: "fast"},
		protocol.PluginsReloaded{Seq: protocol.Seq{N: 15}, Generation: 2, Previous: 1, Plugins: []string{"tools"}},
		protocol.Notice{Seq: protocol.Seq{N: 16}, Level: protocol.NoticeWarning, Text: "careful"},
		protocol.ConfirmationRequest{Seq: protocol.Seq{N: 17}, ID: "q1", Plugin: "permissions", Prompt: "Run `bash`?", TimeoutMillis: 1000},
		protocol.ConfirmationEnd{Seq: protocol.Seq{N: 18}, ID: "q1", Outcome: protocol.ConfirmNoUser},
		protocol.AgentEnd{Seq: protocol.Seq{N: 19}, Reason: protocol.EndCompleted, Cost: model.Unknown()},
		protocol.Settled{Seq: protocol.Seq{N: 20}},
	}
	var typs []string
	for _, ev := range evs {
		typs = append(typs, protocol.EventType(ev))
	}
	if !slices.Equal(typs, protocol.EventTypes) {
		t.Fatalf("the test covers %v; the vocabulary is %v", typs, protocol.EventTypes)
	}
	ch := make(chan protocol.Event, len(evs))
	for _, ev := range evs {
		ch <- ev
	}
	close(ch)
	var buf bytes.Buffer
	out := newLineWriter(&buf)
	f := forwardEvents(ch, func() {}, out, t.Logf)
	<-f.done
	if err := out.close(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&buf)
	i := 0
	for ; sc.Scan(); i++ {
		want, _ := protocol.MarshalEvent(evs[i])
		if got := sc.Text(); got != `{"jsonrpc":"2.0","method":"event","params":`+string(want)+`}` {
			t.Fatalf("line %d = %s\nwant the notification of %s", i, got, want)
		}
	}
	if i != len(evs) {
		t.Fatalf("%d lines for %d events", i, len(evs))
	}
}
