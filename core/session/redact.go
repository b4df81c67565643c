package session

import (
	"fmt"

	"github.com/smith-agent/smith/sessionfmt"
)

// Redactor keeps secrets out of what a [Store] writes: Contains reports
// whether b holds one (its plaintext or an encoding of it), Redact returns
// b with each replaced by its reference and whether it changed anything.
// It must be safe for concurrent use.
type Redactor interface {
	Contains(b []byte) bool
	Redact(b []byte) ([]byte, bool)
}

// SetRedactor makes s redact every entry it appends from now on — the
// strings and byte strings of its content, after the record is made and
// before it is written — so a secret a tool printed, a file held or a
// server echoed reaches the session file as a reference. nil turns it
// off. It is safe for concurrent use.
func (s *Store) SetRedactor(r Redactor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redactor = r
}

// redactContent returns content with every string and byte string its
// redactor changes replaced; content holding no secret is returned as is,
// without decoding it.
func redactContent(r Redactor, content []byte) ([]byte, error) {
	if r == nil || !r.Contains(content) {
		return content, nil
	}
	var v any
	if err := sessionfmt.DecodeContent(content, &v); err != nil {
		return nil, fmt.Errorf("session: redact an entry: %w", err)
	}
	out, err := sessionfmt.EncodeContent(redactValue(r, v))
	if err != nil {
		return nil, fmt.Errorf("session: redact an entry: %w", err)
	}
	return out, nil
}

// redactValue redacts the strings and byte strings of a decoded CBOR
// value, map keys included.
func redactValue(r Redactor, v any) any {
	switch v := v.(type) {
	case string:
		if b, ok := r.Redact([]byte(v)); ok {
			// A secret that is not valid UTF-8 can match from inside a
			// character, leaving part of it behind; a text string must
			// stay valid UTF-8 or the entry cannot be decoded again.
			return jsonString(string(b))
		}
	case []byte:
		if b, ok := r.Redact(v); ok {
			return b
		}
	case []any:
		for i := range v {
			v[i] = redactValue(r, v[i])
		}
	case map[any]any:
		out := make(map[any]any, len(v))
		for k, x := range v {
			out[redactValue(r, k)] = redactValue(r, x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[redactValue(r, k).(string)] = redactValue(r, x)
		}
		return out
	}
	return v
}
