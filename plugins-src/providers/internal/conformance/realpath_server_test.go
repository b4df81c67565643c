package conformance

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// captured is one request the loopback server received.
type captured struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// loopback serves one canned response per request, written in the given
// chunks with a flush after each, and keeps every request it received.
type loopback struct {
	*httptest.Server
	mu       sync.Mutex
	requests []captured
	status   int
	header   map[string]string
	chunks   [][]byte
}

func newLoopback(t *testing.T) *loopback {
	t.Helper()
	l := &loopback{status: http.StatusOK}
	l.Server = httptest.NewServer(http.HandlerFunc(l.serve))
	t.Cleanup(l.Close)
	return l
}

// respond sets the response of the following requests.
func (l *loopback) respond(status int, header map[string]string, chunks [][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.status, l.header, l.chunks = status, header, chunks
}

func (l *loopback) last() captured {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.requests) == 0 {
		return captured{}
	}
	return l.requests[len(l.requests)-1]
}

func (l *loopback) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	l.requests = append(l.requests, captured{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body})
	status, header, chunks := l.status, l.header, l.chunks
	l.mu.Unlock()
	if _, ok := header["content-type"]; !ok && status == http.StatusOK {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	f, _ := w.(http.Flusher)
	for _, c := range chunks {
		if _, err := io.Copy(w, bytes.NewReader(c)); err != nil {
			return
		}
		if f != nil {
			f.Flush()
		}
	}
}
