package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/core/vcs"
	"github.com/smith-agent/smith/sessionfmt"
)

// sessionContents keeps what the session's writes and edits replace and
// leave as blobs of its worktree's shadow repository (plugin.Effects
// Contents), so that `smith session diff --effect` shows one effect
// exactly. It keeps nothing where the session takes no snapshots.
type sessionContents struct{ s *Session }

// Keep implements the file tools' content store.
func (c sessionContents) Keep(b []byte) (string, error) {
	s := c.s
	if s.rt.cfg.Ephemeral || s.vcs.off.Load() {
		return "", fmt.Errorf("runtime: session %s keeps no snapshots", display(s.info))
	}
	st, err := s.rt.vcsStore(s.rt.cfg.Cwd)
	if err != nil {
		return "", err
	}
	id, err := st.PutBlob(b)
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// CommandTreeFiles bounds the worktrees whose state is recorded around
// each command (bash), so that `smith session diff --effect` shows one
// command's changes: up to 5,000 tracked files, two incremental scans
// cost little (a stat per file); above it, a command's changes are shown
// only as part of its turn's.
const CommandTreeFiles = 5000

// Tree implements the file tools' content store.
func (c sessionContents) Tree(ctx context.Context) (string, error) {
	s := c.s
	if s.rt.cfg.Ephemeral || s.vcs.off.Load() {
		return "", fmt.Errorf("runtime: session %s keeps no snapshots", display(s.info))
	}
	st, err := s.rt.vcsStore(s.rt.cfg.Cwd)
	if err != nil {
		return "", err
	}
	id, err := st.Tree(ctx, CommandTreeFiles)
	if err != nil {
		return "", err
	}
	return id.String(), nil
}

// recordedEffect is an effect of the session with where its intent is.
type recordedEffect struct {
	intent     effect.Intent
	completion *effect.Completion
	index      int // the intent's entry
}

// effectNamed finds the effect ref names (an id, or a unique prefix of 4+
// characters) among the session's.
func (s *Session) effectNamed(ref string) (recordedEffect, error) {
	up := strings.ToUpper(strings.TrimSpace(ref))
	var hits []recordedEffect
	at := map[string]int{}
	err := s.eachEffect(func(_ *sessionfmt.Session, i int, r effect.Record) {
		switch r := r.(type) {
		case effect.Intent:
			if r.ID == up || (len(up) >= 4 && strings.HasPrefix(r.ID, up)) {
				at[r.ID] = len(hits)
				hits = append(hits, recordedEffect{intent: r, index: i})
			}
		case effect.Completion:
			if j, ok := at[r.ID]; ok {
				hits[j].completion = &r
			}
		}
	})
	switch {
	case err != nil:
		return recordedEffect{}, fmt.Errorf("runtime: read the effects of session %s: %w", display(s.info), err)
	case len(hits) == 1:
		return hits[0], nil
	case len(hits) == 0:
		return recordedEffect{}, &plugin.VCSRefusal{Reason: plugin.VCSTarget,
			Err: usagef("runtime: session %s has no effect %q; 'smith session show %s' names the effect of each write and edit", display(s.info), ref, s.info.ID)}
	}
	return recordedEffect{}, &plugin.VCSRefusal{Reason: plugin.VCSTarget,
		Err: usagef("runtime: %q names %d effects of session %s; give more of the id", ref, len(hits), display(s.info))}
}

// diffEffect is what one effect changed in the files: a write or an edit
// from the contents it kept, a command from the worktree recorded around
// it, a restore from its two snapshots. Any other effect (a read, a
// search) is refused with its turn to diff instead.
func (s *Session) diffEffect(ref string, v vcsView, st *vcs.Store) (protocol.DiffResult, error) {
	e, err := s.effectNamed(ref)
	if err != nil {
		return protocol.DiffResult{}, err
	}
	res := protocol.DiffResult{From: "before effect " + e.intent.ID, To: "after effect " + e.intent.ID, Files: []protocol.FileChange{}}
	if e.completion == nil {
		return res, &plugin.VCSRefusal{Reason: plugin.VCSTarget,
			Err: usagef("runtime: effect %s (%s) has no completion: its outcome is unknown ('smith session reconcile %s' shows what Smith can compare)", e.intent.ID, e.intent.Kind, s.info.ID)}
	}
	switch e.intent.Kind {
	case "fs.write", "fs.edit":
		var out struct {
			RealPath string `json:"real_path"`
			Kept     *struct {
				Before string `json:"before"`
				After  string `json:"after"`
			} `json:"kept"`
		}
		_ = json.Unmarshal(e.completion.Output, &out)
		if e.completion.Mutation != model.MutationApplied {
			return res, nil // it changed nothing
		}
		if out.Kept == nil {
			return res, &plugin.VCSRefusal{Reason: plugin.VCSNothing, Err: usagef(
				"runtime: effect %s (%s of %s) kept no contents to compare (the file is over 16 MiB, the session took no snapshots, or it was recorded before Smith kept them); diff its turn instead (%s)",
				e.intent.ID, e.intent.Kind, out.RealPath, s.turnHint(e.index, v))}
		}
		var before, after vcs.ID
		if out.Kept.Before != "" {
			if before, err = vcs.ParseID(out.Kept.Before); err != nil {
				return res, fmt.Errorf("runtime: effect %s: %w", e.intent.ID, err)
			}
		}
		if after, err = vcs.ParseID(out.Kept.After); err != nil {
			return res, fmt.Errorf("runtime: effect %s: %w", e.intent.ID, err)
		}
		path := out.RealPath
		if rel, rerr := filepath.Rel(st.Worktree(), path); rerr == nil && !strings.HasPrefix(rel, "..") {
			path = filepath.ToSlash(rel)
		}
		c, err := st.BlobChange(path, before, after)
		if err != nil {
			return res, fmt.Errorf("runtime: the contents effect %s kept are not in the shadow repository of %s: %w", e.intent.ID, st.Worktree(), err)
		}
		if c.OldID != c.NewID {
			res.Files = append(res.Files, protocol.FileChange{Path: c.Path, Kind: string(c.Kind), Binary: c.Binary, Patch: c.Patch})
		}
		return res, nil
	case "process.run":
		var out struct {
			Kept *struct {
				Before string `json:"before"`
				After  string `json:"after"`
			} `json:"kept"`
		}
		_ = json.Unmarshal(e.completion.Output, &out)
		if out.Kept == nil {
			if e.completion.Mutation == model.MutationNotApplied {
				return res, nil // it never ran
			}
			return res, &plugin.VCSRefusal{Reason: plugin.VCSNothing, Err: usagef(
				"runtime: effect %s (a command) has no record of the files around it: Smith records them only in worktrees of at most %d files, and only while the session takes snapshots; diff its turn instead (%s)",
				e.intent.ID, CommandTreeFiles, s.turnHint(e.index, v))}
		}
		before, berr := vcs.ParseID(out.Kept.Before)
		after, aerr := vcs.ParseID(out.Kept.After)
		if berr != nil || aerr != nil {
			return res, fmt.Errorf("runtime: effect %s: its recorded trees %q and %q are not ids", e.intent.ID, out.Kept.Before, out.Kept.After)
		}
		cs, err := st.DiffTrees(before, after)
		if err != nil {
			return res, fmt.Errorf("runtime: the files around effect %s are not in the shadow repository of %s: %w", e.intent.ID, st.Worktree(), err)
		}
		res.Files = fileChanges(cs)
		return res, nil
	case kindSnapshot:
		var out struct {
			Snapshot *vcs.ID `json:"snapshot"`
			Parent   *vcs.ID `json:"parent"`
			Reused   bool    `json:"reused"`
		}
		if err := json.Unmarshal(e.completion.Output, &out); err != nil && e.completion.Mutation == model.MutationApplied {
			return res, fmt.Errorf("runtime: effect %s: its recorded snapshot: %w", e.intent.ID, err)
		}
		if e.completion.Mutation != model.MutationApplied || out.Reused {
			return res, nil // no snapshot was made, or the files had not changed
		}
		if out.Parent == nil || out.Snapshot == nil {
			return res, &plugin.VCSRefusal{Reason: plugin.VCSNothing, Err: usagef(
				"runtime: effect %s is a snapshot with none recorded before it (the session's first, or one recorded before Smith kept that), so there is nothing to compare it with; diff its turn instead (%s)",
				e.intent.ID, s.turnHint(e.index, v))}
		}
		res.From, res.To = "snapshot before effect "+e.intent.ID, "snapshot of effect "+e.intent.ID
		cs, err := st.Diff(*out.Parent, *out.Snapshot)
		if err != nil {
			return res, fmt.Errorf("runtime: diff effect %s: %w", e.intent.ID, err)
		}
		res.Files = fileChanges(cs)
		return res, nil
	case "vcs." + session.VCSUndo, "vcs." + session.VCSRedo, "vcs." + session.VCSRestore:
		var op vcs.Op
		if err := json.Unmarshal(e.intent.Input, &op); err != nil {
			return res, fmt.Errorf("runtime: effect %s: its recorded operation: %w", e.intent.ID, err)
		}
		cs, err := st.Diff(op.From, op.To)
		if err != nil {
			return res, fmt.Errorf("runtime: diff effect %s: %w", e.intent.ID, err)
		}
		res.Files = fileChanges(cs)
		return res, nil
	}
	return res, &plugin.VCSRefusal{Reason: plugin.VCSTarget, Err: usagef(
		"runtime: effect %s is a %s, which changes no file: only a write, an edit, a command, a snapshot or a restore can be shown as what it changed; diff its turn (%s)",
		e.intent.ID, e.intent.Kind, s.turnHint(e.index, v))}
}

// turnHint names the turn holding the entry at index, as a diff command.
func (s *Session) turnHint(index int, v vcsView) string {
	n := 0
	for _, t := range v.turns {
		i, err := s.entry(t.entry)
		if err != nil || i > index {
			break
		}
		n = t.n
	}
	if n == 0 {
		return "'smith session diff " + s.info.ID + " --list' lists the turns"
	}
	return fmt.Sprintf("smith session diff %s --turn %d", s.info.ID, n)
}
