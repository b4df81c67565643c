package hostfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/smith-agent/smith/core/model"
)

// ReadOptions selects a window of a file. The zero value reads from line 1
// with the default bounds.
type ReadOptions struct {
	// Offset is the first line to return, 1-based; 0 means 1.
	Offset int
	// Limit is the number of lines to return; 0 means 2000.
	Limit int
	// MaxBytes bounds the returned text; 0 means 50 KiB. A window cut by it
	// ends at a line boundary (or inside an overlong line).
	MaxBytes int
	// MaxFileBytes is the largest file read whole into memory; 0 means
	// 16 MiB. A larger file is streamed: its window is kept and the rest
	// only counted and hashed, so any size can be read a window at a time.
	MaxFileBytes int64
}

// ReadResult is a window of a text file.
type ReadResult struct {
	// Text is the window's lines, each ending in "\n" except possibly the
	// file's last.
	Text string
	// StartLine and EndLine are the 1-based lines of the window; EndLine is
	// StartLine-1 when the window is empty.
	StartLine, EndLine int
	// TotalLines counts the file's lines.
	TotalLines int
	// Truncated reports that the window stopped before Limit lines or the
	// end of the file because of MaxBytes.
	Truncated bool
	// File is the file's real path and the hash of its whole content, as
	// remembered for stale-edit detection.
	File FileHash `json:"-"`
}

// Read returns a line window of the text file at path (relative to cwd).
// Binary content (a NUL byte or invalid UTF-8) is refused. The file's hash
// is remembered for stale-edit detection (and returned as File).
func (h *FS) Read(ctx context.Context, cwd, path string, o ReadOptions) (ReadResult, error) {
	fail := func(err error) (ReadResult, error) {
		return ReadResult{}, &Error{Op: "read", Path: path, Mutation: model.MutationNotApplied, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	if o.Offset <= 0 {
		o.Offset = 1
	}
	if o.Limit <= 0 {
		o.Limit = 2000
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 50 << 10
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 16 << 20
	}
	t, err := h.resolve(cwd, path)
	if err != nil {
		return fail(err)
	}
	data, real, err := h.readAll(t, o.MaxFileBytes)
	if nt, ok := h.absolute(t, err); ok {
		t = nt
		data, real, err = h.readAll(t, o.MaxFileBytes)
	}
	var fe *faultError
	if errors.As(err, &fe) && fe.fault == FaultTooLarge {
		res, err := h.readStreamed(ctx, t, o)
		if err != nil {
			return fail(err)
		}
		return res, nil
	}
	if err != nil {
		return fail(err)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return fail(faultf(FaultNotText, "is a binary file (NUL byte at offset %d); read only text files", i))
	}
	if !utf8.Valid(data) {
		return fail(faultf(FaultNotText, "is not valid UTF-8 text; read only text files"))
	}
	file := h.remember(real, data)
	total := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		total++
	}
	if o.Offset > total && !(o.Offset == 1 && total == 0) {
		return fail(fmt.Errorf("offset %d is beyond the end of the file (%d lines); use an offset from 1 to %d", o.Offset, total, max(total, 1)))
	}
	res := ReadResult{StartLine: o.Offset, EndLine: o.Offset - 1, TotalLines: total, File: file}
	rest := data
	for line := 1; line < o.Offset; line++ {
		rest = rest[bytes.IndexByte(rest, '\n')+1:]
	}
	var out bytes.Buffer
	for len(rest) > 0 {
		end := bytes.IndexByte(rest, '\n') + 1
		if end == 0 {
			end = len(rest)
		}
		if windowLine(&out, &res, rest[:end], o) {
			break
		}
		rest = rest[end:]
	}
	res.Text = out.String()
	return res, nil
}

// readAll reads the whole file at t, refusing files over bound,
// directories and anything that is not a regular file. It returns the
// content and the file's real path.
func (h *FS) readAll(t target, bound int64) (data []byte, real string, err error) {
	f, info, err := openRegular(t.root.r, t.rel)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if info.Size() > bound {
		return nil, "", tooLarge(bound, "is %d bytes, over the %d-byte bound of a file read whole; read a smaller file", info.Size(), bound)
	}
	data = make([]byte, info.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err == nil: // more bytes than Stat reported
		return nil, "", fmt.Errorf("grew while being read; read it again")
	case err != io.ErrUnexpectedEOF && err != io.EOF:
		return nil, "", err
	}
	if real = openPath(f); real == "" {
		real = t.real()
	}
	return data[:n], real, nil
}

// openRegular opens name under root for reading without waiting (a FIFO
// would block the open until a writer comes) and returns it with its
// information if it is a regular file. A directory, FIFO, socket or
// device is refused, saying what it is.
func openRegular(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	switch m := info.Mode(); {
	case m.IsRegular():
		return f, info, nil
	case m.IsDir():
		f.Close()
		return nil, nil, fmt.Errorf("is a directory; list it with ls instead")
	default:
		f.Close()
		return nil, nil, fmt.Errorf("is %s, not a regular file; only regular files are read", kindOf(m))
	}
}

// kindOf names a file mode that is not a regular file or directory.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// windowLine adds one whole line (with its newline) of the window to out,
// for Read and readStreamed alike: it reports true when the window is
// complete (Limit lines, or the byte bound reached, which cuts an
// overlong first line on a rune boundary and marks the result truncated).
func windowLine(out *bytes.Buffer, res *ReadResult, text []byte, o ReadOptions) bool {
	if out.Len()+len(text) > o.MaxBytes {
		if out.Len() == 0 {
			cut := o.MaxBytes
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			out.Write(text[:cut])
			res.EndLine++
		}
		res.Truncated = true
		return true
	}
	out.Write(text)
	res.EndLine++
	return res.EndLine-res.StartLine+1 >= o.Limit
}
