package sessionfmt

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/smith-agent/smith/sessionfmt/internal/detcbor"
)

// Entry is one history entry. When returned by [Session.Entry], Key and
// Content alias the session's arena and must not be modified.
type Entry struct {
	ID     ID        // required, unique in the session
	Parent ID        // zero for a root entry
	Time   time.Time // stored with millisecond precision
	Kind   Kind
	// Pair, Cause and Key are the pairing fields; see [Kind] for their
	// meaning per kind. Key is a short UTF-8 string, such as a tool call id.
	Pair  ID
	Cause ID
	Key   string
	// Content is one canonical CBOR data item (see [EncodeContent]); it is
	// stored and loaded as opaque bytes and decoded only by its consumer.
	Content []byte
}

// MaxKey bounds Entry.Key.
const MaxKey = 4096

// Validate checks e on its own: a known kind, a non-zero id, the pairing
// fields its kind requires, a UTF-8 key within [MaxKey], and content that is
// exactly one well-formed CBOR data item.
func (e *Entry) Validate() error {
	if !e.Kind.Known() {
		return fmt.Errorf("sessionfmt: entry %s: kind %s is unknown to this version; use one of the Kind constants", e.ID, e.Kind)
	}
	if e.ID.IsZero() {
		return fmt.Errorf("sessionfmt: %s entry has a zero id; give it one from NewID", e.Kind)
	}
	p := kindPairing[e.Kind]
	if p.pair && e.Pair.IsZero() {
		return fmt.Errorf("sessionfmt: %s entry %s has no Pair id; %s", e.Kind, e.ID, pairDoc[e.Kind])
	}
	if p.cause && e.Cause.IsZero() {
		return fmt.Errorf("sessionfmt: %s entry %s has no Cause id; set it to the entry or effect that caused the effect", e.Kind, e.ID)
	}
	if p.key && e.Key == "" {
		return fmt.Errorf("sessionfmt: %s entry %s has no Key; %s", e.Kind, e.ID, pairDoc[e.Kind])
	}
	if len(e.Key) > MaxKey || !utf8.ValidString(e.Key) {
		return fmt.Errorf("sessionfmt: entry %s: key is %d bytes or not UTF-8 (bound %d bytes); shorten it", e.ID, len(e.Key), MaxKey)
	}
	if len(e.Content) == 0 {
		return fmt.Errorf("sessionfmt: entry %s: content is empty; encode it with EncodeContent", e.ID)
	}
	if err := detcbor.Dec().Wellformed(e.Content); err != nil {
		return fmt.Errorf("sessionfmt: entry %s: content is not one well-formed CBOR item (%v); encode it with EncodeContent", e.ID, err)
	}
	return nil
}

var pairDoc = [...]string{
	KindToolActivity:       "set Key to the tool call id",
	KindCompaction:         "set Pair to the first entry kept after the compaction",
	KindSecretRegistration: "set Key to the secret's name",
	KindVCSOperation:       "set Pair to the VCS effect id",
	KindEffectIntent:       "set Pair to the effect id",
	KindEffectCompletion:   "set Pair to the effect id of the intent it completes",
	KindLabel:              "set Pair to the labelled entry",
	KindPluginStateCommit:  "set Pair to the commit id and Key to the plugin id",
	KindReplayMetadata:     "",
	KindBranchSummary:      "set Pair to the leaf of the branch left behind",
}

// EncodeContent encodes v as canonical CBOR (RFC 8949 core deterministic
// encoding) for use as Entry.Content. It is safe for concurrent use.
func EncodeContent(v any) ([]byte, error) {
	b, err := detcbor.Enc().Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("sessionfmt: encode content: %w", err)
	}
	return b, nil
}

// DecodeContent decodes canonical CBOR content into v with the format's
// decode limits (nesting, element counts, no tags, no duplicate keys).
func DecodeContent(content []byte, v any) error {
	if err := detcbor.Dec().Unmarshal(content, v); err != nil {
		return fmt.Errorf("sessionfmt: decode content: %w", err)
	}
	return nil
}
