package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestQueueEditDuringARun: replacing the steering queue while a tool runs
// emits a queue_update and the replacement, not the original, is
// delivered; clearing the follow-up queue leaves nothing to follow up.
func TestQueueEditDuringARun(t *testing.T) {
	p := script(t, `{"mock_script":1,"responses":[
	  {"tool_calls":[{"id":"c1","name":"read","arguments":{"path":"a"}}]},
	  {"text":"ok"}]}`)
	var a *Agent
	tool := &funcTool{name: "read", run: func(ctx context.Context, c *Call) (Result, error) {
		a.Steer(model.UserText("first"))
		a.FollowUp(model.UserText("later"))
		a.SetSteer([]model.UserMessage{model.UserText("second")})
		a.SetFollowUp(nil)
		return textResult("x"), nil
	}}
	rec := &memRecorder{}
	a = newAgent(t, p, rec, tool)
	run, _ := a.Start(context.Background(), model.UserText("go"))
	// Each edit signals the run; how many of the signals it sees, and
	// where, depends on timing, so the queue_update lines are checked
	// apart from the rest.
	var rest []string
	sawEdit := false
	for _, l := range briefs(drain(t, run), false) {
		if strings.HasPrefix(l, "queue_update") {
			sawEdit = sawEdit || l == "queue_update steer=1 follow_up=0"
			continue
		}
		rest = append(rest, l)
	}
	if !sawEdit {
		t.Error("no queue_update showed the edited queues (steer=1 follow_up=0)")
	}
	wantLines(t, rest,
		"agent_start 1",
		"turn_start 1",
		"message_start user go", "message_end user go",
		"message_start assistant", "message_end assistant tool_use",
		"tool_execution_start c1",
		"tool_execution_end c1 applied",
		"message_start tool_result c1 applied", "message_end tool_result c1 applied",
		"turn_end 1 results=1",
		"turn_start 2",
		"message_start user second", "message_end user second",
		"message_start assistant", "message_end assistant end",
		"turn_end 2 results=0",
		"agent_end completed",
		"settled")
	if steer, follow := a.Queued(); len(steer)+len(follow) != 0 {
		t.Fatalf("queues after the run = %v, %v; want both empty", steer, follow)
	}
}

// TestQueueEditWhileIdle: the queues can be replaced and cleared between
// runs; the replacement is a copy.
func TestQueueEditWhileIdle(t *testing.T) {
	tests := []struct {
		name          string
		steer, follow []model.UserMessage
		wantS, wantF  int
	}{
		{name: "replace both", steer: []model.UserMessage{model.UserText("a"), model.UserText("b")}, follow: []model.UserMessage{model.UserText("c")}, wantS: 2, wantF: 1},
		{name: "clear both", wantS: 0, wantF: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAgent(t, script(t, `{"mock_script":1,"responses":[]}`), &memRecorder{})
			a.Steer(model.UserText("x"))
			a.SetSteer(tc.steer)
			a.SetFollowUp(tc.follow)
			if len(tc.steer) > 0 {
				tc.steer[0] = model.UserText("changed")
			}
			s, f := a.Queued()
			if len(s) != tc.wantS || len(f) != tc.wantF {
				t.Fatalf("queued %d steer, %d follow-up; want %d, %d", len(s), len(f), tc.wantS, tc.wantF)
			}
			if len(s) > 0 && describe(s[0]) != "user a" {
				t.Fatalf("first steer = %s; want the caller's later change not to reach the queue", describe(s[0]))
			}
		})
	}
}
