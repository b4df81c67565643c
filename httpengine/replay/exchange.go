package replay

import (
	"net/http"
	"time"
)

// Exchange is one recorded request and what came back.
type Exchange struct {
	Method        string
	URL           string
	RequestHeader http.Header // secret values replaced by "[redacted]"
	RequestBody   []byte
	// Failed is the transport error text when no response head arrived;
	// then the response fields below are empty.
	Failed     string
	HeadAfter  time.Duration // from the request to the response head
	StatusCode int
	Proto      string      // e.g. "HTTP/1.1"
	Header     http.Header // secret values replaced by "[redacted]"
	Chunks     []Chunk
	// End says how reading the body stopped: [EndEOF], [EndClosed], or the
	// read error's text.
	End string
}

// Chunk is one read of the response body as the reader saw it.
type Chunk struct {
	After time.Duration // since the previous chunk, or since the head for the first
	Data  []byte
}

const (
	// EndEOF: the body was read to its end.
	EndEOF = "eof"
	// EndClosed: the reader closed the body before its end (a bound, a
	// cancellation). Replay then reports an error after the last chunk.
	EndClosed = "closed"
)
