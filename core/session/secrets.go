package session

import (
	"fmt"

	"github.com/smith-agent/smith/sessionfmt"
)

// SecretRegistration is a secret_registration entry: a secret the session
// redacts, by name, where it came from and a salted fingerprint of its
// value (so a record shows that a secret changed without holding it).
// Never the plaintext.
type SecretRegistration struct {
	Name        string `cbor:"name" json:"name"`
	Source      string `cbor:"source" json:"source"`
	Fingerprint string `cbor:"fingerprint" json:"fingerprint"`
}

// RecordSecretRegistration appends a secret_registration entry keyed by
// the secret's name.
func (s *Store) RecordSecretRegistration(r SecretRegistration) error {
	content, err := sessionfmt.EncodeContent(r)
	if err != nil {
		return fmt.Errorf("session: encode secret registration: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(sessionfmt.Entry{Kind: sessionfmt.KindSecretRegistration, Key: r.Name, Content: content}, sessionfmt.Buffered)
}

// SecretRegistrations returns the session's secret registrations in the
// order recorded; a later one of the same name supersedes an earlier.
func SecretRegistrations(sess *sessionfmt.Session) []SecretRegistration {
	var out []SecretRegistration
	for i := range sess.Len() {
		if sess.Kind(i) != sessionfmt.KindSecretRegistration {
			continue
		}
		var r SecretRegistration
		if sessionfmt.DecodeContent(sess.Entry(i).Content, &r) == nil && r.Name != "" {
			out = append(out, r)
		}
	}
	return out
}
