package sessionfmt

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/smith-agent/smith/sessionfmt/internal/envelope"
	"github.com/smith-agent/smith/sessionfmt/internal/zst"

	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// walk streams every valid frame of r to fn with its stored payload (valid
// until fn returns) and fills the report's frame structure. Memory is bounded
// by the largest frame, itself bounded by MaxFrame.
func walk(r io.ReaderAt, size int64, o Options, rep *Report, fn func(f frame.Frame, payload []byte) error) error {
	return fromFrame(walkFrames(r, size, o, rep, false, fn))
}

// walkFrames is walk; with salvage, a framing error past the header does
// not stop it: the region up to the next frame whose checksum proves it is
// given up (rep.Lost) and the walk goes on from there.
func walkFrames(r io.ReaderAt, size int64, o Options, rep *Report, salvage bool, fn func(f frame.Frame, payload []byte) error) error {
	sc := frame.NewScanner(r, size, frame.Limits{MaxFrame: uint32(o.MaxFrame), MaxSkips: o.MaxSkips}, nil)
	rep.Size = size
	var buf []byte
	for {
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		var fe *frame.Error
		if err != nil && salvage && rep.Frames > 0 && errors.As(err, &fe) && fe.Err == nil {
			lost, rerr := sc.Resync(fe.Off, fe.What)
			if rerr != nil {
				return rerr
			}
			rep.Lost = append(rep.Lost, Region(lost))
			continue
		}
		if err != nil {
			return err
		}
		if cap(buf) < int(f.Len) {
			buf = make([]byte, 0, f.Len)
		}
		p, err := sc.ReadPayload(f, buf)
		if err != nil {
			return err
		}
		rep.Frames++
		if err := fn(f, p); err != nil {
			return err
		}
	}
	rep.Skipped = regions(sc.Skipped())
	rep.Truncated = Region(sc.Tail())
	rep.GoodEnd = sc.GoodEnd()
	return nil
}

// decoded is a known frame's payload checked and, for entries, parsed.
type decoded struct {
	entry   Entry
	leaf    ID
	version uint64
}

// decodeFrame checks the payload of a known frame against every bound and
// parses it. inflate is a reusable decompression buffer. For entries, Key is
// copied and Content aliases p or *inflate.
func decodeFrame(f frame.Frame, p []byte, o Options, inflate *[]byte) (decoded, error) {
	var d decoded
	if !frame.ValidFlags(f.Type, f.Flags) {
		return d, &Error{Off: f.Off, Size: -1, Bound: -1, What: fmt.Sprintf("frame type %#x has unknown flags %#x", f.Type, f.Flags), Why: "the file was written by a newer smith or a foreign tool", Fix: "upgrade smith"}
	}
	switch f.Type {
	case frame.TypeHeader:
		v, err := envelope.ParseHeader(p)
		if err != nil {
			return d, &Error{Off: f.Off, Size: -1, Bound: -1, What: "malformed header frame", Err: err}
		}
		d.version = v
	case frame.TypeSelect:
		leaf, err := envelope.ParseSelect(p)
		if err != nil {
			return d, &Error{Off: f.Off, Size: -1, Bound: -1, What: "malformed select frame", Err: err}
		}
		d.leaf = leaf
	case frame.TypeEntry:
		if f.Flags&frame.FlagZstd != 0 {
			n, err := zst.Declared(p)
			if err != nil {
				return d, &Error{Off: f.Off, Size: -1, Bound: -1, What: "malformed compressed frame", Err: err}
			}
			if int64(n) > int64(o.MaxPayload) {
				return d, decompressError(f, &zst.BoundError{Size: uint64(n), Bound: uint64(o.MaxPayload), What: "declared uncompressed size"}, o.MaxPayload)
			}
			if cap(*inflate) < int(n) {
				*inflate = make([]byte, 0, n)
			}
			if p, err = zst.Decompress(*inflate, p, uint64(o.MaxPayload)); err != nil {
				return d, decompressError(f, err, o.MaxPayload)
			}
		}
		var v envelope.View
		if err := envelope.ParseEntry(p, &v); err != nil {
			return d, &Error{Off: f.Off, Size: -1, Bound: -1, What: "entry frame payload is not a canonical entry", Err: err}
		}
		d.entry = Entry{ID: v.ID, Parent: v.Parent, Pair: v.Pair, Cause: v.Cause, Time: time.UnixMilli(v.Time),
			Kind: Kind(v.Kind), Key: string(v.Key), Content: v.Content}
	}
	return d, nil
}
