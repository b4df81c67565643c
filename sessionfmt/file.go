package sessionfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
	"github.com/smith-agent/smith/sessionfmt/internal/atomicfile"
)

// Durability says when an append is durable.
type Durability uint8

const (
	// Buffered appends are handed to the operating system with one write
	// before Append returns: they survive a crash of the process, not of
	// the machine.
	Buffered Durability = iota
	// Durable appends are fsynced before Append returns. Effect intents
	// must be appended Durable before the effect runs.
	Durable
)

// File is a session file open for appending, with its loaded [Session].
// One File per session file exists at a time across processes: Create and
// Open take an advisory lock on "<path>.lock" that Close releases. Readers
// ([Load]) never take the lock and never block. A File is not safe for
// concurrent use; the runtime serialises its appends.
type File struct {
	path   string
	f      *os.File
	lock   *flock.Flock
	s      *Session
	rep    *Report
	opts   Options
	end    int64
	buf    []byte
	enc    entryEncoder
	broken error
}

func lockFor(path string, wait bool) (*flock.Flock, error) {
	name := path + ".lock"
	// A holder removes the lock file as it releases it (unlock), so a
	// lock taken on a file that was meanwhile removed, or replaced by a
	// newer one, is no lock: take it again on the file now at the path.
	for range 100 {
		lk := flock.New(name)
		if wait {
			if err := lk.Lock(); err != nil {
				return nil, fmt.Errorf("sessionfmt: lock %s: %w", name, err)
			}
		} else {
			ok, err := lk.TryLock()
			if err != nil {
				return nil, fmt.Errorf("sessionfmt: lock %s: %w", name, err)
			}
			if !ok {
				return nil, fmt.Errorf("sessionfmt: %s is open for writing by another process (it holds %s); close it there, or wait for it to finish", path, name)
			}
		}
		held, herr := lk.Stat()
		now, nerr := os.Stat(name)
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			return lk, nil
		}
		_ = lk.Unlock()
	}
	return nil, fmt.Errorf("sessionfmt: lock %s: the lock file keeps being replaced by other processes; try again", name)
}

// unlock removes the lock file and then releases the lock: a process
// waiting on the removed file sees it is gone (lockFor) and takes the
// lock anew, so no lock file is left beside the session.
func unlock(lk *flock.Flock) error {
	rerr := os.Remove(lk.Path())
	if errors.Is(rerr, fs.ErrNotExist) {
		rerr = nil
	}
	return errors.Join(rerr, lk.Unlock())
}

func publishError(path string, err error) error {
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("sessionfmt: publish %s: the file already exists; choose another path or remove it", path)
	}
	return fmt.Errorf("sessionfmt: publish %s: %w", path, err)
}

// Create publishes a new, empty session file at path atomically (temporary
// file, fsync, rename, directory fsync) and opens it for appending. It fails
// if path exists.
func Create(path string, opts *Options) (*File, error) {
	o := opts.norm()
	lk, err := lockFor(path, o.WaitLock)
	if err != nil {
		return nil, err
	}
	err = atomicfile.Write(path, o.Perm, false, func(w *bufio.Writer) error {
		_, err := w.Write(headerFrame())
		return err
	})
	if err != nil {
		_ = unlock(lk)
		return nil, publishError(path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		_ = unlock(lk)
		return nil, fmt.Errorf("sessionfmt: %w", err)
	}
	return &File{path: path, f: f, lock: lk, s: New(), rep: &Report{Path: path, Size: int64(len(headerFrame())), GoodEnd: int64(len(headerFrame())), Frames: 1, Version: FormatVersion},
		opts: o, end: int64(len(headerFrame()))}, nil
}

// Open opens an existing session file for appending: it takes the writer
// lock, loads and recovers the session (see [Load]), and cuts a truncated
// tail — the remains of an interrupted append — so that new frames follow
// the last complete one. [File.Report] tells what recovery found.
func Open(path string, opts *Options) (*File, error) {
	o := opts.norm()
	lk, err := lockFor(path, o.WaitLock)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		_ = unlock(lk)
		return nil, fmt.Errorf("sessionfmt: %w; check the path, or use Create for a new session", err)
	}
	fail := func(err error) (*File, error) {
		f.Close()
		_ = unlock(lk)
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("sessionfmt: stat %s: %w", path, err))
	}
	s, rep, err := LoadFrom(f, st.Size(), &o)
	if err != nil {
		return fail(withPath(err, path))
	}
	rep.Path = path
	if rep.GoodEnd < st.Size() {
		if err := f.Truncate(rep.GoodEnd); err != nil {
			return fail(fmt.Errorf("sessionfmt: %s: cut truncated tail at offset %d: %w", path, rep.GoodEnd, err))
		}
		if err := f.Sync(); err != nil {
			return fail(fmt.Errorf("sessionfmt: fsync %s: %w", path, err))
		}
	}
	return &File{path: path, f: f, lock: lk, s: s, rep: rep, opts: o, end: rep.GoodEnd}, nil
}

// withPath fills in the file name of a diagnostic.
func withPath(err error, path string) error {
	var e *Error
	if errors.As(err, &e) && e.Path == "" {
		e.Path = path
	}
	return err
}

// Session returns the in-memory session, kept in step with every append.
// Use it for reading; modify the session only through the File.
func (w *File) Session() *Session { return w.s }

// Report returns what opening the file found.
func (w *File) Report() *Report { return w.rep }

// Path returns the file's path.
func (w *File) Path() string { return w.path }

// Append validates e against the session, writes its frame at the end of
// the file with a single write, fsyncs it if d is Durable, and adds it to the
// in-memory session, where it becomes the selected leaf. If Append returns an
// error the entry is not in the session; if the error came from the file,
// the File refuses further appends (the runtime must treat a failed record
// as terminal).
func (w *File) Append(e Entry, d Durability) error {
	if w.broken != nil {
		return w.broken
	}
	p, err := w.s.check(&e)
	if err != nil {
		return err
	}
	if w.buf, err = w.enc.appendEntryFrame(w.buf[:0], &e, w.opts.MaxPayload); err != nil {
		return err
	}
	err = w.write(d)
	if cap(w.buf) > keepScratch {
		w.buf = nil
	}
	if err != nil {
		return err
	}
	w.s.insert(&e, p)
	return nil
}

// Select records that the entry with the given id is the selected leaf.
func (w *File) Select(id ID, d Durability) error {
	if w.broken != nil {
		return w.broken
	}
	i := w.s.Index(id)
	if i < 0 {
		return fmt.Errorf("sessionfmt: select %s: no such entry in %s; pick an id from Session.Leaves", id, w.path)
	}
	w.buf = appendSelectFrame(w.buf[:0], id)
	if err := w.write(d); err != nil {
		return err
	}
	w.s.Select(i)
	return nil
}

func (w *File) write(d Durability) error {
	if _, err := w.f.WriteAt(w.buf, w.end); err != nil {
		// Cut whatever part of the frame reached the file.
		_ = w.f.Truncate(w.end)
		w.broken = fmt.Errorf("sessionfmt: %s: append at offset %d failed: %w; the session is closed for appends, reopen it to continue", w.path, w.end, err)
		return w.broken
	}
	if d == Durable {
		if err := w.f.Sync(); err != nil {
			w.broken = fmt.Errorf("sessionfmt: %s: fsync after append at offset %d failed: %w; the frame may or may not be durable, reopen the session to find out", w.path, w.end, err)
			return w.broken
		}
	}
	w.end += int64(len(w.buf))
	return nil
}

// Sync fsyncs every append so far.
func (w *File) Sync() error {
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("sessionfmt: fsync %s: %w", w.path, err)
	}
	return nil
}

// Fork publishes, atomically at path, a new session holding the history from
// the root to the entry with the given id, that entry selected (see
// [Session.Fork]), and returns it open for appending. The path must not exist.
func (w *File) Fork(at ID, path string) (*File, error) {
	i := w.s.Index(at)
	if i < 0 {
		return nil, fmt.Errorf("sessionfmt: fork %s at %s: no such entry; pick an id from the session's history", w.path, at)
	}
	if err := w.s.Fork(i).Publish(path, &w.opts); err != nil {
		return nil, err
	}
	return Open(path, &w.opts)
}

// Close syncs and closes the file and releases the writer lock.
func (w *File) Close() error {
	serr := w.f.Sync()
	cerr := w.f.Close()
	uerr := unlock(w.lock)
	if err := errors.Join(serr, cerr, uerr); err != nil {
		return fmt.Errorf("sessionfmt: close %s: %w", w.path, err)
	}
	return nil
}
