package frame

import (
	"fmt"
	"io"
)

// WindowSize is the read window of a [Scanner]: the most bytes it holds at
// once, whatever the size of a frame.
const WindowSize = 64 << 10

// window serves reads at arbitrary offsets of an io.ReaderAt through one
// fixed buffer, so sequential scanning costs one read per WindowSize bytes.
type window struct {
	r    io.ReaderAt
	size int64
	buf  []byte
	off  int64 // file offset of buf[0]
	n    int   // valid bytes in buf
}

// view returns the bytes [off, off+n). n must not exceed WindowSize and
// off+n must not exceed the file size. The view is valid until the next call.
func (w *window) view(off int64, n int) ([]byte, error) {
	if off >= w.off && off+int64(n) <= w.off+int64(w.n) {
		s := int(off - w.off)
		return w.buf[s : s+n], nil
	}
	m := int64(len(w.buf))
	if rem := w.size - off; rem < m {
		m = rem
	}
	k, err := w.r.ReadAt(w.buf[:m], off)
	w.off, w.n = off, k
	if k < n {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		w.n = 0
		return nil, fmt.Errorf("read %d bytes at offset %d: %w", n, off, err)
	}
	return w.buf[:n], nil
}
