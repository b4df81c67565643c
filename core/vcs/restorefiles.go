package vcs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/smith-agent/smith/core/vcs/internal/index"
)

// ahead is the files of a restore written to temporary files while the
// worktree is scanned (the writes wait on disk syncs, the scan on the
// CPU). A nil *ahead has nothing written.
type ahead struct {
	wg    sync.WaitGroup
	files []aheadFile
}

// aheadFile is a file written ahead: tmp is "" when it was not (its
// directory is missing, or writing failed; the restore tries again).
type aheadFile struct {
	path string
	mode Mode
	id   ID
	tmp  string
}

// writeAhead starts writing the files that cs (the changes a restore
// expects to make) adds or modifies, in directories that exist: no
// directory is created, so that a refused restore changes nothing.
func (s *Store) writeAhead(ctx context.Context, cs []Change) *ahead {
	a := &ahead{}
	for _, c := range cs {
		if c.Kind != Deleted {
			a.files = append(a.files, aheadFile{path: c.Path, mode: c.NewMode, id: c.NewID})
		}
	}
	a.wg.Go(func() {
		s.parallel(ctx, len(a.files), func(i int) {
			f := &a.files[i]
			f.tmp, _ = s.prepareFile(filepath.Join(s.worktree, filepath.FromSlash(f.path)), f.mode, f.id, false)
		})
	})
	return a
}

// wait waits for the writes and returns the files written, by path.
func (a *ahead) wait() map[string]aheadFile {
	if a == nil {
		return nil
	}
	a.wg.Wait()
	out := make(map[string]aheadFile, len(a.files))
	for _, f := range a.files {
		if f.tmp != "" {
			out[f.path] = f
		}
	}
	return out
}

// discard waits for the writes and removes what they wrote.
func (a *ahead) discard() {
	for _, f := range a.wait() {
		_ = os.Remove(f.tmp)
	}
}

// parallel runs task(0) … task(n-1) on up to 16 goroutines (the tasks
// wait on disk syncs more than they compute), stopping early when ctx is
// done.
func (s *Store) parallel(ctx context.Context, n int, task func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(16, n) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n || ctx.Err() != nil {
					return
				}
				task(i)
			}
		})
	}
	wg.Wait()
}

// without returns the entries whose paths no change names.
func without(ents []index.Entry, cs []Change) []index.Entry {
	changed := make(map[string]bool, len(cs))
	for _, c := range cs {
		changed[c.Path] = true
	}
	out := make([]index.Entry, 0, len(ents))
	for _, e := range ents {
		if !changed[e.Path] {
			out = append(out, e)
		}
	}
	return out
}

// restoredEntries returns the cache entries of the worktree once restored
// to target: the live entry (and its stat) of each file the restore left
// alone, and for each file it wrote, the target's mode and blob id
// without a stat to trust.
func restoredEntries(live, target []index.Entry) []index.Entry {
	out := make([]index.Entry, 0, len(target))
	i := 0
	for _, t := range target {
		for i < len(live) && live[i].Path < t.Path {
			i++
		}
		if i < len(live) && live[i].Path == t.Path && live[i].Mode == t.Mode && live[i].ID == t.ID {
			out = append(out, live[i])
			continue
		}
		out = append(out, index.Entry{Path: t.Path, Mode: t.Mode, ID: t.ID, Racy: true})
	}
	return out
}

// restore applies the sorted changes cs: deletions in order, then every
// write to a temporary file in its directory (several at a time, each
// synced; those ahead wrote already are taken from it), then all renamed
// over the old files. The directories that lost or gained entries
// are added to ss, to sync before the head moves. The temporary files of
// ahead that are not used are removed.
func (s *Store) restore(ctx context.Context, op Op, cs []Change, ahead *ahead, ss *syncSet) (Restored, error) {
	ready := ahead.wait()
	defer func() {
		for _, t := range ready {
			_ = os.Remove(t.tmp)
		}
	}()
	done := Restored{Op: op}
	stopped := func(err error) error {
		return fmt.Errorf("vcs: restore to %s stopped after %d of %d changes: %w", op.To, len(done.Changes), len(cs), err)
	}
	i := 0
	for ; i < len(cs) && cs[i].Kind == Deleted; i++ {
		if err := ctx.Err(); err != nil {
			return done, stopped(err)
		}
		c := cs[i]
		full := filepath.Join(s.worktree, filepath.FromSlash(c.Path))
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return done, fmt.Errorf("vcs: restore to %s: delete %s: %w", op.To, full, err)
		}
		ss.add(s.removeEmptyParents(filepath.Dir(full)), false)
		done.Changes = append(done.Changes, c)
	}
	writes := cs[i:]
	tmps := make([]string, len(writes))
	errs := make([]error, len(writes))
	var todo []int
	for k, c := range writes {
		if t, ok := ready[c.Path]; ok && t.mode == c.NewMode && t.id == c.NewID {
			tmps[k] = t.tmp
			delete(ready, c.Path)
			continue
		}
		todo = append(todo, k)
	}
	s.parallel(ctx, len(todo), func(j int) {
		c := writes[todo[j]]
		tmps[todo[j]], errs[todo[j]] = s.prepareFile(filepath.Join(s.worktree, filepath.FromSlash(c.Path)), c.NewMode, c.NewID, true)
	})
	removeTemps := func() {
		for _, t := range tmps {
			if t != "" {
				_ = os.Remove(t)
			}
		}
	}
	for k := range writes {
		if errs[k] != nil {
			removeTemps()
			return done, fmt.Errorf("vcs: restore to %s: %w", op.To, errs[k])
		}
	}
	if err := ctx.Err(); err != nil {
		removeTemps()
		return done, stopped(err)
	}
	// The renames are independent (the deletions made room, the
	// directories exist): several at a time, as each waits on the file
	// system's journal. Once started they all run; the first error is
	// returned, with the changes made.
	failed := make([]error, len(writes))
	s.parallel(context.Background(), len(writes), func(k int) {
		full := filepath.Join(s.worktree, filepath.FromSlash(writes[k].Path))
		if err := os.Rename(tmps[k], full); err != nil {
			_ = os.Remove(tmps[k])
			failed[k] = fmt.Errorf("vcs: restore to %s: replace %s (a directory with untracked or ignored files in the way?): %w", op.To, full, err)
		}
	})
	var first error
	for k, c := range writes {
		if failed[k] != nil {
			first = cmp.Or(first, failed[k])
			continue
		}
		ss.add(filepath.Dir(filepath.Join(s.worktree, filepath.FromSlash(c.Path))), false)
		done.Changes = append(done.Changes, c)
	}
	return done, first
}

// removeEmptyParents removes dir and its parents up to the worktree while
// they are empty, and returns the first directory it left: the one whose
// entries changed.
func (s *Store) removeEmptyParents(dir string) string {
	for dir != s.worktree && strings.HasPrefix(dir, s.worktree+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return dir
		}
		dir = filepath.Dir(dir)
	}
	return dir
}

// prepareFile writes the blob id with mode to a temporary file (or
// symlink) in the directory of full, synced unless the store does not
// sync, and returns its name: renamed over full, it replaces the file
// atomically. When the directory is missing it is created if mkdir is
// set; otherwise nothing is written and the name is "".
func (s *Store) prepareFile(full string, mode Mode, id ID, mkdir bool) (string, error) {
	content, err := s.blob(id)
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(full)
	f, err := os.CreateTemp(dir, "."+filepath.Base(full)+tempMarker+"*")
	if err != nil && !mkdir {
		return "", nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("create directory %s: %w", dir, err)
		}
		f, err = os.CreateTemp(dir, "."+filepath.Base(full)+tempMarker+"*")
	}
	if err != nil {
		return "", fmt.Errorf("create a temporary file in %s: %w", dir, err)
	}
	tmp := f.Name()
	if mode == ModeSymlink {
		_ = f.Close()
		_ = os.Remove(tmp)
		if err := os.Symlink(string(content), tmp); err != nil {
			return "", fmt.Errorf("create symlink %s: %w", full, err)
		}
		return tmp, nil
	}
	perm := fs.FileMode(0o644)
	if mode == ModeExec {
		perm = 0o755
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && !s.opts.NoSync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("write %s: %w", tmp, err)
	}
	return tmp, nil
}
