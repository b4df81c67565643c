package secret

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/smith-agent/smith/core/internal/ident"
)

// MinLen is the shortest value Add accepts, in bytes. A shorter value is
// too likely to occur by chance in ordinary text, so redacting it would
// corrupt prompts and outputs with false positives.
const MinLen = 8

// MaxNameLen is the longest name Add accepts, in bytes.
const MaxNameLen = 128

// redactedMark stands for a Value wherever a Secret is printed.
const redactedMark = "[REDACTED]"

// refPrefix opens a reference; Reference closes it with '}'.
const refPrefix = "${secret:"

// Secret is one registered secret.
//
// Printing a Secret with any fmt verb, marshalling it to JSON or logging it
// with log/slog yields its Name and Source but never its Value. That holds
// for a Secret reached through exported fields, slices and maps; fmt cannot
// call methods on an unexported struct field, so a Secret kept in one is
// printed field by field, Value included.
type Secret struct {
	Name   string // [A-Za-z_][A-Za-z0-9_.-]*, unique in a Set
	Source string // where it came from, e.g. "env ANTHROPIC_API_KEY", "auth file", "smith secret add", "plugin acme"
	Value  string // plaintext; never printed
}

// String returns the name and source, e.g. `ANTHROPIC_API_KEY (from env
// ANTHROPIC_API_KEY)`, never the value.
func (s Secret) String() string {
	if s.Source == "" {
		return s.Name
	}
	return s.Name + " (from " + s.Source + ")"
}

// GoString returns a Go-syntax form with the value replaced by [REDACTED];
// it serves the %#v verb.
func (s Secret) GoString() string {
	return "secret.Secret{Name:" + strconv.Quote(s.Name) + ", Source:" + strconv.Quote(s.Source) +
		", Value:" + strconv.Quote(redactedMark) + "}"
}

// Format implements fmt.Formatter so that no verb prints the value: %v and
// %s print String, %+v prints the fields with Value shown as [REDACTED],
// %#v prints GoString and %q a quoted String. Every other verb prints String.
func (s Secret) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		io.WriteString(f, s.GoString())
	case verb == 'v' && f.Flag('+'):
		io.WriteString(f, "{Name:"+s.Name+" Source:"+s.Source+" Value:"+redactedMark+"}")
	case verb == 'q':
		io.WriteString(f, strconv.Quote(s.String()))
	default:
		io.WriteString(f, s.String())
	}
}

// MarshalJSON encodes the name and source only: {"name":…,"source":…}.
func (s Secret) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name   string `json:"name"`
		Source string `json:"source,omitempty"`
	}{s.Name, s.Source})
}

// LogValue implements slog.LogValuer: a group of the name and source.
func (s Secret) LogValue() slog.Value {
	return slog.GroupValue(slog.String("name", s.Name), slog.String("source", s.Source))
}

// Reference returns "${secret:NAME}", the text that stands for the secret
// named name in everything Redact returns.
func Reference(name string) string { return refPrefix + name + "}" }

// AllowAll authorizes every reference; pass it to Restore.
func AllowAll(string) bool { return true }

// Fingerprint returns a salted fingerprint of a secret's value for
// registration records: the hex of the first 16 bytes of
// HMAC-SHA256(salt, value). Equal values under one salt have equal
// fingerprints, so a record can show that a secret changed without holding
// it.
func Fingerprint(salt []byte, value string) string {
	mac := hmac.New(sha256.New, salt)
	io.WriteString(mac, value)
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// nameRest is the class of a name's bytes after the first.
func nameRest(c byte) bool { return ident.Alnum(c) || c == '_' || c == '.' || c == '-' }

// nameFirst is the class of a name's first byte.
func nameFirst(c byte) bool { return ident.Letter(c) || c == '_' }

// ValidName reports whether name can name a secret: 1 to MaxNameLen
// bytes of the form [A-Za-z_][A-Za-z0-9_.-]*.
func ValidName(name string) bool { return ident.Valid(name, MaxNameLen, nameFirst, nameRest) }
