package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/smith-agent/smith/smith/internal/lines"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/runtime"
)

// DefaultMaxLine bounds one request line when Options.MaxLineBytes is 0:
// 16 MiB, room for a prompt with a few large images.
const DefaultMaxLine = 16 << 20

// queueDepth is how many ordered requests the reader may read ahead of
// the one being served (so that abort is seen while wait holds the
// ordered lane).
const queueDepth = 1024

// closeGrace bounds closing a session: its run is aborted and has this
// long to settle.
const closeGrace = 10 * time.Second

// Options configure a [Server]. Runtime is required; every other field's
// zero value is a default stated on it.
type Options struct {
	// Runtime is the runtime the server drives. The server does not close
	// it.
	Runtime *runtime.Runtime
	// Session is the session to serve from the start; nil means none until
	// a method needs one: the first prompt starts a new session named from
	// its text. The server closes it (and every session it opens).
	Session *runtime.Session
	// Log receives lines for people: client notifications that failed,
	// events that could not be encoded. Nil discards them. Nothing but
	// protocol messages is ever written to the output.
	Log io.Writer
	// MaxLineBytes bounds one request line; 0 means [DefaultMaxLine].
	MaxLineBytes int
}

// Server serves JSON-RPC 2.0 over a pair of streams, one message per line.
// Build it with [New] and call [Server.Serve] once.
type Server struct {
	rt      *runtime.Runtime
	logw    io.Writer
	max     int
	methods map[string]*method

	out      *lineWriter
	logMu    sync.Mutex
	mu       sync.Mutex // guards sess and fwd; held while switching sessions
	sess     *runtime.Session
	fwd      *forwarder
	shutdown chan struct{} // closed by the shutdown method or the end of input
	// shutdownPending is the id of the shutdown request, answered once the
	// session is closed. Guarded by mu.
	shutdownPending json.RawMessage
	stopOnce        sync.Once
}

// New returns a server for o.
func New(o Options) (*Server, error) {
	if o.Runtime == nil {
		return nil, errors.New("rpc: Options.Runtime is nil; open the runtime first and pass it")
	}
	s := &Server{rt: o.Runtime, logw: o.Log, max: o.MaxLineBytes, methods: methodTable(), sess: o.Session, shutdown: make(chan struct{})}
	if s.max <= 0 {
		s.max = DefaultMaxLine
	}
	return s, nil
}

// logf writes one line to the log.
func (s *Server) logf(format string, args ...any) {
	if s.logw == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.logw, format+"\n", args...)
}

// Serve reads requests from r, one per line, and writes responses and
// event notifications to w, one per line, until r ends, a shutdown request
// is served, w fails or ctx ends. It then aborts a run still active,
// closes the session (bounded by ten seconds), writes the events that
// remain, and returns: nil after the end of input or a shutdown, ctx's
// error when ctx ended first, the write error when w failed.
//
// Requests are served in two lanes. abort, steer, follow_up and the queue
// methods are served as soon as their line is read; every other method is
// served in arrival order, one at a time, so a wait holds the methods read
// after it (up to 1,024 of them) until the session settles or the wait
// times out. Responses may arrive after notifications their request
// caused; a wait's response follows the settled notification of the run
// it waited for. Serve must be called once; it does not close r or w.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.out = newLineWriter(w)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.out.broken:
			cancel()
		case <-ctx.Done():
		}
	}()
	s.mu.Lock()
	if s.sess != nil {
		s.fwd = forward(s.sess.Subscribe(), s.out, s.logf)
	}
	s.mu.Unlock()

	ordered := make(chan *request, queueDepth)
	go s.read(ctx, r, ordered)
	s.work(ctx, ordered)

	// Answer what was read but will not be served.
	for {
		select {
		case req, ok := <-ordered:
			if ok {
				if req.fail != nil && req.answer != nil {
					s.out.error(req.answer, req.fail.code, req.fail.msg)
				} else {
					s.respond(req, nil, errorf(protocol.CodeShuttingDown, "%s: the server is shutting down and serves no more requests", req.method))
				}
				continue
			}
		default:
		}
		break
	}
	closeErr := s.closeSession(context.WithoutCancel(ctx))
	if closeErr != nil {
		s.logf("smith rpc: %s", strings.TrimPrefix(closeErr.Error(), "runtime: "))
	}
	s.mu.Lock()
	shut := s.shutdownPending
	s.mu.Unlock()
	if shut != nil {
		s.out.result(shut, []byte("{}"))
	}
	writeErr := s.out.close()
	switch {
	case writeErr != nil:
		return fmt.Errorf("rpc: write to the client: %w", writeErr)
	case ctx.Err() != nil && !s.stopped():
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			return cause
		}
		return ctx.Err()
	}
	return nil
}

// stopped reports whether a shutdown request or the end of input ended
// the serving.
func (s *Server) stopped() bool {
	select {
	case <-s.shutdown:
		return true
	default:
		return false
	}
}

func (s *Server) stop() { s.stopOnce.Do(func() { close(s.shutdown) }) }

// read reads lines, answers those that are not requests, serves the
// immediate methods and queues the others; it closes ordered at the end of
// input.
func (s *Server) read(ctx context.Context, r io.Reader, ordered chan<- *request) {
	defer close(ordered)
	lr := lines.NewReader(r, s.max)
	for n := 1; ; n++ {
		line, long, err := lr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.logf("smith rpc: read the input: %v", err)
			}
			return
		}
		if s.stopped() || ctx.Err() != nil {
			return
		}
		var req *request
		switch {
		case long:
			req = &request{line: n, answer: nullID, fail: errorf(protocol.CodeInvalidRequest, "line %d is longer than %d bytes and was skipped; send large material as a file the agent can read", n, s.max)}
		case len(bytes.TrimSpace(line)) == 0:
			continue
		default:
			var id json.RawMessage
			var werr *wireError
			if req, id, werr = parse(n, line); werr != nil {
				req = &request{line: n, answer: id, fail: werr}
			} else if s.methods[req.method] == nil {
				req.fail = errorf(protocol.CodeMethodNotFound, "%q is not a method of smith rpc; the methods are %s (see docs/rpc.md)", req.method, strings.Join(protocol.RPCMethods, ", "))
			}
		}
		// Lines that are not requests are answered in the ordered lane, so
		// a transcript's answers keep the order of its lines.
		m := s.methods[req.method]
		if req.fail == nil && m.immediate {
			s.serve(ctx, m, req)
			continue
		}
		select {
		case ordered <- req:
		case <-ctx.Done():
			return
		}
	}
}

// work serves the ordered lane until it closes, shutdown is served or ctx
// ends.
func (s *Server) work(ctx context.Context, ordered <-chan *request) {
	for {
		select {
		case req, ok := <-ordered:
			if !ok {
				s.stop()
				return
			}
			switch {
			case req.fail != nil && req.answer == nil: // an unknown method
				s.respond(req, nil, req.fail)
			case req.fail != nil:
				s.out.error(req.answer, req.fail.code, req.fail.msg)
			default:
				s.serve(ctx, s.methods[req.method], req)
			}
			if s.stopped() {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// serve runs one request and answers it.
func (s *Server) serve(ctx context.Context, m *method, req *request) {
	if s.stopped() {
		s.respond(req, nil, errorf(protocol.CodeShuttingDown, "%s: the server is shutting down and serves no more requests", req.method))
		return
	}
	res, err := m.run(ctx, s, req)
	if errors.Is(err, errDeferred) {
		return
	}
	s.respond(req, res, err)
}

// errDeferred means the method answers later by itself (shutdown).
var errDeferred = errors.New("rpc: answered later")

// respond answers req with res or err; a notification gets no answer and
// a failure is logged instead.
func (s *Server) respond(req *request, res any, err error) {
	if err != nil {
		code, msg := classify(err)
		if req.id == nil {
			s.logf("smith rpc: line %d: notification %s failed: %s", req.line, req.method, msg)
			return
		}
		s.out.error(req.id, code, msg)
		return
	}
	if req.id == nil {
		return
	}
	b, merr := marshal(res)
	if merr != nil {
		s.out.error(req.id, protocol.CodeInternalError, fmt.Sprintf("%s: the result could not be encoded: %v; this is a bug in smith rpc", req.method, merr))
		return
	}
	s.out.result(req.id, b)
}

// classify maps an error to its code and message: usage errors, a busy
// session, the server's own codes, and failures.
func classify(err error) (int, string) {
	var we *wireError
	if errors.As(err, &we) {
		return we.code, we.msg
	}
	msg := strings.ReplaceAll(err.Error(), "runtime: ", "")
	switch {
	case errors.Is(err, runtime.ErrBusy):
		return protocol.CodeBusy, msg
	case errors.Is(err, runtime.ErrUsage):
		return protocol.CodeUsage, msg
	}
	return protocol.CodeFailed, msg
}

// current returns the session; with none, create makes a new one named
// from hint, else it is a no-session error for method.
func (s *Server) current(ctx context.Context, method string, create bool, hint string) (*runtime.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return s.sess, nil
	}
	if !create {
		return nil, errorf(protocol.CodeNoSession, "%s: no session is open yet; send a prompt (it starts a new session named from its text), or call session.new, session.open or session.continue", method)
	}
	sess, err := s.rt.NewSession(ctx, runtime.NewSessionOptions{NameHint: hint})
	if err != nil {
		return nil, err
	}
	s.sess, s.fwd = sess, forward(sess.Subscribe(), s.out, s.logf)
	return sess, nil
}

// peek returns the session, nil when there is none.
func (s *Server) peek() *runtime.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess
}

// forwarder returns the current session's forwarder, nil when there is no
// session.
func (s *Server) forwarder() *forwarder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fwd
}

// switchTo makes the session open returns the current one: refused while
// the current session runs; the old session is closed once the new one is
// open (its remaining events are written first). open gets the old
// session (nil when there is none).
func (s *Server) switchTo(ctx context.Context, open func(old *runtime.Session) (*runtime.Session, error)) (*runtime.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.sess
	if old != nil && old.State().Running {
		return nil, runtime.ErrBusy
	}
	next, err := open(old)
	if err != nil {
		return nil, err
	}
	if next == old {
		return old, nil
	}
	if old != nil {
		if err := s.closeLocked(ctx); err != nil {
			s.logf("smith rpc: close the previous session: %s", strings.TrimPrefix(err.Error(), "runtime: "))
		}
	}
	s.sess, s.fwd = next, forward(next.Subscribe(), s.out, s.logf)
	return next, nil
}

// closeSession closes the current session.
func (s *Server) closeSession(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeLocked(ctx)
}

// closeLocked aborts and closes the current session and waits (bounded)
// for its forwarder to write what remains. Called with s.mu held.
func (s *Server) closeLocked(ctx context.Context) error {
	if s.sess == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, closeGrace)
	defer cancel()
	err := s.sess.Close(ctx)
	if s.fwd != nil {
		select {
		case <-s.fwd.done:
		case <-ctx.Done():
			s.fwd.stop()
		}
	}
	s.sess, s.fwd = nil, nil
	return err
}
