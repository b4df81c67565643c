package route

import (
	"context"
	"fmt"
	"strings"
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

func TestStreamReportsAttemptsAndReplaysTheFirstEvent(t *testing.T) {
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
	s := Stream(context.Background(), []Target{{Provider: "p", Model: "a"}, {Provider: "p", Model: "b"}, {Provider: "q", Model: "c"}}, open, Policy{Retries: 2, Sleep: c.sleep})
	if len(opened) != 0 {
		t.Fatal("Stream opened a target before the first Next")
	}
	var got []string
	for ev, more := s.Next(); more; ev, more = s.Next() {
		switch e := ev.(type) {
		case model.Retrying:
			got = append(got, fmt.Sprintf("retry(%s #%d %s %s)", e.Target, e.Attempt, e.Err.Kind, e.Wait))
		case model.FailingOver:
			got = append(got, fmt.Sprintf("failover(%s→%s %s)", e.From, e.To, e.Err.Kind))
		default:
			got = append(got, model.StreamEventType(ev))
		}
	}
	want := "[retry(p/a #1 overloaded 1s) failover(p/a→p/b rate_limit) retry(p/b #1 truncated 1s) retry(p/b #2 truncated 2s) failover(p/b→q/c truncated) start text_delta done]"
	if fmt.Sprint(got) != want {
		t.Errorf("events\n %v\nwant\n %s", got, want)
	}
	if fmt.Sprint(c.waits) != fmt.Sprint([]time.Duration{time.Second, time.Second, 2 * time.Second}) {
		t.Errorf("waits %v", c.waits)
	}
	for _, o := range opened[:5] {
		if !o.closed {
			t.Error("a failed stream was not closed")
		}
	}
	if err := s.Close(); err != nil || !opened[5].closed {
		t.Errorf("Close = %v; the accepted stream must be closed", err)
	}
}

// TestStreamEveryTargetFails: an invalid request stops at once, with one
// terminal error carrying the failure's kind and saying what was tried.
func TestStreamEveryTargetFails(t *testing.T) {
	open := func(_ context.Context, t Target) model.Stream {
		return &events{evs: []model.StreamEvent{model.StreamError{Err: model.NewError(model.ErrInvalidRequest, "bad tool schema")}}}
	}
	s := Stream(context.Background(), []Target{{Provider: "p", Model: "a"}, {Provider: "q", Model: "b"}}, open, Policy{})
	ev, ok := s.Next()
	se, isErr := ev.(model.StreamError)
	if !ok || !isErr || se.Err.Kind != model.ErrInvalidRequest || se.Err.Message != "bad tool schema (1 attempt on p/a)" {
		t.Fatalf("first event %#v", ev)
	}
	if _, more := s.Next(); more {
		t.Fatal("the stream goes on after its terminal error")
	}
}

// TestStreamCloseEndsAWait: Close from another goroutine ends a retry wait
// at once, and the stream ends aborted.
func TestStreamCloseEndsAWait(t *testing.T) {
	open := func(_ context.Context, t Target) model.Stream {
		return &events{evs: []model.StreamEvent{model.StreamError{Err: model.NewError(model.ErrOverloaded, "busy")}}}
	}
	s := Stream(context.Background(), []Target{{Provider: "p", Model: "a"}}, open, Policy{Backoff: time.Hour, MaxBackoff: time.Hour, MaxTotalWait: 2 * time.Hour})
	if ev, _ := s.Next(); !model.IsNotice(ev) {
		t.Fatalf("first event %#v, want a retry notice", ev)
	}
	done := make(chan model.StreamEvent)
	go func() {
		ev, _ := s.Next()
		done <- ev
	}()
	time.Sleep(10 * time.Millisecond)
	_ = s.Close()
	select {
	case ev := <-done:
		if se, ok := ev.(model.StreamError); !ok || se.Err.Kind != model.ErrAborted {
			t.Fatalf("after Close: %#v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the wait")
	}
}

// TestStreamPassesNoticesBeforeTheAnswer: an attempt that says it is still
// waiting (a notice) before failing is not accepted by the notice: the
// notice reaches the reader and the failure is still retried.
func TestStreamPassesNoticesBeforeTheAnswer(t *testing.T) {
	attempts := 0
	open := func(_ context.Context, t Target) model.Stream {
		attempts++
		if attempts == 1 {
			return &events{evs: []model.StreamEvent{model.Note{Text: "still waiting"}, model.StreamError{Err: model.NewError(model.ErrTransport, "no head")}}}
		}
		return &events{evs: []model.StreamEvent{model.Note{Text: "still waiting"}, model.TextDelta{Text: "hi"}, model.Done{}}}
	}
	s := Stream(context.Background(), []Target{{Provider: "p", Model: "a"}}, open, Policy{Backoff: time.Millisecond, MaxBackoff: time.Millisecond})
	var kinds []string
	for {
		ev, ok := s.Next()
		if !ok {
			break
		}
		kinds = append(kinds, fmt.Sprintf("%T", ev))
	}
	want := "model.Note model.Retrying model.Note model.TextDelta model.Done"
	if got := strings.Join(kinds, " "); got != want || attempts != 2 {
		t.Fatalf("events %s after %d attempts; want %s after 2", got, attempts, want)
	}
}
