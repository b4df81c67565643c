package vcs

import (
	"bytes"
	"context"
	"fmt"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// ChangeKind says how a path differs between two trees.
type ChangeKind string

// The kinds of change.
const (
	Added       ChangeKind = "added"
	Modified    ChangeKind = "modified" // content or executable bit
	Deleted     ChangeKind = "deleted"
	TypeChanged ChangeKind = "type_changed" // a file became a symlink or back
)

// Change is one changed path.
type Change struct {
	Path    string     `json:"path"` // slash-separated, relative to the worktree
	Kind    ChangeKind `json:"kind"`
	OldMode Mode       `json:"old_mode,omitempty"` // 0 when added
	NewMode Mode       `json:"new_mode,omitempty"` // 0 when deleted
	OldID   ID         `json:"old_id"`
	NewID   ID         `json:"new_id"`
	// Binary is set when either side holds a NUL byte in its first 8,000
	// bytes (git's test); binary changes have no Patch.
	Binary bool `json:"binary,omitempty"`
	// Patch is the unified diff ("--- a/path", "+++ b/path", hunks with
	// three lines of context) of a text change; empty for binary and
	// type changes, and for a change of the executable bit only.
	Patch string `json:"patch,omitempty"`
}

// changes compares two lists of files sorted by path (their Path, Mode
// and ID).
func changes(from, to []index.Entry) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(from) || j < len(to) {
		switch {
		case j == len(to) || (i < len(from) && from[i].Path < to[j].Path):
			out = append(out, Change{Path: from[i].Path, Kind: Deleted, OldMode: Mode(from[i].Mode), OldID: from[i].ID})
			i++
		case i == len(from) || to[j].Path < from[i].Path:
			out = append(out, Change{Path: to[j].Path, Kind: Added, NewMode: Mode(to[j].Mode), NewID: to[j].ID})
			j++
		default:
			a, b := from[i], to[j]
			i++
			j++
			if a.Mode == b.Mode && a.ID == b.ID {
				continue
			}
			kind := Modified
			if (Mode(a.Mode) == ModeSymlink) != (Mode(b.Mode) == ModeSymlink) {
				kind = TypeChanged
			}
			out = append(out, Change{Path: a.Path, Kind: kind, OldMode: Mode(a.Mode), NewMode: Mode(b.Mode), OldID: a.ID, NewID: b.ID})
		}
	}
	return out
}

func isBinary(b []byte) bool { return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 }

// patch fills in Binary and Patch.
func (s *Store) patch(c *Change) error {
	if c.Kind == TypeChanged || c.OldID == c.NewID {
		return nil
	}
	var before, after []byte
	var err error
	if !c.OldID.IsZero() {
		if before, err = s.blob(c.OldID); err != nil {
			return err
		}
	}
	if !c.NewID.IsZero() {
		if after, err = s.blob(c.NewID); err != nil {
			return err
		}
	}
	if isBinary(before) || isBinary(after) {
		c.Binary = true
		return nil
	}
	from, to := "a/"+c.Path, "b/"+c.Path
	if c.Kind == Added {
		from = "/dev/null"
	} else if c.Kind == Deleted {
		to = "/dev/null"
	}
	c.Patch = udiff.Unified(from, to, string(before), string(after))
	return nil
}

// Diff returns the changes from snapshot from to snapshot to (commit
// ids), sorted by path, with a unified diff for each text change.
func (s *Store) Diff(from, to ID) ([]Change, error) {
	cs, err := s.Changes(from, to)
	if err != nil {
		return nil, err
	}
	return s.withPatches(cs)
}

// Changes is [Store.Diff] without the patches: the paths that differ
// between the two snapshots, sorted, and how (no blob is read).
func (s *Store) Changes(from, to ID) ([]Change, error) {
	a, err := s.files(from)
	if err != nil {
		return nil, err
	}
	b, err := s.files(to)
	if err != nil {
		return nil, err
	}
	return changes(a, b), nil
}

// DiffWorktree returns the changes from snapshot from to the live
// worktree, as [Store.Diff] does; the worktree is scanned as for a
// snapshot (new content is stored as blobs, no commit is made).
func (s *Store) DiffWorktree(ctx context.Context, from ID) ([]Change, error) {
	c, err := s.commit(from)
	if err != nil {
		return nil, err
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	old, live, err := s.scanAndKeep(ctx)
	unlock()
	if err != nil {
		return nil, err
	}
	a, _, err := s.flatten(ID(c.Tree), old, s.prevCached.Load())
	if err != nil {
		return nil, fmt.Errorf("vcs: snapshot %s: %w", from, err)
	}
	return s.withPatches(changes(a, live.entries))
}

// scanAndKeep scans the worktree and keeps the result as the cache (the
// trees of unchanged directories with it), returning the cache it
// replaced. The caller holds the lock.
func (s *Store) scanAndKeep(ctx context.Context) (*cache, *scanResult, error) {
	old, err := s.loadCache()
	if err != nil {
		return nil, nil, err
	}
	live, err := s.scan(ctx, old, true)
	if err != nil {
		return nil, nil, err
	}
	var ss syncSet
	s.addPending(&ss)
	if err := ss.run(s.opts.NoSync); err != nil {
		return nil, nil, err
	}
	return old, live, s.storeCache(old, &cache{entries: live.entries, trees: keptTrees(old, live.entries)}, true)
}

func (s *Store) withPatches(cs []Change) ([]Change, error) {
	for i := range cs {
		if err := s.patch(&cs[i]); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// PutBlob stores b as a blob (unless it is there already) and returns its
// id. It is not synced at once: the next snapshot syncs it with its own
// objects. Safe for concurrent use, also with a snapshot.
func (s *Store) PutBlob(b []byte) (ID, error) {
	id, _, err := s.objs.Write(object.TypeBlob, b)
	if err != nil {
		return ID{}, fmt.Errorf("vcs: store a blob: %w", err)
	}
	return ID(id), nil
}

// BlobChange describes how path went from blob before to blob after (a
// zero id: no file on that side), with its patch, as [Store.Diff] does
// for a path of two snapshots. Both blobs must be stored.
func (s *Store) BlobChange(path string, before, after ID) (Change, error) {
	c := Change{Path: path, Kind: Modified, OldID: before, NewID: after, OldMode: ModeFile, NewMode: ModeFile}
	switch {
	case before.IsZero():
		c.Kind, c.OldMode = Added, 0
	case after.IsZero():
		c.Kind, c.NewMode = Deleted, 0
	}
	if err := s.patch(&c); err != nil {
		return Change{}, err
	}
	return c, nil
}
