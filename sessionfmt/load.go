package sessionfmt

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/smith-agent/smith/sessionfmt/internal/envelope"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
	"github.com/smith-agent/smith/sessionfmt/internal/zst"
)

// Load reads the session file at path without taking the writer lock, so it
// never blocks and sees the frames complete when it starts (a frame being
// appended at that moment shows as a truncated tail). It recovers what can be
// recovered without guessing and says what it found in the Report. Errors
// are *Error diagnostics (use errors.As) naming the file and offset. Load is
// safe for concurrent use; see [LoadFrom] for how it reads and allocates.
func Load(path string, opts *Options) (*Session, *Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("sessionfmt: %w; check the path", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("sessionfmt: stat %s: %w", path, err)
	}
	s, rep, err := LoadFrom(f, st.Size(), opts)
	if err != nil {
		return nil, nil, withPath(err, path)
	}
	rep.Path = path
	return s, rep, nil
}

// maxHeader bounds the header frame's payload.
const maxHeader = 4096

// LoadFrom reads a session from the first size bytes of r.
//
// Loading streams the file through a fixed 64 KiB window in two passes. The
// first verifies every checksum, applies the recovery rules and checks every
// bound, declared sizes included, before anything is sized by them; the
// second copies each entry's key and content into one arena sized exactly
// from the first pass. The number of allocations is therefore a constant,
// independent of the number of frames. Entry content is copied, not parsed.
//
// Recovery: every complete frame before a truncated tail is recovered; a
// corrupt frame whose length is confirmed by a valid frame right after it
// (or by the end of the file) is skipped and reported, up to MaxSkips; any
// other damage is an explicit error. A frame over a bound is refused before
// it is read.
func LoadFrom(r io.ReaderAt, size int64, opts *Options) (*Session, *Report, error) {
	s, rep, err := loadFrom(r, size, opts)
	return s, rep, fromFrame(err)
}

func loadFrom(r io.ReaderAt, size int64, opts *Options) (*Session, *Report, error) {
	o := opts.norm()
	lim := frame.Limits{MaxFrame: uint32(o.MaxFrame), MaxSkips: o.MaxSkips}
	win := make([]byte, frame.WindowSize)
	rep := &Report{Size: size}

	// Pass 1: frame structure, bounds and sizes.
	var entries, maxStored, maxDeclared int
	var total int64
	sc := frame.NewScanner(r, size, lim, win)
	for {
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if f.Type == frame.TypeHeader {
			if f.Off != 0 {
				return nil, nil, frame.Errorf(f.Off, "second header frame", "a header frame belongs only at offset 0, so this file was concatenated or overwritten", frame.FixRepair)
			}
			if f.Len > maxHeader {
				return nil, nil, &Error{Off: 0, Size: int64(f.Len), Bound: maxHeader, What: "header frame over its bound", Why: "a header holds only the magic and the version", Fix: "check the path"}
			}
			hdr, err := sc.ReadPayload(f, make([]byte, 0, f.Len))
			if err != nil {
				return nil, nil, err
			}
			if rep.Version, err = envelope.ParseHeader(hdr); err != nil {
				return nil, nil, &Error{Off: 0, Size: -1, Bound: -1, What: "header frame is not a smith session header", Err: err, Fix: "check the path"}
			}
			if rep.Version != envelope.Version {
				return nil, nil, &Error{Off: 0, Size: -1, Bound: -1, What: fmt.Sprintf("format version %d, this reader knows version %d", rep.Version, envelope.Version),
					Why: "the file was written by a newer smith", Fix: "upgrade smith to read it"}
			}
		}
		if !f.Type.Known() {
			continue
		}
		if !frame.ValidFlags(f.Type, f.Flags) {
			return nil, nil, &Error{Off: f.Off, Size: -1, Bound: -1, What: fmt.Sprintf("frame type %#x has unknown flags %#x", f.Type, f.Flags),
				Why: "the file was written by a newer smith or a foreign tool", Fix: "upgrade smith, or " + frame.FixRepair}
		}
		maxStored = max(maxStored, int(f.Len))
		if f.Type != frame.TypeEntry {
			continue
		}
		if f.Flags&frame.FlagZstd != 0 {
			if f.Len < 4 {
				return nil, nil, frame.Errorf(f.Off, "compressed frame shorter than its size prefix", "the writer was faulty", frame.FixRepair)
			}
			if int64(f.Declared) > int64(o.MaxPayload) {
				return nil, nil, &Error{Off: f.Off, Size: int64(f.Declared), Bound: int64(o.MaxPayload),
					What: "compressed frame declares an uncompressed size over the bound; refused before allocating it",
					Why:  "decompressing it could exhaust memory", Fix: "a session file is never written this way; it is damaged or not a session: " + frame.FixRepair}
			}
			maxDeclared = max(maxDeclared, int(f.Declared))
		} else if int64(f.Len) > int64(o.MaxPayload) {
			return nil, nil, &Error{Off: f.Off, Size: int64(f.Len), Bound: int64(o.MaxPayload), What: "entry payload over the bound", Why: "readers refuse frames over the bound before reading them", Fix: "Smith never writes entries this large, so the file is damaged or not Smith's: " + frame.FixRepair}
		}
		entries++
		total += int64(f.Declared)
		if total > int64(o.MaxSession) {
			return nil, nil, &Error{Off: f.Off, Size: total, Bound: int64(o.MaxSession),
				What: "entry payloads up to this frame exceed the session bound; refused before allocating them",
				Fix:  "the session is larger than Smith reads into memory; start a new session (or fork this one at an earlier entry with 'smith session fork')"}
		}
	}

	// Pass 2: fill the arena.
	s := &Session{recs: make([]record, 0, entries), arena: make([]byte, 0, total), table: make([]int32, tableSize(entries)), selected: -1}
	stored := make([]byte, 0, maxStored)
	var inflated []byte
	if maxDeclared > 0 {
		inflated = make([]byte, 0, maxDeclared)
	}
	sc = frame.NewScanner(r, size, lim, win)
	var v envelope.View
	for {
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		rep.Frames++
		switch f.Type {
		case frame.TypeEntry:
			if err := s.loadEntry(sc, f, stored, inflated, &v, rep, o.MaxPayload); err != nil {
				return nil, nil, err
			}
		case frame.TypeSelect:
			p, err := sc.ReadPayload(f, stored)
			if err != nil {
				return nil, nil, err
			}
			leaf, err := envelope.ParseSelect(p)
			if err != nil {
				return nil, nil, &Error{Off: f.Off, Size: -1, Bound: -1, What: "select frame is malformed", Err: err, Why: "its checksum is valid, so the writer was faulty", Fix: frame.FixRepair}
			}
			rep.Selects++
			if i := s.lookup(leaf); i >= 0 {
				s.selected = i
			} else {
				rep.StaleSelect++
			}
		case frame.TypeHeader:
		default:
			rep.Unknown++
		}
	}
	rep.Skipped = regions(sc.Skipped())
	rep.Truncated = Region(sc.Tail())
	rep.GoodEnd = sc.GoodEnd()
	return s, rep, nil
}

// loadEntry reads one entry frame into the arena.
func (s *Session) loadEntry(sc *frame.Scanner, f frame.Frame, stored, inflated []byte, v *envelope.View, rep *Report, maxPayload int) error {
	p, err := sc.ReadPayload(f, stored)
	if err != nil {
		return err
	}
	rep.StoredBytes += int64(len(p))
	if f.Flags&frame.FlagZstd != 0 {
		rep.Compressed++
		if p, err = zst.Decompress(inflated, p, uint64(maxPayload)); err != nil {
			return decompressError(f, err, maxPayload)
		}
	}
	rep.RawBytes += int64(len(p))
	if err := envelope.ParseEntry(p, v); err != nil {
		return &Error{Off: f.Off, Size: -1, Bound: -1, What: "entry frame payload is not a canonical entry", Err: err,
			Why: "its checksum is valid, so the writer was faulty or foreign", Fix: frame.FixRepair}
	}
	id := ID(v.ID)
	if s.lookup(id) >= 0 {
		return &Error{Off: f.Off, Size: -1, Bound: -1, What: fmt.Sprintf("entry id %s appears a second time", id),
			Why: "ids identify entries, so the reader cannot tell which one is meant", Fix: frame.FixRepair}
	}
	parent := int32(-1)
	if v.Parent != ([16]byte{}) {
		if parent = s.lookup(ID(v.Parent)); parent < 0 {
			rep.Orphans++
			// Its parent was in a damaged region: it joins the entry read
			// before it, so a gap never hides the history before it.
			parent = int32(len(s.recs)) - 1
		}
	}
	s.push(id, ID(v.Parent), ID(v.Pair), ID(v.Cause), v.Time, Kind(v.Kind), v.Key, v.Content, parent)
	rep.Entries++
	return nil
}

func decompressError(f frame.Frame, err error, bound int) error {
	var be *zst.BoundError
	if errors.As(err, &be) {
		return &Error{Off: f.Off, Size: int64(be.Size), Bound: int64(be.Bound), What: "compressed frame refused: " + be.What + " over its bound",
			Why: "decompressing it could exhaust memory", Fix: "a session file is never written this way; it is damaged or not a session: " + frame.FixRepair}
	}
	return &Error{Off: f.Off, Size: int64(f.Declared), Bound: int64(bound), What: "compressed frame does not decompress to its declared size", Err: err,
		Why: "its checksum is valid, so the writer was faulty or foreign", Fix: frame.FixRepair}
}
