package runtime

import (
	"context"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// TestSetQueueWhileIdle: queued input can be set and cleared on an idle
// session, before and after its agent exists; each change is published as
// a queue_update, and steering queued while idle joins the next prompt.
func TestSetQueueWhileIdle(t *testing.T) {
	w := newWorld(t)
	mock := w.write("s.json", `{"mock_script":1,"responses":[{"text":"one"},{"text":"two"}]}`)
	rt := w.open(map[string]string{"model": "mock/" + mock}, nil)
	ctx := context.Background()
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "queue"})
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe()
	defer sub.Close()
	texts := func(ts ...string) *[]model.UserMessage {
		q := []model.UserMessage{}
		for _, x := range ts {
			q = append(q, model.UserText(x))
		}
		return &q
	}
	tests := []struct {
		name          string
		p             protocol.SetQueueParams
		steer, follow int
	}{
		{name: "set follow-up", p: protocol.SetQueueParams{FollowUp: texts("a", "b")}, steer: 0, follow: 2},
		{name: "set steer, keep follow-up", p: protocol.SetQueueParams{Steer: texts("s")}, steer: 1, follow: 2},
		{name: "clear follow-up", p: protocol.SetQueueParams{FollowUp: texts()}, steer: 1, follow: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := s.SetQueue(ctx, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if len(q.Steer) != tc.steer || len(q.FollowUp) != tc.follow {
				t.Fatalf("queues %d, %d; want %d, %d", len(q.Steer), len(q.FollowUp), tc.steer, tc.follow)
			}
			ev, err := sub.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			u, ok := ev.(protocol.QueueUpdate)
			if !ok || len(u.Steer) != tc.steer || len(u.FollowUp) != tc.follow {
				t.Fatalf("event %#v; want a queue_update of the new queues", ev)
			}
			if got := s.Queue(); len(got.Steer) != tc.steer || len(got.FollowUp) != tc.follow {
				t.Fatalf("Queue() = %+v", got)
			}
		})
	}
	if _, err := s.SetQueue(ctx, protocol.SetQueueParams{Steer: &[]model.UserMessage{{}}}); err == nil {
		t.Fatal("an empty queued message was accepted")
	}
	sub.Close()
	evs := runPrompt(t, s, "go")
	users := 0
	for _, ev := range evs {
		if e, ok := ev.(protocol.MessageEnd); ok {
			if _, ok := e.Message.(model.UserMessage); ok {
				users++
			}
		}
	}
	if users != 2 {
		t.Fatalf("%d user messages in the run; want the prompt and the steering queued while idle", users)
	}
	if q := s.Queue(); len(q.Steer)+len(q.FollowUp) != 0 {
		t.Fatalf("queues after the run = %+v", q)
	}
}

// TestModels: the listing has the catalog's models and the
// configuration's aliases, resolved.
func TestModels(t *testing.T) {
	w := newWorld(t)
	w.config(`alias "fast" "anthropic/claude-haiku-4-5"` + "\n")
	rt := w.open(nil, func(c *Config) { c.Plugins = nil })
	l, err := rt.Models(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Models) == 0 || l.Models[0].Ref == "" || len(l.Models[0].Input) == 0 {
		t.Fatalf("models = %+v", l.Models)
	}
	if len(l.Routes) != 1 || l.Routes[0].Name != "fast" || l.Routes[0].Kind != "alias" || len(l.Routes[0].Targets) != 1 {
		t.Fatalf("routes = %+v", l.Routes)
	}
}
