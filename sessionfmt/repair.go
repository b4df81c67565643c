package sessionfmt

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smith-agent/smith/sessionfmt/internal/atomicfile"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// Repair writes every recoverable frame of the session file src to a new
// session file dst and publishes it atomically (temporary file, fsync,
// rename, directory fsync). Frames are copied byte for byte, unknown frame
// types included. Corrupt regions and a truncated tail are left out, as are
// frames whose checksum is valid but whose content is unusable (over a bound,
// malformed, a duplicate id, a select naming a missing entry); the Report
// lists each with its offset. A length field that cannot be trusted (past
// the header) does not stop it: the frames before it are kept, the region
// up to the next frame whose checksum proves it is given up (Report.Lost),
// and the frames from there are kept too, so the repaired file verifies
// clean. dst may equal src, which is then replaced under the writer lock;
// any other existing dst is refused.
func Repair(src, dst string, opts *Options) (*Report, error) {
	o := opts.norm()
	same := filepath.Clean(src) == filepath.Clean(dst)
	lk, err := lockFor(dst, o.WaitLock)
	if err != nil {
		return nil, err
	}
	defer unlock(lk)
	in, err := os.Open(src)
	if err != nil {
		return nil, fmt.Errorf("sessionfmt: %w; check the path", err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return nil, fmt.Errorf("sessionfmt: stat %s: %w", src, err)
	}
	rep := &Report{Path: src}
	var inflate []byte
	ids := make(map[ID]struct{})
	var last ID // the last entry written
	var enc entryEncoder
	err = atomicfile.Write(dst, o.Perm, same, func(w *bufio.Writer) error {
		var out []byte
		return fromFrame(walkFrames(in, st.Size(), o, rep, true, func(f frame.Frame, p []byte) error {
			if f.Type.Known() {
				d, err := decodeFrame(f, p, o, &inflate)
				if err == nil && f.Type == frame.TypeHeader {
					rep.Version = d.version
				}
				if err == nil && f.Type == frame.TypeEntry {
					if _, dup := ids[d.entry.ID]; dup {
						err = fmt.Errorf("entry id %s appears a second time", d.entry.ID)
					} else if _, ok := ids[d.entry.Parent]; !ok && !d.entry.Parent.IsZero() && !last.IsZero() {
						// Its parent was lost: it joins the entry written
						// before the gap, so the history before it stays its
						// history (the loader joins orphans the same way).
						d.entry.Parent = last
						rep.Joined++
						if out, err = enc.appendEntryFrame(out[:0], &d.entry, o.MaxPayload); err == nil {
							ids[d.entry.ID] = struct{}{}
							rep.Entries++
							last = d.entry.ID
							_, err = w.Write(out)
							return err
						}
					} else if !ok && !d.entry.Parent.IsZero() {
						rep.Orphans++
					}
				}
				if err == nil && f.Type == frame.TypeSelect {
					if _, ok := ids[d.leaf]; !ok {
						err = fmt.Errorf("select names entry %s, which is not in the repaired file", d.leaf)
					}
				}
				if err != nil {
					if f.Type == frame.TypeHeader {
						return err
					}
					rep.Dropped = append(rep.Dropped, Region{Off: f.Off, Len: f.Size(), Reason: reason(err)})
					return nil
				}
				switch f.Type {
				case frame.TypeEntry:
					ids[d.entry.ID] = struct{}{}
					rep.Entries++
					last = d.entry.ID
				case frame.TypeSelect:
					rep.Selects++
				}
			} else {
				rep.Unknown++
			}
			out = frame.Append(out[:0], f.Type, f.Flags, p)
			_, err := w.Write(out)
			return err
		}))
	})
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			return rep, withPath(err, src)
		}
		return rep, publishError(dst, err)
	}
	return rep, nil
}

func reason(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		s := fe.What
		if fe.Size >= 0 && fe.Bound >= 0 {
			s += fmt.Sprintf(" (size %d bytes, bound %d bytes)", fe.Size, fe.Bound)
		}
		if fe.Err != nil {
			s += ": " + fe.Err.Error()
		}
		return s
	}
	return err.Error()
}
