package agent

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

type panicProvider struct{}

func (panicProvider) Stream(context.Context, *model.Request) model.Stream { return panicStream{} }

type panicStream struct{}

func (panicStream) Next() (model.StreamEvent, bool) { panic("codec bug") }
func (panicStream) Close() error                    { return nil }

func TestProviderPanicFailsTheStream(t *testing.T) {
	run, _ := newAgent(t, panicProvider{}, &memRecorder{}).Start(context.Background(), model.UserText("go"))
	drain(t, run)
	end := run.Wait()
	if end.Reason != protocol.EndProviderError || end.Error != "model: malformed: the provider panicked: codec bug" {
		t.Fatalf("end = %+v", end)
	}
}

// TestQueueHammer enqueues from many goroutines while a tool-using run
// proceeds: every message is delivered exactly once or is still queued,
// never duplicated or lost, and the session stays paired.
func TestQueueHammer(t *testing.T) {
	responses := ""
	for i := range 20 {
		responses += fmt.Sprintf(`{"tool_calls":[{"id":"c%d","name":"read","arguments":{"path":"a"}}]},`, i)
	}
	for range 200 {
		responses += `{"text":"ok"},`
	}
	p := script(t, `{"mock_script":1,"responses":[`+responses[:len(responses)-1]+`]}`)
	tool := &funcTool{name: "read", run: func(context.Context, *Call) (Result, error) { return textResult("x"), nil }}
	rec := &memRecorder{}
	a := newAgent(t, p, rec, tool)
	run, err := a.Start(context.Background(), model.UserText("go"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	const senders, each = 4, 25
	for g := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := model.UserText(fmt.Sprintf("m-%d-%d", g, i))
				if i%2 == 0 {
					a.Steer(m)
				} else {
					a.FollowUp(m)
				}
			}
		}()
	}
	evs := drain(t, run)
	wg.Wait()
	checkRunInvariants(t, evs)
	checkPairing(t, rec.messages())
	seen := map[string]int{}
	for _, m := range a.Messages() {
		if u, ok := m.(model.UserMessage); ok {
			seen[u.Content[0].(model.Text).Text]++
		}
	}
	steer, follow := a.Queued()
	for _, u := range append(steer, follow...) {
		seen[u.Content[0].(model.Text).Text]++
	}
	for g := range senders {
		for i := range each {
			if n := seen[fmt.Sprintf("m-%d-%d", g, i)]; n != 1 {
				t.Fatalf("message m-%d-%d seen %d times", g, i, n)
			}
		}
	}
}
