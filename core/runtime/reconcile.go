package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/sessionfmt"
)

// kindReconcile is the effect that records a decision on an unknown one.
const kindReconcile = "effect.reconcile"

// unknownEffect is an unknown effect with where its intent is.
type unknownEffect struct {
	protocol.UnknownEffect
	index int // the intent's entry
}

// unknownEffects finds the effects recorded unknown and not reconciled.
// Called with s.mu held.
func (s *Session) unknownEffects() ([]unknownEffect, error) {
	intents := map[string]unknownEffect{}
	decided := map[string]bool{}
	var order []string
	err := s.eachEffect(func(sess *sessionfmt.Session, i int, r effect.Record) {
		switch r := r.(type) {
		case effect.Intent:
			intents[r.ID] = unknownEffect{UnknownEffect: protocol.UnknownEffect{Effect: r.ID, Entry: sess.ID(i).String(), Kind: r.Kind, Input: r.Input}, index: i}
			if r.Kind == kindReconcile {
				var in struct{ Effect string }
				if json.Unmarshal(r.Input, &in) == nil {
					decided[in.Effect] = true
				}
			}
		case effect.Completion:
			if u, ok := intents[r.ID]; ok && r.Mutation == model.MutationUnknown {
				u.Error = r.Error
				intents[r.ID] = u
				order = append(order, r.ID)
			}
		}
	})
	var out []unknownEffect
	for _, id := range order {
		if !decided[id] {
			out = append(out, intents[id])
		}
	}
	return out, err
}

// eachEffect calls fn with each effect record of the session (intents and
// completions, in entry order) and its entry's index, inside the store's
// view.
func (s *Session) eachEffect(fn func(sess *sessionfmt.Session, i int, r effect.Record)) error {
	var err error
	s.store.View(func(sess *sessionfmt.Session) {
		for i := range sess.Len() {
			k := sess.Kind(i)
			if k != sessionfmt.KindEffectIntent && k != sessionfmt.KindEffectCompletion {
				continue
			}
			r, derr := session.EntryEffect(sess.Entry(i))
			if derr != nil {
				err = derr
				return
			}
			fn(sess, i, r)
		}
	})
	return err
}

// UnknownEffects lists the session's effects whose outcome is unknown and
// that were not reconciled, oldest first, each with what Smith can tell
// about it: whether the file holds what a write would have written, and
// which files differ from the snapshot taken before it.
func (s *Session) UnknownEffects(ctx context.Context) ([]protocol.UnknownEffect, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	us, err := s.unknownEffects()
	if err != nil {
		return nil, err
	}
	out := make([]protocol.UnknownEffect, len(us))
	for i, u := range us {
		u.Evidence, u.Suggest = s.evidence(ctx, u)
		out[i] = u.UnknownEffect
	}
	return out, nil
}

// evidence compares an unknown effect with what can be checked now.
// Called with s.mu held.
func (s *Session) evidence(ctx context.Context, u unknownEffect) (string, string) {
	if u.Kind == "fs.write" {
		var in struct {
			AbsPath string `json:"abs_path"`
			SHA256  string `json:"sha256"`
		}
		if json.Unmarshal(u.Input, &in) == nil && in.AbsPath != "" && in.SHA256 != "" {
			b, err := os.ReadFile(in.AbsPath)
			switch {
			case err != nil:
				return fmt.Sprintf("%s cannot be read (%v), so the write did not complete", in.AbsPath, err), string(model.MutationNotApplied)
			case digestOf(b) == in.SHA256:
				return fmt.Sprintf("%s holds exactly the content the write would have written", in.AbsPath), string(model.MutationApplied)
			}
			return fmt.Sprintf("%s does not hold the content the write would have written (it was not written, or changed since)", in.AbsPath), ""
		}
	}
	if strings.HasPrefix(u.Kind, "vcs.") && u.Kind != kindSnapshot {
		var op vcs.Op
		if json.Unmarshal(u.Input, &op) == nil {
			return s.restoreEvidence(ctx, op)
		}
	}
	return s.snapshotEvidence(ctx, u), ""
}

// restoreEvidence compares the files with the two ends of an
// interrupted restore.
func (s *Session) restoreEvidence(ctx context.Context, op vcs.Op) (string, string) {
	v, err := s.view()
	if err != nil {
		return "the session's snapshots cannot be read: " + err.Error(), ""
	}
	st, err := s.rt.vcsStore(v.worktree(s.rt.cfg.Cwd))
	if err != nil {
		return "the snapshot store cannot be opened: " + err.Error(), ""
	}
	toTarget, err1 := st.DiffWorktree(ctx, op.To)
	toOrigin, err2 := st.DiffWorktree(ctx, op.From)
	switch {
	case err1 != nil || err2 != nil:
		return fmt.Sprintf("the files cannot be compared with the snapshots (%v, %v)", err1, err2), ""
	case len(toTarget) == 0:
		return fmt.Sprintf("the files match the snapshot the %s went to (%s)", op.Kind, op.To), string(model.MutationApplied)
	case len(toOrigin) == 0:
		return fmt.Sprintf("the files match the snapshot the %s started from (%s): nothing was changed", op.Kind, op.From), string(model.MutationNotApplied)
	}
	return fmt.Sprintf("the %s stopped part way: %d file(s) differ from its target (%s), %d from where it started; each file holds its old or its new content (restore again with --force to finish it)",
		op.Kind, len(toTarget), changedPaths(toTarget), len(toOrigin)), ""
}

// snapshotEvidence lists the files that differ now from the last
// snapshot taken before the effect.
func (s *Session) snapshotEvidence(ctx context.Context, u unknownEffect) string {
	var ops []session.VCSEntry
	var err error
	s.store.View(func(sess *sessionfmt.Session) { ops, err = session.VCSOperations(sess, u.index) })
	if err != nil || len(ops) == 0 {
		return "no file snapshot was taken before it, so Smith cannot compare; look at the files yourself"
	}
	last := ops[len(ops)-1]
	id, err := vcs.ParseID(last.Snapshot)
	if err != nil {
		return "its snapshot id is unreadable: " + err.Error()
	}
	st, err := s.rt.vcsStore(last.Worktree)
	if err != nil {
		return "the snapshot store cannot be opened: " + err.Error()
	}
	cs, err := st.DiffWorktree(ctx, id)
	if err != nil {
		return "the files cannot be compared with the snapshot before it: " + err.Error()
	}
	if len(cs) == 0 {
		return fmt.Sprintf("no file differs from the snapshot taken before it (%s): if it changed files, nothing of that is left", short(last.Snapshot))
	}
	return fmt.Sprintf("%d file(s) differ from the snapshot taken before it (%s) — by it or by what ran later: %s", len(cs), short(last.Snapshot), changedPaths(cs))
}

// Reconcile records the user's decision on an unknown effect as a
// durable effect.reconcile effect caused by the effect's intent; it never
// re-runs or undoes anything. Refused with [ErrBusy] while a run is
// active, and with a usage error for an effect that is not unknown or was
// already reconciled.
func (s *Session) Reconcile(ctx context.Context, p protocol.ReconcileParams) (protocol.ReconcileResult, error) {
	if p.Decision != string(model.MutationApplied) && p.Decision != string(model.MutationNotApplied) {
		return protocol.ReconcileResult{}, usagef("runtime: decision %q is not applied or not_applied", p.Decision)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.idle(); err != nil {
		return protocol.ReconcileResult{}, err
	}
	us, err := s.unknownEffects()
	if err != nil {
		return protocol.ReconcileResult{}, err
	}
	up := strings.ToUpper(p.Effect)
	var hits []unknownEffect
	for _, u := range us {
		if u.Effect == up || (len(up) >= 4 && strings.HasPrefix(u.Effect, up)) {
			hits = append(hits, u)
		}
	}
	if len(hits) != 1 {
		ids := make([]string, len(us))
		for i, u := range us {
			ids[i] = u.Effect
		}
		if len(ids) == 0 {
			ids = []string{"none"}
		}
		return protocol.ReconcileResult{}, usagef("runtime: %q names %d of session %s's unreconciled unknown effects (%s); give one effect id", p.Effect, len(hits), display(s.info), strings.Join(ids, ", "))
	}
	u := hits[0]
	evidence, _ := s.evidence(ctx, u)
	input, _ := json.Marshal(map[string]string{"effect": u.Effect, "kind": u.Kind, "decision": p.Decision, "note": p.Note, "evidence": evidence})
	c, err := s.journal.Run(ctx, effect.Intent{Kind: kindReconcile, Parent: u.Entry, Input: input}, func(context.Context) effect.Outcome {
		return effect.Outcome{Mutation: model.MutationApplied, Output: input}
	})
	if err != nil {
		return protocol.ReconcileResult{}, err
	}
	return protocol.ReconcileResult{Effect: u.Effect, Decision: p.Decision, Record: c.ID}, nil
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// changedPaths names at most ten changed paths.
func changedPaths(cs []vcs.Change) string {
	paths := make([]string, len(cs))
	for i, c := range cs {
		paths[i] = c.Path
	}
	sort.Strings(paths)
	return listPaths(paths)
}

// short abbreviates a snapshot id.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
