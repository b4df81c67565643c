package sessionfmt

import (
	"fmt"
	"time"

	"github.com/oklog/ulid/v2"
)

// ID identifies an entry. IDs are ULIDs: 16 bytes, sortable by creation time,
// written as 26 Crockford base32 characters. The zero ID means "none".
type ID [16]byte

// NewID returns a new ULID for the current time. Within one process, IDs are
// strictly increasing. It is safe for concurrent use.
func NewID() ID { return ID(ulid.Make()) }

// ParseID parses the 26-character ULID form of an ID.
func ParseID(s string) (ID, error) {
	u, err := ulid.ParseStrict(s)
	if err != nil {
		return ID{}, fmt.Errorf("sessionfmt: id %q is not a ULID (26 Crockford base32 characters, e.g. 01JH2Z3Q4R5S6T7V8W9X0Y1Z2A): %w", s, err)
	}
	return ID(u), nil
}

// String returns the ULID form, or "" for the zero ID.
func (id ID) String() string {
	if id.IsZero() {
		return ""
	}
	return ulid.ULID(id).String()
}

// IsZero reports whether id is the zero ID.
func (id ID) IsZero() bool { return id == ID{} }

// Time returns the creation time encoded in the ULID.
func (id ID) Time() time.Time { return ulid.Time(ulid.ULID(id).Time()) }
