package agent

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// noticeProvider's stream reports a retry and a failover before its
// answer, as core/route does.
type noticeProvider struct{}

func (noticeProvider) Stream(context.Context, *model.Request) model.Stream {
	busy := &model.Error{Kind: model.ErrOverloaded, Message: "busy", Retryable: true}
	return &eventStream{evs: []model.StreamEvent{
		model.Retrying{Target: "p/a", Attempt: 1, Err: busy, Wait: 1500 * time.Millisecond},
		model.FailingOver{From: "p/a", To: "q/b", Err: busy},
		model.Note{Text: "the image was replaced: q/b takes no images"},
		model.Start{Provider: "q", Model: "b"},
		model.TextDelta{Index: 0, Text: "ok"},
		model.Done{Reason: model.StopEnd},
	}}
}

// TestRoutingNoticesBecomeEvents: retry, failover and admission notices
// are emitted as provider_retry, provider_failover and notice inside the
// assistant message,
// in stream order, and never reach its content.
func TestRoutingNoticesBecomeEvents(t *testing.T) {
	rec := &memRecorder{}
	a := newAgent(t, noticeProvider{}, rec)
	run, err := a.Start(context.Background(), model.UserText("hi"))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	var retry protocol.ProviderRetry
	var failover protocol.ProviderFailover
	for _, ev := range drain(t, run) {
		types = append(types, protocol.EventType(ev))
		switch e := ev.(type) {
		case protocol.ProviderRetry:
			retry = e
		case protocol.ProviderFailover:
			failover = e
		}
	}
	want := []string{"agent_start", "turn_start", "message_start", "message_end", "message_start", "provider_retry", "provider_failover", "notice",
		"message_update", "message_update", "message_end", "turn_end", "agent_end", "settled"}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("events %v\nwant   %v", types, want)
	}
	if retry.Target != "p/a" || retry.Attempt != 1 || retry.WaitMillis != 1500 || retry.Error.Kind != model.ErrOverloaded {
		t.Errorf("provider_retry %+v", retry)
	}
	if failover.From != "p/a" || failover.To != "q/b" {
		t.Errorf("provider_failover %+v", failover)
	}
	msgs := rec.messages()
	answer := msgs[len(msgs)-1].(model.AssistantMessage)
	if !reflect.DeepEqual(answer.Content, []model.Content{model.Text{Text: "ok"}}) || answer.Provider != "q" {
		t.Errorf("recorded answer %#v", answer)
	}
}
