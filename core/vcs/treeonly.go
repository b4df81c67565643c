package vcs

import (
	"context"
	"fmt"
)

// Tree records the worktree as a tree — its files stored as blobs, its
// directories as trees, as a snapshot stores them — without a commit or a
// ref, and returns the root tree's id: the state of the files around one
// command, which [Store.DiffTrees] compares. When the store's last scan
// found more than maxFiles tracked files (0: no bound) it returns
// ErrTooManyFiles (wrapped) without scanning. The objects are synced before it
// returns. Safe for concurrent use; scans are serialized.
func (s *Store) Tree(ctx context.Context, maxFiles int) (ID, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return ID{}, err
	}
	defer unlock()
	old, err := s.loadCache()
	if err != nil {
		return ID{}, err
	}
	if maxFiles > 0 && len(old.entries) > maxFiles {
		return ID{}, fmt.Errorf("%w for one command: %d, more than %d", ErrTooManyFiles, len(old.entries), maxFiles)
	}
	res, err := s.scan(ctx, old, true)
	if err != nil {
		return ID{}, err
	}
	tree, trees, err := s.writeTrees(res.entries, old)
	if err != nil {
		return ID{}, err
	}
	var ss syncSet
	s.addPending(&ss)
	if err := ss.run(s.opts.NoSync); err != nil {
		return ID{}, err
	}
	if err := s.storeCache(old, &cache{entries: res.entries, trees: trees}, true); err != nil {
		return ID{}, err
	}
	return tree, nil
}

// DiffTrees returns the changes from tree a to tree b (ids [Store.Tree]
// returned, or a snapshot's Tree), as [Store.Diff] does.
func (s *Store) DiffTrees(a, b ID) ([]Change, error) {
	from, _, err := s.flatten(a, s.cached.Load(), s.prevCached.Load())
	if err != nil {
		return nil, fmt.Errorf("vcs: tree %s: %w", a, err)
	}
	to, _, err := s.flatten(b, s.cached.Load(), s.prevCached.Load())
	if err != nil {
		return nil, fmt.Errorf("vcs: tree %s: %w", b, err)
	}
	return s.withPatches(changes(from, to))
}
