package hostfs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// readStreamed is Read of a file too large to hold whole: one pass keeps
// the window's lines (bounded by o.MaxBytes) and only counts and hashes
// the rest, refusing binary content as Read does. The context is checked
// between blocks, so a huge file does not hold up an abort.
func (h *FS) readStreamed(ctx context.Context, t target, o ReadOptions) (ReadResult, error) {
	f, _, err := openRegular(t.root.r, t.rel)
	if err != nil {
		return ReadResult{}, err
	}
	defer f.Close()
	real := openPath(f)
	if real == "" {
		real = t.real()
	}
	sum := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(f, sum), 64<<10)
	res := ReadResult{StartLine: o.Offset, EndLine: o.Offset - 1}
	var out bytes.Buffer
	var offset int64 // bytes before the current line
	line := 1        // the current line's number
	atStart := true  // the current line has not begun yet
	full := false    // the window is complete (Limit lines, or cut by MaxBytes)
	var long []byte  // the part of an overlong window line read so far
	for n := 0; ; n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return ReadResult{}, err
			}
		}
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			if i := bytes.IndexByte(chunk, 0); i >= 0 {
				return ReadResult{}, faultf(FaultNotText, "is a binary file (NUL byte at offset %d); read only text files", offset+int64(i))
			}
			inWindow := line >= o.Offset && !full
			if inWindow && len(long) <= o.MaxBytes+utf8.UTFMax {
				// Past the byte bound the line is cut anyway.
				long = append(long, chunk[:min(len(chunk), o.MaxBytes+utf8.UTFMax+1-len(long))]...)
			}
			atStart = false
			offset += int64(len(chunk))
			if chunk[len(chunk)-1] == '\n' || err == io.EOF {
				if inWindow {
					if !utf8.Valid(long) && len(long) <= o.MaxBytes {
						return ReadResult{}, faultf(FaultNotText, "is not valid UTF-8 text (line %d); read only text files", line)
					}
					full = windowLine(&out, &res, long, o)
					long = long[:0]
				}
				line++
				atStart = true
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue // a line longer than the buffer: its next piece follows
		case err == io.EOF:
			res.TotalLines = line - 1
			if !atStart {
				res.TotalLines = line
			}
			if o.Offset > res.TotalLines && !(o.Offset == 1 && res.TotalLines == 0) {
				return ReadResult{}, fmt.Errorf("offset %d is beyond the end of the file (%d lines); use an offset from 1 to %d", o.Offset, res.TotalLines, max(res.TotalLines, 1))
			}
			var hash [sha256.Size]byte
			sum.Sum(hash[:0])
			res.File = FileHash{Path: real, SHA256: hash}
			h.Recall(res.File)
			res.Text = out.String()
			return res, nil
		case err != nil:
			return ReadResult{}, err
		}
	}
}
