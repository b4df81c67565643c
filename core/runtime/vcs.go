package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/sessionfmt"
)

// The effect kinds of VCS operations.
const (
	kindSnapshot = "vcs.snapshot"
	kindUndo     = "vcs.undo"
	kindRedo     = "vcs.redo"
	kindRestore  = "vcs.restore"
)

// vcsStore returns the shadow repository of worktree (one per worktree,
// under the data directory's vcs/), opened once per runtime.
func (rt *Runtime) vcsStore(worktree string) (*vcs.Store, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if st, ok := rt.stores[worktree]; ok {
		return st, nil
	}
	sum := sha256.Sum256([]byte(worktree))
	dir := filepath.Join(rt.paths.Data, "vcs", filepath.Base(worktree)+"-"+hex.EncodeToString(sum[:8]))
	st, err := vcs.Open(dir, worktree, vcs.Options{Ignore: rt.conf.IgnorePatterns()})
	if err != nil {
		return nil, err
	}
	if rt.stores == nil {
		rt.stores = map[string]*vcs.Store{}
	}
	rt.stores[worktree] = st
	return st, nil
}

// turnSnap is the snapshot taken as a turn starts. Its intent is recorded
// before the run starts; the worktree is scanned in the background while
// the first provider request is out; its completion and vcs_operation
// entry are recorded at a fixed point — before the turn's first tool
// runs, or when the turn settles without one — so a session's entries
// come in the same order on every run.
type turnSnap struct {
	turn   int    // the turn's number on the branch
	parent string // the entry the turn started from
	store  *vcs.Store
	effect *effect.Effect
	done   chan struct{} // closed when the scan ended
	sn     vcs.Snapshot  // the scan's result, once done
	serr   error
	once   sync.Once
	err    error // the outcome of recording, once recorded
}

// snapshotting is the session's VCS state while runs come and go.
type snapshotting struct {
	cur     atomic.Pointer[turnSnap] // the current turn's start snapshot
	toolRan atomic.Bool              // a tool ran in the current turn
	off     atomic.Bool              // snapshots failed for this session: not tried again
	notes   chan string              // notices for after the run settles
	calls   sync.Mutex               // serializes the snapshotted calls of CallTool (vcs_call.go)
}

// startSnapshot starts the snapshot of the worktree for the turn about to
// start: its intent is recorded now, the scan runs in the background.
// Called with s.mu held, after begin (the session has an entry).
func (s *Session) startSnapshot() {
	s.vcs.cur.Store(nil)
	s.vcs.toolRan.Store(false)
	if s.rt.cfg.Ephemeral || s.vcs.off.Load() {
		return
	}
	ts, err := s.nextTurnSnap()
	if err != nil {
		s.snapshotsOff(err)
		return
	}
	ts.done = make(chan struct{})
	if ts.effect, err = s.beginSnapshot(ts, session.PhaseStart); err != nil {
		s.snapshotsOff(err)
		return
	}
	s.vcs.cur.Store(ts)
	go func() {
		defer close(ts.done)
		ts.sn, ts.serr = ts.store.Snapshot(s.ctx, snapshotRequest(s.info.ID, ts, session.PhaseStart))
	}()
}

// nextTurnSnap returns the snapshots of the session's next turn: its
// number, its parent (the selected leaf) and the worktree's store, whose
// head for the session is set to its last recorded snapshot (not one an
// earlier call took and did not record).
func (s *Session) nextTurnSnap() (*turnSnap, error) {
	var leaf string
	var ops []session.VCSEntry
	var err error
	s.store.View(func(sess *sessionfmt.Session) {
		i := sess.Selected()
		leaf = sess.ID(i).String()
		ops, err = session.VCSOperations(sess, i)
	})
	if err != nil {
		return nil, err
	}
	st, err := s.rt.vcsStore(s.rt.cfg.Cwd)
	if err != nil {
		return nil, err
	}
	adopt(st, s.info.ID, ops)
	return &turnSnap{turn: 1 + len(turnsOf(ops)), parent: leaf, store: st}, nil
}

// beginSnapshot records the intent of one of a turn's snapshots.
func (s *Session) beginSnapshot(ts *turnSnap, phase string) (*effect.Effect, error) {
	input, _ := json.Marshal(map[string]any{"phase": phase, "turn": ts.turn, "worktree": ts.store.Worktree()})
	return s.journal.Begin(s.ctx, effect.Intent{Kind: kindSnapshot, Parent: ts.parent, Input: input})
}

func snapshotRequest(sid string, ts *turnSnap, phase string) vcs.SnapshotRequest {
	return vcs.SnapshotRequest{Session: sid, Cause: fmt.Sprintf("entry %s (turn %d %s)", ts.parent, ts.turn, phase), Reuse: true}
}

// recordStart waits for the start snapshot's scan (bounded by ctx) and
// records it, once; later calls return the first outcome.
func (s *Session) recordStart(ctx context.Context, ts *turnSnap) error {
	select {
	case <-ts.done:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	ts.once.Do(func() { ts.err = s.complete(ts, ts.effect, session.PhaseStart, ts.sn, ts.serr) })
	return ts.err
}

// endSnapshot records the start snapshot if no tool did, then takes the
// snapshot that closes a turn in which a tool ran (bash may have changed
// anything). Called by the pump once the run ended, before the session is
// idle.
func (s *Session) endSnapshot() {
	ts := s.vcs.cur.Load()
	if ts == nil {
		return
	}
	if err := s.recordStart(s.ctx, ts); err != nil || !s.vcs.toolRan.Load() {
		return
	}
	s.store.View(func(sess *sessionfmt.Session) { ts.parent = sess.ID(sess.Selected()).String() })
	e, err := s.beginSnapshot(ts, session.PhaseEnd)
	if err != nil {
		s.snapshotsOff(err)
		return
	}
	sn, serr := ts.store.Snapshot(s.ctx, snapshotRequest(s.info.ID, ts, session.PhaseEnd))
	_ = s.complete(ts, e, session.PhaseEnd, sn, serr)
}

// complete records how a snapshot effect ended and, when it was taken,
// its vcs_operation entry. A failure turns snapshots off for the session,
// with a notice.
func (s *Session) complete(ts *turnSnap, e *effect.Effect, phase string, sn vcs.Snapshot, serr error) error {
	c, err := e.Complete(snapshotOutcome(sn, serr))
	if serr != nil || err != nil {
		if serr == nil {
			serr = err
		}
		s.snapshotsOff(serr)
		return serr
	}
	if err := s.store.RecordVCS(c.ID, snapshotOp(ts, phase, sn)); err != nil {
		s.snapshotsOff(err)
		return err
	}
	if len(sn.Skipped) > 0 && phase == session.PhaseStart && ts.turn == 1 {
		s.later(fmt.Sprintf("snapshots leave out %d file(s) (%s: %s); undo cannot restore them", len(sn.Skipped), sn.Skipped[0].Path, sn.Skipped[0].Reason))
	}
	return nil
}

// snapshotOutcome is how a snapshot effect ended: applied, with the
// snapshot, the one before it (so diff --effect can compare them) and the
// scan's counts; or not applied, with serr.
func snapshotOutcome(sn vcs.Snapshot, serr error) effect.Outcome {
	if serr != nil {
		return effect.Outcome{Mutation: model.MutationNotApplied, Err: serr}
	}
	out := map[string]any{"snapshot": sn.ID, "seq": sn.Seq, "files": sn.Files, "hashed": sn.Hashed, "reused": sn.Reused}
	if !sn.Parent.IsZero() && !sn.Reused {
		out["parent"] = sn.Parent
	}
	b, _ := json.Marshal(out)
	return effect.Outcome{Mutation: model.MutationApplied, Output: b}
}

// snapshotOp is the vcs_operation entry of snapshot sn taken for ts.
func snapshotOp(ts *turnSnap, phase string, sn vcs.Snapshot) session.VCSOperation {
	op := session.VCSOperation{Op: session.VCSSnapshot, Snapshot: sn.ID.String(), Worktree: ts.store.Worktree(), Cause: ts.parent,
		Phase: phase, Turn: ts.turn, Seq: sn.Seq, Files: sn.Files}
	for _, sk := range sn.Skipped {
		op.Skipped = append(op.Skipped, sk.Path+": "+sk.Reason)
	}
	return op
}

// snapshotsOff turns snapshots off for the session after err, with a
// notice saying what undo then cannot do.
func (s *Session) snapshotsOff(err error) {
	if s.vcs.off.Swap(true) {
		return
	}
	s.later(fmt.Sprintf("file snapshots are off for this session: %v; /undo and 'smith session undo' cannot restore what its turns change", err))
}

// later queues a notice for when the run has settled (a notice published
// in the middle of a run would break the order of its events).
func (s *Session) later(text string) {
	select {
	case s.vcs.notes <- text:
	default:
	}
}

// publishLater publishes the queued notices. Called by the pump after the
// run's last event.
func (s *Session) publishLater() {
	for {
		select {
		case n := <-s.vcs.notes:
			s.notice(protocol.NoticeWarning, n)
		default:
			return
		}
	}
}

// adopt seeds the session's head in the shadow repository from the last
// snapshot of its history (a fork, or a session whose refs were lost), so
// undo continues from there.
func adopt(st *vcs.Store, sid string, ops []session.VCSEntry) {
	for k := len(ops) - 1; k >= 0; k-- {
		if ops[k].Worktree != st.Worktree() {
			continue
		}
		if id, err := vcs.ParseID(ops[k].Snapshot); err == nil {
			_ = st.Adopt(sid, id)
		}
		return
	}
}

// gateTools wraps the session's tools so each call waits for the turn's
// start snapshot (bounded by the call's context) and marks the turn as one
// that ran a tool.
func (s *Session) gateTools(tools []agent.Tool) []agent.Tool {
	out := make([]agent.Tool, len(tools))
	for i, t := range tools {
		out[i] = gatedTool{Tool: t, s: s}
	}
	return out
}

// gatedTool is a tool whose calls wait for the turn's start snapshot.
type gatedTool struct {
	agent.Tool
	s *Session
}

// Execute waits for the turn's start snapshot to be recorded, then runs
// the call. A snapshot that failed does not stop the call (snapshots are
// then off, with a notice).
func (g gatedTool) Execute(ctx context.Context, call *agent.Call) (agent.Result, error) {
	g.s.vcs.toolRan.Store(true)
	if ts := g.s.vcs.cur.Load(); ts != nil {
		if err := g.s.recordStart(ctx, ts); err != nil && ctx.Err() != nil {
			return agent.Result{Mutation: model.MutationNotApplied}, fmt.Errorf("runtime: cancelled while the turn's snapshot was taken: %w", err)
		}
	}
	return g.Tool.Execute(ctx, call)
}

// turn is one turn of a branch as its vcs_operation entries tell it.
type turnRec struct {
	n          int
	entry      string // the entry the turn started from
	start, end string // snapshot ids; end "" when none was taken
	worktree   string
}

// turnsOf groups a branch's snapshot entries into turns, in order.
func turnsOf(ops []session.VCSEntry) []turnRec {
	var out []turnRec
	for _, op := range ops {
		if op.Op != session.VCSSnapshot {
			continue
		}
		switch op.Phase {
		case session.PhaseStart:
			out = append(out, turnRec{n: len(out) + 1, entry: op.Cause, start: op.Snapshot, worktree: op.Worktree})
		case session.PhaseEnd:
			if len(out) > 0 {
				out[len(out)-1].end = op.Snapshot
			}
		}
	}
	return out
}

// vcsView is what a VCS operation reads of the session: the selected
// leaf, the branch's VCS entries and its turns.
type vcsView struct {
	leaf  string
	ops   []session.VCSEntry
	turns []turnRec
	// last is the session's latest vcs_operation entry on any branch
	// (after a rewind the branch may have none); hasAny reports one exists.
	last   session.VCSOperation
	hasAny bool
}

// view reads the branch's VCS state. Called with s.mu held.
func (s *Session) view() (vcsView, error) {
	var v vcsView
	var err error
	s.store.View(func(sess *sessionfmt.Session) {
		i := sess.Selected()
		if i < 0 {
			return
		}
		v.leaf = sess.ID(i).String()
		if v.ops, err = session.VCSOperations(sess, i); err != nil {
			return
		}
		v.turns = turnsOf(v.ops)
		for j := sess.Len() - 1; j >= 0; j-- {
			if sess.Kind(j) == sessionfmt.KindVCSOperation {
				v.hasAny = sessionfmt.DecodeContent(sess.Entry(j).Content, &v.last) == nil
				break
			}
		}
	})
	if err != nil {
		return v, fmt.Errorf("runtime: read the snapshots of session %s: %w", display(s.info), err)
	}
	return v, nil
}

// worktree is where the branch's snapshots were taken: the working
// directory of its last snapshot, else of the session's last one, else
// this runtime's.
func (v vcsView) worktree(cwd string) string {
	for k := len(v.ops) - 1; k >= 0; k-- {
		if v.ops[k].Worktree != "" {
			return v.ops[k].Worktree
		}
	}
	if v.hasAny && v.last.Worktree != "" {
		return v.last.Worktree
	}
	return cwd
}

// noSnapshots is the error of an operation on a branch without snapshots.
func (s *Session) noSnapshots(what string) error {
	return &plugin.VCSRefusal{Reason: plugin.VCSNothing,
		Err: usagef("runtime: session %s has no file snapshots on its selected branch, so there is nothing to %s; Smith takes one as each turn starts (not in eval --no-session)", display(s.info), what)}
}

// Undo restores the files to before the session's last change (the last
// turn that changed them), as a durable vcs.undo effect recorded with a
// vcs_operation entry; with p.Rewind the conversation also moves back to
// before that turn. Refused with [ErrBusy] while a run is active, and
// with a usage error naming the files when they changed since the last
// snapshot (unless p.Force).
func (s *Session) Undo(ctx context.Context, p protocol.UndoParams) (protocol.VCSResult, error) {
	return s.restore(ctx, session.VCSUndo, p.Force, p.Rewind, "")
}

// Redo restores the files to after the turn the last undo went back over.
// As [Session.Undo]; redo never moves the conversation.
func (s *Session) Redo(ctx context.Context, p protocol.RedoParams) (protocol.VCSResult, error) {
	return s.restore(ctx, session.VCSRedo, p.Force, false, "")
}

// Restore restores the files to how they were at an entry of the session
// (p.At: an entry, or "turn:N" for the start of turn N), as
// [Session.Undo] does; with p.Rewind the conversation continues from that
// entry too.
func (s *Session) Restore(ctx context.Context, p protocol.RestoreParams) (protocol.VCSResult, error) {
	if strings.TrimSpace(p.At) == "" {
		return protocol.VCSResult{}, usagef("runtime: restore needs an entry: an entry id (or a unique prefix) or turn:N")
	}
	return s.restore(ctx, session.VCSRestore, p.Force, p.Rewind, p.At)
}
