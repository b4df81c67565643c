package vcs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// OpKind names a restore operation.
type OpKind string

// The restore operations.
const (
	OpRestore OpKind = "restore" // to any snapshot (time travel)
	OpUndo    OpKind = "undo"    // to the nearest ancestor of the head with a different tree
	OpRedo    OpKind = "redo"    // to the nearest later descendant with a different tree
)

// ErrNothingToUndo and ErrNothingToRedo are returned (wrapped) by
// [Store.PlanUndo] and [Store.PlanRedo] when no snapshot differs in that
// direction.
var (
	ErrNothingToUndo = errors.New("vcs: nothing to undo")
	ErrNothingToRedo = errors.New("vcs: nothing to redo")
)

// Op is a planned restore, plain data the runtime records as the intent
// of a durable effect before [Store.Apply] runs it. Applying an Op is
// idempotent when nothing else changed the worktree.
type Op struct {
	Kind    OpKind `json:"kind"`
	Session string `json:"session"`
	// From is the snapshot the worktree is expected to match (the
	// session's head when planned); Apply refuses when it does not.
	From ID `json:"from"`
	// To is the snapshot to restore.
	To ID `json:"to"`
	// Force restores even when the worktree no longer matches From.
	Force bool `json:"force,omitempty"`
	// Cause is the session entry that asked for the operation.
	Cause string `json:"cause,omitempty"`
}

// Restored is what [Store.Apply] changed: the changes from the worktree
// as it was to the target snapshot (no patches), in the order applied
// (deletions, deepest first, then writes by path).
type Restored struct {
	Op      Op       `json:"op"`
	Changes []Change `json:"changes"`
}

// ConflictError is returned by [Store.Apply] when the worktree changed
// since the snapshot an Op expects.
type ConflictError struct {
	Expected ID       // Op.From
	Paths    []string // the paths that differ, sorted
}

// Error names the first paths and the two ways out.
func (e *ConflictError) Error() string {
	shown := e.Paths
	more := ""
	if len(shown) > 10 {
		shown, more = shown[:10], fmt.Sprintf(" and %d more", len(e.Paths)-10)
	}
	return fmt.Sprintf("vcs: the worktree changed since snapshot %s: %s%s; take a snapshot first (so the changes can be restored later) or force the restore",
		e.Expected, strings.Join(shown, ", "), more)
}

// PlanRestore plans restoring the session's worktree to snapshot to,
// expecting the worktree to match the session's head.
func (s *Store) PlanRestore(session string, to ID, cause string) (Op, error) {
	head, err := s.headOrErr(session)
	if err != nil {
		return Op{}, err
	}
	if _, err := s.commit(to); err != nil {
		return Op{}, err
	}
	return Op{Kind: OpRestore, Session: session, From: head, To: to, Cause: cause}, nil
}

func (s *Store) headOrErr(session string) (ID, error) {
	head, err := s.Head(session)
	if err == nil && head.IsZero() {
		err = fmt.Errorf("vcs: session %s has no snapshot in %s; take one first", session, s.dir)
	}
	return head, err
}

// PlanUndo plans restoring the session's head's nearest ancestor whose
// tree differs from the head's (snapshots that changed nothing are passed
// over).
func (s *Store) PlanUndo(session, cause string) (Op, error) {
	head, err := s.headOrErr(session)
	if err != nil {
		return Op{}, err
	}
	c, err := s.commit(head)
	if err != nil {
		return Op{}, err
	}
	tree := c.Tree
	for id := head; ; {
		if len(c.Parents) == 0 {
			return Op{}, fmt.Errorf("%w in session %s: no earlier snapshot differs from %s", ErrNothingToUndo, session, head)
		}
		id = ID(c.Parents[0])
		if c, err = s.commit(id); err != nil {
			return Op{}, err
		}
		if c.Tree != tree {
			return Op{Kind: OpUndo, Session: session, From: head, To: id, Cause: cause}, nil
		}
	}
}

// PlanRedo plans restoring the nearest descendant of the session's head,
// following the most recently taken child at each step, whose tree differs
// from the head's.
func (s *Store) PlanRedo(session, cause string) (Op, error) {
	head, err := s.headOrErr(session)
	if err != nil {
		return Op{}, err
	}
	log, err := s.Log(session)
	if err != nil {
		return Op{}, err
	}
	latestChild := map[ID]Snapshot{} // log is in Seq order, so the last wins
	var tree ID
	for _, sn := range log {
		latestChild[sn.Parent] = sn
		if sn.ID == head {
			tree = sn.Tree
		}
	}
	if tree.IsZero() {
		c, err := s.commit(head)
		if err != nil {
			return Op{}, err
		}
		tree = ID(c.Tree)
	}
	for id, steps := head, 0; steps <= len(log); steps++ {
		next, ok := latestChild[id]
		if !ok {
			break
		}
		if next.Tree != tree {
			return Op{Kind: OpRedo, Session: session, From: head, To: next.ID, Cause: cause}, nil
		}
		id = next.ID
	}
	return Op{}, fmt.Errorf("%w in session %s: no later snapshot differs from %s", ErrNothingToRedo, session, head)
}

// Apply runs a planned restore. Unless op.Force is set, the worktree
// (scanned as for a snapshot) must match op.From, or Apply returns a
// [*ConflictError] naming the differing paths and changes nothing. Then
// tracked files not in op.To are deleted (ignored and untracked files are
// never touched; directories left empty are removed) and every file that
// differs is written to a temporary file in its directory and renamed
// over the old one, with its mode, symlinks as symlinks: after a crash
// each file holds its old or its new content. Finally the session's head
// moves to op.To. On an error part of the changes may have been applied;
// the error names the path, and the runtime should record the effect as
// unknown.
func (s *Store) Apply(ctx context.Context, op Op) (Restored, error) {
	if err := checkSession(op.Session); err != nil {
		return Restored{}, err
	}
	if op.From.IsZero() && !op.Force {
		return Restored{}, fmt.Errorf("vcs: restore to %s has no expected snapshot (From); plan it with PlanRestore, or set Force", op.To)
	}
	to, err := s.commit(op.To)
	if err != nil {
		return Restored{}, err
	}
	var from object.Commit
	if !op.Force {
		if from, err = s.commit(op.From); err != nil {
			return Restored{}, err
		}
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return Restored{}, err
	}
	defer unlock()
	old, err := s.loadCache()
	if err != nil {
		return Restored{}, err
	}
	prev := s.prevCached.Load()
	target, targetTrees, err := s.flatten(ID(to.Tree), old, prev)
	if err != nil {
		return Restored{}, fmt.Errorf("vcs: snapshot %s: %w", op.To, err)
	}
	var expected []index.Entry
	var ahead *ahead
	if !op.Force {
		if expected, _, err = s.flatten(ID(from.Tree), old, prev); err != nil {
			return Restored{}, fmt.Errorf("vcs: snapshot %s: %w", op.From, err)
		}
		// The worktree should match From: the files to write are known
		// before the scan checks it, and are written (and synced) while
		// it runs.
		ahead = s.writeAhead(ctx, changes(expected, target))
	}
	live, err := s.scan(ctx, old, ahead == nil)
	if err != nil {
		ahead.discard()
		return Restored{}, err
	}
	if !op.Force {
		if diff := changes(expected, live.entries); len(diff) > 0 {
			ahead.discard()
			paths := make([]string, len(diff))
			for i, c := range diff {
				paths[i] = c.Path
			}
			// The scan is still worth keeping.
			var ss syncSet
			s.addPending(&ss)
			if ss.run(s.opts.NoSync) == nil {
				_ = s.storeCache(old, &cache{entries: live.entries, trees: keptTrees(old, live.entries)}, true)
			}
			return Restored{}, &ConflictError{Expected: op.From, Paths: paths}
		}
	}
	cs := changes(live.entries, target)
	// Deletions first, deepest first, so a file can replace a directory
	// and a directory a file.
	slices.SortStableFunc(cs, func(a, b Change) int {
		ad, bd := a.Kind == Deleted, b.Kind == Deleted
		switch {
		case ad && !bd:
			return -1
		case bd && !ad:
			return 1
		case ad && bd:
			return strings.Compare(b.Path, a.Path)
		}
		return strings.Compare(a.Path, b.Path)
	})
	var ss syncSet
	done, err := s.restore(ctx, op, cs, ahead, &ss)
	if err != nil {
		// What the changed paths hold is unknown: the next scan hashes
		// them and writes every tree again.
		_ = s.storeCache(old, &cache{entries: without(live.entries, cs)}, false)
		return done, err
	}
	s.addPending(&ss)
	head, err := s.prepareRef(&ss, HeadRef(op.Session), op.To)
	if err != nil {
		return done, err
	}
	if err := ss.run(s.opts.NoSync); err != nil {
		_ = os.Remove(head.tmp)
		return done, err
	}
	if err := s.commitRef(&ss, head); err != nil {
		return done, err
	}
	if err := ss.run(s.opts.NoSync); err != nil {
		return done, err
	}
	// Not written to smith-index: the files written have no stat to
	// trust yet, so the next scan hashes them either way, and the next
	// snapshot writes it.
	_ = s.storeCache(old, &cache{entries: restoredEntries(live.entries, target), trees: targetTrees}, false)
	return done, nil
}
