package plugin

import (
	"context"
	"errors"
	"fmt"

	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/protocol"
)

// VCS is how the plugins granted "vcs" reach the session's file snapshots
// (the vcs capability). The runtime implements it per session. Its methods
// are called from plugin calls, possibly while a run is active; Turns and
// Diff must not wait for the session to be idle.
type VCS interface {
	// Turns lists the snapshots of the selected branch's turns.
	Turns(ctx context.Context) ([]protocol.TurnSnapshots, error)
	// Diff compares two states of the files.
	Diff(ctx context.Context, p protocol.DiffParams) (protocol.DiffResult, error)
	// Restore runs op ("undo", "redo" or "restore"; p.At is the target of
	// a restore) for a command, by a plugin: it is recorded as that
	// session operation, attributed to by. It is called only from a
	// command, with ctx the command's.
	Restore(ctx context.Context, by VCSCaller, op string, p protocol.RestoreParams) (protocol.VCSResult, error)
	// Snapshot records the files as they are now for a command, by a
	// plugin, attributed to by; as Restore, only from a command.
	Snapshot(ctx context.Context, by VCSCaller, p protocol.SnapshotParams) (protocol.SnapshotResult, error)
}

// VCSCaller is the plugin call a vcs operation was made from.
type VCSCaller struct {
	// Plugin is the plugin's name.
	Plugin string
	// CallID is the call: "command:NAME".
	CallID string
}

// String names the call as a session records it: "plugin NAME,
// command:NAME".
func (c VCSCaller) String() string { return "plugin " + c.Plugin + ", " + c.CallID }

// VCSRefusal is an error of a [VCS] method that the plugin is given as the
// matching vcs-fault case (any other error is an unknown fault with its
// text). It wraps the error a frontend would get.
type VCSRefusal struct {
	// Reason is why: VCSBusy, VCSConflict, VCSNothing or VCSTarget.
	Reason VCSReason
	// Paths are the files that changed since the last snapshot
	// (VCSConflict).
	Paths []string
	// Err says what happened, for a person.
	Err error
}

// VCSReason classifies a [VCSRefusal].
type VCSReason uint8

// The reasons of a [VCSRefusal].
const (
	// VCSBusy: the operation cannot run now (a run is active).
	VCSBusy VCSReason = iota + 1
	// VCSConflict: files changed since the session's last snapshot.
	VCSConflict
	// VCSNothing: no snapshots, nothing to undo or redo.
	VCSNothing
	// VCSTarget: the entry or turn named is not one of the session's.
	VCSTarget
)

func (r *VCSRefusal) Error() string { return r.Err.Error() }
func (r *VCSRefusal) Unwrap() error { return r.Err }

// VCSPatchBytes bounds the patches one diff hands a plugin: 1 MiB in all.
// The patches past it are left out (the paths are all listed).
const VCSPatchBytes = 1 << 20

// vcsHost serves the vcs capability of one plugin. Every call is a
// durable effect of the call that made it: the reads (turns, diff) are
// journaled here as vcs.turns and vcs.diff; undo, redo and restore are
// the session's own vcs.* effects, recorded by the runtime.
type vcsHost struct {
	name string
}

var _ pluginabi.VCSImports = (*vcsHost)(nil)

// call returns the call's state, or the fault for a call that cannot
// reach any snapshots.
func (v *vcsHost) call(ctx context.Context) (*callState, error) {
	st, _ := ctx.Value(callKey{}).(*callState)
	if st == nil {
		return nil, pluginabi.VCSFault{Case: pluginabi.VCSFaultUnknown,
			Unknown: "vcs: the vcs functions are available only during a tool call, a command or an event handler"}
	}
	if why := st.permits("vcs"); why != "" {
		return nil, pluginabi.VCSFault{Case: pluginabi.VCSFaultBusy, Busy: why}
	}
	if st.vcs == nil {
		return nil, pluginabi.VCSFault{Case: pluginabi.VCSFaultNothing,
			Nothing: "this session keeps no file snapshots here (a replay, or a session that records nothing)"}
	}
	return st, nil
}

// journal runs fn as the read effect kind of st's call, with input in.
func (v *vcsHost) journal(ctx context.Context, st *callState, kind string, in any, fn func() (any, error)) error {
	ferr, jerr := st.record(ctx, kind, in, fn)
	if jerr != nil {
		return pluginabi.VCSFault{Case: pluginabi.VCSFaultUnknown, Unknown: fmt.Sprintf("vcs: recording the %s effect failed: %v", kind, jerr)}
	}
	return vcsFault(ferr)
}

// ListTurns serves vcs list-turns.
func (v *vcsHost) ListTurns(ctx context.Context) ([]pluginabi.TurnSnapshots, error) {
	st, err := v.call(ctx)
	if err != nil {
		return nil, err
	}
	var turns []protocol.TurnSnapshots
	err = v.journal(ctx, st, "vcs.turns", struct{}{}, func() (any, error) {
		var err error
		turns, err = st.vcs.Turns(ctx)
		return turns, err
	})
	if err != nil {
		return nil, err
	}
	out := make([]pluginabi.TurnSnapshots, 0, len(turns))
	for _, t := range turns {
		ts := pluginabi.TurnSnapshots{Turn: uint32(t.Turn), Entry: t.Entry, Start: t.Start}
		if t.End != "" {
			ts.End = &t.End
		}
		if t.Changed >= 0 {
			n := uint32(t.Changed)
			ts.Changed = &n
		}
		out = append(out, ts)
	}
	return out, nil
}

// CompareFiles serves vcs compare-files.
func (v *vcsHost) CompareFiles(ctx context.Context, o pluginabi.DiffOptions) (pluginabi.DiffResult, error) {
	st, err := v.call(ctx)
	if err != nil {
		return pluginabi.DiffResult{}, err
	}
	var p protocol.DiffParams
	if o.Effect != nil {
		p.Effect = *o.Effect
	}
	if o.Turn != nil {
		if *o.Turn == 0 {
			return pluginabi.DiffResult{}, pluginabi.VCSFault{Case: pluginabi.VCSFaultInvalidTarget, InvalidTarget: "turn 0: turns are numbered from 1"}
		}
		p.Turn = int(*o.Turn)
	}
	if o.Older != nil {
		p.From = *o.Older
	}
	if o.Newer != nil {
		if p.From == "" {
			return pluginabi.DiffResult{}, pluginabi.VCSFault{Case: pluginabi.VCSFaultInvalidTarget,
				InvalidTarget: "newer " + *o.Newer + " without older: name the older side too"}
		}
		p.To = *o.Newer
	}
	var res protocol.DiffResult
	err = v.journal(ctx, st, "vcs.diff", p, func() (any, error) {
		var err error
		res, err = st.vcs.Diff(ctx, p)
		return res, err
	})
	if err != nil {
		return pluginabi.DiffResult{}, err
	}
	return pluginabi.DiffResult{Older: res.From, Newer: res.To, Files: fileChanges(res.Files, VCSPatchBytes)}, nil
}

// UndoTurn serves vcs undo-turn.
func (v *vcsHost) UndoTurn(ctx context.Context, o pluginabi.RestoreOptions) (pluginabi.Operation, error) {
	return v.restore(ctx, "undo", protocol.RestoreParams{Force: o.Force, Rewind: o.Rewind})
}

// RedoTurn serves vcs redo-turn; a redo never moves the conversation.
func (v *vcsHost) RedoTurn(ctx context.Context, o pluginabi.RestoreOptions) (pluginabi.Operation, error) {
	if o.Rewind {
		return pluginabi.Operation{}, pluginabi.VCSFault{Case: pluginabi.VCSFaultInvalidTarget,
			InvalidTarget: "redo with rewind: a redo restores the files only; the conversation stays where it is"}
	}
	return v.restore(ctx, "redo", protocol.RestoreParams{Force: o.Force})
}

// RestoreFiles serves vcs restore-files.
func (v *vcsHost) RestoreFiles(ctx context.Context, at string, o pluginabi.RestoreOptions) (pluginabi.Operation, error) {
	return v.restore(ctx, "restore", protocol.RestoreParams{At: at, Force: o.Force, Rewind: o.Rewind})
}

// TakeSnapshot serves vcs take-snapshot.
func (v *vcsHost) TakeSnapshot(ctx context.Context, note string) (pluginabi.SnapshotTaken, error) {
	st, err := v.commandCall(ctx, "take-snapshot records the session's file history")
	if err != nil {
		return pluginabi.SnapshotTaken{}, err
	}
	res, err := st.vcs.Snapshot(ctx, VCSCaller{Plugin: v.name, CallID: st.callID}, protocol.SnapshotParams{Note: note})
	if err != nil {
		return pluginabi.SnapshotTaken{}, vcsFault(err)
	}
	return pluginabi.SnapshotTaken{Snapshot: res.Snapshot, Entry: res.Entry, Files: uint32(res.Files),
		Changed: fileChanges(res.Changed, 0), Effect: res.Effect}, nil
}

// commandCall is call for the functions that change the session's file
// history: what refuses them outside a command says what they do.
func (v *vcsHost) commandCall(ctx context.Context, what string) (*callState, error) {
	st, err := v.call(ctx)
	if err != nil {
		return nil, err
	}
	if !st.command {
		return nil, pluginabi.VCSFault{Case: pluginabi.VCSFaultBusy, Busy: fmt.Sprintf(
			"vcs: %s, so it runs only from a command; call %s is part of a turn or an event, whose files the session snapshots around it", what, st.callID)}
	}
	return st, nil
}

func (v *vcsHost) restore(ctx context.Context, op string, p protocol.RestoreParams) (pluginabi.Operation, error) {
	st, err := v.commandCall(ctx, op+" changes the person's files")
	if err != nil {
		return pluginabi.Operation{}, err
	}
	res, err := st.vcs.Restore(ctx, VCSCaller{Plugin: v.name, CallID: st.callID}, op, p)
	if err != nil {
		return pluginabi.Operation{}, vcsFault(err)
	}
	st.mu.Lock()
	st.applied = true
	st.mu.Unlock()
	out := pluginabi.Operation{Before: res.From, After: res.To, Changed: fileChanges(res.Changed, 0), Effect: res.Effect}
	if res.Rewound != "" {
		out.Rewound = &res.Rewound
	}
	return out, nil
}

// vcsFault is err as the guest gets it: a refusal as its fault case,
// anything else as unknown with its text.
func vcsFault(err error) error {
	if err == nil {
		return nil
	}
	var f pluginabi.VCSFault
	if errors.As(err, &f) {
		return f
	}
	var r *VCSRefusal
	if !errors.As(err, &r) {
		return pluginabi.VCSFault{Case: pluginabi.VCSFaultUnknown, Unknown: err.Error()}
	}
	switch r.Reason {
	case VCSBusy:
		return pluginabi.VCSFault{Case: pluginabi.VCSFaultBusy, Busy: r.Error()}
	case VCSConflict:
		return pluginabi.VCSFault{Case: pluginabi.VCSFaultConflict, Conflict: r.Paths}
	case VCSNothing:
		return pluginabi.VCSFault{Case: pluginabi.VCSFaultNothing, Nothing: r.Error()}
	case VCSTarget:
		return pluginabi.VCSFault{Case: pluginabi.VCSFaultInvalidTarget, InvalidTarget: r.Error()}
	}
	return pluginabi.VCSFault{Case: pluginabi.VCSFaultUnknown, Unknown: r.Error()}
}

// fileChanges converts changes, keeping at most budget bytes of patches
// (0: none are expected); a patch past it is replaced by a note.
func fileChanges(cs []protocol.FileChange, budget int) []pluginabi.FileChange {
	out := make([]pluginabi.FileChange, 0, len(cs))
	for _, c := range cs {
		fc := pluginabi.FileChange{Path: c.Path, Kind: changeKind(c.Kind), Binary: c.Binary, Patch: c.Patch}
		if len(fc.Patch) > budget {
			fc.Patch = fmt.Sprintf("(patch of %d bytes left out: this diff's patches exceed %d bytes in all; diff one turn at a time)", len(c.Patch), VCSPatchBytes)
		} else {
			budget -= len(fc.Patch)
		}
		out = append(out, fc)
	}
	return out
}

func changeKind(k string) pluginabi.ChangeKind {
	switch k {
	case "added":
		return pluginabi.ChangeKindAdded
	case "modified":
		return pluginabi.ChangeKindModified
	case "deleted":
		return pluginabi.ChangeKindDeleted
	case "type_changed":
		return pluginabi.ChangeKindTypeChanged
	}
	return pluginabi.ChangeKindUnknown
}
