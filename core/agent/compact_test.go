package agent

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// fakeCompactor compacts on the turns listed in due (1-based requests),
// replacing the history with a summary message and its last message;
// during calls it runs during (queuing input, say); fail makes it fail.
type fakeCompactor struct {
	mu      sync.Mutex
	due     map[int]bool
	checks  int
	reasons []string
	during  func()
	fail    string
	prior   model.Amount
}

func (f *fakeCompactor) Due(req *model.Request, notify func(protocol.Event)) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checks++
	return f.due[f.checks]
}

func (f *fakeCompactor) Compact(ctx context.Context, reason string, history []model.Message, notify func(protocol.Event)) ([]model.Message, protocol.CompactionEnd) {
	f.mu.Lock()
	f.reasons = append(f.reasons, reason)
	during, fail := f.during, f.fail
	f.mu.Unlock()
	notify(protocol.Notice{Level: protocol.NoticeInfo, Text: "summarising"})
	if during != nil {
		during()
	}
	end := protocol.CompactionEnd{CompactResult: protocol.CompactResult{Reason: reason, Summarized: len(history) - 1, Kept: 1}}
	if fail != "" {
		end.Error = fail
		return nil, end
	}
	end.Entry = "E1"
	return []model.Message{model.UserText("SUMMARY"), history[len(history)-1]}, end
}

func (f *fakeCompactor) PriorCost() model.Amount { return f.prior }

func compactingAgent(t *testing.T, p model.Provider, c Compactor, tools ...Tool) (*Agent, *memRecorder) {
	t.Helper()
	rec := &memRecorder{}
	a, err := New(Config{Provider: p, Model: "mock-model", Recorder: rec, Tools: tools, Compactor: c})
	if err != nil {
		t.Fatal(err)
	}
	return a, rec
}

// firstWords renders a request's messages by their first word.
func firstWords(req model.Request) string {
	var out []string
	for _, m := range req.Messages {
		var cs []model.Content
		switch m := m.(type) {
		case model.UserMessage:
			cs = m.Content
		case model.AssistantMessage:
			cs = m.Content
			if len(m.ToolCalls()) > 0 {
				out = append(out, "call")
				continue
			}
		case model.ToolResultMessage:
			out = append(out, "result")
			continue
		}
		w, _, _ := strings.Cut(model.TextOf(cs), " ")
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// TestCompactionBetweenRounds: a compaction due before a request runs
// between rounds — after the tool batch, before the next turn — bracketed
// by its events; steering input queued during it starts the next turn and
// follow-up input waits until the run would stop, each in its delivery
// mode; the run's cost adds what the compaction took out.
func TestCompactionBetweenRounds(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}],"usage":{"input":1,"output":1,"cache_read":0,"cache_write":0,"reasoning":0,"cost_nano_usd":5}},
	  {"text":"steered answer","usage":{"input":1,"output":1,"cache_read":0,"cache_write":0,"reasoning":0,"cost_nano_usd":7}},
	  {"text":"follow answer","usage":{"input":1,"output":1,"cache_read":0,"cache_write":0,"reasoning":0,"cost_nano_usd":11}}]}`)
	var a *Agent
	c := &fakeCompactor{due: map[int]bool{2: true}, prior: model.Known(100)}
	c.during = func() {
		a.FollowUp(model.UserText("follow"))
		a.Steer(model.UserText("steer"))
	}
	a, rec := compactingAgent(t, p, c, &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) { return textResult("x"), nil }})
	run, _ := a.Start(context.Background(), model.UserText("go"))
	evs := drain(t, run)
	wantLines(t, briefs(evs, false),
		"agent_start 1",
		"turn_start 1",
		"message_start user go", "message_end user go",
		"message_start assistant", "message_end assistant tool_use",
		"tool_execution_start c1", "tool_execution_end c1 applied",
		"message_start tool_result c1 applied", "message_end tool_result c1 applied",
		"turn_end 1 results=1",
		"compaction_start",
		"notice",
		"compaction_end",
		"queue_update steer=1 follow_up=1",
		"queue_update steer=0 follow_up=1",
		"turn_start 2",
		"message_start user steer", "message_end user steer",
		"message_start assistant", "message_end assistant end",
		"turn_end 2 results=0",
		"queue_update steer=0 follow_up=0",
		"turn_start 3",
		"message_start user follow", "message_end user follow",
		"message_start assistant", "message_end assistant end",
		"turn_end 3 results=0",
		"agent_end completed",
		"settled")
	if strings.Join(c.reasons, ",") != "threshold" {
		t.Fatalf("compactions %v", c.reasons)
	}
	reqs := p.Requests()
	if got := firstWords(reqs[1]); got != "SUMMARY result steer" {
		t.Fatalf("the request after the compaction carries %s", got)
	}
	if got := firstWords(reqs[2]); got != "SUMMARY result steer steered follow" {
		t.Fatalf("the follow-up request carries %s", got)
	}
	if n := len(rec.messages()); n != 7 {
		t.Fatalf("%d messages recorded; the compaction records none of its own", n)
	}
	if e := run.Wait(); e.Cost != model.Known(100+7+11) {
		t.Fatalf("cost %v: the prior cost and the history's", e.Cost)
	}
}

// TestOverflowCompactsAndRetriesOnce: a request refused as too long is
// sent again once after a compaction; a failed compaction ends the run
// with the provider's error; without a compactor the error ends the run.
func TestOverflowCompactsAndRetriesOnce(t *testing.T) {
	const overflow = `{"error":{"kind":"context_overflow","message":"too long"}}`
	tests := []struct {
		name      string
		responses string
		compactor *fakeCompactor
		reasons   string
		requests  int
		end       protocol.EndReason
		errText   string
	}{
		{name: "retried once", responses: overflow + `,{"text":"fits now"}`, compactor: &fakeCompactor{},
			reasons: "overflow", requests: 2, end: protocol.EndCompleted},
		{name: "overflows again", responses: overflow + "," + overflow + `,{"text":"never"}`, compactor: &fakeCompactor{},
			reasons: "overflow", requests: 2, end: protocol.EndProviderError, errText: "context_overflow"},
		{name: "compaction fails", responses: overflow + `,{"text":"never"}`, compactor: &fakeCompactor{fail: "the summary was cut off"},
			reasons: "overflow", requests: 1, end: protocol.EndProviderError, errText: "compacting the context to fit it failed"},
		{name: "a later overflow compacts again", responses: overflow + `,{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},` + overflow + `,{"text":"done"}`,
			compactor: &fakeCompactor{}, reasons: "overflow,overflow", requests: 4, end: protocol.EndCompleted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, `{"mock_script":1,"responses":[`+tt.responses+`]}`)
			a, _ := compactingAgent(t, p, tt.compactor, &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) { return textResult("x"), nil }})
			run, _ := a.Start(context.Background(), model.UserText("go"))
			drain(t, run)
			e := run.Wait()
			if e.Reason != tt.end || !strings.Contains(e.Error, tt.errText) {
				t.Fatalf("agent_end %+v, want %s with %q", e, tt.end, tt.errText)
			}
			if got := strings.Join(tt.compactor.reasons, ","); got != tt.reasons {
				t.Fatalf("compactions %q, want %q", got, tt.reasons)
			}
			if n := len(p.Requests()); n != tt.requests {
				t.Fatalf("%d requests, want %d", n, tt.requests)
			}
		})
	}
	p := script(t, `{"mock_script":1,"responses":[`+overflow+`,{"text":"never"}]}`)
	a, _ := compactingAgent(t, p, nil)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndProviderError || len(p.Requests()) != 1 {
		t.Fatalf("without a compactor: %+v after %d requests", e, len(p.Requests()))
	}
}

// TestFailedThresholdCompactionIsNotRepeated: after a threshold compaction
// fails, the run goes on with its history and does not try again.
func TestFailedThresholdCompactionIsNotRepeated(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},
	  {"tool_calls":[{"id":"c2","name":"read","arguments":{"path":"a"}}]},
	  {"text":"done"}]}`)
	c := &fakeCompactor{due: map[int]bool{1: true, 2: true, 3: true}, fail: "refused"}
	a, _ := compactingAgent(t, p, c, &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) { return textResult("x"), nil }})
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if e := run.Wait(); e.Reason != protocol.EndCompleted {
		t.Fatalf("agent_end %+v", e)
	}
	if len(c.reasons) != 1 || c.checks != 1 {
		t.Fatalf("compactions %v after %d checks", c.reasons, c.checks)
	}
	if got := firstWords(p.Requests()[2]); got != "go call result call result" {
		t.Fatalf("the history after the failed compaction: %s", got)
	}
}

// TestSetHistory: the history can be replaced between runs, not during
// one.
func TestSetHistory(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"text":"a","hang_after":1},{"text":"b"}]}`)
	a, _ := compactingAgent(t, p, nil)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	if err := a.SetHistory(nil); err != ErrRunActive {
		t.Fatalf("SetHistory during a run = %v", err)
	}
	// Abort once the first response streams, so that it is the one the
	// abort cuts short.
	var evs []protocol.Event
	for ev := range run.Events() {
		evs = append(evs, ev)
		if _, ok := ev.(protocol.MessageUpdate); ok {
			run.Abort()
		}
	}
	checkRunInvariants(t, evs)
	if err := a.SetHistory([]model.Message{model.UserText("SUMMARY")}); err != nil {
		t.Fatal(err)
	}
	run, _ = a.Start(context.Background(), model.UserText("next"))
	drain(t, run)
	if got := firstWords(p.Requests()[1]); got != "SUMMARY next" {
		t.Fatalf("the request after SetHistory carries %s", got)
	}
}
