// Package detcbor holds the session format's two CBOR modes: a deterministic
// encoder (RFC 8949 core deterministic encoding) and a decoder whose limits
// are always set. Both are safe for concurrent use.
package detcbor

import (
	"sync"

	"github.com/fxamacker/cbor/v2"
)

// Decoder limits. A payload is itself bounded by the frame bound, and CBOR
// length headers are checked against the bytes present before anything is
// allocated, so these bound nesting and element counts only.
const (
	MaxNested   = 64
	MaxElements = 1 << 20
)

// Enc returns the encoder with core deterministic options. Its
// MarshalToBuffer appends to a caller's buffer without allocating the
// output. The modes are built on first use, not at package initialization
// (which every smith start, --help included, would pay for).
func Enc() cbor.UserBufferEncMode { return enc() }

// Dec returns the decoder with every limit set: nesting, array and map
// sizes, no indefinite lengths, no tags, duplicate map keys rejected.
func Dec() cbor.DecMode { return dec() }

var enc = sync.OnceValue(func() cbor.UserBufferEncMode {
	m, err := cbor.CoreDetEncOptions().UserBufferEncMode()
	if err != nil {
		panic("sessionfmt: cbor encode options: " + err.Error())
	}
	return m
})

var dec = sync.OnceValue(func() cbor.DecMode {
	m, err := cbor.DecOptions{
		MaxNestedLevels:  MaxNested,
		MaxArrayElements: MaxElements,
		MaxMapPairs:      MaxElements,
		IndefLength:      cbor.IndefLengthForbidden,
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		TagsMd:           cbor.TagsForbidden,
		UTF8:             cbor.UTF8RejectInvalid,
	}.DecMode()
	if err != nil {
		panic("sessionfmt: cbor decode options: " + err.Error())
	}
	return m
})
