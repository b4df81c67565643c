package runtime

import (
	"context"
	"fmt"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
)

// pluginVCS serves the vcs capability of the plugins bound to one session
// ([plugin.VCS]). Turns and diffs read the session through its store and
// the shadow repository, so a tool or a handler may call them during a
// run without waiting for the session. Undo, redo and restore come only
// from a command, which [Session.RunCommand] runs with s.mu held: they run
// under that hold, which the command's context carries (heldKey), so they
// are serialized with every other change of the session as a frontend's
// are.
type pluginVCS struct{ s *Session }

var _ plugin.VCS = pluginVCS{}

// heldKey marks a context whose caller holds the session's s.mu (the
// value is the *Session).
type heldKey struct{}

// Turns implements plugin.VCS.
func (p pluginVCS) Turns(ctx context.Context) ([]protocol.TurnSnapshots, error) {
	return p.s.turns()
}

// Diff implements plugin.VCS.
func (p pluginVCS) Diff(ctx context.Context, d protocol.DiffParams) (protocol.DiffResult, error) {
	return p.s.diff(ctx, d)
}

// held refuses op unless ctx is a command's of this session (which holds
// s.mu).
func (p pluginVCS) held(ctx context.Context, by plugin.VCSCaller, op string) error {
	if held, _ := ctx.Value(heldKey{}).(*Session); held != p.s {
		return &plugin.VCSRefusal{Reason: plugin.VCSBusy,
			Err: usagef("runtime: %s from plugin %s: only a command of this session may change its file history", op, by.Plugin)}
	}
	return nil
}

// Snapshot implements plugin.VCS.
func (p pluginVCS) Snapshot(ctx context.Context, by plugin.VCSCaller, r protocol.SnapshotParams) (protocol.SnapshotResult, error) {
	if err := p.held(ctx, by, "snapshot"); err != nil {
		return protocol.SnapshotResult{}, err
	}
	return p.s.snapshotLocked(ctx, r, &by)
}

// Restore implements plugin.VCS.
func (p pluginVCS) Restore(ctx context.Context, by plugin.VCSCaller, op string, r protocol.RestoreParams) (protocol.VCSResult, error) {
	if err := p.held(ctx, by, op); err != nil {
		return protocol.VCSResult{}, err
	}
	switch op {
	case session.VCSUndo, session.VCSRedo, session.VCSRestore:
	default:
		return protocol.VCSResult{}, fmt.Errorf("runtime: no vcs operation %q (undo, redo, restore)", op)
	}
	if op == session.VCSRestore && r.At == "" {
		return protocol.VCSResult{}, &plugin.VCSRefusal{Reason: plugin.VCSTarget,
			Err: usagef("runtime: restore needs an entry: an entry id (or a unique prefix) or turn:N")}
	}
	return p.s.restoreLocked(ctx, op, r.Force, r.Rewind && op != session.VCSRedo, r.At, &by)
}
