// Package lines reads LF-terminated lines of a bounded length: the framing
// of the line-delimited JSON-RPC frontends (smith rpc, smith mcp), where
// one hostile or mistaken line must neither exhaust memory nor end the
// connection.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Reader reads LF-terminated lines of at most a bound; a longer line is
// skipped to its end and reported as too long. It is not safe for
// concurrent use.
type Reader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// NewReader returns a Reader of r's lines of at most max bytes (the LF
// not counted).
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its LF; the line is valid until the
// next call. long is set for a line over the bound (its bytes are dropped
// and line is empty). At the end of input it returns io.EOF, after a last
// line without LF if there is one.
func (lr *Reader) Next() (line []byte, long bool, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !long {
			n := len(lr.buf) + len(chunk)
			if err == nil {
				n-- // the LF
			}
			if n > lr.max {
				long = true
				lr.buf = lr.buf[:0]
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(lr.buf, []byte("\n")), long, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && (len(lr.buf) > 0 || long):
			return lr.buf, long, nil
		default:
			return nil, false, err
		}
	}
}
