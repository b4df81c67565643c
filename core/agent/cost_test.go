package agent

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// pricedProvider answers every request with one text block and a stop
// whose usage carries cost.
type pricedProvider struct{ cost model.Amount }

func (p pricedProvider) Stream(context.Context, *model.Request) model.Stream {
	return &eventStream{evs: []model.StreamEvent{
		model.Start{Provider: "priced", Model: "m"},
		model.TextDelta{Index: 0, Text: "ok"},
		model.Done{Reason: model.StopEnd, Usage: model.Usage{Input: model.Known(10), Output: model.Known(2), CostNanoUSD: p.cost}},
	}}
}

type eventStream struct{ evs []model.StreamEvent }

func (s *eventStream) Next() (model.StreamEvent, bool) {
	if len(s.evs) == 0 {
		return nil, false
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, true
}

func (s *eventStream) Close() error { return nil }

// TestAgentEndCost: agent_end carries the cost of the whole conversation,
// earlier history included, and an unknown message cost makes it unknown.
func TestAgentEndCost(t *testing.T) {
	earlier := model.AssistantMessage{Content: []model.Content{model.Text{Text: "before"}}, Stop: model.StopEnd,
		Usage: model.Usage{CostNanoUSD: model.Known(1000)}}
	tests := []struct {
		name    string
		history []model.Message
		cost    model.Amount
		want    model.Amount
	}{
		{"fresh", nil, model.Known(250), model.Known(250)},
		{"continued", []model.Message{model.UserText("hi"), earlier}, model.Known(250), model.Known(1250)},
		{"unpriced", []model.Message{model.UserText("hi"), earlier}, model.Unknown(), model.Unknown()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := New(Config{Provider: pricedProvider{tt.cost}, Model: "m", Recorder: &memRecorder{}, History: tt.history})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the total grows run by run
				r, err := a.Start(context.Background(), model.UserText("go"))
				if err != nil {
					t.Fatal(err)
				}
				drain(t, r)
				end := r.Wait()
				if end.Cost != tt.want {
					t.Fatalf("agent_end cost = %v, want %v", end.Cost, tt.want)
				}
				tt.want = tt.want.Add(tt.cost)
			}
		})
	}
}
