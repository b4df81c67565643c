package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/httpengine"
	"github.com/smith-agent/smith/wasmhost"
)

// stream is one exchange. Next holds mu while it works; Close cancels the
// context first so a Next blocked on the network returns promptly.
type stream struct {
	p      *Provider
	ctx    context.Context
	cancel context.CancelFunc
	// stop cancels ctx with a cause: a time bound that ran out.
	stop context.CancelCauseFunc
	req  *model.Request
	// idle and total enforce Config.IdleTimeout and ResponseTimeout; note
	// fires when the next progress note is due (one timer, reset for each
	// wait: a body read must not allocate one).
	idle, total, note *time.Timer
	// head delivers the exchange's response head while it is awaited;
	// guest is the codec that built the request (it classifies a failure).
	head  chan exchanged
	guest *pluginabi.Guest
	url   string
	// sent is when the request went out, content when the stream last
	// yielded content, quiet when it last yielded content or a note.
	sent, content, quiet time.Time

	mu       sync.Mutex
	started  bool
	over     bool // no more events after the queue
	queue    []model.StreamEvent
	in       *wasmhost.Instance
	dec      *Decoder
	body     *httpengine.Body
	conv     *converter
	rec      Exchange
	chunks   *secret.Stream // redacts the recorded chunks (Config.Redactor); nil: none
	recorded bool
	eff      *effect.Effect
}

// Next returns the next event, pulling and decoding chunks as needed.
func (s *stream) Next() (model.StreamEvent, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) == 0 {
		if s.over {
			return nil, false
		}
		switch {
		case !s.started:
			s.started = true
			s.start()
		case s.head != nil:
			s.awaitHead()
		default:
			s.step()
		}
	}
	ev := s.queue[0]
	s.queue = s.queue[1:]
	return ev, true
}

// Close ends the stream and releases its instance and connection.
func (s *stream) Close() error {
	s.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.over {
		s.over = true
		s.queue = nil
		if s.started {
			s.rec.Outcome = httpengine.Cancelled.String()
		}
	}
	s.release()
	return nil
}

func (s *stream) fail(k model.ErrorKind, err error) {
	msg := s.conv.scrub(err.Error())
	s.queue = append(s.queue, model.StreamError{Err: &model.Error{Kind: k, Message: msg, Retryable: k.Retryable()}, Usage: s.conv.priced()})
	if s.rec.Err == "" {
		s.rec.Err = msg
	}
	s.end()
}

// end marks the stream over and releases everything; an in-stream failure
// is noted in the record.
func (s *stream) end() {
	if n := len(s.queue); n > 0 && s.rec.Err == "" {
		if se, ok := s.queue[n-1].(model.StreamError); ok {
			s.rec.Err = se.Err.Error()
		}
	}
	s.over = true
	s.release()
}

func (s *stream) release() {
	for _, t := range []*time.Timer{s.idle, s.total, s.note} {
		if t != nil {
			t.Stop()
		}
	}
	if s.body != nil {
		s.body.Close()
		if s.rec.Outcome == "" {
			s.rec.Outcome = s.body.End().Outcome.String()
		}
		s.body = nil
	}
	if s.dec != nil {
		s.dec.Close()
		s.dec = nil
	}
	if s.in != nil {
		s.in.Release()
		s.in = nil
	}
	if s.rec.Outcome == "" && s.started {
		s.rec.Outcome = httpengine.Cancelled.String()
	}
	if s.chunks != nil {
		if tail := scrubBytes(s.chunks.Flush(), s.conv.secrets); len(tail) > 0 {
			s.rec.Chunks = append(s.rec.Chunks, tail)
		}
	}
	s.complete()
	if s.started && !s.recorded && s.p.cfg.Recorder != nil {
		s.recorded = true
		s.p.cfg.Recorder.Record(s.rec)
	}
}

// start builds, resolves and sends the request and opens the decoder.
func (s *stream) start() {
	cfg := &s.p.cfg
	s.conv = &converter{provider: cfg.Name, cost: cfg.Cost}
	s.rec = Exchange{Provider: cfg.Name}
	if s.req != nil {
		s.conv.model, s.conv.requested, s.rec.Model = s.req.Model, s.req.Model, s.req.Model
	}
	if err := s.ctx.Err(); err != nil {
		s.rec.Outcome = "refused"
		s.fail(model.ErrAborted, fmt.Errorf("provider: request to %q cancelled before dispatch: %w", cfg.Name, err))
		return
	}
	if s.req == nil {
		s.rec.Outcome = "refused"
		s.fail(model.ErrInvalidRequest, fmt.Errorf("provider: Stream for %q got a nil request; pass a *model.Request", cfg.Name))
		return
	}
	doc, err := s.p.document(s.req)
	if err != nil {
		s.rec.Outcome = "refused"
		s.fail(model.ErrInvalidRequest, fmt.Errorf("provider: encode the request for %q: %w", cfg.Name, err))
		return
	}
	in, err := cfg.Instances.Acquire(s.ctx, cfg.Plugin)
	if err != nil {
		s.rec.Outcome = "refused"
		s.fail(model.ErrMalformed, fmt.Errorf("provider: start codec plugin %q for %q: %w", cfg.Plugin, cfg.Name, err))
		return
	}
	s.in = in
	g := pluginabi.Bind(in)
	tpl, err := g.BuildRequest(s.ctx, pluginabi.RequestSnapshot{Provider: cfg.Name, Model: s.req.Model, Document: doc},
		pluginabi.BuildOptions{Streaming: true})
	if err != nil {
		s.rec.Outcome = "refused"
		var fault pluginabi.CodecFault
		if errors.As(err, &fault) {
			s.fail(model.ErrInvalidRequest, fmt.Errorf("provider: the codec for %q refused the request: %w", cfg.Name, fault))
			return
		}
		s.fail(model.ErrMalformed, fmt.Errorf("provider: codec plugin %q failed building the request for %q: %w", cfg.Plugin, cfg.Name, err))
		return
	}
	r, err := resolve(cfg.Name, tpl, cfg.Secrets, cfg.Redactor)
	s.conv.secrets, s.conv.redactor = r.secrets, cfg.Redactor
	s.rec.Method, s.rec.URL, s.rec.Header, s.rec.Body = r.req.Method, r.req.URL, r.shown, r.req.Body
	if err != nil {
		s.rec.Outcome = "refused"
		s.fail(model.ErrAuth, err)
		return
	}
	if cfg.Endpoint != nil {
		note, err := cfg.Endpoint(r.req.URL, len(r.req.SecretHeaders) > 0)
		if err != nil {
			s.rec.Outcome = "refused"
			s.fail(model.ErrInvalidRequest, err)
			// Like the catalog's capability refusal, the host's own: no
			// provider said it, and nothing was sent.
			s.queue[len(s.queue)-1].(model.StreamError).Err.ProviderType = EndpointRefused
			return
		}
		if note != "" {
			s.queue = append(s.queue, model.Note{Text: note})
		}
	}
	if err := s.begin(); err != nil {
		s.rec.Outcome = "refused"
		s.fail(model.ErrAborted, fmt.Errorf("provider: request to %q not sent: the effect journal refused it: %w", cfg.Name, err))
		return
	}
	s.total = time.AfterFunc(orDuration(cfg.ResponseTimeout, DefaultResponseTimeout), func() { s.stop(errResponseTimeout) })
	now := time.Now()
	s.guest, s.url, s.sent, s.content, s.quiet = g, r.req.URL, now, now, now
	s.head = make(chan exchanged, 1)
	go func(ctx context.Context, req httpengine.Request, head chan<- exchanged) {
		resp, err := cfg.Engine.Exchange(ctx, req)
		if err == nil && ctx.Err() != nil {
			// Closed or timed out while the head was on its way: nobody
			// will read this body.
			resp.Body.Close()
			resp, err = nil, ctx.Err()
		}
		head <- exchanged{resp, err}
	}(s.ctx, r.req, s.head)
}

// exchanged is the outcome of sending the request: the response head or
// why there is none.
type exchanged struct {
	resp *httpengine.Response
	err  error
}

// awaitHead waits for the response head, yielding a progress note each
// WaitNotice it does not come.
func (s *stream) awaitHead() {
	cfg := &s.p.cfg
	select {
	case x := <-s.head:
		s.head = nil
		s.headed(x.resp, x.err)
	case <-s.noteDue():
		s.addNote(fmt.Sprintf("waiting for %s to answer: no response yet after %s", cfg.Name, since(s.sent)))
	}
}

// noteDue returns a channel that delivers when the next progress note is
// due: WaitNotice after the last content or note.
func (s *stream) noteDue() <-chan time.Time {
	d := max(0, orDuration(s.p.cfg.WaitNotice, DefaultWaitNotice)-time.Since(s.quiet))
	if s.note == nil {
		s.note = time.NewTimer(d)
	} else {
		s.note.Reset(d) // since Go 1.23 no stale tick survives a Reset
	}
	return s.note.C
}

// addNote yields a progress note.
func (s *stream) addNote(text string) {
	s.quiet = time.Now()
	s.queue = append(s.queue, model.Note{Text: text, Progress: true})
}

// since renders the time since start, rounded to the second.
func since(start time.Time) time.Duration { return time.Since(start).Round(time.Second) }

// headed goes on from the response head: a failure is classified, a
// success opens the decoder.
func (s *stream) headed(resp *httpengine.Response, err error) {
	cfg := &s.p.cfg
	if err != nil {
		s.rec.Outcome = httpengine.Failed.String()
		if s.timedOut(0) {
			return
		}
		var xe *httpengine.Error
		if errors.As(err, &xe) && xe.Kind == httpengine.KindTimeout {
			s.fail(model.ErrTransport, fmt.Errorf("provider: no response head from %q (%s) in time; the server or the network stalled; head-timeout (smith.kdl, SMITH_HEAD_TIMEOUT or --head-timeout) sets how long to wait", cfg.Name, s.url))
			return
		}
		s.fail(transportKind(s.ctx, err), fmt.Errorf("provider: %s %s for %q: %w", s.rec.Method, s.url, cfg.Name, err))
		return
	}
	idle := orDuration(cfg.IdleTimeout, DefaultIdleTimeout)
	s.idle = time.AfterFunc(idle, func() { s.stop(errIdle) })
	s.body = resp.Body
	s.rec.Status, s.rec.ResponseHeader = resp.StatusCode, responseHeader(resp.Header)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		s.classify(s.guest, resp)
		return
	}
	dec, err := newDecoder(s.ctx, s.in, cfg.Plugin, DecodeOptions{Provider: cfg.Name, Model: s.req.Model,
		Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type")})
	if err != nil {
		s.fail(model.ErrMalformed, err)
		return
	}
	dec.conv = s.conv
	s.dec = dec
}

// classify reads a failed response's body (bounded) and has the codec
// classify it.
func (s *stream) classify(g *pluginabi.Guest, resp *httpengine.Response) {
	cfg := &s.p.cfg
	var body []byte
	for len(body) < cfg.MaxErrorBody {
		chunk, ok := resp.Body.Next()
		if !ok {
			break
		}
		s.recordChunk(chunk)
		body = append(body, chunk...)
	}
	body = body[:min(len(body), cfg.MaxErrorBody)]
	opts := pluginabi.ClassifyOptions{Provider: cfg.Name, Status: uint16(resp.StatusCode), Headers: classifyHeaders(resp.Header)}
	f, err := g.ClassifyFailure(s.ctx, body, opts)
	if err != nil {
		s.fail(model.ErrServer, fmt.Errorf("provider: %q answered http %d and codec plugin %q could not classify it: %w", cfg.Name, resp.StatusCode, cfg.Plugin, err))
		return
	}
	e := s.conv.modelError(f, resp.StatusCode)
	s.rec.Err = e.Error()
	s.queue = append(s.queue, model.StreamError{Err: e, Usage: s.conv.priced()})
	s.end()
}

// recordChunk records a response chunk without registered secrets or
// the request's credentials; a secret split across chunks is redacted
// when it completes, the tail that may begin one kept for the next chunk
// (or the end, release).
func (s *stream) recordChunk(chunk []byte) {
	b := append([]byte(nil), chunk...)
	if r := s.conv.redactor; r != nil {
		if s.chunks == nil {
			s.chunks = r.Stream()
		}
		b = append([]byte(nil), s.chunks.Next(b)...)
	}
	if b = scrubBytes(b, s.conv.secrets); len(b) > 0 || s.chunks == nil {
		s.rec.Chunks = append(s.rec.Chunks, b)
	}
}

// step pulls one chunk (or the body's end) through the decoder.
func (s *stream) step() {
	cfg := &s.p.cfg
	chunk, ok, waited := s.body.NextWithin(s.noteDue())
	if waited {
		s.addNote(fmt.Sprintf("waiting for %s: no new content for %s (idle-timeout %v)", cfg.Name, since(s.content),
			orDuration(cfg.IdleTimeout, DefaultIdleTimeout)))
		return
	}
	if ok {
		if cfg.Recorder != nil || cfg.Journal != nil {
			s.recordChunk(chunk)
		}
		var err error
		before := len(s.queue)
		if s.queue, err = s.dec.Decode(s.ctx, chunk, s.queue); err != nil {
			s.decodeFailed(err)
			return
		}
		if len(s.queue) > before {
			s.idle.Reset(orDuration(cfg.IdleTimeout, DefaultIdleTimeout))
			s.content, s.quiet = time.Now(), time.Now()
		}
		if s.dec.Terminal() {
			// The response ended by its protocol; the server's EOF may not
			// have been read yet, so the body is not waited for.
			s.rec.Outcome = httpengine.Complete.String()
			s.end()
		}
		return
	}
	end := s.body.End()
	s.rec.Outcome = end.Outcome.String()
	if end.Outcome != httpengine.Complete && s.timedOut(end.Delivered) {
		return
	}
	switch end.Outcome {
	case httpengine.Cancelled:
		s.fail(model.ErrAborted, fmt.Errorf("provider: response from %q cancelled after %d bytes", cfg.Name, end.Delivered))
		return
	case httpengine.Failed:
		s.fail(transportKind(s.ctx, end.Err), fmt.Errorf("provider: response from %q failed after %d bytes: %w", cfg.Name, end.Delivered, end.Err))
		return
	case httpengine.Truncated:
		s.fail(model.ErrTruncated, fmt.Errorf("provider: the response from %q was cut after %d bytes, Smith's bound on one response; ask for a shorter answer, or lower max-output-tokens", cfg.Name, end.Delivered))
		return
	}
	var err error
	if s.queue, err = s.dec.Finish(s.ctx, s.queue); err != nil {
		s.decodeFailed(err)
		return
	}
	s.end()
}

func (s *stream) decodeFailed(err error) {
	cfg := &s.p.cfg
	if s.timedOut(0) {
		return
	}
	if s.ctx.Err() != nil {
		s.fail(model.ErrAborted, fmt.Errorf("provider: response from %q cancelled: %w", cfg.Name, s.ctx.Err()))
		return
	}
	s.fail(model.ErrMalformed, err)
}

// The causes of a stream's context ending on a time bound.
var (
	errIdle            = errors.New("no content within the idle timeout")
	errResponseTimeout = errors.New("the response took longer than the response timeout")
)

// timedOut fails the stream and reports true when its context ended on a
// time bound: no content within IdleTimeout (a server that trickles or
// sends only keep-alives), or the whole exchange over ResponseTimeout.
// delivered is how many body bytes had arrived.
func (s *stream) timedOut(delivered int64) bool {
	cfg := &s.p.cfg
	switch context.Cause(s.ctx) {
	case errIdle:
		s.fail(model.ErrTransport, fmt.Errorf("provider: %q sent no content for %v (after %d bytes of response; keep-alives do not count); the server stalled; idle-timeout (smith.kdl, SMITH_IDLE_TIMEOUT or --idle-timeout) sets how long to wait",
			cfg.Name, orDuration(cfg.IdleTimeout, DefaultIdleTimeout), delivered))
	case errResponseTimeout:
		e := &model.Error{Kind: model.ErrTransport, Retryable: false, Message: fmt.Sprintf("provider: the response from %q took longer than %v and was stopped; response-timeout (smith.kdl, SMITH_RESPONSE_TIMEOUT or --response-timeout) sets the bound",
			cfg.Name, orDuration(cfg.ResponseTimeout, DefaultResponseTimeout))}
		s.queue = append(s.queue, model.StreamError{Err: e, Usage: s.conv.priced()})
		if s.rec.Err == "" {
			s.rec.Err = e.Message
		}
		s.end()
	default:
		return false
	}
	return true
}

// orDuration returns d, or def when d is not positive.
func orDuration(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func transportKind(ctx context.Context, err error) model.ErrorKind {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return model.ErrAborted
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return model.ErrTruncated
	}
	return model.ErrTransport
}
