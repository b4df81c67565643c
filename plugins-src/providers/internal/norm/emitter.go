package norm

// Emitter collects the events a decoder produces for one chunk and keeps the
// invariants every decoder shares: block indexes are allocated in order,
// and nothing is emitted after the one terminal event. The zero Emitter is
// ready; it is not safe for concurrent use.
type Emitter struct {
	events []Event
	blocks int
	ended  bool
}

// Reset forgets the events collected so far (not the stream state) and
// returns them; the returned slice is reused by the next collection.
func (e *Emitter) Reset() []Event {
	out := e.events
	e.events = e.events[:0]
	return out
}

// Events returns the events collected since the last Reset.
func (e *Emitter) Events() []Event { return e.events }

// Open allocates the index of a new content block.
func (e *Emitter) Open() int {
	e.blocks++
	return e.blocks - 1
}

// Blocks returns how many block indexes were allocated.
func (e *Emitter) Blocks() int { return e.blocks }

// Emit appends a non-terminal event; it is dropped after the terminal event.
func (e *Emitter) Emit(ev Event) {
	if !e.ended {
		e.events = append(e.events, ev)
	}
}

// End appends the terminal event ([Done] or [StreamError]) unless the stream
// already ended.
func (e *Emitter) End(ev Event) {
	if !e.ended {
		e.ended = true
		e.events = append(e.events, ev)
	}
}

// Ended reports whether the terminal event was emitted.
func (e *Emitter) Ended() bool { return e.ended }

// Truncated returns the terminal event for a body that ended without a stop
// signal; codec names the decoder and what names the missing signal.
func Truncated(codec, what string, u Usage) StreamError {
	return StreamError{Err: &Error{Kind: ErrTruncated, Retryable: true,
		Message: codec + ": the response body ended before " + what + "; the answer is incomplete, retry the request"}, Usage: u}
}
