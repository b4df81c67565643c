package httpengine

import (
	"net/http"
	"time"
)

// Observer receives the events of every exchange an [Engine] runs: one
// [StartEvent], then a [HeadEvent] if a head arrived, one [ChunkEvent] per
// chunk read from the wire, and exactly one [EndEvent]. Events of one
// exchange are delivered in that order and never concurrently; events of
// different exchanges may be concurrent, so an Observer must be safe for
// concurrent use. Observe runs on the exchange's own goroutines and delays
// them while it runs. Header values named secret are already redacted.
type Observer interface {
	Observe(Event)
}

// Event is one of [StartEvent], [HeadEvent], [ChunkEvent], [EndEvent].
type Event interface{ event() }

// Redacted replaces the value of every secret header in observed events.
const Redacted = "[redacted]"

// StartEvent: an exchange began (or was refused; an [EndEvent] follows).
type StartEvent struct {
	Exchange uint64 // unique per Engine, counting from 1
	At       time.Time
	Method   string
	URL      string      // without user info
	Header   http.Header // a redacted copy
	BodySize int64
}

// HeadEvent: the response head arrived.
type HeadEvent struct {
	Exchange   uint64
	Elapsed    time.Duration // since StartEvent.At
	StatusCode int
	Proto      string
	Header     http.Header // a redacted copy
}

// ChunkEvent: one chunk was read from the wire. A chunk read after
// cancellation is observed here but never delivered.
type ChunkEvent struct {
	Exchange uint64
	Size     int
	Offset   int64         // bytes of the body before this chunk
	Elapsed  time.Duration // since StartEvent.At
	Gap      time.Duration // since the previous chunk, or since the head for the first
}

// EndEvent: the exchange finished; End holds the outcome and byte counts.
// For an exchange that failed before a head, End.Outcome is [Failed].
type EndEvent struct {
	Exchange uint64
	Elapsed  time.Duration
	End
}

func (StartEvent) event() {}
func (HeadEvent) event()  {}
func (ChunkEvent) event() {}
func (EndEvent) event()   {}

func redactHeader(h http.Header, secrets, extra map[string]bool) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		ck := http.CanonicalHeaderKey(k)
		if secrets[ck] || extra[ck] {
			r := make([]string, len(vs))
			for i := range r {
				r[i] = Redacted
			}
			out[k] = r
			continue
		}
		out[k] = append([]string(nil), vs...)
	}
	return out
}
