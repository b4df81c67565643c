package replay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// Transport is an [http.RoundTripper] that serves recorded exchanges in
// order, without a network. It is safe for concurrent use, though
// concurrent requests take exchanges in the order they arrive.
type Transport struct {
	// Timing, when set, replays the recorded delays before the head and
	// between chunks (honouring the request's context). Default off: replay
	// runs as fast as the reader. Set it before the first RoundTrip.
	Timing bool

	mu        sync.Mutex
	exchanges []Exchange
	next      int
}

// NewTransport serves exchanges, which it does not modify.
func NewTransport(exchanges []Exchange) *Transport {
	return &Transport{exchanges: exchanges}
}

// RoundTrip returns the next recorded response. It fails, naming both, when
// the request's method or URL differs from the recording's, and when the
// recording is exhausted.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	t.mu.Lock()
	i := t.next
	if i >= len(t.exchanges) {
		t.mu.Unlock()
		return nil, fmt.Errorf("replay: request %d (%s %s) has no recorded exchange; the recording holds %d", i+1, req.Method, req.URL.Redacted(), len(t.exchanges))
	}
	x := &t.exchanges[i]
	u := *req.URL
	u.User = nil
	if x.Method != req.Method || x.URL != u.String() {
		t.mu.Unlock()
		return nil, fmt.Errorf("replay: request %d is %s %s but the recording's exchange %d is %s %s; replay the session that made this recording", i+1, req.Method, u.String(), i+1, x.Method, x.URL)
	}
	t.next++
	t.mu.Unlock()

	ctx := req.Context()
	if t.Timing {
		if err := sleep(ctx, x.HeadAfter); err != nil {
			return nil, err
		}
	}
	if x.Failed != "" {
		return nil, &RecordedError{Text: x.Failed}
	}
	major, minor := 1, 1
	if _, err := fmt.Sscanf(x.Proto, "HTTP/%d.%d", &major, &minor); err != nil {
		major, minor = 1, 1
	}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", x.StatusCode, http.StatusText(x.StatusCode)), StatusCode: x.StatusCode,
		Proto: x.Proto, ProtoMajor: major, ProtoMinor: minor, Header: x.Header.Clone(),
		ContentLength: -1, Body: &replayBody{ctx: ctx, x: x, timing: t.Timing}, Request: req,
	}, nil
}

// RecordedError is a transport or body error replayed from a recording.
type RecordedError struct{ Text string }

// Error formats "replay: recorded error: <text>".
func (e *RecordedError) Error() string { return "replay: recorded error: " + e.Text }

type replayBody struct {
	ctx     context.Context
	x       *Exchange
	timing  bool
	i       int          // next chunk
	rest    bytes.Reader // unread part of the current chunk
	inChunk bool
}

func (b *replayBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if !b.inChunk || b.rest.Len() == 0 {
		if b.i >= len(b.x.Chunks) {
			switch b.x.End {
			case EndEOF:
				return 0, io.EOF
			case EndClosed, "":
				return 0, &RecordedError{Text: "the recording stops here: the original reader closed the body before its end"}
			}
			return 0, &RecordedError{Text: b.x.End}
		}
		c := b.x.Chunks[b.i]
		b.i++
		if b.timing {
			if err := sleep(b.ctx, c.After); err != nil {
				return 0, err
			}
		}
		b.rest.Reset(c.Data)
		b.inChunk = true
	}
	return b.rest.Read(p)
}

func (b *replayBody) Close() error { return nil }

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
