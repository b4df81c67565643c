package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/rpcclient"
)

// untilSettled reads the client's events up to a settled event.
func untilSettled(t *testing.T, c *rpcclient.Client) []protocol.Event {
	t.Helper()
	var evs []protocol.Event
	timeout := time.After(time.Minute)
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				t.Fatalf("the events ended after %d, before settled: %v", len(evs), c.Err())
			}
			evs = append(evs, ev)
			if _, ok := ev.(protocol.Settled); ok {
				return evs
			}
		case <-timeout:
			t.Fatalf("no settled event within a minute; got %d events", len(evs))
		}
	}
}

// checkStream checks what a client must be able to rely on: strictly
// increasing sequence numbers, message updates only between an assistant
// message's start and end, and every assistant message assembled from its
// deltas equal to its message_end. It returns the assistant messages.
func checkStream(t *testing.T, evs []protocol.Event) []model.AssistantMessage {
	t.Helper()
	var last uint64
	var asm rpcclient.Assembler
	var out []model.AssistantMessage
	open := false
	for i, ev := range evs {
		if ev.Sequence() <= last {
			t.Fatalf("event %d (%s) has sequence %d after %d", i, protocol.EventType(ev), ev.Sequence(), last)
		}
		last = ev.Sequence()
		switch e := ev.(type) {
		case protocol.MessageStart:
			_, open = e.Message.(model.AssistantMessage)
		case protocol.MessageUpdate:
			if !open {
				t.Fatalf("event %d: a message_update outside an assistant message", i)
			}
		case protocol.MessageEnd:
			open = false
		}
		got, ok := asm.Observe(ev)
		if !ok {
			continue
		}
		want := ev.(protocol.MessageEnd).Message.(model.AssistantMessage)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Fatalf("event %d: the message assembled from the deltas differs from message_end:\nassembled %s\nend       %s\n%#v\n%#v", i, g, w, got, want)
		}
		out = append(out, want)
	}
	return out
}

// TestClientAssemblesMessages: a client connected through real pipes to
// the real server, with the mock model streaming thinking, text and a tool
// call, assembles every assistant message from its deltas exactly as the
// message_end events carry it.
func TestClientAssemblesMessages(t *testing.T) {
	w := newWorld(t)
	mock := w.Script(`{"mock_script":1,"responses":[
	  {"thinking":"let me look at the file first","text":"I will read it","tool_calls":[{"id":"c1","name":"read","arguments":{"path":"hello.txt","note":"` + words(40) + `"}}]},
	  {"text":"` + words(300) + `"}]}`)
	p := servePipes(t, w.Open(mock, true), nil)
	c := p.client()
	ctx := t.Context()
	res, err := c.Prompt(ctx, protocol.PromptParams{Text: "read hello.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Session.Name != "read-hellotxt" {
		t.Errorf("the new session is named %q; want it named from the prompt, read-hellotxt", res.Session.Name)
	}
	evs := untilSettled(t, c)
	msgs := checkStream(t, evs)
	if len(msgs) != 2 {
		t.Fatalf("%d assistant messages; want 2", len(msgs))
	}
	types := map[string]bool{}
	for _, ev := range evs {
		types[protocol.EventType(ev)] = true
	}
	for _, want := range []string{"agent_start", "turn_start", "message_start", "message_update", "message_end", "tool_execution_start", "tool_execution_end", "turn_end", "agent_end", "settled"} {
		if !types[want] {
			t.Errorf("no %s event reached the client", want)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// backPressureScript is a stream of n text deltas of one content block,
// which a subscription may merge, then m single-delta blocks, which it
// cannot: more events than the pipe and the subscription hold, so a
// client that does not read holds the run back.
func backPressureScript(n, m int) (script, text string) {
	evs := []string{`{"type":"start"}`}
	var b strings.Builder
	for i := range n {
		evs = append(evs, fmt.Sprintf(`{"type":"text_delta","index":0,"text":"w%d "}`, i))
		fmt.Fprintf(&b, "w%d ", i)
	}
	for i := range m {
		evs = append(evs, fmt.Sprintf(`{"type":"text_delta","index":%d,"text":"b%d"}`, i+1, i))
	}
	evs = append(evs, `{"type":"done","reason":"end"}`)
	return `{"mock_script":1,"responses":[{"events":[` + strings.Join(evs, ",") + `]}]}`, b.String()
}

// TestBackPressure: a client that stops reading the output holds the run
// back (the server's subscription merges the deltas of one block it
// holds, then waits) and, once it reads again, still gets every message
// complete and in order, with nothing but merged deltas missing.
func TestBackPressure(t *testing.T) {
	const n, m = 3000, 1500
	script, text := backPressureScript(n, m)
	w := newWorld(t)
	rt := w.Open(w.Script(script), false)
	sess, err := rt.NewSession(t.Context(), runtimeNewSession("backpressure"))
	if err != nil {
		t.Fatal(err)
	}
	p := servePipes(t, rt, sess)
	// A second subscriber, read at once, shows how far the run got; it is
	// subscribed after the server's, so it sees an event only once the
	// server's subscription has taken it. It may fall behind and get
	// deltas merged too, so it counts the first block's text.
	watch := sess.Subscribe()
	defer watch.Close()
	firstBlock := make(chan struct{})
	go func() {
		seen := 0
		for ev := range watch.Events() {
			if u, ok := ev.(protocol.MessageUpdate); ok {
				if d, ok := u.Delta.(model.TextDelta); ok && d.Index == 0 {
					if seen += len(d.Text); seen == len(text) {
						close(firstBlock)
					}
				}
			}
		}
	}()
	p.send(t, requestLine(1, "prompt", map[string]any{"text": "stream a lot"}))
	// The client reads nothing until the server's subscription has taken
	// the whole first block: by then the pipe and the subscription are
	// full (n events are more than both hold), and the m blocks after it
	// cannot be merged, so the run cannot settle.
	select {
	case <-firstBlock:
	case <-time.After(time.Minute):
		t.Fatal("the run did not stream its first block within a minute")
	}
	if !sess.State().Running {
		t.Fatal("the run settled although the client read nothing")
	}
	// Now read everything.
	l := newLines(t, p)
	var evs []protocol.Event
	for {
		msg := l.next()
		if msg.Method != protocol.RPCEventMethod {
			continue
		}
		ev, err := protocol.UnmarshalEvent(msg.Params)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
		if _, ok := ev.(protocol.Settled); ok {
			break
		}
	}
	msgs := checkStream(t, evs)
	if len(msgs) != 1 || len(msgs[0].Content) != m+1 || msgs[0].Content[0].(model.Text).Text != text {
		t.Fatalf("the client did not get the whole answer")
	}
	updates, gaps := 0, 0
	for i, ev := range evs {
		if _, ok := ev.(protocol.MessageUpdate); ok {
			updates++
		}
		if i > 0 && ev.Sequence() != evs[i-1].Sequence()+1 {
			gaps++
		}
	}
	if gaps == 0 || updates >= n+m+1 {
		t.Fatalf("%d updates for %d deltas, %d sequence gaps; want deltas merged while the client did not read", updates, n+m+1, gaps)
	}
	t.Logf("%d deltas reached the client as %d updates", n+m+1, updates)
}

func TestWaitTimesOut(t *testing.T) {
	w := newWorld(t)
	mock := w.Script(`{"mock_script":1,"responses":[{"text":"a b c","hang_after":2}]}`)
	p := servePipes(t, w.Open(mock, false), nil)
	c := p.client()
	ctx := context.Background()
	if _, err := c.Prompt(ctx, protocol.PromptParams{Text: "hang"}); err != nil {
		t.Fatal(err)
	}
	r, err := c.Wait(ctx, 50*time.Millisecond)
	if err != nil || r.Settled {
		t.Fatalf("wait on a hanging run = %+v, %v; want settled false", r, err)
	}
	// abort is served while a wait holds the ordered lane.
	waited := make(chan protocol.WaitResult, 1)
	go func() {
		r, err := c.Wait(ctx, time.Minute)
		if err != nil {
			t.Error(err)
		}
		waited <- r
	}()
	st := untilType(t, c, "message_update")
	_ = st
	if err := c.Abort(ctx); err != nil {
		t.Fatal(err)
	}
	r = <-waited
	if !r.Settled || r.End == nil || r.End.Reason != protocol.EndAborted {
		t.Fatalf("wait after abort = %+v; want settled with reason aborted", r)
	}
	_ = c.Close()
}

// untilType reads events until one of type typ.
func untilType(t *testing.T, c *rpcclient.Client, typ string) protocol.Event {
	t.Helper()
	for ev := range c.Events() {
		if protocol.EventType(ev) == typ {
			return ev
		}
	}
	t.Fatalf("the events ended before a %s event", typ)
	return nil
}
