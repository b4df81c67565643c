package object

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
)

// ID is an object id: the SHA-1 of the object's header and content.
type ID [20]byte

// String returns the id as 40 lowercase hex digits.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// IsZero reports whether id is the zero id, used for "none".
func (id ID) IsZero() bool { return id == ID{} }

// ParseID parses 40 hex digits.
func ParseID(s string) (ID, error) {
	var id ID
	if len(s) != 40 {
		return id, fmt.Errorf("object id %q has %d characters; want 40 hex digits", s, len(s))
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return ID{}, fmt.Errorf("object id %q is not hex: %v", s, err)
	}
	return id, nil
}

// Type is an object type as written in the object header.
type Type string

// The object types this package reads and writes.
const (
	TypeBlob   Type = "blob"
	TypeTree   Type = "tree"
	TypeCommit Type = "commit"
)

// Header returns the object header "<type> <len>\x00".
func Header(t Type, n int) []byte {
	b := make([]byte, 0, len(t)+22)
	b = append(b, t...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, 0)
}

// Hash returns the id of an object of type t with content b.
func Hash(t Type, b []byte) ID {
	h := sha1.New()
	h.Write(Header(t, len(b)))
	h.Write(b)
	var id ID
	h.Sum(id[:0])
	return id
}

// ParseHeader splits raw (an inflated loose object) into its type and
// content. The declared size must equal the content's length and stay
// within max; the type must be one this package knows.
func ParseHeader(raw []byte, max int) (Type, []byte, error) {
	sp := -1
	for i := 0; i < len(raw) && i < 16; i++ {
		if raw[i] == ' ' {
			sp = i
			break
		}
	}
	if sp < 0 {
		return "", nil, fmt.Errorf("object header has no type")
	}
	t := Type(raw[:sp])
	switch t {
	case TypeBlob, TypeTree, TypeCommit:
	default:
		return "", nil, fmt.Errorf("object type %q is not blob, tree or commit", raw[:sp])
	}
	n, i := 0, sp+1
	start := i
	for ; i < len(raw) && raw[i] != 0; i++ {
		c := raw[i]
		if c < '0' || c > '9' || i-start >= 19 || (i > start && raw[start] == '0') {
			return "", nil, fmt.Errorf("object size in header %q is not a decimal number", raw[:min(len(raw), i+1)])
		}
		n = n*10 + int(c-'0')
	}
	if i == start || i == len(raw) {
		return "", nil, fmt.Errorf("object header is not terminated by a NUL after the size")
	}
	if n > max {
		return "", nil, fmt.Errorf("object size %d exceeds the limit %d", n, max)
	}
	body := raw[i+1:]
	if len(body) != n {
		return "", nil, fmt.Errorf("object header declares %d bytes but %d follow", n, len(body))
	}
	return t, body, nil
}
