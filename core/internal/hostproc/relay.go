package hostproc

import "sync"

// relay keeps the output in its tail and hands a copy of every write to fn
// (Options.Output), in order.
type relay struct {
	mu   sync.Mutex
	tail *tail
	fn   func([]byte)
}

func (r *relay) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, _ := r.tail.Write(p)
	r.fn(append([]byte(nil), p...))
	return n, nil
}
