package rpc

import (
	"errors"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/rpcclient"
)

// code returns the JSON-RPC code of err, 0 for nil or another error.
func code(err error) int {
	var re *protocol.RPCError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

// TestSessionMethods drives the session methods through the client: a
// prompt in a new session, the tree, labels, a branch, a fork, switching
// sessions by name, and the model and queue methods.
func TestSessionMethods(t *testing.T) {
	w := newWorld(t)
	p := servePipes(t, w.Open(w.Script(textScript("one", "two", "three", "four")), false), nil)
	c := p.client()
	c.DiscardEvents()
	ctx := t.Context()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	res, err := c.Prompt(ctx, protocol.PromptParams{Text: "first question"})
	must(err)
	r, err := c.Wait(ctx, 0)
	must(err)
	if !r.Settled || r.End == nil || r.End.Reason != protocol.EndCompleted {
		t.Fatalf("wait = %+v; want settled, completed", r)
	}
	st, err := c.State(ctx)
	must(err)
	if st.Running || st.Session.ID != res.Session.ID || st.Session.FirstPrompt != "first question" || st.Stats.Responses != 1 {
		t.Fatalf("state after the run = %+v", st)
	}
	tree, err := c.Tree(ctx)
	must(err)
	var firstUser, lastEntry string
	for _, n := range tree {
		if n.Role == "user" && firstUser == "" {
			firstUser = n.ID
		}
		lastEntry = n.ID
	}
	if firstUser == "" {
		t.Fatalf("tree %+v has no user message", tree)
	}
	must(c.Label(ctx, lastEntry, "answered"))
	sel, err := c.Select(ctx, protocol.SelectParams{Ref: firstUser})
	must(err)
	if sel.Entry != firstUser || sel.Summary != nil {
		t.Fatalf("session.select = %+v; want the entry selected and no summary", sel)
	}
	_, err = c.Prompt(ctx, protocol.PromptParams{Text: "again"})
	must(err)
	_, err = c.Wait(ctx, 0)
	must(err)
	tree, err = c.Tree(ctx)
	must(err)
	leaves, labelled := 0, false
	for _, n := range tree {
		if n.Leaf {
			leaves++
		}
		labelled = labelled || n.Label == "answered"
	}
	if leaves < 2 || !labelled {
		t.Fatalf("tree after a branch: %d leaves, labelled %v; want two branches and the label", leaves, labelled)
	}
	fork, err := c.Fork(ctx, protocol.ForkParams{Name: "forked"})
	must(err)
	if fork.ID == res.Session.ID || fork.Name != "forked" {
		t.Fatalf("fork = %+v", fork)
	}
	if st, _ := c.State(ctx); st.Session.ID != fork.ID {
		t.Fatalf("after fork the current session is %s; want the fork %s", st.Session.ID, fork.ID)
	}
	back, err := c.OpenSession(ctx, res.Session.Name)
	must(err)
	if back.ID != res.Session.ID {
		t.Fatalf("session.open %q opened %s", res.Session.Name, back.ID)
	}
	if same, err := c.OpenSession(ctx, res.Session.ID[:8]); err != nil || same.ID != res.Session.ID {
		t.Fatalf("opening the current session again by an id prefix = %+v, %v", same, err)
	}
	list, err := c.Sessions(ctx)
	must(err)
	if len(list) != 2 {
		t.Fatalf("session.list has %d sessions; want the first and its fork", len(list))
	}
	cont, err := c.ContinueSession(ctx)
	must(err)
	if cont.ID != list[0].ID {
		t.Fatalf("session.continue opened %s; want the most recent, %s", cont.ID, list[0].ID)
	}
	fresh, err := c.NewSession(ctx, "fresh")
	must(err)
	if fresh.Name != "fresh" || fresh.Entries != 0 {
		t.Fatalf("session.new = %+v", fresh)
	}
	if _, err := c.NewSession(ctx, "fresh"); code(err) != protocol.CodeUsage {
		t.Fatalf("a second session named fresh: %v; want a usage error", err)
	}

	m, err := c.SetModel(ctx, protocol.SetModelParams{Model: "mock"})
	must(err)
	if m.Name != "mock" {
		t.Fatalf("model.set = %+v", m)
	}
	if got, err := c.Model(ctx); err != nil || got.Name != "mock" {
		t.Fatalf("model.get = %+v, %v", got, err)
	}
	if _, err := c.SetModel(ctx, protocol.SetModelParams{Model: "nosuchprovider/nosuchmodel"}); code(err) != protocol.CodeUsage {
		t.Fatalf("model.set of an unknown model: %v; want a usage error", err)
	}
	models, err := c.Models(ctx)
	must(err)
	if len(models.Models) == 0 || models.Models[0].Ref == "" {
		t.Fatalf("model.list has no models: %+v", models)
	}

	q, err := c.SetQueue(ctx, protocol.SetQueueParams{FollowUp: rpcclient.Texts("later", "much later")})
	must(err)
	if len(q.FollowUp) != 2 || len(q.Steer) != 0 {
		t.Fatalf("queue.set = %+v", q)
	}
	if q, err = c.Queue(ctx); err != nil || len(q.FollowUp) != 2 {
		t.Fatalf("queue.get = %+v, %v", q, err)
	}
	if q, err = c.ClearQueue(ctx); err != nil || len(q.FollowUp)+len(q.Steer) != 0 {
		t.Fatalf("queue.clear = %+v, %v", q, err)
	}
	if _, err := c.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	must(c.Shutdown(ctx))
	if _, err := c.State(ctx); err == nil {
		t.Fatal("a request after shutdown was answered")
	}
}

// TestBusy: while a run is active a prompt and a session switch are
// refused with the busy code; steering input is queued and can be edited.
func TestBusy(t *testing.T) {
	w := newWorld(t)
	mock := w.Script(`{"mock_script":1,"responses":[{"text":"a b c d","hang_after":2},{"text":"after"}]}`)
	p := servePipes(t, w.Open(mock, false), nil)
	c := p.client()
	ctx := t.Context()
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "go"}); err != nil {
		t.Fatal(err)
	}
	untilType(t, c, "message_update")
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "again"}); code(err) != protocol.CodeBusy {
		t.Fatalf("prompt while running: %v; want the busy code", err)
	}
	if _, err := c.NewSession(ctx, "other"); code(err) != protocol.CodeBusy {
		t.Fatalf("session.new while running: %v; want the busy code", err)
	}
	if _, err := c.Steer(ctx, "steer this"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.FollowUp(ctx, "then this"); err != nil {
		t.Fatal(err)
	}
	q, err := c.Queue(ctx)
	if err != nil || len(q.Steer) != 1 || len(q.FollowUp) != 1 {
		t.Fatalf("queue while running = %+v, %v; want one steer, one follow-up", q, err)
	}
	q, err = c.SetQueue(ctx, protocol.SetQueueParams{Steer: rpcclient.Texts()})
	if err != nil || len(q.Steer) != 0 || len(q.FollowUp) != 1 {
		t.Fatalf("queue.set steer [] = %+v, %v; want the steer gone, the follow-up kept", q, err)
	}
	// The run announces the edited queue.
	for {
		ev := untilType(t, c, "queue_update").(protocol.QueueUpdate)
		if len(ev.Steer) == 0 && len(ev.FollowUp) == 1 {
			break
		}
	}
	if err := c.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := c.Wait(ctx, time.Minute)
	if err != nil || r.End == nil || r.End.Reason != protocol.EndAborted {
		t.Fatalf("wait after abort = %+v, %v", r, err)
	}
	_ = c.Close()
}

// TestCommands lists the product plugin's commands and runs one.
func TestCommands(t *testing.T) {
	w := newWorld(t)
	p := servePipes(t, w.Open("mock", true), nil)
	c := p.client()
	c.DiscardEvents()
	ctx := t.Context()
	cmds, err := c.Commands(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) == 0 {
		t.Fatal("commands.list is empty; the product plugin contributes commands")
	}
	t.Logf("commands: %+v", cmds)
	if _, err := c.RunCommand(ctx, protocol.RunCommandParams{Name: "no-such-command"}); code(err) != protocol.CodeUsage {
		t.Fatalf("an unknown command: %v; want a usage error", err)
	}
	_ = c.Close()
}
