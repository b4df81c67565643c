package agent

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// fakeHandlers answers the events named in on with the actions of its
// function, and records every event it was given.
type fakeHandlers struct {
	mu   sync.Mutex
	seen []string
	on   map[string]func(ev protocol.Event, decision bool) (Outcome, error)
}

func (f *fakeHandlers) Wants(kind string) bool { _, ok := f.on[kind]; return ok }

func (f *fakeHandlers) Handle(ctx context.Context, ev protocol.Event, decision bool) (Outcome, error) {
	f.mu.Lock()
	f.seen = append(f.seen, brief(ev))
	f.mu.Unlock()
	return f.on[protocol.EventType(ev)](ev, decision)
}

// always returns the same actions for every event.
func always(actions ...Action) func(protocol.Event, bool) (Outcome, error) {
	return func(protocol.Event, bool) (Outcome, error) { return Outcome{Actions: actions}, nil }
}

// once returns the actions the first time only.
func once(actions ...Action) func(protocol.Event, bool) (Outcome, error) {
	var done atomic.Bool
	return func(protocol.Event, bool) (Outcome, error) {
		if done.Swap(true) {
			return Outcome{}, nil
		}
		return Outcome{Actions: actions}, nil
	}
}

type fakePublisher struct {
	got []Action
	err error
	to  *Target
}

func (p *fakePublisher) Publish(_ context.Context, as []Action) (*Target, error) {
	if p.err != nil {
		return nil, p.err
	}
	p.got = append(p.got, as...)
	return p.to, nil
}

func handlerAgent(t *testing.T, p model.Provider, h Handlers, pub Publisher, tools ...Tool) (*Agent, *memRecorder) {
	t.Helper()
	rec := &memRecorder{}
	a, err := New(Config{Provider: p, Model: "mock-model", Recorder: rec, Tools: tools, Handlers: h, Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	return a, rec
}

func notices(evs []protocol.Event) []string {
	var out []string
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

func countingTool(name string, n *atomic.Int32) *funcTool {
	return &funcTool{name: name, run: func(ctx context.Context, c *Call) (Result, error) {
		n.Add(1)
		return textResult("ran"), nil
	}}
}

const toolThenText = `{"mock_script":1,"responses":[
  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},
  {"text":"done"},
  {"text":"again"},
  {"text":"third"}]}`

// TestHandlerActionsApplyAtTheSafePoint: input a handler queues while the
// tool batch runs (at tool_execution_end) is delivered after the complete
// batch, never between a call and its result; handlers see the events in
// order.
func TestHandlerActionsApplyAtTheSafePoint(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"tool_execution_end": always(Action{Kind: ActionQueueInput, Plugin: "p", Text: "from the plugin"}),
		"turn_end":           always(),
	}}
	var ran atomic.Int32
	a, rec := handlerAgent(t, script(t, toolThenText), h, nil, countingTool("read", &ran))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	evs := drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	msgs := rec.messages()
	checkPairing(t, msgs)
	var got []string
	for _, m := range msgs {
		got = append(got, describe(m))
	}
	want := []string{"user go", "assistant tool_use", "tool_result c1 applied", "user from the plugin", "assistant end"}
	if !slices.Equal(got, want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
	if want := []string{"tool_execution_end c1 applied", "turn_end 1 results=1", "turn_end 2 results=0"}; !slices.Equal(h.seen, want) {
		t.Fatalf("handlers saw %q, want %q", h.seen, want)
	}
	if n := notices(evs); len(n) != 0 {
		t.Fatalf("notices %q", n)
	}
}

// TestHandlerCancelAppliesAtOnce: a cancel-run returned at
// tool_execution_start stops the run before the call runs; the reason
// names the plugin; queued input stays queued.
func TestHandlerCancelAppliesAtOnce(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"tool_execution_start": always(Action{Kind: ActionCancel, Plugin: "guard", Text: "enough"}, Action{Kind: ActionContinue, Plugin: "guard"}),
	}}
	var ran atomic.Int32
	a, _ := handlerAgent(t, script(t, toolThenText), h, nil, countingTool("read", &ran))
	a.FollowUp(model.UserText("later"))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	e := run.Wait()
	if e.Reason != protocol.EndAborted || !strings.Contains(e.Error, "cancelled by plugin guard: enough") {
		t.Fatalf("agent_end %+v", e)
	}
	if ran.Load() != 0 {
		t.Fatal("the call ran after the cancellation")
	}
	if _, follow := a.Queued(); len(follow) != 1 {
		t.Fatalf("the follow-up queue holds %d, want the input kept", len(follow))
	}
}

// TestHandlerConflictRejected: two handlers selecting different models at
// one boundary make the whole batch rejected with one warning naming
// both; nothing of it applies (not the queued input either), and the
// publisher is never asked.
func TestHandlerConflictRejected(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"turn_end": once(Action{Kind: ActionSelectModel, Plugin: "a", Model: "x/one"}, Action{Kind: ActionQueueInput, Plugin: "a", Text: "more"},
			Action{Kind: ActionSelectModel, Plugin: "b", Model: "x/two"}),
	}}
	pub := &fakePublisher{}
	p := script(t, toolThenText)
	a, rec := handlerAgent(t, p, h, pub, countingTool("read", &ran0))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	evs := drain(t, run)
	n := notices(evs)
	if len(n) != 1 || !strings.Contains(n[0], "plugins a and b selected different models (x/one, x/two)") || !strings.Contains(n[0], "none of the batch's actions was applied") {
		t.Fatalf("notices %q", n)
	}
	if len(pub.got) != 0 {
		t.Fatalf("published %+v", pub.got)
	}
	for _, m := range rec.messages() {
		if describe(m) == "user more" {
			t.Fatal("the rejected batch's input was delivered")
		}
	}
}

var ran0 atomic.Int32

// TestHandlerPublishes: a model selection goes to the publisher at the
// safe point; a publisher that refuses it rejects the batch whole.
func TestHandlerPublishes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		applied bool
	}{
		{name: "accepted", applied: true},
		{name: "refused", err: errors.New("model x/none is not in the catalog")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
				"turn_end": once(Action{Kind: ActionSelectModel, Plugin: "a", Model: "x/none"}, Action{Kind: ActionQueueInput, Plugin: "a", Text: "more", Delivery: "follow_up"}),
			}}
			pub := &fakePublisher{err: tc.err}
			a, rec := handlerAgent(t, script(t, toolThenText), h, pub, countingTool("read", &ran0))
			run, _ := a.Start(context.Background(), model.UserText("go"))
			evs := drain(t, run)
			delivered := slices.ContainsFunc(rec.messages(), func(m model.Message) bool { return describe(m) == "user more" })
			if delivered != tc.applied || (len(pub.got) == 1) != tc.applied {
				t.Fatalf("delivered %v, published %+v, notices %q", delivered, pub.got, notices(evs))
			}
			if !tc.applied && (len(notices(evs)) != 1 || !strings.Contains(notices(evs)[0], "not in the catalog")) {
				t.Fatalf("notices %q", notices(evs))
			}
		})
	}
}

// TestContinuationCoalesces: two handlers asking to continue at the
// boundary where the run would stop produce one more provider request,
// not two; a continuation where a tool follow-up already comes adds none.
func TestContinuationCoalesces(t *testing.T) {
	var turns atomic.Int32
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"turn_end": func(protocol.Event, bool) (Outcome, error) {
			if turns.Add(1) > 2 {
				return Outcome{}, nil
			}
			return Outcome{Actions: []Action{{Kind: ActionContinue, Plugin: "a"}, {Kind: ActionContinue, Plugin: "b"}}}, nil
		},
	}}
	p := script(t, toolThenText)
	a, _ := handlerAgent(t, p, h, nil, countingTool("read", &ran0))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	// Turn 1 calls a tool (its follow-up satisfies the continuation),
	// turn 2 would stop and continues once, turn 3 stops.
	if n := len(p.Requests()); n != 3 {
		t.Fatalf("%d provider requests, want 3", n)
	}
}

// TestContinuationDefeatedByStop: a continuation returned by a turn that
// ends the run (here a provider error) is overridden by the stop without
// a diagnostic, and the queued input stays.
func TestContinuationDefeatedByStop(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"turn_end": always(Action{Kind: ActionContinue, Plugin: "a"}),
	}}
	p := script(t, `{"mock_script":1,"responses":[{"error":{"kind":"overloaded","message":"busy"}},{"text":"never"}]}`)
	a, _ := handlerAgent(t, p, h, nil)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	a.FollowUp(model.UserText("later"))
	evs := drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndProviderError {
		t.Fatalf("agent_end %+v", e)
	}
	if len(p.Requests()) != 1 || len(notices(evs)) != 0 {
		t.Fatalf("%d requests, notices %q", len(p.Requests()), notices(evs))
	}
	if _, follow := a.Queued(); len(follow) != 1 {
		t.Fatal("the stop discarded the queued input")
	}
}

// TestRequiredDecisionFailure: a handler that must decide whether a call
// may run and fails ends the run (handler_failed) before the call runs,
// the call answered not_applied, and nothing the handlers returned
// earlier in the turn is applied.
func TestRequiredDecisionFailure(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"message_end": always(Action{Kind: ActionQueueInput, Plugin: "p", Text: "partial"}),
		"tool_execution_start": func(_ protocol.Event, decision bool) (Outcome, error) {
			if !decision {
				t.Error("tool_execution_start delivered without a decision")
			}
			return Outcome{Diagnostics: []string{"plugin policy: handler failed (trap); disabled for this generation"}}, errors.New("plugin policy could not decide")
		},
	}}
	var ran atomic.Int32
	a, rec := handlerAgent(t, script(t, toolThenText), h, nil, countingTool("read", &ran))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	evs := drain(t, run)
	e := run.Wait()
	if e.Reason != protocol.EndHandlerFailed || !strings.Contains(e.Error, "plugin policy could not decide") {
		t.Fatalf("agent_end %+v", e)
	}
	if ran.Load() != 0 {
		t.Fatal("the call ran without its decision")
	}
	msgs := rec.messages()
	checkPairing(t, msgs)
	if got := describe(msgs[len(msgs)-1]); got != "tool_result c1 not_applied" {
		t.Fatalf("last message %s", got)
	}
	if steer, follow := a.Queued(); len(steer)+len(follow) != 0 {
		t.Fatal("a partial action of the failed run was applied")
	}
	if n := notices(evs); len(n) != 1 || !strings.Contains(n[0], "disabled for this generation") {
		t.Fatalf("notices %q", n)
	}
}

// TestDenyCall: a deny-call decision answers the call with an error
// result the model reads, before any effect; the run goes on.
func TestDenyCall(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"tool_execution_start": always(Action{Kind: ActionDenyCall, Plugin: "policy", Text: "read is not allowed here"}),
	}}
	var ran atomic.Int32
	a, rec := handlerAgent(t, script(t, toolThenText), h, nil, countingTool("read", &ran))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndCompleted || ran.Load() != 0 {
		t.Fatalf("agent_end %+v, ran %d", e, ran.Load())
	}
	res := rec.messages()[2].(model.ToolResultMessage)
	if !res.IsError || res.Mutation != model.MutationNotApplied || !strings.Contains(model.TextOf(res.Content), "denied by plugin policy: read is not allowed here") {
		t.Fatalf("result %+v", res)
	}
}

// TestToolDeactivation: a tool deactivated at a boundary is not
// advertised to the next request, and a call to it fails before it runs.
func TestToolDeactivation(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"turn_end": once(Action{Kind: ActionSetTool, Plugin: "p", Tool: "read", Active: false}),
	}}
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},
	  {"tool_calls":[{"id":"c2","name":"read","arguments":{"path":"b"}}]},
	  {"text":"done"}]}`)
	var ran atomic.Int32
	a, rec := handlerAgent(t, p, h, nil, countingTool("read", &ran))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	reqs := p.Requests()
	if len(reqs) != 3 || len(reqs[0].Tools) != 1 || len(reqs[1].Tools) != 0 {
		t.Fatalf("%d requests; tools %d then %d", len(reqs), len(reqs[0].Tools), len(reqs[1].Tools))
	}
	if ran.Load() != 1 {
		t.Fatalf("the tool ran %d times, want once (before it was deactivated)", ran.Load())
	}
	msgs := rec.messages()
	if got := model.TextOf(msgs[4].(model.ToolResultMessage).Content); !strings.Contains(got, "deactivated for this run by plugin p") {
		t.Fatalf("second result %q", got)
	}
}

// TestSettledContinuationRejected: a continuation returned for a settled
// run is diagnosed (before settled, which stays the last event) and
// sends nothing; input queued at settlement stays for the next run.
func TestSettledContinuationRejected(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"settled": once(Action{Kind: ActionContinue, Plugin: "p"}),
	}}
	p := script(t, `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
	a, _ := handlerAgent(t, p, h, nil)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	evs := drain(t, run)
	if n := notices(evs); len(n) != 1 || !strings.Contains(n[0], "a settled run cannot be reopened") {
		t.Fatalf("notices %q", n)
	}
	if len(p.Requests()) != 1 {
		t.Fatalf("%d requests", len(p.Requests()))
	}

	h.on["settled"] = once(Action{Kind: ActionQueueInput, Plugin: "p", Text: "next", Delivery: "follow_up"})
	run, _ = a.Start(context.Background(), model.UserText("again"))
	drain(t, run)
	if _, follow := a.Queued(); len(follow) != 1 || len(p.Requests()) != 2 {
		t.Fatalf("follow-up %d, requests %d: the settled run's queued input must wait for a later run", len(follow), len(p.Requests()))
	}
}

// TestRunRequestedDuringSettledWaits: a run started while the settled
// handlers still run begins only after they finish.
func TestRunRequestedDuringSettledWaits(t *testing.T) {
	// entered is buffered: the first settled handler must not depend on
	// the test already waiting (under load it may not be).
	entered, release := make(chan struct{}, 1), make(chan struct{})
	var finished, first atomic.Bool
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"settled": func(protocol.Event, bool) (Outcome, error) {
			if !first.Swap(true) {
				entered <- struct{}{}
				<-release
				finished.Store(true)
			}
			return Outcome{}, nil
		},
	}}
	p := script(t, `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
	a, _ := handlerAgent(t, p, h, nil)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	go func() {
		for range run.Events() {
		}
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the settled handler was not called")
	}
	started := make(chan bool)
	go func() {
		r2, err := a.Start(context.Background(), model.UserText("second"))
		if err != nil {
			t.Error(err)
			started <- false
			return
		}
		started <- finished.Load()
		for range r2.Events() {
		}
	}()
	time.Sleep(20 * time.Millisecond)
	close(release)
	select {
	case after := <-started:
		if !after {
			t.Fatal("the second run started before the settled handlers finished")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second run never started")
	}
}

// TestContextPromptAndOutputActions: a context addition, a prompt
// replacement and an output bound returned at a boundary shape every
// later request of the run, and only that run.
func TestContextPromptAndOutputActions(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"turn_end": once(Action{Kind: ActionAddContext, Plugin: "p", Text: " The tests live in t/. "},
			Action{Kind: ActionReplacePrompt, Plugin: "p", Text: "You are terse."},
			Action{Kind: ActionAddContext, Plugin: "q", Text: "Answer in French."},
			Action{Kind: ActionLimitOutput, Plugin: "q", Limit: 500}),
	}}
	p := script(t, toolThenText)
	var ran atomic.Int32
	rec := &memRecorder{}
	a, err := New(Config{Provider: p, Model: "mock-model", System: "You are Smith.", Recorder: rec, Tools: []Tool{countingTool("read", &ran)}, Handlers: h})
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"go", "again"} {
		run, _ := a.Start(context.Background(), model.UserText(prompt))
		drain(t, run)
		if e := run.Wait(); e.Reason != protocol.EndCompleted {
			t.Fatalf("agent_end %+v", e)
		}
	}
	reqs := p.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if reqs[0].System != "You are Smith." || reqs[0].MaxOutputTokens != 0 {
		t.Errorf("first request: system %q, limit %d", reqs[0].System, reqs[0].MaxOutputTokens)
	}
	if want := "You are terse.\n\nThe tests live in t/.\n\nAnswer in French."; reqs[1].System != want || reqs[1].MaxOutputTokens != 500 {
		t.Errorf("after the actions: system %q, limit %d; want %q, 500", reqs[1].System, reqs[1].MaxOutputTokens, want)
	}
	if reqs[2].System != "You are Smith." || reqs[2].MaxOutputTokens != 0 {
		t.Errorf("the next run: system %q, limit %d; want the agent's own", reqs[2].System, reqs[2].MaxOutputTokens)
	}
	for _, m := range rec.messages() {
		if u, ok := m.(model.UserMessage); ok && strings.Contains(model.TextOf(u.Content), "French") {
			t.Error("a context addition was recorded as a message")
		}
	}
	h.on["settled"] = once(Action{Kind: ActionAddContext, Plugin: "late", Text: "too late"})
	run, _ := a.Start(context.Background(), model.UserText("third"))
	if n := notices(drain(t, run)); len(n) != 1 || !strings.Contains(n[0], "plugin late returned add-context for a run that has ended") {
		t.Fatalf("a context addition at settlement: notices %q", n)
	}
}

// TestHandlerInvalidActions: an action invalid where it was returned
// (deny-call outside a decision, empty input or context, a zero output
// bound, an unknown kind, a tool both activated and deactivated, two
// prompts or bounds) rejects its batch with a warning naming the plugin.
func TestHandlerInvalidActions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		actions []Action
		want    string
	}{
		{name: "deny outside a decision", actions: []Action{{Kind: ActionDenyCall, Plugin: "p"}}, want: "plugin p returned deny-call outside a tool_execution_start decision"},
		{name: "empty input", actions: []Action{{Kind: ActionQueueInput, Plugin: "p", Text: " "}}, want: "plugin p queued empty input"},
		{name: "bad delivery", actions: []Action{{Kind: ActionQueueInput, Plugin: "p", Text: "x", Delivery: "later"}}, want: `delivery "later"; use steer or follow_up`},
		{name: "unknown kind", actions: []Action{{Kind: "teleport", Plugin: "p"}}, want: `plugin p returned action "teleport"`},
		{name: "tool conflict", actions: []Action{{Kind: ActionSetTool, Plugin: "p", Tool: "read"}, {Kind: ActionSetTool, Plugin: "q", Tool: "read", Active: true}},
			want: "plugins p and q both changed tool read"},
		{name: "empty context", actions: []Action{{Kind: ActionAddContext, Plugin: "p", Text: "\n"}}, want: "plugin p returned add-context with no text"},
		{name: "zero limit", actions: []Action{{Kind: ActionLimitOutput, Plugin: "p"}}, want: "plugin p limited the output to 0 tokens"},
		{name: "prompt conflict", actions: []Action{{Kind: ActionReplacePrompt, Plugin: "p", Text: "a"}, {Kind: ActionReplacePrompt, Plugin: "q", Text: "b"}},
			want: "plugins p and q replaced the system prompt with different texts"},
		{name: "limit conflict", actions: []Action{{Kind: ActionLimitOutput, Plugin: "p", Limit: 10}, {Kind: ActionLimitOutput, Plugin: "q", Limit: 20}},
			want: "plugins p and q limited the output differently (10, 20 tokens)"},
		{name: "reload without a publisher", actions: []Action{{Kind: ActionReload, Plugin: "p"}}, want: "plugin p asked for reload-plugins, which this runtime does not apply"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){"turn_end": once(tc.actions...)}}
			a, _ := handlerAgent(t, script(t, `{"mock_script":1,"responses":[{"text":"one"}]}`), h, nil)
			run, _ := a.Start(context.Background(), model.UserText("go"))
			n := notices(drain(t, run))
			if len(n) != 1 || !strings.Contains(n[0], tc.want) {
				t.Fatalf("notices %q, want one containing %q", n, tc.want)
			}
		})
	}
}

// TestHandlersNotGivenUnwantedEvents: Wants filters every event (no
// handler sees message_update deltas it did not subscribe to), and the
// diagnostics a handler causes are not delivered back to handlers.
func TestHandlersNotGivenUnwantedEvents(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"notice":      always(Action{Kind: ActionCancel, Plugin: "loop"}),
		"message_end": func(protocol.Event, bool) (Outcome, error) { return Outcome{Diagnostics: []string{"d"}}, nil },
	}}
	a, _ := handlerAgent(t, script(t, `{"mock_script":1,"responses":[{"text":"one"}]}`), h, nil)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v: a handler's diagnostic reached the handlers", e)
	}
	for _, s := range h.seen {
		if !strings.HasPrefix(s, "message_end") {
			t.Fatalf("handlers saw %q", s)
		}
	}
}

// TestHandlerRetargetsTheRun: a model selection the publisher accepts
// sends the rest of the run's requests to its target; the next run goes
// to the agent's own provider again.
func TestHandlerRetargetsTheRun(t *testing.T) {
	h := &fakeHandlers{on: map[string]func(protocol.Event, bool) (Outcome, error){
		"turn_end": once(Action{Kind: ActionSelectModel, Plugin: "router", Model: "mock/other"}),
	}}
	other := script(t, `{"mock_script":1,"responses":[{"text":"from the other"}]}`)
	pub := &fakePublisher{to: &Target{Provider: other, Model: "other-model"}}
	own := script(t, toolThenText)
	a, rec := handlerAgent(t, own, h, pub, countingTool("read", &ran0))
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if len(own.Requests()) != 1 || len(other.Requests()) != 1 || other.Requests()[0].Model != "other-model" {
		t.Fatalf("own %d requests, other %d", len(own.Requests()), len(other.Requests()))
	}
	msgs := rec.messages()
	if got := model.TextOf(msgs[len(msgs)-1].(model.AssistantMessage).Content); got != "from the other" {
		t.Fatalf("last answer %q", got)
	}
	run, _ = a.Start(context.Background(), model.UserText("again"))
	drain(t, run)
	if len(own.Requests()) != 2 {
		t.Fatal("the next run did not go back to the agent's provider")
	}
}
