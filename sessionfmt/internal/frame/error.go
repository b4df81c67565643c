package frame

import (
	"fmt"
	"strings"
)

// Error is a diagnostic about one place in a session file. It states what
// happened, why, and what to do, and names the file, the offset and, where one
// applies, the offending size and its bound.
type Error struct {
	Path  string // file name; empty when reading from a stream
	Off   int64  // byte offset of the frame or region concerned; -1 if none
	Size  int64  // offending size in bytes; -1 if none
	Bound int64  // the bound Size was checked against; -1 if none
	What  string // what happened
	Why   string // why it matters or what caused it
	Fix   string // the next corrective action
	Err   error  // underlying error, if any
}

// Error formats the diagnostic on one line.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("sessionfmt: ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Off >= 0 {
		fmt.Fprintf(&b, "offset %d: ", e.Off)
	}
	b.WriteString(e.What)
	if e.Size >= 0 && e.Bound >= 0 {
		fmt.Fprintf(&b, " (size %d bytes, bound %d bytes)", e.Size, e.Bound)
	} else if e.Size >= 0 {
		fmt.Fprintf(&b, " (size %d bytes)", e.Size)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Why != "" {
		b.WriteString("; ")
		b.WriteString(e.Why)
	}
	if e.Fix != "" {
		b.WriteString("; ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error at off with no size.
func Errorf(off int64, what, why, fix string) *Error {
	return &Error{Off: off, Size: -1, Bound: -1, What: what, Why: why, Fix: fix}
}

// FixRepair is the corrective action for a damaged but partly readable file.
const FixRepair = "run 'sessionfmt verify FILE' to see every damaged region and 'sessionfmt repair FILE -o OUT' to write the recoverable frames to a new file"
