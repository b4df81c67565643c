package secret

import (
	"errors"
	"io"
	"sync"
)

// errClosed is returned by Write after Close.
var errClosed = errors.New("secret: write to a closed redacting Writer")

// Writer returns an io.WriteCloser that writes to w what is written to it,
// redacted, through a [Stream]: a secret can be split across two Write
// calls, so it keeps back, until the next Write or Close, only the longest
// tail of what it has been given that could still begin a secret or an
// encoding of one, and passes on text that cannot at once. The output is
// the same as Redact of everything written at once (while the Set does not
// change). Close writes what was kept back, redacted, and does not close
// w. After an error from w, Write and Close return that error. The Writer
// is safe for concurrent use.
func (s *Set) Writer(w io.Writer) io.WriteCloser { return &writer{st: s.Stream(), w: w} }

type writer struct {
	mu     sync.Mutex
	st     *Stream
	w      io.Writer
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
	if err := w.pass(w.st.Next(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// pass writes b to w and keeps w's error.
func (w *writer) pass(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if _, err := w.w.Write(b); err != nil {
		w.err = err
		return err
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
	return w.pass(w.st.Flush())
}
