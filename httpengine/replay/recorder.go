package replay

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"sync"
	"time"
)

// redacted replaces secret header values in recordings.
const redacted = "[redacted]"

// defaultSecrets are always redacted in recordings.
var defaultSecrets = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"}

// Recorder is an [http.RoundTripper] that records every exchange passing
// through it to next. It is safe for concurrent use; exchanges are kept in
// the order their requests were made.
type Recorder struct {
	next    http.RoundTripper
	secrets map[string]bool
	mu      sync.Mutex
	log     []*Exchange
}

// NewRecorder records what next carries. The values of secretHeaders and of
// Authorization, Proxy-Authorization, Cookie and Set-Cookie are redacted.
func NewRecorder(next http.RoundTripper, secretHeaders ...string) *Recorder {
	s := map[string]bool{}
	for _, h := range append(append([]string(nil), defaultSecrets...), secretHeaders...) {
		s[textproto.CanonicalMIMEHeaderKey(h)] = true
	}
	return &Recorder{next: next, secrets: s}
}

// RoundTrip sends req through the wrapped transport and records it. The
// request body is read into memory first (the engine bounds it).
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("replay: record request body of %s %s: %w", req.Method, req.URL.Redacted(), err)
		}
		body = b
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	u := *req.URL
	u.User = nil
	x := &Exchange{Method: req.Method, URL: u.String(), RequestHeader: r.redact(req.Header), RequestBody: body}
	r.mu.Lock()
	r.log = append(r.log, x)
	r.mu.Unlock()

	start := time.Now()
	resp, err := r.next.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		x.Failed = err.Error()
		return nil, err
	}
	x.HeadAfter = time.Since(start)
	x.StatusCode, x.Proto, x.Header = resp.StatusCode, resp.Proto, r.redact(resp.Header)
	resp.Body = &recordingBody{rc: resp.Body, r: r, x: x, last: time.Now()}
	return resp, nil
}

func (r *Recorder) redact(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			if r.secrets[textproto.CanonicalMIMEHeaderKey(k)] {
				v = redacted
			}
			out[k] = append(out[k], v)
		}
	}
	return out
}

// Exchanges returns a copy of everything recorded so far. A body still being
// read has the chunks read so far and an empty End.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Exchange, len(r.log))
	for i, x := range r.log {
		out[i] = *x
		out[i].RequestHeader = x.RequestHeader.Clone()
		out[i].Header = x.Header.Clone()
		out[i].Chunks = append([]Chunk(nil), x.Chunks...)
	}
	return out
}

type recordingBody struct {
	rc   io.ReadCloser
	r    *Recorder
	x    *Exchange
	last time.Time
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	now := time.Now()
	b.r.mu.Lock()
	defer b.r.mu.Unlock()
	if n > 0 {
		b.x.Chunks = append(b.x.Chunks, Chunk{After: now.Sub(b.last), Data: bytes.Clone(p[:n])})
		b.last = now
	}
	if b.x.End == "" {
		switch {
		case err == io.EOF:
			b.x.End = EndEOF
		case err != nil:
			b.x.End = err.Error()
		}
	}
	return n, err
}

func (b *recordingBody) Close() error {
	b.r.mu.Lock()
	if b.x.End == "" {
		b.x.End = EndClosed
	}
	b.r.mu.Unlock()
	return b.rc.Close()
}
