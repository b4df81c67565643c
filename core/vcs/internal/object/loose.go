package object

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Dir is the objects/ directory of a repository.
type Dir struct {
	Path string // the objects directory
	Sync bool   // fsync each new object file and its fan-out directory
	Max  int    // largest object content Read accepts, in bytes
	// Defer, when set with Sync, collects the new objects instead of
	// syncing each as it is written; [Pending.Sync] syncs them together
	// (a snapshot's objects are synced before a ref names them).
	Defer *Pending
}

// Pending is the objects written but not yet synced. It is safe for
// concurrent use.
type Pending struct {
	mu    sync.Mutex
	files []string
	dirs  map[string]bool
}

func (p *Pending) add(file, dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.files = append(p.files, file)
	if p.dirs == nil {
		p.dirs = map[string]bool{}
	}
	p.dirs[dir] = true
}

// Sync fsyncs every pending object file, then every fan-out directory
// that gained one, several at a time (the disk batches concurrent
// syncs), and forgets them. The first error is returned.
func (p *Pending) Sync() error {
	p.mu.Lock()
	files, dirs := p.files, p.dirs
	p.files, p.dirs = nil, nil
	p.mu.Unlock()
	if err := syncAll(files); err != nil {
		return err
	}
	ds := make([]string, 0, len(dirs))
	for d := range dirs {
		ds = append(ds, d)
	}
	return syncAll(ds)
}

// syncAll opens and fsyncs paths on up to 16 goroutines.
func syncAll(paths []string) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan string)
	)
	for range min(16, len(paths)) {
		wg.Go(func() {
			for p := range next {
				f, err := os.Open(p)
				if err == nil {
					err = f.Sync()
					_ = f.Close()
				}
				if err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("sync %s: %w", p, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	return first
}

// path returns the loose object path of id.
func (d Dir) path(id ID) string {
	s := id.String()
	return filepath.Join(d.Path, s[:2], s[2:])
}

// Has reports whether the object id is stored.
func (d Dir) Has(id ID) bool {
	_, err := os.Lstat(d.path(id))
	return err == nil
}

// writers pools zlib writers: each holds about a megabyte of compressor
// state, which a snapshot of thousands of files would otherwise allocate
// per object.
var writers = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(io.Discard, zlib.BestSpeed)
	return zw
}}

// Write stores an object of type t with content b unless it is already
// there, and returns its id and whether it was new. The object is
// compressed into a temporary file in its fan-out directory, which is
// renamed into place: a reader never sees part of an object.
func (d Dir) Write(t Type, b []byte) (ID, bool, error) {
	id := Hash(t, b)
	if d.Has(id) {
		return id, false, nil
	}
	p := d.path(id)
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return id, false, fmt.Errorf("create object directory %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "tmp_obj_*")
	if err != nil {
		return id, false, fmt.Errorf("create a temporary object in %s: %w", dir, err)
	}
	name := tmp.Name()
	fail := func(step string, err error) (ID, bool, error) {
		_ = tmp.Close()
		_ = os.Remove(name)
		return id, false, fmt.Errorf("%s object %s at %s: %w", step, id, name, err)
	}
	zw := writers.Get().(*zlib.Writer)
	defer writers.Put(zw)
	zw.Reset(tmp)
	if _, err := zw.Write(Header(t, len(b))); err != nil {
		return fail("write", err)
	}
	if _, err := zw.Write(b); err != nil {
		return fail("write", err)
	}
	if err := zw.Close(); err != nil {
		return fail("compress", err)
	}
	if d.Sync && d.Defer == nil {
		if err := tmp.Sync(); err != nil {
			return fail("sync", err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fail("close", err)
	}
	// Objects are read-only in git's layout.
	_ = os.Chmod(name, 0o444)
	if err := os.Rename(name, p); err != nil {
		_ = os.Remove(name)
		return id, false, fmt.Errorf("rename object %s into %s: %w", id, p, err)
	}
	switch {
	case d.Sync && d.Defer != nil:
		d.Defer.add(p, dir)
	case d.Sync:
		if f, err := os.Open(dir); err == nil {
			_ = f.Sync()
			_ = f.Close()
		}
	}
	return id, true, nil
}

// ErrNotFound is returned (wrapped) by Read for an object that is not
// stored as a loose object.
var ErrNotFound = errors.New("object not found")

// Read returns the type and content of the loose object id, checking that
// its content hashes to id.
func (d Dir) Read(id ID) (Type, []byte, error) {
	p := d.path(id)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, fmt.Errorf("read object %s: %w at %s (a packed object? this store reads loose objects only: do not run git gc or repack on it)", id, ErrNotFound, p)
	}
	if err != nil {
		return "", nil, fmt.Errorf("read object %s: %w", id, err)
	}
	defer f.Close()
	t, b, err := Inflate(f, d.Max)
	if err != nil {
		return "", nil, fmt.Errorf("read object %s at %s: %w", id, p, err)
	}
	if Hash(t, b) != id {
		return "", nil, fmt.Errorf("read object %s at %s: content hashes to %s; the store is corrupt", id, p, Hash(t, b))
	}
	return t, b, nil
}

// Inflate decompresses a loose object from r and splits it into type and
// content, accepting at most max content bytes.
func Inflate(r io.Reader, max int) (Type, []byte, error) {
	zr, err := zlib.NewReader(r)
	if err != nil {
		return "", nil, fmt.Errorf("zlib: %w", err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	limit := int64(max) + 32
	n, err := buf.ReadFrom(io.LimitReader(zr, limit+1))
	if err != nil {
		return "", nil, fmt.Errorf("zlib: %w", err)
	}
	if n > limit {
		return "", nil, fmt.Errorf("object is larger than the limit %d", max)
	}
	return ParseHeader(buf.Bytes(), max)
}
