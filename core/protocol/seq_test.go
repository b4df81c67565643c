package protocol

import (
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// TestNumberedCoversEveryEvent: every event type gets the number given.
func TestNumberedCoversEveryEvent(t *testing.T) {
	evs := []Event{AgentStart{}, TurnStart{}, MessageStart{}, MessageUpdate{}, MessageEnd{}, ToolExecutionStart{},
		ToolExecutionUpdate{}, ToolExecutionEnd{}, TurnEnd{}, CompactionStart{}, CompactionEnd{}, QueueUpdate{},
		ProviderRetry{}, ProviderFailover{}, ModelChange{}, Notice{}, AgentEnd{}, Settled{}}
	seen := map[string]bool{}
	for _, ev := range evs {
		name := EventType(ev)
		if name == "" || seen[name] {
			t.Fatalf("%T: no event type, or listed twice", ev)
		}
		seen[name] = true
		if got := Numbered(ev, 42).Sequence(); got != 42 {
			t.Errorf("Numbered(%s, 42) has sequence number %d", name, got)
		}
	}
}

func TestRoutingEvent(t *testing.T) {
	tests := []struct {
		name string
		in   model.StreamEvent
		want string // the event type; "" for provider output
	}{
		{name: "retry", in: model.Retrying{Target: "a", Attempt: 2, Wait: time.Second}, want: "provider_retry"},
		{name: "failover", in: model.FailingOver{From: "a", To: "b"}, want: "provider_failover"},
		{name: "note", in: model.Note{Text: "image replaced"}, want: "notice"},
		{name: "output", in: model.TextDelta{Text: "hi"}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, ok := RoutingEvent(tt.in, 7)
			if (tt.want != "") != ok {
				t.Fatalf("RoutingEvent = %v, %v", ev, ok)
			}
			if ok && (EventType(ev) != tt.want || ev.Sequence() != 7) {
				t.Fatalf("RoutingEvent = %s #%d, want %s #7", EventType(ev), ev.Sequence(), tt.want)
			}
		})
	}
	if ev, _ := RoutingEvent(model.Retrying{Wait: 1500 * time.Millisecond}, 1); ev.(ProviderRetry).WaitMillis != 1500 {
		t.Errorf("the wait is %d ms, want 1500", ev.(ProviderRetry).WaitMillis)
	}
	if ev, _ := RoutingEvent(model.Note{Text: "waiting", Progress: true}, 1); ev.(Notice).Level != NoticeInfo {
		t.Errorf("a progress note is %s, want info", ev.(Notice).Level)
	}
}
