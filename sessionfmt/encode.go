package sessionfmt

import (
	"bufio"
	"fmt"
	"sync"

	"github.com/smith-agent/smith/sessionfmt/internal/atomicfile"
	"github.com/smith-agent/smith/sessionfmt/internal/envelope"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
	"github.com/smith-agent/smith/sessionfmt/internal/zst"
)

// FormatVersion is the session format version written by this package and
// the only one it reads. Files of other versions are refused with an error
// naming the version.
const FormatVersion = 1

// The header encoder and the readers agree on the version.
var _ = [1]struct{}{}[FormatVersion-envelope.Version]

// headerFrame returns the first frame of every file, built on first use.
var headerFrame = sync.OnceValue(func() []byte { return frame.Append(nil, frame.TypeHeader, 0, envelope.EncodeHeader()) })

// keepScratch is the largest scratch buffer kept for the next entry: one
// huge entry (a long answer) must not leave megabytes held for the life of
// the file.
const keepScratch = 1 << 20

// entryEncoder encodes entry frames. Its zero value is ready to use; it is
// not safe for concurrent use and does not allocate in the steady state.
type entryEncoder struct {
	env  envelope.Encoder
	zbuf []byte
}

// appendEntryFrame appends the frame for e to dst. The payload is compressed
// when that saves bytes (see the zst package), so the same entry always gives
// the same bytes.
func (c *entryEncoder) appendEntryFrame(dst []byte, e *Entry, maxPayload int) ([]byte, error) {
	env := envelope.Entry{ID: e.ID, Parent: e.Parent, Pair: e.Pair, Cause: e.Cause,
		Time: e.Time.UnixMilli(), Kind: uint8(e.Kind), Key: e.Key, Content: e.Content}
	out, start := frame.Begin(dst)
	out, err := c.env.Append(out, &env)
	if err != nil {
		return dst, fmt.Errorf("sessionfmt: encode entry %s: %w", e.ID, err)
	}
	if n := len(out) - start - frame.HeaderSize; n > maxPayload {
		return dst, &Error{Off: -1, Size: int64(n), Bound: int64(maxPayload),
			What: fmt.Sprintf("entry %s (%s) is over the payload bound", e.ID, e.Kind),
			Why:  "readers refuse frames over the bound", Fix: "bound the content before recording it (tool output is truncated at its own limit)"}
	}
	p := out[start+frame.HeaderSize:]
	if len(p) >= zst.Threshold {
		var ok bool
		c.zbuf, ok = zst.Compress(c.zbuf[:0], p)
		if ok {
			out = append(out[:start+frame.HeaderSize], c.zbuf...)
		}
		if cap(c.zbuf) > keepScratch {
			c.zbuf = nil
		}
		if ok {
			return frame.Finish(out, start, frame.TypeEntry, frame.FlagZstd), nil
		}
	}
	return frame.Finish(out, start, frame.TypeEntry, 0), nil
}

// appendSelectFrame appends a select frame naming leaf.
func appendSelectFrame(dst []byte, leaf ID) []byte {
	p, err := envelope.EncodeSelect(leaf)
	if err != nil {
		panic("sessionfmt: encode select: " + err.Error())
	}
	return frame.Append(dst, frame.TypeSelect, 0, p)
}

// writeFile writes s as a complete session file: the header frame, every entry
// in order, and a select frame if the selected leaf is not the last entry.
func (s *Session) writeFile(w *bufio.Writer, maxPayload int) error {
	if _, err := w.Write(headerFrame()); err != nil {
		return err
	}
	var buf []byte
	var enc entryEncoder
	for i := range s.recs {
		e := s.Entry(i)
		var err error
		if buf, err = enc.appendEntryFrame(buf[:0], &e, maxPayload); err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if s.selected >= 0 && int(s.selected) != len(s.recs)-1 {
		if _, err := w.Write(appendSelectFrame(nil, s.recs[s.selected].id)); err != nil {
			return err
		}
	}
	return nil
}

// Publish writes s to a new session file at path atomically: a temporary
// file in the same directory is written, fsynced, renamed to path, and the
// directory fsynced. It fails if path exists. Use it for forks
// (s.Fork(i).Publish) and for sessions built from external entries. Frames of
// unknown types are not part of a Session and so are not written; use
// [Repair] to copy a file with them.
func (s *Session) Publish(path string, opts *Options) error {
	o := opts.norm()
	lk, err := lockFor(path, o.WaitLock)
	if err != nil {
		return err
	}
	defer unlock(lk)
	if err := atomicfile.Write(path, o.Perm, false, func(w *bufio.Writer) error { return s.writeFile(w, o.MaxPayload) }); err != nil {
		return publishError(path, err)
	}
	return nil
}
