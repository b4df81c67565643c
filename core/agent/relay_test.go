package agent

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// relayHandlers relays a notice from its tool_execution_start decision.
type relayHandlers struct{ relayed bool }

func (h *relayHandlers) Wants(kind string) bool { return kind == "tool_execution_start" }

func (h *relayHandlers) Handle(ctx context.Context, ev protocol.Event, _ bool) (Outcome, error) {
	h.relayed = Relay(ctx, func(s protocol.Seq) protocol.Event {
		return protocol.Notice{Seq: s, Level: protocol.NoticeInfo, Text: "from the handler", Plugin: "h"}
	})
	return Outcome{}, nil
}

// TestRelay: what a handler and a tool relay during a call is emitted on
// the run in order, with the run's sequence numbers (drain checks they
// increase); outside a run Relay reports false.
func TestRelay(t *testing.T) {
	relayed := false
	tool := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		relayed = Relay(ctx, func(s protocol.Seq) protocol.Event {
			return protocol.Notice{Seq: s, Level: protocol.NoticeWarning, Text: "from the tool", Plugin: "t"}
		})
		return textResult("ok"), nil
	}}
	h := &relayHandlers{}
	a, _ := handlerAgent(t, script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},{"text":"done"}]}`), h, nil, tool)
	run, err := a.Start(context.Background(), model.UserText("go"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range drain(t, run) {
		switch e := ev.(type) {
		case protocol.Notice:
			got = append(got, e.Plugin+": "+e.Text)
		case protocol.ToolExecutionStart, protocol.ToolExecutionEnd:
			got = append(got, brief(ev))
		}
	}
	wantLines(t, got, "tool_execution_start c1", "h: from the handler", "t: from the tool", "tool_execution_end c1 applied")
	if !relayed || !h.relayed {
		t.Fatalf("Relay reported %v from the tool, %v from the handler", relayed, h.relayed)
	}
	if Relay(context.Background(), func(s protocol.Seq) protocol.Event { return protocol.Settled{Seq: s} }) {
		t.Fatal("Relay outside a run reported true")
	}
}
