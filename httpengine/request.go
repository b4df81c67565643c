package httpengine

import (
	"net/http"
	"time"
)

// Request is one HTTP request. The engine does not modify it. The transport
// may still be sending Body after [Engine.Exchange] returns (a server can
// answer early), so do not modify Body until the response body has ended.
type Request struct {
	Method string // default GET
	URL    string // absolute http or https URL
	Header http.Header
	// Body is sent as is, with its length as Content-Length. A body longer
	// than [Config.MaxRequestBody] is refused before anything is sent.
	Body []byte
	// SecretHeaders names headers whose values are redacted in everything
	// observed, in addition to the engine's secret headers.
	SecretHeaders []string
}

// Response is a response head and its streaming body. Non-2xx statuses are
// responses like any other.
type Response struct {
	StatusCode int
	Status     string // e.g. "200 OK"
	Proto      string // e.g. "HTTP/2.0"
	ProtoMajor int
	ProtoMinor int
	Header     http.Header
	// ContentLength is the announced body length, or -1 when unknown.
	ContentLength int64
	// HeadAfter is the time from the start of the exchange to the head.
	HeadAfter time.Duration
	// Body delivers the body. The caller must either call Next until it
	// returns false or call Close.
	Body *Body
}
