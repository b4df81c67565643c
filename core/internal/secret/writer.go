package secret

import (
	"errors"
	"io"
	"sync"
)

// maxKept is the largest buffer a Writer keeps between writes.
const maxKept = 1 << 20

// errClosed is returned by Write after Close.
var errClosed = errors.New("secret: write to a closed redacting Writer")

// Writer returns an io.WriteCloser that writes to w what is written to it,
// redacted. A secret can be split across two Write calls, so it keeps back
// the last bytes of what it has been given, at most the longest encoding
// less one byte, until the next Write or Close; the output is the same as
// Redact of everything written at once (while the Set does not change).
// Close writes what was kept back, redacted, and does not close w. After an
// error from w, Write and Close return that error. The Writer is safe for
// concurrent use.
func (s *Set) Writer(w io.Writer) io.WriteCloser { return &writer{set: s, w: w} }

type writer struct {
	mu     sync.Mutex
	set    *Set
	w      io.Writer
	held   []byte // what was written and not yet passed on
	out    []byte // reused output buffer
	err    error
	closed bool
}

func (w *writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errClosed
	}
	m := w.set.load()
	w.held = append(w.held, p...)
	limit := len(w.held) - max(m.maxLen-1, 0)
	if limit <= 0 {
		return len(p), nil
	}
	if err := w.pass(m, limit); err != nil {
		return 0, err
	}
	return len(p), nil
}

// pass writes the redaction of held up to limit, or to the end of a match
// starting before it, and keeps the rest.
func (w *writer) pass(m *matcher, limit int) error {
	out, n, _ := m.appendRedacted(w.out[:0], w.held, limit)
	w.out = out[:0]
	if len(out) > 0 {
		if _, err := w.w.Write(out); err != nil {
			w.err = err
			return err
		}
	}
	rest := copy(w.held, w.held[n:])
	w.held = w.held[:rest]
	if cap(w.held) > maxKept && rest < maxKept/2 {
		w.held = append([]byte(nil), w.held...) // let a large buffer go
	}
	if cap(w.out) > maxKept {
		w.out = nil
	}
	return nil
}

// Close writes what was kept back, redacted.
func (w *writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return nil
	}
	w.closed = true
	if len(w.held) == 0 {
		return nil
	}
	return w.pass(w.set.load(), len(w.held))
}
