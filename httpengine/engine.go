package httpengine

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Engine runs bounded, observable HTTP exchanges. It is safe for concurrent
// use: each [Engine.Exchange] blocks only its caller and runs one reading
// goroutine per body. An Engine holds no goroutine of its own.
type Engine struct {
	s   settings
	seq atomic.Uint64
}

// New returns an Engine with c's bounds. It fails on a negative bound or,
// when c.Transport is nil, on an unparsable proxy environment variable.
func New(c Config) (*Engine, error) {
	s, err := c.settings()
	if err != nil {
		return nil, err
	}
	if s.transport == nil {
		if s.transport, err = NewTransport(TransportConfig{}); err != nil {
			return nil, err
		}
	}
	return &Engine{s: s}, nil
}

// Exchange sends req and blocks until the response head arrives, the head
// bound passes, ctx ends, or the transport fails. On success the returned
// Response's Body streams the body; the caller must drain it with
// [Body.Next] or call [Body.Close]. ctx bounds the whole exchange, body
// included. Any status code is a Response (redirects are not followed);
// every error is an [*Error]. The request is sent with Content-Length set;
// the default transport adds no Accept-Encoding and decodes nothing, so the
// body arrives byte for byte as the server sent it.
func (e *Engine) Exchange(ctx context.Context, req Request) (*Response, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	id := e.seq.Add(1)
	start := time.Now()
	secrets := secretSet(req.SecretHeaders)
	shown := showURL(req.URL)
	if e.s.observer != nil {
		e.emit(StartEvent{Exchange: id, At: start, Method: method, URL: withoutUser(req.URL),
			Header: redactHeader(req.Header, e.s.secrets, secrets), BodySize: int64(len(req.Body))})
	}
	fail := func(err *Error) (*Response, error) {
		e.emit(EndEvent{Exchange: id, Elapsed: time.Since(start), End: End{Outcome: Failed, Err: err}})
		return nil, err
	}

	if n := int64(len(req.Body)); n > e.s.maxRequest {
		return fail(&Error{Kind: KindRequest, Op: "send request", URL: shown, Detail: fmt.Sprintf(
			"body is %d bytes, over the %d-byte bound (Config.MaxRequestBody); nothing was sent; shrink the body or raise the bound", n, e.s.maxRequest)})
	}
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the url.Error repeats the URL, user info and all
		}
		return fail(&Error{Kind: KindRequest, Op: "send request", URL: shown,
			Detail: "the URL is not an absolute http or https URL; nothing was sent", Err: err})
	}

	xctx, cancel := context.WithCancel(ctx)
	hreq, err := http.NewRequestWithContext(xctx, method, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		cancel()
		return fail(&Error{Kind: KindRequest, Op: "send request", URL: shown,
			Detail: fmt.Sprintf("method %q is not a valid HTTP method; nothing was sent", method), Err: err})
	}
	if req.Header != nil {
		hreq.Header = req.Header.Clone()
	}
	var handshaking atomic.Bool
	hreq = hreq.WithContext(httptrace.WithClientTrace(xctx, &httptrace.ClientTrace{
		TLSHandshakeStart: func() { handshaking.Store(true) },
		TLSHandshakeDone:  func(_ tls.ConnectionState, err error) { handshaking.Store(err != nil) },
	}))
	var headLate atomic.Bool
	timer := time.AfterFunc(e.s.headTimeout, func() { headLate.Store(true); cancel() })
	resp, err := e.s.transport.RoundTrip(hreq)
	if !timer.Stop() {
		headLate.Store(true)
	}
	if err == nil && resp == nil {
		err = fmt.Errorf("the transport (%T) returned neither a response nor an error", e.s.transport)
	}
	if err == nil && headLate.Load() {
		resp.Body.Close()
		err = context.Canceled
	}
	if err != nil {
		cancel()
		xe := &Error{Op: "read head", URL: shown, Err: err}
		switch {
		case headLate.Load(): // the cause is our own cancellation: not worth showing
			xe.Kind, xe.Err, xe.Detail = KindTimeout, nil, fmt.Sprintf(
				"no response head within %v (Config.HeadTimeout); the server or network stalled; retry later or raise the bound", e.s.headTimeout)
		case ctx.Err() != nil:
			xe.Kind, xe.Err = KindCancelled, ctx.Err()
		default:
			xe.Kind = classify(err)
			if handshaking.Load() && (xe.Kind == KindReset || xe.Kind == KindProtocol) {
				xe.Kind = KindTLS // the peer hung up or spoke nonsense mid-handshake
			}
		}
		return fail(xe)
	}

	headAfter := time.Since(start)
	if e.s.observer != nil {
		e.emit(HeadEvent{Exchange: id, Elapsed: headAfter, StatusCode: resp.StatusCode, Proto: resp.Proto,
			Header: redactHeader(resp.Header, e.s.secrets, secrets)})
	}
	b := &Body{
		ch: make(chan []byte, e.s.queue), free: make(chan []byte, e.s.queue+2), done: make(chan struct{}),
		ctx: ctx, cancel: cancel, xdone: xctx.Done(), engine: e, id: id, start: start,
	}
	go b.read(resp.Body, shown, headAfter)
	return &Response{
		StatusCode: resp.StatusCode, Status: resp.Status, Proto: resp.Proto, ProtoMajor: resp.ProtoMajor,
		ProtoMinor: resp.ProtoMinor, Header: resp.Header, ContentLength: resp.ContentLength,
		HeadAfter: headAfter, Body: b,
	}, nil
}

func (e *Engine) emit(ev Event) {
	if e.s.observer != nil {
		e.s.observer.Observe(ev)
	}
}

// showURL is the URL as errors name it: no user info, no query, no fragment.
func showURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return unparsable(raw)
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// withoutUser is the URL as observers see it: no user info.
func withoutUser(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return unparsable(raw)
	}
	u.User = nil
	return u.String()
}

// unparsable quotes a URL that did not parse, unless it may hold user info.
func unparsable(raw string) string {
	if strings.Contains(raw, "@") {
		return fmt.Sprintf("(unparsable URL of %d bytes containing '@', not shown)", len(raw))
	}
	return fmt.Sprintf("%q", raw)
}
