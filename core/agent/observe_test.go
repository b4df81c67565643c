package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// TestObserveBetweenRuns: an event of the session between runs reaches
// the handlers that want it; input they queue waits for the next run;
// what only a run can take (a continuation, a cancel) is refused with a
// warning returned for the caller to publish; an event nobody wants
// costs nothing; during a run Observe defers to the run's boundary.
func TestObserveBetweenRuns(t *testing.T) {
	ctx := context.Background()
	change := protocol.ModelChange{Model: "mock/other"}
	tests := []struct {
		name    string
		actions []Action
		warn    string // the one event returned must be a warning containing this; "" for none
		follow  int    // follow-ups queued
	}{
		{name: "queue", actions: []Action{{Kind: ActionQueueInput, Plugin: "p", Text: "summarise the change", Delivery: "follow_up"}}, follow: 1},
		{name: "continue", actions: []Action{{Kind: ActionContinue, Plugin: "p"}}, warn: "a settled run cannot be reopened"},
		{name: "context", actions: []Action{{Kind: ActionAddContext, Plugin: "p", Text: "x"}}, warn: "for a run that has ended"},
		{name: "cancel", actions: []Action{{Kind: ActionCancel, Plugin: "p", Text: "stop"}}, warn: "no run is active, so nothing was cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){"model_change": always(tt.actions...)}}
			p := script(t, `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
			a, _ := handlerAgent(t, p, h, nil)
			out, err := a.Observe(ctx, change)
			if err != nil {
				t.Fatal(err)
			}
			switch n := notices(out); {
			case tt.warn == "" && len(out) != 0:
				t.Fatalf("events %v, want none", out)
			case tt.warn != "" && (len(n) != 1 || !strings.Contains(n[0], tt.warn)):
				t.Fatalf("notices %q, want one containing %q", n, tt.warn)
			}
			if _, follow := a.Queued(); len(follow) != tt.follow {
				t.Fatalf("%d follow-ups queued, want %d", len(follow), tt.follow)
			}
			if len(p.Requests()) != 0 {
				t.Fatal("handling an event between runs sent a request")
			}
		})
	}
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){"model_change": always(Action{Kind: ActionCancel, Plugin: "p"})}}
	a, _ := handlerAgent(t, script(t, `{"mock_script":1,"responses":[{"text":"one"}]}`), h, nil)
	if out, err := a.Observe(ctx, protocol.Notice{Text: "n"}); err != nil || out != nil {
		t.Fatalf("an event no handler wants: %v, %v", out, err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	block := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		close(started)
		<-release
		return textResult("ran"), nil
	}}
	a, _ = handlerAgent(t, script(t, toolThenText), h, nil, block)
	run, _ := a.Start(ctx, model.UserText("go"))
	go func() {
		<-started
		if _, err := a.Observe(ctx, change); !errors.Is(err, ErrRunActive) {
			t.Errorf("Observe during a run: %v, want ErrRunActive", err)
		}
		close(release)
	}()
	drain(t, run)
}
