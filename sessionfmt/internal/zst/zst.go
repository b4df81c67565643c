// Package zst is the session format's deterministic zstd codec. The encoder
// options are pinned: changing any of them changes the bytes written, which
// the golden-hash test in the root package catches.
package zst

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Threshold is the smallest payload considered for compression. Below it the
// zstd frame overhead and the ~15 µs per call are not worth it.
const Threshold = 2048

// HardMax is the largest uncompressed size the decoder ever accepts,
// whatever bound a caller passes.
const HardMax = 1 << 30

// largeInput is the size above which a payload is compressed by an
// encoder of its own, dropped afterwards: the shared encoder keeps its
// history buffers, and one huge entry would leave it holding some 10 MB for
// the life of the process. The options are the same, so are the bytes.
const largeInput = 1 << 20

// newEncoder returns an encoder with the pinned options.
func newEncoder() *zstd.Encoder {
	e, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(false),
		zstd.WithZeroFrames(false),
		zstd.WithLowerEncoderMem(true),
	)
	if err != nil {
		panic("sessionfmt: zstd encoder options: " + err.Error())
	}
	return e
}

var (
	encoder = sync.OnceValue(newEncoder)
	decoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(HardMax),
			zstd.WithDecoderMaxWindow(HardMax),
			zstd.WithDecodeAllCapLimit(true),
		)
		if err != nil {
			panic("sessionfmt: zstd decoder options: " + err.Error())
		}
		return d
	})
)

// Compress appends to dst the stored form of p — u32le uncompressed size,
// then one zstd frame — and reports true, if p is at least Threshold bytes
// and the stored form is smaller than p. Otherwise it returns dst unchanged
// and false. It is safe for concurrent use and deterministic: the same p
// always gives the same bytes.
func Compress(dst, p []byte) ([]byte, bool) {
	if len(p) < Threshold || uint64(len(p)) > HardMax {
		return dst, false
	}
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(p)))
	enc := encoder()
	if len(p) > largeInput {
		enc = newEncoder()
	}
	dst = enc.EncodeAll(p, dst)
	if len(dst)-start >= len(p) {
		return dst[:start], false
	}
	return dst, true
}

// Declared returns the uncompressed size a stored payload declares.
func Declared(stored []byte) (uint32, error) {
	if len(stored) < 4 {
		return 0, errors.New("compressed payload shorter than its 4-byte size prefix")
	}
	return binary.LittleEndian.Uint32(stored), nil
}

// BoundError reports a declared or actual size over a bound.
type BoundError struct {
	Size  uint64
	Bound uint64
	What  string
}

func (e *BoundError) Error() string {
	return fmt.Sprintf("%s: %d bytes over the bound of %d bytes", e.What, e.Size, e.Bound)
}

// Decompress decodes a stored payload into dst[:0], whose capacity must be at
// least the declared size. It refuses, before decoding, a declared size over
// bound, a zstd frame header that does not state the same content size, and
// during decoding any output beyond the declared size (the decoder's cap
// limit). It never allocates the output buffer itself.
func Decompress(dst, stored []byte, bound uint64) ([]byte, error) {
	n, err := Declared(stored)
	if err != nil {
		return nil, err
	}
	if uint64(n) > bound || uint64(n) > HardMax {
		return nil, &BoundError{Size: uint64(n), Bound: min(bound, HardMax), What: "declared uncompressed size"}
	}
	if uint64(cap(dst)) < uint64(n) {
		return nil, fmt.Errorf("output buffer holds %d bytes, declared size is %d", cap(dst), n)
	}
	src := stored[4:]
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return nil, fmt.Errorf("zstd frame header: %w", err)
	}
	if !h.HasFCS || h.FrameContentSize != uint64(n) {
		if h.HasFCS && h.FrameContentSize > uint64(n) {
			return nil, &BoundError{Size: h.FrameContentSize, Bound: uint64(n), What: "zstd frame content size exceeds the declared size"}
		}
		return nil, fmt.Errorf("zstd frame content size (present %v, %d bytes) differs from the declared %d bytes", h.HasFCS, h.FrameContentSize, n)
	}
	out, err := decoder().DecodeAll(src, dst[:0:n])
	if err != nil {
		return nil, fmt.Errorf("zstd decode (output capped at the declared %d bytes): %w", n, err)
	}
	if len(out) != int(n) {
		return nil, fmt.Errorf("zstd output is %d bytes, declared %d", len(out), n)
	}
	return out, nil
}
