package protocol

import "encoding/json"

// UndoParams asks for an undo or a redo of the files a session's turns
// changed.
type UndoParams struct {
	// Force restores even when files changed since the session's last
	// snapshot (those changes are overwritten; they stay in the shadow
	// repository only if a snapshot caught them). Default false: refuse,
	// naming the files.
	Force bool `json:"force,omitempty"`
	// Rewind also moves the conversation back (undo) to where it stood
	// before the undone turn, as a new branch point; redo never rewinds.
	// Default false: only the files.
	Rewind bool `json:"rewind,omitempty"`
}

// RedoParams asks for a redo of what the last undo took back.
type RedoParams struct {
	// Force is as in [UndoParams].
	Force bool `json:"force,omitempty"`
}

// RestoreParams asks to restore the files (and optionally the
// conversation) to how they were at an entry of the session.
type RestoreParams struct {
	// At is the entry (an id or a unique prefix of at least 4
	// characters), or "turn:N" for the start of the session's N-th turn.
	At string `json:"at"`
	// Force and Rewind are as in [UndoParams]; Rewind selects the entry.
	Force  bool `json:"force,omitempty"`
	Rewind bool `json:"rewind,omitempty"`
}

// SnapshotParams asks for a snapshot of the files as they are now,
// between turns: hand edits made since the last snapshot are recorded, so
// that undo, redo and restore can come back to them instead of refusing
// to overwrite them.
type SnapshotParams struct {
	// Note says why, for the session's history; optional, one line.
	Note string `json:"note,omitempty"`
}

// SnapshotResult is a snapshot taken on request.
type SnapshotResult struct {
	// Snapshot is its id; Entry the vcs_operation entry recording it (a
	// restore target: restore --at ENTRY).
	Snapshot string `json:"snapshot"`
	Entry    string `json:"entry"`
	// Files counts the files it holds.
	Files int `json:"files"`
	// Changed are the paths that differ from the session's previous
	// snapshot (no patches; diff --effect shows them); empty when the
	// files were as that snapshot has them (Reused).
	Changed []FileChange `json:"changed"`
	// Reused reports that nothing changed since the previous snapshot,
	// which the entry then names again.
	Reused bool `json:"reused,omitempty"`
	// Skipped lists the files it left out ("path: reason").
	Skipped []string `json:"skipped,omitempty"`
	// Effect is the id of the vcs.snapshot effect that recorded it.
	Effect string `json:"effect"`
}

// FileChange is one path a restore or a diff changed.
type FileChange struct {
	Path string `json:"path"`
	// Kind is "added", "modified", "deleted" or "type_changed".
	Kind string `json:"kind"`
	// Binary marks a change of binary content (no Patch).
	Binary bool `json:"binary,omitempty"`
	// Patch is the unified diff of a text change (diffs only).
	Patch string `json:"patch,omitempty"`
}

// VCSResult is what an undo, a redo or a restore did.
type VCSResult struct {
	// Op is "undo", "redo" or "restore".
	Op string `json:"op"`
	// From and To are the snapshots the worktree went from and to.
	From string `json:"from"`
	To   string `json:"to"`
	// Changed are the paths written or deleted, in the order applied.
	Changed []FileChange `json:"changed"`
	// Rewound is the entry the conversation now continues from; "" when
	// it was not moved.
	Rewound string `json:"rewound,omitempty"`
	// Effect is the id of the durable effect that recorded it.
	Effect string `json:"effect"`
}

// DiffParams chooses what to compare. With Effect set, what that one
// effect changed (a write or an edit, from the contents it kept; a
// restore); with Turn set, the files before and after that turn; with
// From (and optionally To) entries, the files at those entries (To "" is
// the live worktree); with nothing set, the last turn (its start against
// the live worktree).
type DiffParams struct {
	// Effect is an effect id (or a unique prefix of 4+ characters).
	Effect string `json:"effect,omitempty"`
	// Turn is the 1-based turn of the selected branch; 0 means unset.
	Turn int `json:"turn,omitempty"`
	// From and To are entries (ids or unique prefixes) or "turn:N".
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// DiffResult is a comparison of two states of the files.
type DiffResult struct {
	// From and To describe the two sides ("turn 3 start", "worktree").
	From string `json:"from"`
	To   string `json:"to"`
	// Files are the changed paths, sorted.
	Files []FileChange `json:"files"`
}

// TurnSnapshots are the snapshots of one turn of the selected branch.
type TurnSnapshots struct {
	// Turn is its 1-based number on the branch.
	Turn int `json:"turn"`
	// Entry is the conversation entry the turn started from (where a
	// rewind to before it goes).
	Entry string `json:"entry"`
	// Start and End are the snapshot ids before and after; End is ""
	// when the turn changed nothing or has not ended.
	Start string `json:"start"`
	End   string `json:"end,omitempty"`
	// Changed counts the paths the turn changed (-1 when unknown).
	Changed int `json:"changed"`
}

// UnknownEffect is an effect whose outcome is unknown (the process ended
// while it ran, or it was stopped part way) and that no reconciliation
// has decided yet.
type UnknownEffect struct {
	// Effect is the effect's id; Entry the id of its intent's entry.
	Effect string `json:"effect"`
	Entry  string `json:"entry"`
	// Kind is the effect's kind ("process.run", "fs.write", …) and Input
	// its recorded input.
	Kind  string          `json:"kind"`
	Input json.RawMessage `json:"input"`
	// Error is what its completion says.
	Error string `json:"error,omitempty"`
	// Evidence is what Smith could compare (the file's content against
	// the write, the files against the snapshot before it), in words.
	Evidence string `json:"evidence"`
	// Suggest is "applied" or "not_applied" when the evidence is
	// conclusive, "" when only the user can tell.
	Suggest string `json:"suggest,omitempty"`
}

// ReconcileParams records the user's decision on an unknown effect.
type ReconcileParams struct {
	// Effect is the effect's id (or a unique prefix of 4+ characters).
	Effect string `json:"effect"`
	// Decision is "applied" or "not_applied".
	Decision string `json:"decision"`
	// Note is the user's reason, optional.
	Note string `json:"note,omitempty"`
}

// ReconcileResult is the recorded decision.
type ReconcileResult struct {
	Effect   string `json:"effect"`
	Decision string `json:"decision"`
	// Record is the id of the effect.reconcile effect that records it.
	Record string `json:"record"`
}
