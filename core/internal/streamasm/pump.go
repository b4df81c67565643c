package streamasm

import (
	"time"

	"github.com/smith-agent/smith/core/model"
)

// Pump reads a provider stream on a goroutine of its own, so that its
// reader can wait for the next event and for a cancellation (or other
// input) at once. A provider that panics does not take the process down:
// the events end and [Pump.Panicked] says what happened. Events is read by
// one goroutine; Close is called once, by that goroutine.
type Pump struct {
	s        model.Stream
	events   chan model.StreamEvent
	stop     chan struct{}
	exited   chan struct{}
	panicked *model.Error
}

// NewPump starts reading s.
func NewPump(s model.Stream) *Pump {
	p := &Pump{s: s, events: make(chan model.StreamEvent, 16), stop: make(chan struct{}), exited: make(chan struct{})}
	go p.read()
	return p
}

func (p *Pump) read() {
	defer close(p.exited)
	defer close(p.events)
	defer func() {
		if r := recover(); r != nil {
			p.panicked = model.NewError(model.ErrMalformed, "the provider panicked: %v", r)
		}
	}()
	for {
		ev, ok := p.s.Next()
		if !ok {
			return
		}
		select {
		case p.events <- ev:
		case <-p.stop:
			return
		}
	}
}

// Events delivers the stream's events; it is closed when the stream ends.
func (p *Pump) Events() <-chan model.StreamEvent { return p.events }

// Panicked returns the malformed-stream error of a provider that panicked,
// or nil; it is valid once Events is closed.
func (p *Pump) Panicked() *model.Error { return p.panicked }

// Close stops reading, closes the stream and waits at most grace for the
// reading goroutine. A provider that ignores the stream's cancellation
// leaves that goroutine behind (it exits when Next returns) and nothing it
// sends is used.
func (p *Pump) Close(grace time.Duration) {
	close(p.stop)
	_ = p.s.Close()
	select {
	case <-p.exited:
		return
	default:
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
}
