package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/sessionfmt"
)

// maxNoteBytes bounds a manual snapshot's note: 500 bytes.
const maxNoteBytes = 500

// Snapshot records the files as they are now, between turns, as a
// vcs.snapshot effect and a vcs_operation entry of phase "manual": hand
// edits made since the session's last snapshot become a state undo, redo
// and restore know — an undo from here goes back to before them, a redo
// returns to them, and restore --at the entry comes back to them later —
// instead of a conflict those operations refuse to overwrite. When the
// files are as the last snapshot has them, the entry names that snapshot
// again (Reused). Refused with [ErrBusy] while a run is active, and with
// a usage error in a session that records nothing or whose snapshots are
// off. Safe for concurrent use; it waits for the session's lock.
func (s *Session) Snapshot(ctx context.Context, p protocol.SnapshotParams) (protocol.SnapshotResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked(ctx, p, nil)
}

// snapshotLocked is Snapshot with s.mu held; by is the plugin command
// that asked for it, nil for a frontend.
func (s *Session) snapshotLocked(ctx context.Context, p protocol.SnapshotParams, by *plugin.VCSCaller) (protocol.SnapshotResult, error) {
	if err := s.idle(); err != nil {
		if errors.Is(err, ErrBusy) {
			err = &plugin.VCSRefusal{Reason: plugin.VCSBusy, Err: err}
		}
		return protocol.SnapshotResult{}, err
	}
	note := strings.TrimSpace(p.Note)
	switch {
	case strings.ContainsAny(note, "\r\n\x00"):
		return protocol.SnapshotResult{}, usagef("runtime: a snapshot's note is one line; %q has a line break", note)
	case len(note) > maxNoteBytes:
		return protocol.SnapshotResult{}, usagef("runtime: a snapshot's note is at most %d bytes; this one has %d", maxNoteBytes, len(note))
	case s.rt.cfg.Ephemeral:
		return protocol.SnapshotResult{}, &plugin.VCSRefusal{Reason: plugin.VCSNothing,
			Err: usagef("runtime: this session records nothing (eval --no-session), so it keeps no file snapshots; run without --no-session")}
	case s.vcs.off.Load():
		return protocol.SnapshotResult{}, &plugin.VCSRefusal{Reason: plugin.VCSNothing,
			Err: usagef("runtime: file snapshots are off for session %s after an earlier failure (its notice said why); start a new session to take them again", display(s.info))}
	}
	ts, err := s.nextTurnSnap()
	if err != nil {
		return protocol.SnapshotResult{}, fmt.Errorf("runtime: snapshot of session %s: %w", display(s.info), err)
	}
	ts.turn-- // the turns it follows
	var byText string
	cause := fmt.Sprintf("entry %s (manual snapshot)", ts.parent)
	if by != nil {
		byText = by.String()
		cause = fmt.Sprintf("entry %s (manual snapshot by %s)", ts.parent, byText)
	}
	input, _ := json.Marshal(map[string]any{"phase": session.PhaseManual, "turn": ts.turn, "worktree": ts.store.Worktree(), "note": note, "by": byText})
	e, err := s.journal.Begin(ctx, effect.Intent{Kind: kindSnapshot, Parent: ts.parent, Input: input})
	if err != nil {
		return protocol.SnapshotResult{}, err
	}
	sn, serr := ts.store.Snapshot(ctx, vcs.SnapshotRequest{Session: s.info.ID, Cause: cause, Reuse: true})
	c, err := e.Complete(snapshotOutcome(sn, serr))
	switch {
	case serr != nil:
		return protocol.SnapshotResult{}, fmt.Errorf("runtime: snapshot of %s: %w (effect %s records the failure)", ts.store.Worktree(), serr, e.Intent().ID)
	case err != nil:
		return protocol.SnapshotResult{}, err
	}
	op := snapshotOp(ts, session.PhaseManual, sn)
	op.Note, op.By = note, byText
	if err := s.store.RecordVCS(c.ID, op); err != nil {
		return protocol.SnapshotResult{}, fmt.Errorf("runtime: the snapshot was taken, but recording it in session %s failed: %w", display(s.info), err)
	}
	res := protocol.SnapshotResult{Snapshot: sn.ID.String(), Files: sn.Files, Changed: []protocol.FileChange{}, Reused: sn.Reused,
		Skipped: op.Skipped, Effect: c.ID}
	s.store.View(func(sess *sessionfmt.Session) { res.Entry = sess.ID(sess.Selected()).String() })
	if !sn.Reused && !sn.Parent.IsZero() {
		cs, err := ts.store.Changes(sn.Parent, sn.ID)
		if err != nil {
			return res, fmt.Errorf("runtime: snapshot %s was taken and recorded, but comparing it with the one before failed: %w", sn.ID, err)
		}
		res.Changed = fileChanges(cs)
	}
	return res, nil
}
