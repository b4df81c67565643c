package route

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// events is a canned stream.
type events struct {
	evs    []model.StreamEvent
	closed bool
}

func (s *events) Next() (model.StreamEvent, bool) {
	if len(s.evs) == 0 {
		return nil, false
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, true
}

func (s *events) Close() error { s.closed = true; return nil }

func TestOpenStreams(t *testing.T) {
	fail := func(k model.ErrorKind) []model.StreamEvent {
		return []model.StreamEvent{model.StreamError{Err: model.NewError(k, "%s", k)}}
	}
	ok := []model.StreamEvent{model.Start{}, model.TextDelta{Text: "hi"}, model.Done{Reason: model.StopEnd}}
	scripts := map[string][][]model.StreamEvent{
		"p/a": {fail(model.ErrOverloaded), fail(model.ErrRateLimit)},
		"p/b": {nil, nil, nil},
		"q/c": {ok},
	}
	var opened []*events
	open := func(_ context.Context, t Target) model.Stream {
		q := scripts[t.String()]
		s := &events{evs: q[0]}
		scripts[t.String()] = q[1:]
		opened = append(opened, s)
		return s
	}
	var c clock
	s, rep, err := Open(context.Background(), []Target{{Provider: "p", Model: "a"}, {Provider: "p", Model: "b"}, {Provider: "q", Model: "c"}}, open, Policy{Sleep: c.sleep})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for ev, more := s.Next(); more; ev, more = s.Next() {
		got = append(got, model.StreamEventType(ev))
	}
	if fmt.Sprint(got) != "[start text_delta done]" {
		t.Errorf("events %v: the first event must be replayed", got)
	}
	var actions []Action
	for _, a := range rep.Attempts {
		actions = append(actions, a.Action)
	}
	if fmt.Sprint(actions) != "[retry failover retry retry failover done]" || fmt.Sprint(c.waits) != fmt.Sprint([]time.Duration{time.Second, time.Second, 2 * time.Second}) {
		t.Errorf("actions %v waits %v", actions, c.waits)
	}
	for _, o := range opened[:5] {
		if !o.closed {
			t.Error("a failed stream was not closed")
		}
	}
	var me *model.Error
	if !errors.As(rep.Attempts[2].Err, &me) || me.Kind != model.ErrTruncated {
		t.Errorf("empty stream classified as %v", rep.Attempts[2].Err)
	}
}
