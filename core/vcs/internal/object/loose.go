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

// add records a new object file (when not "") and directories holding
// new entries.
func (p *Pending) add(file string, dirs ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if file != "" {
		p.files = append(p.files, file)
	}
	if p.dirs == nil {
		p.dirs = map[string]bool{}
	}
	for _, d := range dirs {
		p.dirs[d] = true
	}
}

// Take returns the pending object files and the fan-out directories that
// gained one, and forgets them: the caller syncs them (with other files,
// as one batch).
func (p *Pending) Take() (files, dirs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	files = p.files
	dirs = make([]string, 0, len(p.dirs))
	for d := range p.dirs {
		dirs = append(dirs, d)
	}
	p.files, p.dirs = nil, nil
	return files, dirs
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
	// The directories whose entries must be synced: the fan-out
	// directory, and the objects directory when it gains that.
	synced := []string{dir}
	tmp, err := os.CreateTemp(dir, "tmp_obj_*")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return id, false, fmt.Errorf("create object directory %s: %w", dir, err)
		}
		synced = append(synced, d.Path)
		tmp, err = os.CreateTemp(dir, "tmp_obj_*")
	}
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
	// Objects are read-only in git's layout.
	_ = tmp.Chmod(0o444)
	if err := tmp.Close(); err != nil {
		return fail("close", err)
	}
	if err := os.Rename(name, p); err != nil {
		_ = os.Remove(name)
		return id, false, fmt.Errorf("rename object %s into %s: %w", id, p, err)
	}
	switch {
	case d.Sync && d.Defer != nil:
		d.Defer.add(p, synced...)
	case d.Sync:
		for _, dir := range synced {
			if f, err := os.Open(dir); err == nil {
				_ = f.Sync()
				_ = f.Close()
			}
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
