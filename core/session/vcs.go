package session

import (
	"fmt"

	"github.com/smith-agent/smith/sessionfmt"
)

// The operations a vcs_operation entry records.
const (
	VCSSnapshot = "snapshot" // a snapshot of the worktree was taken
	VCSUndo     = "undo"     // the worktree was restored to before the last change
	VCSRedo     = "redo"     // an undo was undone
	VCSRestore  = "restore"  // the worktree was restored to an entry's snapshot
)

// The phases of a turn's snapshots.
const (
	PhaseStart = "start" // taken before the turn's tools ran
	PhaseEnd   = "end"   // taken after the turn settled
	// PhaseManual is a snapshot taken on request between turns (smith
	// session snapshot, /snapshot): it records the files as they are,
	// hand edits included, so undo and restore can come back to them.
	PhaseManual = "manual"
)

// VCSOperation is a vcs_operation entry: a snapshot of the worktree or a
// restore of it, done by the effect the entry pairs with. Snapshot ids are
// commit ids in the worktree's shadow repository.
type VCSOperation struct {
	// Op is one of VCSSnapshot, VCSUndo, VCSRedo, VCSRestore.
	Op string `cbor:"op"`
	// Snapshot is the snapshot taken, or restored to.
	Snapshot string `cbor:"snapshot"`
	// Worktree is the directory the snapshot is of; its shadow
	// repository holds the snapshot.
	Worktree string `cbor:"worktree"`
	// From is, for a restore, the snapshot the worktree was expected at.
	From string `cbor:"from,omitempty"`
	// Cause is the entry that caused the operation: for a turn's start
	// snapshot, the entry the turn started from.
	Cause string `cbor:"cause,omitempty"`
	// Phase and Turn place a snapshot in the conversation: PhaseStart or
	// PhaseEnd of the Turn-th turn (1-based) of the branch, or PhaseManual
	// after Turn turns.
	Phase string `cbor:"phase,omitempty"`
	Turn  int    `cbor:"turn,omitempty"`
	// Seq is the snapshot's number among the session's snapshots.
	Seq int `cbor:"seq,omitempty"`
	// Files counts the tracked files of a snapshot; Changed lists the
	// paths a restore changed (at most MaxVCSPaths of them, then
	// ChangedMore counts the rest).
	Files       int      `cbor:"files,omitempty"`
	Changed     []string `cbor:"changed,omitempty"`
	ChangedMore int      `cbor:"changed_more,omitempty"`
	// Skipped lists the files a snapshot left out, with the reason.
	Skipped []string `cbor:"skipped,omitempty"`
	// Forced marks a restore that overrode changes made since the
	// snapshot it expected.
	Forced bool `cbor:"forced,omitempty"`
	// Rewind is the entry the conversation was moved back to with the
	// files, "" when only the files were restored.
	Rewind string `cbor:"rewind,omitempty"`
	// By names the plugin call that asked for a restore ("plugin NAME,
	// command:NAME"); "" when the person did, through a frontend.
	By string `cbor:"by,omitempty"`
	// Note is what the person wrote about a manual snapshot, if anything.
	Note string `cbor:"note,omitempty"`
}

// MaxVCSPaths bounds the paths a vcs_operation entry lists: 200.
const MaxVCSPaths = 200

// RecordVCS appends a vcs_operation entry for the effect whose id is
// effectID. The entry is buffered: the effect's own records are durable.
func (s *Store) RecordVCS(effectID string, op VCSOperation) error {
	id, err := sessionfmt.ParseID(effectID)
	if err != nil {
		return fmt.Errorf("session: vcs operation's effect id: %w", err)
	}
	if len(op.Changed) > MaxVCSPaths {
		op.ChangedMore += len(op.Changed) - MaxVCSPaths
		op.Changed = op.Changed[:MaxVCSPaths]
	}
	content, err := sessionfmt.EncodeContent(op)
	if err != nil {
		return fmt.Errorf("session: encode vcs operation: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.append(sessionfmt.Entry{Kind: sessionfmt.KindVCSOperation, Pair: id, Key: op.Snapshot, Content: content}, sessionfmt.Buffered)
}

// VCSEntry is a vcs_operation entry of a branch: where it is and what it
// says.
type VCSEntry struct {
	Index int           // its index in the session
	ID    sessionfmt.ID // its entry id
	VCSOperation
}

// VCSOperations returns the vcs_operation entries on the path from the
// root to entry leaf, oldest first (none for leaf < 0). An entry whose
// content does not decode is an error naming it.
func VCSOperations(sess *sessionfmt.Session, leaf int) ([]VCSEntry, error) {
	if leaf < 0 {
		return nil, nil
	}
	var out []VCSEntry
	for _, i := range sess.History(leaf, nil) {
		if sess.Kind(i) != sessionfmt.KindVCSOperation {
			continue
		}
		e := sess.Entry(i)
		var op VCSOperation
		if err := sessionfmt.DecodeContent(e.Content, &op); err != nil {
			return nil, fmt.Errorf("session: vcs operation %s: %w", e.ID, err)
		}
		out = append(out, VCSEntry{Index: i, ID: e.ID, VCSOperation: op})
	}
	return out, nil
}
