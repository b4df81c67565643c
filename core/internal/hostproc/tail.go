package hostproc

import "sync"

// tail keeps the last max bytes written to it and counts all of them. It is
// safe for concurrent use.
type tail struct {
	mu    sync.Mutex
	max   int
	buf   []byte // ring of at most max bytes
	start int    // index of the oldest byte once the ring is full
	total int64
}

// Write keeps the last bytes of p and counts all of them; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	t.total += int64(n)
	if n >= t.max {
		t.buf = append(t.buf[:0], p[n-t.max:]...)
		t.start = 0
		return n, nil
	}
	if room := t.max - len(t.buf); room > 0 {
		k := min(room, len(p))
		t.buf = append(t.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // ring full: overwrite the oldest bytes
		k := copy(t.buf[t.start:], p)
		p = p[k:]
		t.start = (t.start + k) % t.max
	}
	return n, nil
}

// bytes returns the kept bytes in order and the total written.
func (t *tail) bytes() ([]byte, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]byte, 0, len(t.buf))
	out = append(out, t.buf[t.start:]...)
	out = append(out, t.buf[:t.start]...)
	return out, t.total
}
