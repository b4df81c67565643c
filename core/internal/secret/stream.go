package secret

import "encoding/binary"

// Stream redacts what arrives in pieces — a model's streamed text, a
// response's chunks, a command's output — passing on at once all but the
// longest tail that could still begin a secret, so text that cannot hold
// one is never kept back. The concatenation of what Next and Flush return
// is the redaction of everything given (while the Set does not change). A
// Stream is not safe for concurrent use; its zero value is unusable, make
// one with [Set.Stream].
type Stream struct {
	set  *Set
	held []byte
	out  []byte // reused for what Next returns
	// json is set for JSON text (Set.JSONStream); scan is the state of
	// the text at the start of held.
	json bool
	scan jsonScan
}

// maxKept is the largest buffer a Stream keeps between calls.
const maxKept = 1 << 20

// Stream returns a Stream redacting with s.
func (s *Set) Stream() *Stream { return &Stream{set: s} }

// Next adds p and returns what can be passed on, redacted; the returned
// slice, which may be p itself, is valid until the next call.
func (st *Stream) Next(p []byte) []byte {
	m := st.set.load()
	if len(st.held) == 0 && len(m.pats) == 0 && !st.json {
		return p
	}
	if cap(st.out) > maxKept {
		st.out = nil // let a large buffer go
	}
	buf := p // what is redacted: p, after what was held
	if len(st.held) > 0 {
		st.held = append(st.held, p...)
		buf = st.held
	}
	limit := len(buf) - m.partial(buf)
	js := st.cursor()
	out, n, _ := m.appendRedacted(st.out[:0], buf, limit, js)
	st.out = out
	if st.json {
		st.scan.advance(buf, n)
		st.scan.pos = 0
	}
	st.held = append(st.held[:0], buf[n:]...) // a memmove where buf is held
	if cap(st.held) > maxKept {
		st.held = append([]byte(nil), st.held...)
	}
	return out
}

// Flush returns what was kept back, redacted, and empties the Stream.
func (st *Stream) Flush() []byte {
	if len(st.held) == 0 {
		return nil
	}
	out, _ := st.set.load().redactWith(st.held, st.cursor())
	out = append([]byte(nil), out...)
	st.held = st.held[:0]
	st.scan = jsonScan{}
	return out
}

// cursor returns the JSON state for redacting held, nil unless st.json.
func (st *Stream) cursor() *jsonCursor {
	if !st.json {
		return nil
	}
	return &jsonCursor{scan: st.scan}
}

// partial returns the length of the longest suffix of b that is a proper
// prefix of a pattern: the bytes that may yet become a match.
// A tail of gramLen bytes or more is looked for only if the prefixes
// bitmap holds its first bytes, which rules out almost every one with a
// load.
func (m *matcher) partial(b []byte) int {
	if len(m.pats) == 0 {
		return 0
	}
	m.once.Do(m.build)
	for start := max(0, len(b)-m.maxLen+1); start < len(b); start++ {
		tail := b[start:]
		if len(tail) >= gramLen {
			h := binary.LittleEndian.Uint32(tail) * hashMul >> prefixShift
			if m.prefixes[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
		}
		for _, pi := range m.byFirst[tail[0]] {
			p := m.pats[pi]
			if len(p) > len(tail) && p[:len(tail)] == string(tail) {
				return len(tail)
			}
		}
	}
	return 0
}
