package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// TestAbortWhileStreaming: a call cut off mid-stream still gets a result
// saying it did not run; the session stays paired.
func TestAbortWhileStreaming(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a long path name"}}],"hang_after":3}]}`)
	tool := &funcTool{name: "read", run: func(context.Context, *Call) (Result, error) {
		t.Error("tool ran")
		return Result{}, nil
	}}
	rec := &memRecorder{}
	a := newAgent(t, p, rec, tool)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	var evs []protocol.Event
	for ev := range run.Events() {
		evs = append(evs, ev)
		if u, ok := ev.(protocol.MessageUpdate); ok {
			if _, ok := u.Delta.(model.ToolCallDelta); ok {
				run.Abort()
			}
		}
	}
	checkRunInvariants(t, evs)
	wantLines(t, briefs(evs, false),
		"agent_start 1", "turn_start 1",
		"message_start user go", "message_end user go",
		"message_start assistant", "message_end assistant error=aborted",
		"message_start tool_result c1 not_applied", "message_end tool_result c1 not_applied",
		"turn_end 1 results=1",
		"agent_end aborted", "settled")
	msgs := rec.messages()
	checkPairing(t, msgs)
	res := msgs[2].(model.ToolResultMessage)
	if !res.IsError || resultText(res) != "not executed: the run was aborted before the call ran" {
		t.Fatalf("result = %+v", res)
	}
	if run.Wait().Reason != protocol.EndAborted {
		t.Fatal("not aborted")
	}
}

// TestAbortWhileToolRuns: the running tool sees the cancellation and
// reports its mutation state; the rest of the batch is answered without
// running.
func TestAbortWhileToolRuns(t *testing.T) {
	tests := []struct {
		name     string
		ret      func(ctx context.Context) (Result, error)
		mutation model.Mutation
		text     string
	}{
		{"tool says not applied", func(ctx context.Context) (Result, error) {
			return Result{Mutation: model.MutationNotApplied}, ctx.Err()
		}, model.MutationNotApplied, "aborted: context canceled"},
		{"tool says nothing", func(ctx context.Context) (Result, error) {
			return Result{}, ctx.Err()
		}, model.MutationUnknown, "aborted: context canceled"},
		{"tool finished anyway", func(ctx context.Context) (Result, error) {
			return textResult("wrote it"), nil
		}, model.MutationApplied, "wrote it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[
			  {"id":"c1","name":"write","arguments":{"path":"a"}},{"id":"c2","name":"write","arguments":{"path":"b"}}]}]}`)
			tool := &funcTool{name: "write", run: func(ctx context.Context, c *Call) (Result, error) {
				if c.ID != "c1" {
					t.Error("second call ran after the abort")
				}
				<-ctx.Done()
				return tt.ret(ctx)
			}}
			rec := &memRecorder{}
			run, _ := newAgent(t, p, rec, tool).Start(context.Background(), model.UserText("go"))
			var evs []protocol.Event
			for ev := range run.Events() {
				evs = append(evs, ev)
				if s, ok := ev.(protocol.ToolExecutionStart); ok && s.CallID == "c1" {
					run.Abort()
				}
			}
			checkRunInvariants(t, evs)
			wantLines(t, briefs(evs, false),
				"agent_start 1", "turn_start 1",
				"message_start user go", "message_end user go",
				"message_start assistant", "message_end assistant tool_use",
				"tool_execution_start c1",
				"tool_execution_end c1 "+string(tt.mutation),
				"message_start tool_result c1 "+string(tt.mutation), "message_end tool_result c1 "+string(tt.mutation),
				"message_start tool_result c2 not_applied", "message_end tool_result c2 not_applied",
				"turn_end 1 results=2",
				"agent_end aborted", "settled")
			msgs := rec.messages()
			checkPairing(t, msgs)
			if got := resultText(msgs[2].(model.ToolResultMessage)); !strings.Contains(got, tt.text) {
				t.Fatalf("c1 result = %q; want %q", got, tt.text)
			}
		})
	}
}

// TestAbortWithAToolThatIgnoresIt: after the grace period the call is
// recorded as unknown and the run ends; the abandoned tool can still call
// Update without blocking.
func TestAbortWithAToolThatIgnoresIt(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"bash","arguments":{"path":"x"}}]}]}`)
	release := make(chan struct{})
	var exited sync.WaitGroup
	exited.Add(1)
	tool := &funcTool{name: "bash", run: func(ctx context.Context, c *Call) (Result, error) {
		defer exited.Done()
		<-release
		c.Update([]model.Content{model.Text{Text: "late output"}})
		return textResult("finished late"), nil
	}}
	rec := &memRecorder{}
	a, err := New(Config{Provider: p, Recorder: rec, Tools: []Tool{tool}, AbortGrace: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := a.Start(context.Background(), model.UserText("go"))
	var evs []protocol.Event
	for ev := range run.Events() {
		evs = append(evs, ev)
		if _, ok := ev.(protocol.ToolExecutionStart); ok {
			run.Abort()
		}
	}
	checkRunInvariants(t, evs)
	res := rec.messages()[2].(model.ToolResultMessage)
	if res.Mutation != model.MutationUnknown || !strings.Contains(resultText(res), `tool "bash" did not stop within 20ms of the abort; whether its effects happened is unknown`) {
		t.Fatalf("result = %+v", res)
	}
	close(release)
	exited.Wait() // Update did not block on the abandoned run
}

// TestContextCancelAborts: cancelling the Start context aborts like Abort,
// naming the cause.
func TestContextCancelAborts(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"text":"never","hang_after":1}]}`)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	run, _ := newAgent(t, p, &memRecorder{}).Start(ctx, model.UserText("go"))
	var evs []protocol.Event
	for ev := range run.Events() {
		evs = append(evs, ev)
		if _, ok := ev.(protocol.MessageUpdate); ok {
			cancel(errors.New("user pressed ctrl-c"))
		}
	}
	checkRunInvariants(t, evs)
	end := run.Wait()
	if end.Reason != protocol.EndAborted || end.Error != "agent: run aborted: user pressed ctrl-c" {
		t.Fatalf("end = %+v", end)
	}
}

// TestAbortBeforeFirstRequest: an abort that lands before the loop reaches
// the provider still produces a single, well-formed end.
func TestAbortBeforeFirstRequest(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"text":"x"}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run, _ := newAgent(t, p, &memRecorder{}).Start(ctx, model.UserText("go"))
	wantLines(t, briefs(drain(t, run), false), "agent_start 1", "agent_end aborted", "settled")
	if len(p.Requests()) != 0 {
		t.Fatal("a request was sent after the abort")
	}
}
