package agent

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// TestSteerIsDeliveredAfterTheToolBatch: steering input queued while the
// first of two calls runs waits for the whole batch; it never lands between
// a call and its result.
func TestSteerIsDeliveredAfterTheToolBatch(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}},{"id":"c2","name":"read","arguments":{"path":"b"}}]},
	  {"text":"ok"}]}`)
	var a *Agent
	tool := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		if c.ID == "c1" {
			a.Steer(model.UserText("steer"))
		}
		return textResult("x"), nil
	}}
	rec := &memRecorder{}
	a = newAgent(t, p, rec, tool)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	wantLines(t, briefs(drain(t, run), false),
		"agent_start 1",
		"turn_start 1",
		"message_start user go", "message_end user go",
		"message_start assistant", "message_end assistant tool_use",
		"tool_execution_start c1",
		"queue_update steer=1 follow_up=0",
		"tool_execution_end c1 applied",
		"message_start tool_result c1 applied", "message_end tool_result c1 applied",
		"tool_execution_start c2",
		"tool_execution_end c2 applied",
		"message_start tool_result c2 applied", "message_end tool_result c2 applied",
		"turn_end 1 results=2",
		"queue_update steer=0 follow_up=0",
		"turn_start 2",
		"message_start user steer", "message_end user steer",
		"message_start assistant", "message_end assistant end",
		"turn_end 2 results=0",
		"agent_end completed",
		"settled")
	msgs := rec.messages()
	checkPairing(t, msgs)
	if got := describe(msgs[4]); got != "user steer" {
		t.Fatalf("message after the batch = %s", got)
	}
}

// TestFollowUpWaitsUntilTheAgentWouldStop: follow-up input queued during a
// tool-using turn is not delivered while the model keeps calling tools; it
// is delivered when the model answers without tool calls.
func TestFollowUpWaitsUntilTheAgentWouldStop(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},
	  {"tool_calls":[{"id":"c2","name":"read","arguments":{"path":"b"}}]},
	  {"text":"done"},
	  {"text":"also done"}]}`)
	var a *Agent
	tool := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		if c.ID == "c1" {
			a.FollowUp(model.UserText("also this"))
		}
		return textResult("x"), nil
	}}
	rec := &memRecorder{}
	a = newAgent(t, p, rec, tool)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	wantLines(t, briefs(drain(t, run), false),
		"agent_start 1",
		"turn_start 1",
		"message_start user go", "message_end user go",
		"message_start assistant", "message_end assistant tool_use",
		"tool_execution_start c1",
		"queue_update steer=0 follow_up=1",
		"tool_execution_end c1 applied",
		"message_start tool_result c1 applied", "message_end tool_result c1 applied",
		"turn_end 1 results=1",
		"turn_start 2",
		"message_start assistant", "message_end assistant tool_use",
		"tool_execution_start c2",
		"tool_execution_end c2 applied",
		"message_start tool_result c2 applied", "message_end tool_result c2 applied",
		"turn_end 2 results=1",
		"turn_start 3",
		"message_start assistant", "message_end assistant end",
		"turn_end 3 results=0",
		"queue_update steer=0 follow_up=0",
		"turn_start 4",
		"message_start user also this", "message_end user also this",
		"message_start assistant", "message_end assistant end",
		"turn_end 4 results=0",
		"agent_end completed",
		"settled")
	checkPairing(t, rec.messages())
}

// TestQueuedWhileIdle: steering queued between runs joins the next prompt;
// follow-up queued between runs can start a run by itself.
func TestQueuedWhileIdle(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
	a := newAgent(t, p, &memRecorder{})
	a.Steer(model.UserText("s"))
	run, _ := a.Start(context.Background(), model.UserText("prompt"))
	wantLines(t, briefs(drain(t, run), false),
		"agent_start 1",
		"queue_update steer=0 follow_up=0",
		"turn_start 1",
		"message_start user prompt", "message_end user prompt",
		"message_start user s", "message_end user s",
		"message_start assistant", "message_end assistant end",
		"turn_end 1 results=0",
		"agent_end completed", "settled")

	a.FollowUp(model.UserText("f"))
	run, err := a.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantLines(t, briefs(drain(t, run), false),
		"agent_start 2",
		"queue_update steer=0 follow_up=0",
		"turn_start 1",
		"message_start user f", "message_end user f",
		"message_start assistant", "message_end assistant end",
		"turn_end 1 results=0",
		"agent_end completed", "settled")
}

// TestQueueUpdateWhileStreaming: input queued while the provider streams is
// announced at once, not at the next boundary, and survives an abort.
func TestQueueUpdateWhileStreaming(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"text":"a b c","hang_after":2}]}`)
	a := newAgent(t, p, &memRecorder{})
	run, _ := a.Start(context.Background(), model.UserText("go"))
	var evs []protocol.Event
	queued := false
	for ev := range run.Events() {
		evs = append(evs, ev)
		if u, ok := ev.(protocol.MessageUpdate); ok && !queued {
			if _, isText := u.Delta.(model.TextDelta); isText {
				queued = true
				a.FollowUp(model.UserText("later"))
			}
		}
		if q, ok := ev.(protocol.QueueUpdate); ok && len(q.FollowUp) == 1 {
			run.Abort() // the provider is hanging: the update came mid-stream
		}
	}
	checkRunInvariants(t, evs)
	wantLines(t, briefs(evs, true),
		"agent_start 1",
		"turn_start 1",
		"message_start user go", "message_end user go",
		"message_start assistant",
		"message_update start", "message_update text_delta",
		"queue_update steer=0 follow_up=1",
		"message_end assistant error=aborted",
		"turn_end 1 results=0",
		"agent_end aborted", "settled")
	if _, fu := a.Queued(); len(fu) != 1 {
		t.Fatalf("follow-up queue after abort = %v; want it intact", fu)
	}
}

// TestQueuedInputSurvivesTheTurnLimit: input picked for the next turn is
// only taken when that turn starts; a run ended by its turn limit leaves it
// queued.
func TestQueuedInputSurvivesTheTurnLimit(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]}]}`)
	var a *Agent
	tool := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		a.Steer(model.UserText("steer"))
		a.FollowUp(model.UserText("later"))
		return textResult("x"), nil
	}}
	var err error
	a, err = New(Config{Provider: p, Recorder: &memRecorder{}, Tools: []Tool{tool}, MaxTurns: 1})
	if err != nil {
		t.Fatal(err)
	}
	run, _ := a.Start(context.Background(), model.UserText("go"))
	drain(t, run)
	if end := run.Wait(); end.Reason != protocol.EndMaxTurns {
		t.Fatalf("end = %+v", end)
	}
	steer, follow := a.Queued()
	if len(steer) != 1 || len(follow) != 1 {
		t.Fatalf("queue after the limit: steer %v, follow-up %v", steer, follow)
	}
}
