package vcs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// syncSet is files and directories to fsync together: concurrent syncs
// share the disk's flushes (one journal commit on most file systems), so
// a batch costs about one sync, not one per path. The zero value is
// empty; a syncSet is not safe for concurrent use.
type syncSet struct {
	paths []string
	must  []bool // a failed sync is an error (else, as for a directory some file systems cannot sync, ignored)
	seen  map[string]bool
}

// add adds the file or directory p; must says whether a failure to sync
// it is an error.
func (ss *syncSet) add(p string, must bool) {
	if ss.seen == nil {
		ss.seen = map[string]bool{}
	}
	if ss.seen[p] {
		return
	}
	ss.seen[p] = true
	ss.paths = append(ss.paths, p)
	ss.must = append(ss.must, must)
}

// addPending adds the objects written but not synced yet, and their
// fan-out directories.
func (s *Store) addPending(ss *syncSet) {
	files, dirs := s.objs.Defer.Take()
	for _, p := range files {
		ss.add(p, true)
	}
	for _, p := range dirs {
		ss.add(p, true)
	}
}

// run fsyncs every path on up to 16 goroutines, unless the store does not
// sync, and empties the set. It returns the first error of a path that
// must sync; a path removed meanwhile is passed over.
func (ss *syncSet) run(noSync bool) error {
	paths, must := ss.paths, ss.must
	*ss = syncSet{}
	if noSync || len(paths) == 0 {
		return nil
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range min(16, len(paths)) {
		wg.Go(func() {
			for i := range next {
				f, err := os.Open(paths[i])
				if err == nil {
					err = f.Sync()
					_ = f.Close()
				}
				if err != nil && must[i] && !errors.Is(err, fs.ErrNotExist) {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("vcs: sync %s: %w", paths[i], err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// writeTemp writes b to a new temporary file next to p, without syncing
// it, and returns its name; mkdir reports whether p's directory was
// created.
func (s *Store) writeTemp(p string, b []byte) (name string, mkdir bool, err error) {
	dir := filepath.Dir(p)
	f, err := os.CreateTemp(dir, "."+filepath.Base(p)+".tmp-*")
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", false, fmt.Errorf("vcs: create %s: %w", dir, err)
		}
		mkdir = true
		f, err = os.CreateTemp(dir, "."+filepath.Base(p)+".tmp-*")
	}
	if err != nil {
		return "", false, fmt.Errorf("vcs: create a temporary file in %s: %w", dir, err)
	}
	name = f.Name()
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return "", false, fmt.Errorf("vcs: write %s: %w", name, err)
	}
	return name, mkdir, nil
}

// refUpdate is a ref written to a temporary file, to be renamed (or
// linked) into place once what it names is durable.
type refUpdate struct {
	name string // the ref, e.g. refs/smith/S/head
	tmp  string
}

// prepareRef writes the temporary file of ref name holding id, adding it
// (and the ref's directory, and that directory's parent when it was just
// created) to ss.
func (s *Store) prepareRef(ss *syncSet, name string, id ID) (refUpdate, error) {
	p := s.refPath(name)
	tmp, mkdir, err := s.writeTemp(p, []byte(id.String()+"\n"))
	if err != nil {
		return refUpdate{}, err
	}
	ss.add(tmp, true)
	if mkdir {
		ss.add(filepath.Dir(filepath.Dir(p)), false)
	}
	return refUpdate{name: name, tmp: tmp}, nil
}

// commitRef renames a prepared ref into place, adding its directory to
// ss (to sync after).
func (s *Store) commitRef(ss *syncSet, u refUpdate) error {
	p := s.refPath(u.name)
	if err := os.Rename(u.tmp, p); err != nil {
		_ = os.Remove(u.tmp)
		return fmt.Errorf("vcs: replace %s: %w", p, err)
	}
	ss.add(filepath.Dir(p), false)
	return nil
}
