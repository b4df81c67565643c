package secret

// Stream redacts what arrives in pieces — a model's streamed text, a
// response's chunks — without the delay of a [Writer]: Next passes on all
// but the shortest tail that could still begin a secret, so text that
// cannot hold one is never kept back. The concatenation of what Next and
// Flush return is the redaction of everything given (while the Set does
// not change). A Stream is not safe for concurrent use; its zero value is
// unusable, make one with [Set.Stream].
type Stream struct {
	set  *Set
	held []byte
	out  []byte // reused for what Next returns
}

// Stream returns a Stream redacting with s.
func (s *Set) Stream() *Stream { return &Stream{set: s} }

// Next adds p and returns what can be passed on, redacted; the returned
// slice is valid until the next call.
func (st *Stream) Next(p []byte) []byte {
	m := st.set.load()
	if len(st.held) == 0 && len(m.pats) == 0 {
		return p
	}
	st.held = append(st.held, p...)
	limit := len(st.held) - m.partial(st.held)
	out, n, _ := m.appendRedacted(st.out[:0], st.held, limit)
	st.out = out
	st.held = st.held[:copy(st.held, st.held[n:])]
	return out
}

// Flush returns what was kept back, redacted, and empties the Stream.
func (st *Stream) Flush() []byte {
	if len(st.held) == 0 {
		return nil
	}
	out, _ := st.set.load().redact(st.held)
	out = append([]byte(nil), out...)
	st.held = st.held[:0]
	return out
}

// partial returns the length of the longest suffix of b that is a proper
// prefix of a pattern: the bytes that may yet become a match.
func (m *matcher) partial(b []byte) int {
	for start := max(0, len(b)-m.maxLen+1); start < len(b); start++ {
		tail := b[start:]
		for _, pi := range m.byFirst[tail[0]] {
			p := m.pats[pi]
			if len(p) > len(tail) && p[:len(tail)] == string(tail) {
				return len(tail)
			}
		}
	}
	return 0
}
