package auth

import (
	"fmt"
)

// redacted is what a Secret prints as.
const redacted = "[redacted]"

// Secret is a credential value. Every way of printing or encoding it —
// fmt verbs, String, JSON, text — yields "[redacted]"; only [Secret.Reveal]
// returns the plaintext, for the effect boundary that sends it. The zero
// Secret is empty.
type Secret struct{ v string }

// NewSecret wraps a plaintext value.
func NewSecret(v string) Secret { return Secret{v: v} }

// Reveal returns the plaintext. Call it only where the value leaves Smith
// (the request sent to the provider), never to build a message.
func (s Secret) Reveal() string { return s.v }

// Empty reports whether the secret has no value.
func (s Secret) Empty() bool { return s.v == "" }

// String returns "[redacted]".
func (s Secret) String() string { return redacted }

// GoString returns "[redacted]".
func (s Secret) GoString() string { return redacted }

// Format prints "[redacted]" for every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redacted)) }

// MarshalJSON encodes "[redacted]".
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText encodes "[redacted]".
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }
