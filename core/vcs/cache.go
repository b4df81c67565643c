package vcs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// cache is the worktree as the last scan or restore left it (smith-index
// in the store): the tracked files sorted by path, each with its stat and
// blob id, and the tree ids of directories whose tree holds exactly the
// entries below them. A cache is never modified once the store holds it;
// a scan or restore makes a new one, so readers use one without a lock.
type cache struct {
	entries []index.Entry
	trees   []index.Tree // sorted by Dir ("" for the root, else "a/b/")
}

// below returns the range of ents (sorted by path) whose paths start with
// dir ("" or ending in "/").
func below(ents []index.Entry, dir string) (int, int) {
	lo := sort.Search(len(ents), func(i int) bool { return ents[i].Path >= dir })
	n := sort.Search(len(ents)-lo, func(i int) bool { return !strings.HasPrefix(ents[lo+i].Path, dir) })
	return lo, lo + n
}

// treesBelow returns the range of trees (sorted by Dir) for dir and its
// subdirectories.
func treesBelow(trees []index.Tree, dir string) (int, int) {
	lo := sort.Search(len(trees), func(i int) bool { return trees[i].Dir >= dir })
	n := sort.Search(len(trees)-lo, func(i int) bool { return !strings.HasPrefix(trees[lo+i].Dir, dir) })
	return lo, lo + n
}

// tree returns the cached tree of dir and the range of c.trees for it and
// its subdirectories, or false when dir's tree is not cached.
func (c *cache) tree(dir string) (object.ID, int, int, bool) {
	lo, hi := treesBelow(c.trees, dir)
	if lo == hi || c.trees[lo].Dir != dir {
		return object.ID{}, 0, 0, false
	}
	return c.trees[lo].ID, lo, hi, true
}

// equal reports whether c and o would write the same index file.
func (c *cache) equal(o *cache) bool {
	return slices.Equal(c.entries, o.entries) && slices.Equal(c.trees, o.trees)
}

func (s *Store) indexPath() string { return filepath.Join(s.dir, "smith-index") }

// loadCache returns the store's cache, reading smith-index the first
// time; an unreadable, corrupt or foreign index is an empty cache. The
// caller holds the lock.
func (s *Store) loadCache() (*cache, error) {
	if c := s.cached.Load(); c != nil {
		return c, nil
	}
	c := &cache{}
	b, err := os.ReadFile(s.indexPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("vcs: read the stat cache %s: %w", s.indexPath(), err)
	}
	if err == nil {
		// A corrupt or foreign cache only costs rehashing.
		if ix, err := index.Parse(b); err == nil && ix.Worktree == s.worktree {
			c.entries, c.trees = ix.Entries, ix.Trees
		}
	}
	s.cached.Store(c)
	return c, nil
}

// storeCache makes c the store's cache (old's stays at hand for
// [Store.flatten]: the snapshot an undo restores) and, when persist is
// set and c differs from old, writes smith-index. Call it after the
// objects c names are synced: the index is never synced itself (losing
// it only costs rehashing), but it must not outlive a crash that lost
// them. The caller holds the lock.
func (s *Store) storeCache(old, c *cache, persist bool) error {
	if old != c {
		s.prevCached.Store(old)
	}
	s.cached.Store(c)
	if !persist || (old != nil && old.equal(c)) {
		return nil
	}
	b, err := index.Encode(index.Index{Worktree: s.worktree, Entries: c.entries, Trees: c.trees})
	if err != nil {
		return fmt.Errorf("vcs: encode the stat cache: %w", err)
	}
	tmp, err := os.CreateTemp(s.dir, ".smith-index.tmp-*")
	if err != nil {
		return fmt.Errorf("vcs: write the stat cache in %s: %w", s.dir, err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// Removed first, as renaming over a file makes ext4 flush the
		// new one (auto_da_alloc), which costs more than the rest. Only
		// a lock holder reads the index, so none sees it missing; a
		// crash in between only costs rehashing.
		if err = os.Remove(s.indexPath()); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.indexPath())
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("vcs: write the stat cache %s: %w", s.indexPath(), err)
	}
	return nil
}
