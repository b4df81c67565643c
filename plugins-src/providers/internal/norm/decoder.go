package norm

// Decoder turns the raw chunks of one response body into normalized events.
//
// Feed consumes the next chunk, which may be split anywhere, and returns the
// events it completed; Close ends the body and returns the remaining events,
// always ending with exactly one terminal event over the life of the
// decoder. The returned slices are reused by the next call. A Decoder is
// used by one goroutine at a time.
type Decoder interface {
	Feed(chunk []byte) []Event
	Close() []Event
	// Framing reports the framing facts of the body fed so far.
	Framing() Framing
}

// Framing are the framing facts of a body (see package sse).
type Framing struct {
	LineEndings  string
	EventLines   bool
	Events       int
	CommentLines int
	Done         bool
	NonSSE       bool
}
