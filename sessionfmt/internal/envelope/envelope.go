// Package envelope encodes and parses the payloads of the known frame types.
//
// Encoding goes through the deterministic CBOR encoder. Parsing an entry or
// select payload is a strict, allocation-free reader that accepts exactly the
// bytes the encoder produces (one-to-one, checked by tests and fuzzing), so
// loading a session never decodes through reflection and never allocates per
// frame. Entry content is an opaque byte string: the parser slices it, it
// does not look inside.
package envelope

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/smith-agent/smith/sessionfmt/internal/detcbor"
)

// Entry holds the fields of an entry frame. ID must be non-zero; a zero
// Parent, Pair or Cause is absent.
type Entry struct {
	ID, Parent, Pair, Cause [16]byte
	Time                    int64 // Unix milliseconds
	Kind                    uint8
	Key                     string
	Content                 []byte
}

// wire is the CBOR shape of an entry frame payload.
type wire struct {
	ID      []byte `cbor:"1,keyasint"`
	Parent  []byte `cbor:"2,keyasint,omitempty"`
	Time    int64  `cbor:"3,keyasint"`
	Kind    uint8  `cbor:"4,keyasint"`
	Pair    []byte `cbor:"5,keyasint,omitempty"`
	Cause   []byte `cbor:"6,keyasint,omitempty"`
	Key     string `cbor:"7,keyasint,omitempty"`
	Content []byte `cbor:"8,keyasint"`
}

// Encode returns the canonical CBOR payload of e. Content must be non-empty.
func Encode(e *Entry) ([]byte, error) {
	var c Encoder
	return c.Append(nil, e)
}

// Encoder holds the reusable state of entry encoding: the wire struct handed
// to the CBOR encoder (as an interface, so it lives on the heap), copies of
// the ids it points into, and the output buffer. Its zero value is ready to
// use. An Encoder is not safe for concurrent use; [Encode] is.
type Encoder struct {
	w                       wire
	id, parent, pair, cause [16]byte
	buf                     bytes.Buffer // wraps the caller's dst during Append
}

func keep(dst *[16]byte, id [16]byte) []byte {
	if id == ([16]byte{}) {
		return nil
	}
	*dst = id
	return dst[:]
}

// Append appends the canonical CBOR payload of e to dst, encoding it in
// place (a payload of megabytes is not staged in a buffer of its own). It
// does not allocate when dst has room.
func (c *Encoder) Append(dst []byte, e *Entry) ([]byte, error) {
	if e.ID == ([16]byte{}) {
		return dst, errors.New("entry id is zero")
	}
	if len(e.Content) == 0 {
		return dst, errors.New("entry content is empty")
	}
	c.id = e.ID
	c.w = wire{ID: c.id[:], Parent: keep(&c.parent, e.Parent), Time: e.Time, Kind: e.Kind,
		Pair: keep(&c.pair, e.Pair), Cause: keep(&c.cause, e.Cause), Key: e.Key, Content: e.Content}
	n := len(dst)
	c.buf = *bytes.NewBuffer(dst)
	err := detcbor.Enc().MarshalToBuffer(&c.w, &c.buf)
	out := c.buf.Bytes()
	c.w, c.buf = wire{}, bytes.Buffer{} // drop references to the caller's key, content and dst
	if err != nil {
		return dst[:n], err
	}
	return out, nil
}

// View is a parsed entry payload. Key and Content alias the parsed bytes.
type View struct {
	ID, Parent, Pair, Cause [16]byte
	Time                    int64
	Kind                    uint8
	Key                     []byte
	Content                 []byte
}

// ErrNotCanonical is wrapped by every parse error.
var ErrNotCanonical = errors.New("not a canonical entry payload")

func fail(at int, format string, args ...any) error {
	return fmt.Errorf("%w: payload byte %d: %s", ErrNotCanonical, at, fmt.Sprintf(format, args...))
}

// head reads a CBOR initial byte and argument in shortest form.
func head(p []byte, i int) (major byte, arg uint64, next int, err error) {
	if i >= len(p) {
		return 0, 0, 0, fail(i, "unexpected end")
	}
	b := p[i]
	major, ai := b>>5, b&0x1f
	i++
	var n int
	switch {
	case ai < 24:
		return major, uint64(ai), i, nil
	case ai == 24:
		n = 1
	case ai == 25:
		n = 2
	case ai == 26:
		n = 4
	case ai == 27:
		n = 8
	default:
		return 0, 0, 0, fail(i-1, "additional info %d not allowed", ai)
	}
	if len(p)-i < n {
		return 0, 0, 0, fail(i, "unexpected end in argument")
	}
	for _, c := range p[i : i+n] {
		arg = arg<<8 | uint64(c)
	}
	var lo uint64
	switch n {
	case 1:
		lo = 24
	case 2:
		lo = 1 << 8
	case 4:
		lo = 1 << 16
	case 8:
		lo = 1 << 32
	}
	if arg < lo {
		return 0, 0, 0, fail(i-1, "argument %d not in shortest form", arg)
	}
	return major, arg, i + n, nil
}

// str reads a byte or text string of the given major type.
func str(p []byte, i int, major byte) ([]byte, int, error) {
	m, n, j, err := head(p, i)
	if err != nil {
		return nil, 0, err
	}
	if m != major {
		return nil, 0, fail(i, "major type %d, want %d", m, major)
	}
	if n > uint64(len(p)-j) {
		return nil, 0, fail(i, "string of %d bytes runs past the payload", n)
	}
	return p[j : j+int(n)], j + int(n), nil
}

func id16(p []byte, i int, dst *[16]byte) (int, error) {
	b, j, err := str(p, i, 2)
	if err != nil {
		return 0, err
	}
	if len(b) != 16 {
		return 0, fail(i, "id is %d bytes, want 16", len(b))
	}
	copy(dst[:], b)
	if *dst == ([16]byte{}) {
		return 0, fail(i, "zero id must be omitted")
	}
	return j, nil
}

// ParseEntry parses an entry payload into v without allocating. It accepts
// only canonical encodings produced by [Encode].
func ParseEntry(p []byte, v *View) error {
	*v = View{}
	m, n, i, err := head(p, 0)
	if err != nil {
		return err
	}
	if m != 5 || n < 4 || n > 8 {
		return fail(0, "want a map of 4 to 8 pairs, got major type %d with %d", m, n)
	}
	var seen uint16
	last := uint64(0)
	for range n {
		km, k, j, err := head(p, i)
		if err != nil {
			return err
		}
		if km != 0 || k < 1 || k > 8 || k <= last {
			return fail(i, "map key %d (major %d) out of order or unknown", k, km)
		}
		last, i = k, j
		seen |= 1 << k
		switch k {
		case 1:
			i, err = id16(p, i, &v.ID)
		case 2:
			i, err = id16(p, i, &v.Parent)
		case 5:
			i, err = id16(p, i, &v.Pair)
		case 6:
			i, err = id16(p, i, &v.Cause)
		case 3:
			var mj byte
			var a uint64
			mj, a, j, err = head(p, i)
			if err == nil {
				switch {
				case mj == 0 && a <= 1<<63-1:
					v.Time = int64(a)
				case mj == 1 && a <= 1<<63-1:
					v.Time = -1 - int64(a)
				default:
					err = fail(i, "time is not an int64")
				}
				i = j
			}
		case 4:
			var mj byte
			var a uint64
			mj, a, j, err = head(p, i)
			if err == nil && (mj != 0 || a > 255) {
				err = fail(i, "kind is not a uint8")
			}
			v.Kind, i = uint8(a), j
		case 7:
			v.Key, i, err = str(p, i, 3)
			if err == nil && (len(v.Key) == 0 || !utf8.Valid(v.Key)) {
				err = fail(i, "key is empty or not UTF-8")
			}
		case 8:
			v.Content, i, err = str(p, i, 2)
			if err == nil && len(v.Content) == 0 {
				err = fail(i, "content is empty")
			}
		}
		if err != nil {
			return err
		}
	}
	const required = 1<<1 | 1<<3 | 1<<4 | 1<<8
	if seen&required != required {
		return fail(0, "missing id, time, kind or content")
	}
	if i != len(p) {
		return fail(i, "%d trailing bytes", len(p)-i)
	}
	return nil
}

// selectWire is the CBOR shape of a select frame payload.
type selectWire struct {
	Leaf []byte `cbor:"1,keyasint"`
}

// EncodeSelect returns the payload of a select frame naming leaf.
func EncodeSelect(leaf [16]byte) ([]byte, error) {
	return detcbor.Enc().Marshal(&selectWire{Leaf: leaf[:]})
}

// ParseSelect parses a select frame payload without allocating.
func ParseSelect(p []byte) ([16]byte, error) {
	var leaf [16]byte
	m, n, i, err := head(p, 0)
	if err != nil {
		return leaf, err
	}
	if m != 5 || n != 1 {
		return leaf, fail(0, "want a map of 1 pair")
	}
	km, k, i, err := head(p, i)
	if err != nil {
		return leaf, err
	}
	if km != 0 || k != 1 {
		return leaf, fail(1, "want key 1")
	}
	if i, err = id16(p, i, &leaf); err != nil {
		return leaf, err
	}
	if i != len(p) {
		return leaf, fail(i, "%d trailing bytes", len(p)-i)
	}
	return leaf, nil
}

// Magic names the format in the header frame.
const Magic = "smith.session"

// Version is the format version this package writes and reads.
const Version = 1

type headerWire struct {
	Magic   string `cbor:"1,keyasint"`
	Version uint64 `cbor:"2,keyasint"`
}

// EncodeHeader returns the header frame payload.
func EncodeHeader() []byte {
	b, err := detcbor.Enc().Marshal(&headerWire{Magic: Magic, Version: Version})
	if err != nil {
		panic(err)
	}
	return b
}

// ParseHeader checks a header payload and returns its version.
func ParseHeader(p []byte) (uint64, error) {
	var h headerWire
	if err := detcbor.Dec().Unmarshal(p, &h); err != nil {
		return 0, fmt.Errorf("header payload: %w", err)
	}
	if h.Magic != Magic {
		return 0, fmt.Errorf("header magic is %q, want %q", h.Magic, Magic)
	}
	return h.Version, nil
}
