package provider

import "net/http"

// Recorder receives each exchange once its stream has ended. Record is
// called from the goroutine pulling the stream.
type Recorder interface {
	Record(Exchange)
}

// Exchange is the redacted record of one provider exchange: the request
// as the codec templated it, secrets shown as ${NAME}, and the response as
// received, with any echo of a secret value replaced.
type Exchange struct {
	Provider string
	Model    string
	Method   string
	URL      string
	// Header is the request header with ${NAME} for each secret.
	Header http.Header
	Body   []byte
	// Status is the response status, 0 if none arrived.
	Status int
	// ResponseHeader is the response header without cookies.
	ResponseHeader http.Header
	// Chunks are the response body chunks in arrival order.
	Chunks [][]byte
	// Outcome is how the body ended (complete, truncated, cancelled,
	// failed), or "refused" when nothing was sent. A body whose stream
	// reached its terminal event is complete even if the server's end of
	// the body was not read.
	Outcome string
	// Err describes a failure, redacted.
	Err string
}

func responseHeader(h http.Header) http.Header {
	out := h.Clone()
	out.Del("Set-Cookie")
	return out
}
