package sessionfmt

import (
	"fmt"
	"io"

	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// Error is a diagnostic about a place in a session file: what happened, why,
// what to do, and the file, offset, size and bound concerned. Reading and
// writing functions return it (possibly wrapped); use errors.As to inspect it.
// Its message reads
//
//	sessionfmt: FILE: offset OFF: WHAT (size N bytes, bound B bytes): ERR; WHY; FIX
type Error struct {
	Path  string // file name; empty when reading from an io.ReaderAt
	Off   int64  // byte offset of the frame or region concerned; -1 if none
	Size  int64  // the offending size in bytes; -1 if none
	Bound int64  // the bound Size was checked against; -1 if none
	What  string // what happened
	Why   string // why it matters or what caused it
	Fix   string // the next corrective action
	Err   error  // underlying error, if any
}

// Error formats the diagnostic on one line.
func (e *Error) Error() string { return (*frame.Error)(e).Error() }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// fromFrame converts the frame package's diagnostics into [*Error].
func fromFrame(err error) error {
	if fe, ok := err.(*frame.Error); ok {
		return (*Error)(fe)
	}
	return err
}

// Region is a byte range of a file that was not read as a frame: a corrupt
// frame that was skipped or a truncated tail.
type Region struct {
	Off    int64  // offset of the first byte
	Len    int64  // length in bytes
	Reason string // what was wrong
}

// regions converts the scanner's regions, allocating only when there are any.
func regions(rs []frame.Region) []Region {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Region, len(rs))
	for i, r := range rs {
		out[i] = Region(r)
	}
	return out
}

// Report describes what reading a file found. A Report with no Skipped
// regions, no Truncated tail and no Orphans is an intact file.
type Report struct {
	Path      string
	Size      int64 // bytes in the file when it was read
	GoodEnd   int64 // offset just past the last valid frame
	Version   uint64
	Frames    int // valid frames, header included
	Entries   int
	Selects   int      // select-leaf frames
	Unknown   int      // frames of unknown type, preserved byte for byte
	Skipped   []Region // corrupt frames skipped, in file order
	Truncated Region   // truncated tail (Len 0 if none)
	// Orphans counts entries whose parent was in a skipped frame; each
	// loads as a child of the entry read before it, so the history before
	// the gap stays its history.
	Orphans int
	// Joined counts the orphans Repair rewrote as children of the entry
	// before the gap (their parent field changed; every other frame is
	// copied byte for byte).
	Joined int
	// StaleSelect counts select frames naming an entry that is not loaded.
	StaleSelect int
	// Compressed counts compressed entry frames; StoredBytes and RawBytes
	// sum entry payload sizes as stored and uncompressed.
	Compressed  int
	StoredBytes int64
	RawBytes    int64
	// BadContent describes entries whose content is not one well-formed
	// CBOR item; only [Verify] fills it.
	BadContent []string
	// Dropped lists frames whose checksum was valid but whose content could
	// not be used; only Repair drops frames (a load fails on them instead).
	Dropped []Region
	// Lost lists regions Repair gave up because a length field in them
	// could not be trusted, each up to the next frame a checksum proves
	// (or the end of the file); a load refuses such a file instead.
	Lost []Region
}

// Damaged reports whether anything was skipped, truncated or orphaned.
func (r *Report) Damaged() bool {
	return len(r.Skipped) > 0 || r.Truncated.Len > 0 || r.Orphans > 0 || r.StaleSelect > 0 || len(r.Dropped) > 0 || len(r.BadContent) > 0 || len(r.Lost) > 0
}

// Ratio returns RawBytes/StoredBytes, the entry payload compression ratio
// (1 when nothing is stored).
func (r *Report) Ratio() float64 {
	if r.StoredBytes == 0 {
		return 1
	}
	return float64(r.RawBytes) / float64(r.StoredBytes)
}

// WriteText writes a human-readable account of r, one line per finding.
func (r *Report) WriteText(w io.Writer) error {
	name := r.Path
	if name == "" {
		name = "session"
	}
	fmt.Fprintf(w, "%s: format version %d, %d bytes, %d frames (%d entries, %d selects, %d unknown kept)\n",
		name, r.Version, r.Size, r.Frames, r.Entries, r.Selects, r.Unknown)
	for _, g := range r.Skipped {
		fmt.Fprintf(w, "%s: offset %d: skipped %d bytes: %s\n", name, g.Off, g.Len, g.Reason)
	}
	for _, g := range r.Dropped {
		fmt.Fprintf(w, "%s: offset %d: dropped %d bytes: %s\n", name, g.Off, g.Len, g.Reason)
	}
	for _, g := range r.Lost {
		fmt.Fprintf(w, "%s: offset %d: lost %d bytes: %s; the frames before and after it were kept\n", name, g.Off, g.Len, g.Reason)
	}
	if r.Truncated.Len > 0 {
		fmt.Fprintf(w, "%s: offset %d: truncated tail of %d bytes: %s; every frame before it was recovered\n", name, r.Truncated.Off, r.Truncated.Len, r.Truncated.Reason)
	}
	for _, b := range r.BadContent {
		fmt.Fprintf(w, "%s: %s: content is not one well-formed CBOR item; its consumer will refuse it\n", name, b)
	}
	if r.Orphans > 0 {
		fmt.Fprintf(w, "%s: entries whose parent was in a skipped frame: %d; each continues from the entry before the gap\n", name, r.Orphans)
	}
	if r.Joined > 0 {
		fmt.Fprintf(w, "%s: entries whose parent was lost, joined to the entry before the gap: %d\n", name, r.Joined)
	}
	if r.StaleSelect > 0 {
		fmt.Fprintf(w, "%s: %d select frames name entries that are not loaded; the last loaded entry stays selected\n", name, r.StaleSelect)
	}
	var err error
	if r.Damaged() {
		_, err = fmt.Fprintf(w, "%s: damaged; recovered frames end at offset %d; run 'sessionfmt repair %s -o NEW' to write them to a new file\n", name, r.GoodEnd, name)
	} else {
		_, err = fmt.Fprintf(w, "%s: intact\n", name)
	}
	return err
}
