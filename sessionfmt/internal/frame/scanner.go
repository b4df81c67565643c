package frame

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Frame locates one checksum-valid frame.
type Frame struct {
	Off   int64  // offset of the length field
	Len   uint32 // stored payload length
	Type  Type
	Flags uint8
	// Declared is the uncompressed payload size for FlagZstd frames of known
	// types (the payload's leading u32le), else Len.
	Declared uint32
}

// End returns the offset just past the frame.
func (f Frame) End() int64 { return f.Off + Overhead + int64(f.Len) }

// Size returns the frame's size on disk.
func (f Frame) Size() int64 { return Overhead + int64(f.Len) }

// Region is a damaged byte range the scanner did not return as a frame.
type Region struct {
	Off    int64
	Len    int64
	Reason string
}

// Limits bound a scan.
type Limits struct {
	MaxFrame uint32 // largest stored payload accepted; larger is an error
	MaxSkips int    // most corrupt frames skipped before the scan fails
}

// Scanner walks the frames of a file. It is not safe for concurrent use.
type Scanner struct {
	w       window
	lim     Limits
	off     int64
	started bool
	skipped []Region
	tail    Region
	good    int64 // end of the last good frame
}

// NewScanner returns a scanner over the first size bytes of r, using buf
// (at least [WindowSize] bytes, allocated if nil) as its window. The skipped
// region list is allocated once with capacity lim.MaxSkips.
func NewScanner(r io.ReaderAt, size int64, lim Limits, buf []byte) *Scanner {
	if len(buf) < WindowSize {
		buf = make([]byte, WindowSize)
	}
	return &Scanner{w: window{r: r, size: size, buf: buf[:WindowSize]}, lim: lim,
		skipped: make([]Region, 0, lim.MaxSkips)}
}

// Skipped returns the corrupt frames skipped so far.
func (s *Scanner) Skipped() []Region { return s.skipped }

// Tail returns the truncated tail found at the end of the file (Len 0 if none).
func (s *Scanner) Tail() Region { return s.tail }

// GoodEnd returns the offset just past the last checksum-valid frame.
func (s *Scanner) GoodEnd() int64 { return s.good }

// Size returns the number of bytes scanned over.
func (s *Scanner) Size() int64 { return s.w.size }

// ReadPayload copies the payload of f, a frame returned by Next, into dst
// (which must have capacity for f.Len bytes) and verifies its checksum again.
func (s *Scanner) ReadPayload(f Frame, dst []byte) ([]byte, error) {
	dst = dst[:0]
	crc := uint32(0)
	hdr, err := s.w.view(f.Off, HeaderSize)
	if err != nil {
		return nil, err
	}
	crc = update(crc, hdr)
	for off, rem := f.Off+HeaderSize, int64(f.Len); rem > 0; {
		n := min(rem, WindowSize)
		b, err := s.w.view(off, int(n))
		if err != nil {
			return nil, err
		}
		crc = update(crc, b)
		dst = append(dst, b...)
		off += n
		rem -= n
	}
	t, err := s.w.view(f.Off+HeaderSize+int64(f.Len), TrailerSize)
	if err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(t) != crc {
		return nil, Errorf(f.Off, "frame changed while it was being read", "another process rewrote the file in place, which no Smith writer does", "retry; if it repeats, "+FixRepair)
	}
	return dst, nil
}

type status uint8

const (
	stIncomplete status = iota // the frame runs past the end of the file
	stTooBig                   // the length field exceeds MaxFrame
	stBadCRC                   // complete, checksum mismatch
	stOK
)

// probe classifies the frame that would start at off.
func (s *Scanner) probe(off int64) (Frame, status, error) {
	rem := s.w.size - off
	if rem < HeaderSize {
		return Frame{Off: off}, stIncomplete, nil
	}
	h, err := s.w.view(off, HeaderSize)
	if err != nil {
		return Frame{}, 0, err
	}
	f := Frame{Off: off, Len: binary.LittleEndian.Uint32(h), Type: Type(h[4]), Flags: h[5]}
	f.Declared = f.Len
	if f.Len > s.lim.MaxFrame {
		return f, stTooBig, nil
	}
	if rem < f.Size() {
		return f, stIncomplete, nil
	}
	crc := update(0, h)
	for p, n := off+HeaderSize, int64(f.Len); n > 0; {
		k := min(n, WindowSize)
		b, err := s.w.view(p, int(k))
		if err != nil {
			return Frame{}, 0, err
		}
		if p == off+HeaderSize && f.Flags&FlagZstd != 0 && f.Type.Known() && k >= 4 {
			f.Declared = binary.LittleEndian.Uint32(b)
		}
		crc = update(crc, b)
		p += k
		n -= k
	}
	t, err := s.w.view(f.End()-TrailerSize, TrailerSize)
	if err != nil {
		return Frame{}, 0, err
	}
	if binary.LittleEndian.Uint32(t) != crc {
		return f, stBadCRC, nil
	}
	return f, stOK, nil
}

// Next returns the next checksum-valid frame, io.EOF at the end of the file
// (after a truncated tail, if any, which [Scanner.Tail] reports), or an
// *Error when the file cannot be read without guessing. The first frame must
// be a valid header frame.
func (s *Scanner) Next() (Frame, error) {
	if !s.started {
		s.started = true
		return s.first()
	}
	for {
		if s.off >= s.w.size {
			return Frame{}, io.EOF
		}
		f, st, err := s.probe(s.off)
		if err != nil {
			return Frame{}, &Error{Off: s.off, Size: -1, Bound: -1, What: "cannot read frame", Err: err, Fix: "check that the file is readable"}
		}
		switch st {
		case stOK:
			s.off = f.End()
			s.good = s.off
			return f, nil
		case stTooBig:
			return Frame{}, &Error{Off: s.off, Size: int64(f.Len), Bound: int64(s.lim.MaxFrame),
				What: "frame length exceeds the bound; refused before reading it",
				Why:  "either the length field is corrupt, so no later frame can be located, or the file was written with a larger bound",
				Fix:  FixRepair}
		case stIncomplete:
			if p, ok, err := s.findValid(s.off+1, false); err != nil {
				return Frame{}, err
			} else if ok {
				return Frame{}, &Error{Off: s.off, Size: int64(f.Len) + Overhead, Bound: s.w.size - s.off,
					What: fmt.Sprintf("framing ambiguity: the frame here runs past the end of the file, but a valid frame starts inside it at offset %d", p),
					Why:  "either this length field is corrupt or the later frame is a coincidence; the reader does not guess",
					Fix:  "inspect the file with 'sessionfmt verify FILE'; restore it from a backup or cut it at one of the two offsets by hand"}
			}
			s.tail = Region{Off: s.off, Len: s.w.size - s.off, Reason: "truncated frame at the end of the file (an interrupted append)"}
			s.off = s.w.size
			return Frame{}, io.EOF
		case stBadCRC:
			next := f.End()
			if next != s.w.size {
				_, st2, err := s.probe(next)
				if err != nil {
					return Frame{}, &Error{Off: next, Size: -1, Bound: -1, What: "cannot read frame", Err: err}
				}
				if st2 != stOK {
					return Frame{}, &Error{Off: s.off, Size: int64(f.Len), Bound: -1,
						What: fmt.Sprintf("framing ambiguity: checksum mismatch, and offset %d where its length says the next frame starts holds no valid frame", next),
						Why:  "the length field cannot be trusted, so the reader cannot tell where the next frame starts and does not guess",
						Fix:  "restore the file from a backup, or keep the frames before this offset by cutting the file there"}
				}
			}
			if len(s.skipped) >= s.lim.MaxSkips {
				return Frame{}, &Error{Off: s.off, Size: int64(len(s.skipped) + 1), Bound: int64(s.lim.MaxSkips),
					What: "too many corrupt frames",
					Why:  "a file this damaged is more likely mislaid or overwritten than torn by a crash",
					Fix:  FixRepair}
			}
			s.skipped = append(s.skipped, Region{Off: s.off, Len: f.Size(), Reason: "checksum mismatch (length confirmed by the next frame boundary)"})
			s.off = next
		}
	}
}

// first reads the header frame, which must be intact.
func (s *Scanner) first() (Frame, error) {
	const why = "every session file starts with a header frame"
	f, st, err := s.probe(0)
	if err != nil {
		return Frame{}, &Error{Off: 0, Size: -1, Bound: -1, What: "cannot read header frame", Err: err}
	}
	switch {
	case s.w.size == 0:
		return Frame{}, &Error{Off: 0, Size: 0, Bound: -1, What: "empty file, not a session", Why: why, Fix: "the file holds nothing, as when creating it was interrupted; remove it and start a new session"}
	case st == stTooBig || st == stIncomplete:
		return Frame{}, &Error{Off: 0, Size: s.w.size, Bound: -1, What: "not a session file or header frame truncated", Why: why, Fix: "check the path; a file cut inside its header holds no entries"}
	case st == stBadCRC:
		return Frame{}, &Error{Off: 0, Size: -1, Bound: -1, What: "header frame checksum mismatch: not a session file or a damaged one", Why: why, Fix: "check the path; if it is a damaged session, restore it from a backup"}
	case f.Type != TypeHeader || f.Flags != 0:
		return Frame{}, &Error{Off: 0, Size: -1, Bound: -1, What: fmt.Sprintf("first frame has type %#x flags %#x, want header frame type %#x", f.Type, f.Flags, TypeHeader), Why: why, Fix: "check the path"}
	}
	s.off = f.End()
	s.good = s.off
	return f, nil
}

// fullScan is the largest tail searched for frames of every type; beyond it
// only known types with legal flags are candidates. Checking a candidate costs
// a checksum over its length, so over high-entropy data the cost of a full
// search grows with the cube of the tail size: about 40 MB of checksumming
// for a 1 MiB tail, against thousands of times that for a 16 MiB one.
const fullScan = 1 << 20

// Resync is for a reader that salvages rather than refuses: after Next
// returned an *Error for a framing problem at Off (a length that cannot be
// trusted), it moves past the region to the next offset where a complete,
// checksum-valid frame of a known type starts, and returns the region
// given up (its Len runs to the end of the file when no later frame is
// proven). Next then continues from there.
func (s *Scanner) Resync(at int64, why string) (Region, error) {
	p, ok, err := s.findValid(at+1, true)
	if err != nil {
		return Region{}, err
	}
	if !ok {
		p = s.w.size
	}
	lost := Region{Off: at, Len: p - at, Reason: why}
	s.off = p
	if ok {
		s.good = p
	}
	return lost, nil
}

// findValid reports the first offset >= from that starts a complete,
// checksum-valid frame: of a known type with legal flags when the region is
// over fullScan bytes, and always when known is set (a frame a salvaging
// reader can use, which is never a second header).
func (s *Scanner) findValid(from int64, known bool) (int64, bool, error) {
	all := s.w.size-from <= fullScan && !known
	for p := from; p+Overhead <= s.w.size; p++ {
		h, err := s.w.view(p, HeaderSize)
		if err != nil {
			return 0, false, &Error{Off: p, Size: -1, Bound: -1, What: "cannot read", Err: err}
		}
		t, fl := Type(h[4]), h[5]
		n := binary.LittleEndian.Uint32(h)
		if (!all && (!t.Known() || !ValidFlags(t, fl))) || (known && t == TypeHeader) || n > s.lim.MaxFrame || p+Overhead+int64(n) > s.w.size {
			continue
		}
		if _, st, err := s.probe(p); err != nil {
			return 0, false, err
		} else if st == stOK {
			return p, true, nil
		}
	}
	return 0, false, nil
}
