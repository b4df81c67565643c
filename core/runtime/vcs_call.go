package runtime

import (
	"context"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/sessionfmt"
)

// snapshotCall runs call, a tool call a frontend made outside any turn
// ([Session.CallTool], as `smith mcp` does), between two snapshots of the
// worktree, so that `smith session diff` and `undo` cover what it changed
// as they cover a turn. A call that changed no file (the two snapshots are
// one: a read, a search, a failed write) records nothing; one that did is
// recorded as a turn of its own — its start and end snapshots, each a
// vcs.snapshot effect and a vcs_operation entry — after it ran, since only
// then is it known to have changed something. Such calls are serialized,
// so that each one's snapshots hold its changes alone. Snapshots that fail
// turn them off for the session, as for turns; the call still runs.
func (s *Session) snapshotCall(ctx context.Context, call func() model.ToolResultMessage) model.ToolResultMessage {
	if s.rt.cfg.Ephemeral || s.vcs.off.Load() {
		return call()
	}
	s.vcs.calls.Lock()
	defer s.vcs.calls.Unlock()
	ts, err := s.nextTurnSnap()
	if err != nil {
		s.snapshotsOff(err)
		return call()
	}
	before, err := ts.store.Snapshot(ctx, snapshotRequest(s.info.ID, ts, session.PhaseStart))
	if err != nil {
		if ctx.Err() == nil {
			s.snapshotsOff(err)
		}
		return call()
	}
	res := call()
	// The call may have changed files before it was cancelled: the end
	// snapshot is taken all the same.
	sctx := context.WithoutCancel(ctx)
	after, aerr := ts.store.Snapshot(sctx, snapshotRequest(s.info.ID, ts, session.PhaseEnd))
	if aerr == nil && after.ID == before.ID {
		return res // nothing changed
	}
	if !s.recordSnapshot(ts, session.PhaseStart, before, nil) {
		return res
	}
	s.store.View(func(sess *sessionfmt.Session) { ts.parent = sess.ID(sess.Selected()).String() })
	s.recordSnapshot(ts, session.PhaseEnd, after, aerr)
	return res
}

// recordSnapshot records a snapshot already taken (or its failure serr)
// as a vcs.snapshot effect and its vcs_operation entry, and reports
// whether that succeeded.
func (s *Session) recordSnapshot(ts *turnSnap, phase string, sn vcs.Snapshot, serr error) bool {
	e, err := s.beginSnapshot(ts, phase)
	if err != nil {
		s.snapshotsOff(err)
		return false
	}
	return s.complete(ts, e, phase, sn, serr) == nil
}
