package runtime

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

func stamped(h *hub, ev func(protocol.Seq) protocol.Event) protocol.Event {
	return ev(protocol.Seq{N: h.next()})
}

func delta(index int, text string) func(protocol.Seq) protocol.Event {
	return func(s protocol.Seq) protocol.Event {
		return protocol.MessageUpdate{Seq: s, Delta: model.TextDelta{Index: index, Text: text}}
	}
}

func turn(n int) func(protocol.Seq) protocol.Event {
	return func(s protocol.Seq) protocol.Event { return protocol.TurnStart{Seq: s, Turn: n} }
}

// eventually waits (at most 10 s) for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestHubDeliversInOrder: every subscriber sees every event in sequence
// order; the first subscriber also gets what was published before it.
func TestHubDeliversInOrder(t *testing.T) {
	h := &hub{}
	h.publish(stamped(h, turn(1)))
	a := h.subscribe()
	b := h.subscribe()
	for i := 2; i <= 50; i++ {
		h.publish(stamped(h, turn(i)))
	}
	h.close()
	for name, s := range map[string]*Subscription{"first": a, "second": b} {
		var seqs []uint64
		for ev := range s.Events() {
			seqs = append(seqs, ev.Sequence())
		}
		first := uint64(1)
		if name == "second" {
			first = 2
		}
		if len(seqs) == 0 || seqs[0] != first || seqs[len(seqs)-1] != 50 || uint64(len(seqs)) != 51-first {
			t.Errorf("%s subscriber got %d events from %v", name, len(seqs), seqs[:min(3, len(seqs))])
		}
		for i := 1; i < len(seqs); i++ {
			if seqs[i] != seqs[i-1]+1 {
				t.Fatalf("%s: %d after %d", name, seqs[i], seqs[i-1])
			}
		}
	}
}

// TestHubCoalescesDeltasForASlowConsumer: a consumer that reads nothing
// while 5,000 deltas of one block arrive holds at most SubscriberBuffer
// events and the publisher never blocks; the text read afterwards is the
// whole text, and the last event has the last sequence number.
func TestHubCoalescesDeltasForASlowConsumer(t *testing.T) {
	h := &hub{}
	s := h.subscribe()
	var want strings.Builder
	h.publish(stamped(h, turn(1)))
	for i := range 5000 {
		text := fmt.Sprintf("w%d ", i)
		want.WriteString(text)
		h.publish(stamped(h, delta(0, text)))
	}
	var got strings.Builder
	var n int
	var lastSeq uint64
	read := make(chan struct{})
	go func() {
		defer close(read)
		for ev := range s.Events() {
			n++
			lastSeq = ev.Sequence()
			if u, ok := ev.(protocol.MessageUpdate); ok && u.Delta.(model.TextDelta).Index == 0 {
				got.WriteString(u.Delta.(model.TextDelta).Text)
			}
		}
	}()
	// A delta of another block cannot be merged: it waits for the reader.
	h.publish(stamped(h, delta(1, "next block")))
	last := h.seq
	h.close()
	<-read
	if got.String() != want.String() {
		t.Fatalf("assembled %d bytes, want %d", got.Len(), want.Len())
	}
	if n > SubscriberBuffer+2 || s.Coalesced() == 0 || lastSeq != last {
		t.Fatalf("read %d events (%d coalesced), last seq %d of %d", n, s.Coalesced(), lastSeq, last)
	}
}

// TestHubBackPressure: events that cannot be coalesced make the publisher
// wait once SubscriberBuffer are unread, and it goes on when the consumer
// reads; nothing is lost.
func TestHubBackPressure(t *testing.T) {
	h := &hub{}
	s := h.subscribe()
	var published atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range SubscriberBuffer + 10 {
			h.publish(stamped(h, turn(i)))
			published.Add(1)
		}
	}()
	// The pump holds one event in hand, the queue SubscriberBuffer.
	eventually(t, "the subscription to fill", func() bool { return published.Load() >= SubscriberBuffer })
	select {
	case <-done:
		t.Fatal("the publisher did not wait for the slow consumer")
	case <-time.After(20 * time.Millisecond):
	}
	got := 0
	for range SubscriberBuffer + 10 {
		if _, err := s.Next(context.Background()); err != nil {
			t.Fatal(err)
		}
		got++
	}
	<-done
	if got != SubscriberBuffer+10 || s.Coalesced() != 0 {
		t.Fatalf("read %d, coalesced %d", got, s.Coalesced())
	}
}

// TestSubscriptionClose: a closed subscription no longer holds the
// publisher back, and Next reports ErrClosed.
func TestSubscriptionClose(t *testing.T) {
	h := &hub{}
	s := h.subscribe()
	s.Close()
	for i := range SubscriberBuffer * 2 {
		h.publish(stamped(h, turn(i)))
	}
	if _, err := s.Next(context.Background()); err != ErrClosed {
		t.Fatalf("Next after Close = %v", err)
	}
	h.close()
	late := h.subscribe()
	if _, ok := <-late.Events(); ok {
		t.Fatal("a subscription after close delivered an event")
	}
}

func TestCoalesce(t *testing.T) {
	u := func(n uint64, d model.StreamEvent) protocol.Event {
		return protocol.MessageUpdate{Seq: protocol.Seq{N: n}, Delta: d}
	}
	tests := []struct {
		name string
		a, b protocol.Event
		want protocol.Event
	}{
		{name: "text", a: u(1, model.TextDelta{Text: "a"}), b: u(2, model.TextDelta{Text: "b"}), want: u(2, model.TextDelta{Text: "ab"})},
		{name: "thinking", a: u(1, model.ThinkingDelta{Index: 1, Text: "a", Signature: []byte("s")}), b: u(2, model.ThinkingDelta{Index: 1, Text: "b", Signature: []byte("t")}),
			want: u(2, model.ThinkingDelta{Index: 1, Text: "ab", Signature: []byte("st")})},
		{name: "arguments", a: u(1, model.ToolCallDelta{Index: 2, Arguments: `{"a"`}), b: u(2, model.ToolCallDelta{Index: 2, Arguments: `:1}`}),
			want: u(2, model.ToolCallDelta{Index: 2, Arguments: `{"a":1}`})},
		{name: "other block", a: u(1, model.TextDelta{Index: 0, Text: "a"}), b: u(2, model.TextDelta{Index: 1, Text: "b"})},
		{name: "other kind", a: u(1, model.TextDelta{Text: "a"}), b: u(2, model.ThinkingDelta{Text: "b"})},
		{name: "tool call start", a: u(1, model.ToolCallStart{Index: 0}), b: u(2, model.ToolCallDelta{Index: 0})},
		{name: "not a delta", a: protocol.TurnStart{}, b: u(2, model.TextDelta{Text: "b"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := coalesce(tt.a, tt.b)
			if ok != (tt.want != nil) || fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("coalesce = %v, %v; want %v", got, ok, tt.want)
			}
		})
	}
}
