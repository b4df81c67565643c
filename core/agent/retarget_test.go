package agent

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// requestLog answers like pricedProvider and keeps each request.
type requestLog struct {
	mu   sync.Mutex
	reqs []model.Request
	gate chan struct{} // when set, the stream waits for it
}

func (p *requestLog) Stream(ctx context.Context, req *model.Request) model.Stream {
	p.mu.Lock()
	p.reqs = append(p.reqs, *req)
	p.mu.Unlock()
	if p.gate != nil {
		<-p.gate
	}
	return pricedProvider{cost: model.Known(1)}.Stream(ctx, req)
}

// TestRetarget: a retargeted agent sends its next request to the new
// provider, with the new model id and system prompt and the whole history;
// while a run is active Retarget is refused.
func TestRetarget(t *testing.T) {
	first, second := &requestLog{gate: make(chan struct{})}, &requestLog{}
	a := newAgent(t, first, &memRecorder{})
	run, err := a.Start(context.Background(), model.UserText("one"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Retarget(second, "m2", "be thorough"); !errors.Is(err, ErrRunActive) {
		t.Fatalf("Retarget during a run = %v, want ErrRunActive", err)
	}
	close(first.gate)
	drain(t, run)
	if err := a.Retarget(second, "m2", "be thorough"); err != nil {
		t.Fatal(err)
	}
	if a.Active() {
		t.Fatal("Active after the run settled")
	}
	drain(t, mustStart(t, a, "two"))
	if len(first.reqs) != 1 || len(second.reqs) != 1 {
		t.Fatalf("requests: %d to the first provider, %d to the second", len(first.reqs), len(second.reqs))
	}
	r := second.reqs[0]
	if r.Model != "m2" || r.System != "be thorough" || len(r.Messages) != 3 {
		t.Errorf("second request: model %q, system %q, %d messages; want m2, the new prompt and the history of 3", r.Model, r.System, len(r.Messages))
	}
	if err := a.Retarget(nil, "m3", ""); err == nil {
		t.Error("Retarget(nil) succeeded")
	}
}

func mustStart(t *testing.T, a *Agent, prompt string) *Run {
	t.Helper()
	run, err := a.Start(context.Background(), model.UserText(prompt))
	if err != nil {
		t.Fatal(err)
	}
	return run
}
