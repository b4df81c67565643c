package sessionfmt

import (
	"fmt"
	"time"

	"github.com/smith-agent/smith/sessionfmt/internal/ulid"
)

// ID identifies an entry. IDs are ULIDs: 16 bytes, sortable by creation time,
// written as 26 Crockford base32 characters. The zero ID means "none".
type ID [16]byte

// ids makes every ID of the process, so that they all increase together.
var ids ulid.Generator

// NewID returns a new ULID for the current time. Within one process, IDs are
// strictly increasing: an ID made in the same millisecond as the previous one
// (or after the clock stepped back) is the previous one plus one, and
// when that would overflow the 80 random bits it takes the next millisecond.
// The random bits come from crypto/rand. It is safe for concurrent use.
func NewID() ID { return NewIDAt(time.Now()) }

// NewIDAt is [NewID] for the time t, for callers with an injected clock. It
// shares NewID's process-wide order: if t is before the time of the last ID
// made in this process, the ID carries that later time instead, so a clock
// set in the future moves every later ID of the process there too. Times
// before 1970 count as 1970. It is safe for concurrent use.
func NewIDAt(t time.Time) ID {
	return ID(ids.New(uint64(max(t.UnixMilli(), 0))))
}

// ParseID parses the 26-character ULID form of an ID, in either case. It
// rejects any other length, any byte that is not a Crockford base32 digit
// (I, L, O and U included), and a first character over '7'. The error names
// the value, the rule it breaks (with the offending byte and its offset) and
// an example of a valid ID.
func ParseID(s string) (ID, error) {
	id, err := ulid.Parse(s)
	if err != nil {
		return ID{}, fmt.Errorf("sessionfmt: id %q is not a ULID (26 Crockford base32 characters, e.g. 01JH2Z3Q4R5S6T7V8W9X0Y1Z2A): %w", s, err)
	}
	return ID(id), nil
}

// String returns the ULID form, in uppercase, or "" for the zero ID.
func (id ID) String() string {
	if id.IsZero() {
		return ""
	}
	var b [ulid.EncodedSize]byte
	ulid.Encode(&b, (*[16]byte)(&id))
	return string(b[:])
}

// IsZero reports whether id is the zero ID.
func (id ID) IsZero() bool { return id == ID{} }

// Time returns the creation time encoded in the ULID, to the millisecond, in
// time.Local.
func (id ID) Time() time.Time { return time.UnixMilli(int64(ulid.Ms((*[16]byte)(&id)))) }
