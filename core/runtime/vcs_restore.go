package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/sessionfmt"
)

// restore plans and applies an undo, a redo or a restore to at, and
// records it. Called without s.mu held.
func (s *Session) restore(ctx context.Context, kind string, force, rewind bool, at string) (protocol.VCSResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restoreLocked(ctx, kind, force, rewind, at, nil)
}

// restoreLocked is restore with s.mu held; by is the plugin call that
// asked for it (a command's), nil for a frontend.
func (s *Session) restoreLocked(ctx context.Context, kind string, force, rewind bool, at string, by *plugin.VCSCaller) (protocol.VCSResult, error) {
	if err := s.idle(); err != nil {
		if errors.Is(err, ErrBusy) {
			err = &plugin.VCSRefusal{Reason: plugin.VCSBusy, Err: err}
		}
		return protocol.VCSResult{}, err
	}
	v, err := s.view()
	if err != nil {
		return protocol.VCSResult{}, err
	}
	if !v.hasAny || (kind == session.VCSRestore && len(v.turns) == 0) {
		return protocol.VCSResult{}, s.noSnapshots(kind)
	}
	st, err := s.rt.vcsStore(v.worktree(s.rt.cfg.Cwd))
	if err != nil {
		return protocol.VCSResult{}, err
	}
	adopt(st, s.info.ID, v.ops)
	cause := fmt.Sprintf("entry %s (%s)", v.leaf, kind)
	var byText string
	if by != nil {
		byText = by.String()
		cause = fmt.Sprintf("entry %s (%s by %s)", v.leaf, kind, byText)
	}
	var op vcs.Op
	var rewindTo string
	switch kind {
	case session.VCSUndo:
		if op, err = st.PlanUndo(s.info.ID, cause); errors.Is(err, vcs.ErrNothingToUndo) {
			return protocol.VCSResult{}, &plugin.VCSRefusal{Reason: plugin.VCSNothing,
				Err: usagef("runtime: nothing to undo in session %s: the files are as they were before its first turn that changed them", display(s.info))}
		} else if err != nil {
			return protocol.VCSResult{}, usagef("runtime: %w", err)
		}
		if rewind {
			if rewindTo = undoneTurn(v.turns, op); rewindTo == "" {
				return protocol.VCSResult{}, usagef("runtime: the undo goes back to snapshot %s, which is not the start of a turn of this branch, so the conversation cannot be rewound with it; undo without rewinding, or restore --at turn:N --rewind", op.To)
			}
		}
	case session.VCSRedo:
		if op, err = st.PlanRedo(s.info.ID, cause); errors.Is(err, vcs.ErrNothingToRedo) {
			return protocol.VCSResult{}, &plugin.VCSRefusal{Reason: plugin.VCSNothing,
				Err: usagef("runtime: nothing to redo in session %s: no undo was made since its last change", display(s.info))}
		} else if err != nil {
			return protocol.VCSResult{}, usagef("runtime: %w", err)
		}
	default:
		to, entry, err := s.resolveAt(at, v)
		if err != nil {
			return protocol.VCSResult{}, err
		}
		if op, err = st.PlanRestore(s.info.ID, to, cause); err != nil {
			return protocol.VCSResult{}, usagef("runtime: %w", err)
		}
		if rewind {
			rewindTo = entry
		}
	}
	op.Force = force
	input, err := json.Marshal(op)
	if err != nil {
		return protocol.VCSResult{}, err
	}
	var done vcs.Restored
	var aerr error
	c, jerr := s.journal.Run(ctx, effect.Intent{Kind: "vcs." + kind, Parent: v.leaf, Input: input}, func(ctx context.Context) effect.Outcome {
		done, aerr = st.Apply(ctx, op)
		out, _ := json.Marshal(map[string]any{"changed": len(done.Changes), "to": op.To})
		m := model.MutationApplied
		switch {
		case aerr != nil && len(done.Changes) == 0:
			m = model.MutationNotApplied
		case aerr != nil:
			m = model.MutationUnknown
		}
		return effect.Outcome{Mutation: m, Output: out, Err: aerr}
	})
	var conflict *vcs.ConflictError
	switch {
	case errors.As(aerr, &conflict):
		return protocol.VCSResult{}, &plugin.VCSRefusal{Reason: plugin.VCSConflict, Paths: conflict.Paths,
			Err: usagef("runtime: %s refused: these files changed since the session's last snapshot: %s; take a snapshot first so the restore can be undone ('smith session snapshot %s', /snapshot in the TUI), or pass --force (/%s --force) to overwrite them",
				kind, listPaths(conflict.Paths), s.info.ID, kind)}
	case aerr != nil:
		return protocol.VCSResult{}, fmt.Errorf("runtime: %s to snapshot %s: %w (effect %s records what is known)", kind, op.To, aerr, c.ID)
	case jerr != nil:
		return protocol.VCSResult{}, jerr
	}
	res := protocol.VCSResult{Op: kind, From: op.From.String(), To: op.To.String(), Effect: c.ID, Changed: fileChanges(done.Changes)}
	rec := session.VCSOperation{Op: kind, Snapshot: op.To.String(), From: op.From.String(), Worktree: st.Worktree(), Cause: v.leaf,
		Forced: force, Rewind: rewindTo, By: byText}
	for _, ch := range done.Changes {
		rec.Changed = append(rec.Changed, ch.Path)
	}
	if err := s.store.RecordVCS(c.ID, rec); err != nil {
		return res, fmt.Errorf("runtime: the files were restored, but recording it in session %s failed: %w", display(s.info), err)
	}
	if rewindTo != "" {
		id, _ := sessionfmt.ParseID(rewindTo)
		if err := s.moveTo(s.file.Session().Index(id)); err != nil {
			return res, fmt.Errorf("runtime: the files were restored, but moving the conversation back to entry %s failed: %w; select it with 'smith session tree'", rewindTo, err)
		}
		res.Rewound = rewindTo
	}
	return res, nil
}

// idle reports why the session cannot change now: it is closed, or a run
// is active. Called with s.mu held.
func (s *Session) idle() error {
	if s.closed {
		return errClosed
	}
	if s.running() {
		return ErrBusy
	}
	return nil
}

// undoneTurn returns the entry the turn an undo goes back over started
// from: the last turn ending at op.From or starting at op.To.
func undoneTurn(turns []turnRec, op vcs.Op) string {
	for k := len(turns) - 1; k >= 0; k-- {
		t := turns[k]
		if t.start == op.To.String() && (t.end == op.From.String() || t.end == "" || k == len(turns)-1) {
			return t.entry
		}
	}
	for k := len(turns) - 1; k >= 0; k-- {
		if turns[k].start == op.To.String() {
			return turns[k].entry
		}
	}
	return ""
}

// resolveAt turns a restore target (an entry, or turn:N) into the
// snapshot the files go to and the entry the conversation would continue
// from. Called with s.mu held.
func (s *Session) resolveAt(at string, v vcsView) (vcs.ID, string, error) {
	if n, ok := strings.CutPrefix(at, "turn:"); ok {
		t, err := pickTurn(n, v.turns, s)
		if err != nil {
			return vcs.ID{}, "", err
		}
		id, err := vcs.ParseID(t.start)
		return id, t.entry, err
	}
	i, err := s.entry(at)
	if err != nil {
		return vcs.ID{}, "", &plugin.VCSRefusal{Reason: plugin.VCSTarget, Err: err}
	}
	var ops []session.VCSEntry
	var entry string
	s.store.View(func(sess *sessionfmt.Session) {
		entry = sess.ID(i).String()
		ops, err = session.VCSOperations(sess, i)
	})
	if err != nil {
		return vcs.ID{}, "", err
	}
	for k := len(ops) - 1; k >= 0; k-- {
		if id, perr := vcs.ParseID(ops[k].Snapshot); perr == nil && ops[k].Snapshot != "" {
			return id, entry, nil
		}
	}
	return vcs.ID{}, "", &plugin.VCSRefusal{Reason: plugin.VCSTarget,
		Err: usagef("runtime: no file snapshot was taken at or before entry %s of session %s; restore to a later entry or to turn:N", at, display(s.info))}
}

// pickTurn parses a 1-based turn number of the branch.
func pickTurn(n string, turns []turnRec, s *Session) (turnRec, error) {
	k, err := strconv.Atoi(n)
	if err != nil || k < 1 || k > len(turns) {
		return turnRec{}, &plugin.VCSRefusal{Reason: plugin.VCSTarget,
			Err: usagef("runtime: turn %q is not a turn of session %s's selected branch; it has turns 1 to %d ('smith session diff %s' lists them)", n, display(s.info), len(turns), s.info.ID)}
	}
	return turns[k-1], nil
}

// listPaths shows at most ten paths.
func listPaths(paths []string) string {
	if len(paths) <= 10 {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:10], ", "), len(paths)-10)
}

// Turns lists the turns of the selected branch with their snapshots and
// how many paths each changed, oldest first.
func (s *Session) Turns(ctx context.Context) ([]protocol.TurnSnapshots, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turns()
}

// turns is Turns without s.mu: it reads the session through its store
// (which has its own lock) and the shadow repository.
func (s *Session) turns() ([]protocol.TurnSnapshots, error) {
	v, err := s.view()
	if err != nil {
		return nil, err
	}
	out := make([]protocol.TurnSnapshots, 0, len(v.turns))
	for _, t := range v.turns {
		ts := protocol.TurnSnapshots{Turn: t.n, Entry: t.entry, Start: t.start, End: t.end, Changed: -1}
		if t.end == "" || t.end == t.start {
			ts.Changed = 0
		} else if st, err := s.rt.vcsStore(t.worktree); err == nil {
			a, _ := vcs.ParseID(t.start)
			b, _ := vcs.ParseID(t.end)
			if cs, err := st.Changes(a, b); err == nil {
				ts.Changed = len(cs)
			}
		}
		out = append(out, ts)
	}
	return out, nil
}

// Diff compares two states of the files (see [protocol.DiffParams]): a
// turn's start and end, the snapshots at two entries, or one against the
// live worktree; with nothing chosen, the last turn's start against the
// worktree.
func (s *Session) Diff(ctx context.Context, p protocol.DiffParams) (protocol.DiffResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.diff(ctx, p)
}

// diff is Diff without s.mu, as turns is Turns.
func (s *Session) diff(ctx context.Context, p protocol.DiffParams) (protocol.DiffResult, error) {
	v, err := s.view()
	if err != nil {
		return protocol.DiffResult{}, err
	}
	if len(v.turns) == 0 {
		return protocol.DiffResult{}, s.noSnapshots("diff")
	}
	st, err := s.rt.vcsStore(v.worktree(s.rt.cfg.Cwd))
	if err != nil {
		return protocol.DiffResult{}, err
	}
	if p.Effect != "" {
		if p.Turn > 0 || p.From != "" || p.To != "" {
			return protocol.DiffResult{}, usagef("runtime: diff an effect alone: give the effect, or a turn, or entries, not both")
		}
		return s.diffEffect(p.Effect, v, st)
	}
	var from, to vcs.ID
	var res protocol.DiffResult
	live := false
	switch {
	case p.Turn > 0:
		t, err := pickTurn(strconv.Itoa(p.Turn), v.turns, s)
		if err != nil {
			return res, err
		}
		from, _ = vcs.ParseID(t.start)
		res.From = fmt.Sprintf("turn %d start", t.n)
		switch {
		case t.end != "":
			to, _ = vcs.ParseID(t.end)
			res.To = fmt.Sprintf("turn %d end", t.n)
		case t.n == len(v.turns):
			live, res.To = true, "worktree" // not ended (killed): what it did so far
		default:
			to, res.To = from, fmt.Sprintf("turn %d end", t.n)
		}
	case p.From != "":
		if from, _, err = s.resolveAt(p.From, v); err != nil {
			return res, err
		}
		res.From = p.From
		if p.To == "" {
			live, res.To = true, "worktree"
		} else if to, _, err = s.resolveAt(p.To, v); err != nil {
			return res, err
		} else {
			res.To = p.To
		}
	default:
		t := v.turns[len(v.turns)-1]
		from, _ = vcs.ParseID(t.start)
		live, res.From, res.To = true, fmt.Sprintf("turn %d start", t.n), "worktree"
	}
	var cs []vcs.Change
	if live {
		cs, err = st.DiffWorktree(ctx, from)
	} else {
		cs, err = st.Diff(from, to)
	}
	if err != nil {
		return res, fmt.Errorf("runtime: diff %s against %s: %w", res.From, res.To, err)
	}
	res.Files = fileChanges(cs)
	return res, nil
}

// fileChanges are the changes cs as the protocol carries them (their
// patches, when they have them); never nil.
func fileChanges(cs []vcs.Change) []protocol.FileChange {
	out := make([]protocol.FileChange, 0, len(cs))
	for _, c := range cs {
		out = append(out, protocol.FileChange{Path: c.Path, Kind: string(c.Kind), Binary: c.Binary, Patch: c.Patch})
	}
	return out
}
