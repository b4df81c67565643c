package vcs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/core/vcs/internal/index"
	"github.com/smith-agent/smith/core/vcs/internal/object"
)

// Mode is the kind of a tracked file, as git records it in a tree.
type Mode uint32

// The modes of tracked files.
const (
	ModeFile    Mode = Mode(object.ModeFile)    // 100644: a regular file
	ModeExec    Mode = Mode(object.ModeExec)    // 100755: an executable file
	ModeSymlink Mode = Mode(object.ModeSymlink) // 120000: a symlink; its content is the target
)

// String returns the mode in git's octal form ("100644").
func (m Mode) String() string { return strconv.FormatUint(uint64(m), 8) }

// Snapshot describes one snapshot: a commit in the shadow repository.
type Snapshot struct {
	ID      ID     `json:"id"`      // the commit id
	Tree    ID     `json:"tree"`    // its root tree
	Parent  ID     `json:"parent"`  // the session's head when it was taken; zero for the first
	Session string `json:"session"` // the session whose refs hold it
	Seq     int    `json:"seq"`     // its number n in refs/smith/<session>/<n>
	Cause   string `json:"cause"`   // the session entry that caused it
	Time    int64  `json:"time"`    // commit time, Unix seconds
	// The fields below are set by [Store.Snapshot] only.
	Files   int       `json:"files,omitempty"`   // tracked files stored
	Hashed  int       `json:"hashed,omitempty"`  // files read and hashed (the others matched the stat cache)
	Skipped []Skipped `json:"skipped,omitempty"` // files left out, with the reason
	// Reused reports that the worktree matched the session's head, so no
	// commit was made and the head is returned ([SnapshotRequest.Reuse]).
	Reused bool `json:"reused,omitempty"`
}

// Skipped is a worktree file a snapshot left out, and why.
type Skipped struct {
	Path   string `json:"path"` // slash-separated, relative to the worktree
	Size   int64  `json:"size"`
	Reason string `json:"reason"`
}

// SnapshotRequest says what to snapshot for whom.
type SnapshotRequest struct {
	Session string // the session id; required, one ref name component
	Cause   string // the session entry causing the snapshot (e.g. "turn 3 start"); required
	// Reuse returns the session's head instead of a new commit when the
	// worktree's tree equals the head's (Snapshot.Reused is then set).
	// Default false: every call makes a commit.
	Reuse bool
}

// Snapshot records the worktree as a new commit of the session: tracked
// files are those not ignored (nested .gitignore files, [Options.Ignore],
// ".git" entries, the store itself) and within [Options.MaxFileSize];
// symlinks are stored as symlinks, never followed. Files whose stat matches
// the stat cache are not read. The commit's parent is the session's head,
// it gets the next refs/smith/<session>/<n>, and the head moves to it.
// Empty directories are not recorded (as in git).
func (s *Store) Snapshot(ctx context.Context, req SnapshotRequest) (Snapshot, error) {
	if err := checkSession(req.Session); err != nil {
		return Snapshot{}, err
	}
	if req.Cause == "" || strings.ContainsAny(req.Cause, "\n\x00") {
		return Snapshot{}, fmt.Errorf("vcs: snapshot cause %q must be one non-empty line naming the session entry", req.Cause)
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	defer unlock()
	old, err := s.loadCache()
	if err != nil {
		return Snapshot{}, err
	}
	res, err := s.scan(ctx, old, true)
	if err != nil {
		return Snapshot{}, err
	}
	tree, trees, err := s.writeTrees(res.entries, old)
	if err != nil {
		return Snapshot{}, err
	}
	next := &cache{entries: res.entries, trees: trees}
	parent, err := s.readRef(HeadRef(req.Session))
	if err != nil {
		return Snapshot{}, err
	}
	if req.Reuse && !parent.IsZero() {
		if c, err := s.commit(parent); err == nil && ID(c.Tree) == tree {
			var ss syncSet
			s.addPending(&ss)
			if err := ss.run(s.opts.NoSync); err != nil {
				return Snapshot{}, err
			}
			if err := s.storeCache(old, next, true); err != nil {
				return Snapshot{}, err
			}
			sn := info(parent, 0, c)
			sn.Files, sn.Hashed, sn.Skipped, sn.Reused = len(res.entries), res.hashed, res.skipped, true
			sn.Seq = s.seqOf(req.Session, parent)
			return sn, nil
		}
	}
	now := s.opts.Now().UTC()
	var msg strings.Builder
	fmt.Fprintf(&msg, "smith snapshot: %s\n\nSession: %s\nCause: %s\n", req.Cause, req.Session, req.Cause)
	for _, sk := range res.skipped {
		fmt.Fprintf(&msg, "Skipped: %s (%d bytes): %s\n", strconv.Quote(sk.Path), sk.Size, sk.Reason)
	}
	c := object.Commit{Tree: object.ID(tree), Name: "Smith", Email: "smith@localhost", Time: now, Message: msg.String()}
	if !parent.IsZero() {
		c.Parents = []object.ID{object.ID(parent)}
	}
	b, err := object.EncodeCommit(c)
	if err != nil {
		return Snapshot{}, fmt.Errorf("vcs: %v", err)
	}
	cid, _, err := s.objs.Write(object.TypeCommit, b)
	if err != nil {
		return Snapshot{}, fmt.Errorf("vcs: %w", err)
	}
	seq, err := s.publish(req.Session, ID(cid))
	if err != nil {
		return Snapshot{}, err
	}
	if err := s.storeCache(old, next, true); err != nil {
		return Snapshot{}, err
	}
	return Snapshot{ID: ID(cid), Tree: tree, Parent: parent, Session: req.Session, Seq: seq, Cause: req.Cause,
		Time: now.Unix(), Files: len(res.entries), Hashed: res.hashed, Skipped: res.skipped}, nil
}

// commit reads a snapshot commit.
func (s *Store) commit(id ID) (object.Commit, error) {
	t, b, err := s.objs.Read(object.ID(id))
	if err != nil {
		return object.Commit{}, fmt.Errorf("vcs: snapshot %s: %w", id, err)
	}
	if t != object.TypeCommit {
		return object.Commit{}, fmt.Errorf("vcs: %s is a %s, not a snapshot commit", id, t)
	}
	c, err := object.ParseCommit(b)
	if err != nil {
		return c, fmt.Errorf("vcs: snapshot %s: %v", id, err)
	}
	return c, nil
}

// info turns a commit into a Snapshot (without scan figures).
func info(id ID, seq int, c object.Commit) Snapshot {
	sn := Snapshot{ID: id, Tree: ID(c.Tree), Seq: seq, Time: c.Time.Unix()}
	if len(c.Parents) > 0 {
		sn.Parent = ID(c.Parents[0])
	}
	for _, line := range strings.Split(c.Message, "\n") {
		if v, ok := strings.CutPrefix(line, "Session: "); ok {
			sn.Session = v
		} else if v, ok := strings.CutPrefix(line, "Cause: "); ok {
			sn.Cause = v
		}
	}
	return sn
}

// Log returns the session's snapshots in the order they were taken
// (refs/smith/<session>/1, 2, …), including those on branches left by a
// restore.
func (s *Store) Log(session string) ([]Snapshot, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	seqs, err := s.seqs(session)
	if err != nil {
		return nil, err
	}
	out := make([]Snapshot, 0, len(seqs))
	for _, n := range seqs {
		id, err := s.readRef(SnapshotRef(session, n))
		if err != nil {
			return nil, err
		}
		c, err := s.commit(id)
		if err != nil {
			return nil, err
		}
		out = append(out, info(id, n, c))
	}
	return out, nil
}

// files returns the tracked files of a snapshot (a commit id), sorted by
// path (Path, Mode and ID are the snapshot's).
func (s *Store) files(id ID) ([]index.Entry, error) {
	c, err := s.commit(id)
	if err != nil {
		return nil, err
	}
	files, _, err := s.flatten(ID(c.Tree), s.cached.Load(), s.prevCached.Load())
	if err != nil {
		return nil, fmt.Errorf("vcs: snapshot %s: %w", id, err)
	}
	return files, nil
}

// blob reads a blob's content.
func (s *Store) blob(id ID) ([]byte, error) {
	t, b, err := s.objs.Read(object.ID(id))
	if err != nil {
		return nil, fmt.Errorf("vcs: %w", err)
	}
	if t != object.TypeBlob {
		return nil, fmt.Errorf("vcs: object %s is a %s, not a blob", id, t)
	}
	return b, nil
}

// seqOf returns the number of the session's snapshot ref naming id,
// looking from the latest down (the head is usually the latest), or 0
// when no numbered ref names it.
func (s *Store) seqOf(session string, id ID) int {
	seqs, err := s.seqs(session)
	if err != nil {
		return 0
	}
	for i := len(seqs) - 1; i >= 0; i-- {
		if got, err := s.readRef(SnapshotRef(session, seqs[i])); err == nil && got == id {
			return seqs[i]
		}
	}
	return 0
}
