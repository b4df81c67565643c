package rpcclient

import (
	"context"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// Prompt submits input under its delivery policy (prompt, steer or
// follow_up); with no session open, the server starts one named from the
// text.
func (c *Client) Prompt(ctx context.Context, p protocol.PromptParams) (protocol.PromptResult, error) {
	var r protocol.PromptResult
	return r, c.Call(ctx, protocol.MethodPrompt, p, &r)
}

// Steer queues steering input for the active run (or starts a run).
func (c *Client) Steer(ctx context.Context, text string) (protocol.PromptResult, error) {
	var r protocol.PromptResult
	return r, c.Call(ctx, protocol.MethodSteer, protocol.InputParams{Text: text}, &r)
}

// FollowUp queues follow-up input for the active run (or starts a run).
func (c *Client) FollowUp(ctx context.Context, text string) (protocol.PromptResult, error) {
	var r protocol.PromptResult
	return r, c.Call(ctx, protocol.MethodFollowUp, protocol.InputParams{Text: text}, &r)
}

// Queue returns the queued input.
func (c *Client) Queue(ctx context.Context) (protocol.Queue, error) {
	var r protocol.Queue
	return r, c.Call(ctx, protocol.MethodQueueGet, nil, &r)
}

// SetQueue replaces queued input (a nil field keeps that queue).
func (c *Client) SetQueue(ctx context.Context, p protocol.SetQueueParams) (protocol.Queue, error) {
	var r protocol.Queue
	return r, c.Call(ctx, protocol.MethodQueueSet, p, &r)
}

// ClearQueue drops all queued input.
func (c *Client) ClearQueue(ctx context.Context) (protocol.Queue, error) {
	var r protocol.Queue
	return r, c.Call(ctx, protocol.MethodQueueClear, nil, &r)
}

// Abort aborts the active run, if any.
func (c *Client) Abort(ctx context.Context) error {
	return c.Call(ctx, protocol.MethodAbort, nil, nil)
}

// Confirm answers the confirmation request id (a
// protocol.ConfirmationRequest's ID) with answer; the server must have
// been started with --confirmations.
func (c *Client) Confirm(ctx context.Context, id string, answer bool) error {
	return c.Call(ctx, protocol.MethodConfirm, protocol.ConfirmParams{ID: id, Answer: answer}, nil)
}

// Wait waits until the session has settled, at most timeout (0 is the
// server's default, one minute).
func (c *Client) Wait(ctx context.Context, timeout time.Duration) (protocol.WaitResult, error) {
	var r protocol.WaitResult
	return r, c.Call(ctx, protocol.MethodWait, protocol.WaitParams{TimeoutMillis: timeout.Milliseconds()}, &r)
}

// Sessions lists the stored sessions, most recently active first.
func (c *Client) Sessions(ctx context.Context) ([]protocol.SessionInfo, error) {
	var r []protocol.SessionInfo
	return r, c.Call(ctx, protocol.MethodSessionList, nil, &r)
}

// OpenSession makes the session ref names (a name, an id or an id prefix)
// the current one.
func (c *Client) OpenSession(ctx context.Context, ref string) (protocol.SessionInfo, error) {
	var r protocol.SessionInfo
	return r, c.Call(ctx, protocol.MethodSessionOpen, protocol.SessionRefParams{Ref: ref}, &r)
}

// NewSession makes a new session the current one.
func (c *Client) NewSession(ctx context.Context, name string) (protocol.SessionInfo, error) {
	var r protocol.SessionInfo
	return r, c.Call(ctx, protocol.MethodSessionNew, protocol.NewSessionParams{Name: name}, &r)
}

// ContinueSession makes the most recently active session of the server's
// working directory the current one.
func (c *Client) ContinueSession(ctx context.Context) (protocol.SessionInfo, error) {
	var r protocol.SessionInfo
	return r, c.Call(ctx, protocol.MethodSessionContinue, nil, &r)
}

// Fork forks the current session and makes the fork the current one.
func (c *Client) Fork(ctx context.Context, p protocol.ForkParams) (protocol.SessionInfo, error) {
	var r protocol.SessionInfo
	return r, c.Call(ctx, protocol.MethodSessionFork, p, &r)
}

// Select makes the entry p.Ref the one the session continues from; with
// p.Summarize, the branch left behind is summarised there first.
func (c *Client) Select(ctx context.Context, p protocol.SelectParams) (protocol.SelectResult, error) {
	var r protocol.SelectResult
	return r, c.Call(ctx, protocol.MethodSessionSelect, p, &r)
}

// Label labels the entry ref ("" clears its label).
func (c *Client) Label(ctx context.Context, ref, label string) error {
	return c.Call(ctx, protocol.MethodSessionLabel, protocol.LabelParams{Ref: ref, Label: label}, nil)
}

// Tree returns every entry of the current session.
func (c *Client) Tree(ctx context.Context) ([]protocol.TreeNode, error) {
	var r []protocol.TreeNode
	return r, c.Call(ctx, protocol.MethodSessionTree, nil, &r)
}

// Turns lists the current session's turns with their file snapshots.
func (c *Client) Turns(ctx context.Context) ([]protocol.TurnSnapshots, error) {
	var r []protocol.TurnSnapshots
	return r, c.Call(ctx, protocol.MethodSessionTurns, nil, &r)
}

// Diff compares two states of the current session's files.
func (c *Client) Diff(ctx context.Context, p protocol.DiffParams) (protocol.DiffResult, error) {
	var r protocol.DiffResult
	return r, c.Call(ctx, protocol.MethodSessionDiff, p, &r)
}

// Snapshot records the current session's files as they are now.
func (c *Client) Snapshot(ctx context.Context, p protocol.SnapshotParams) (protocol.SnapshotResult, error) {
	var r protocol.SnapshotResult
	return r, c.Call(ctx, protocol.MethodSessionSnapshot, p, &r)
}

// Undo restores the files to before the current session's last change.
func (c *Client) Undo(ctx context.Context, p protocol.UndoParams) (protocol.VCSResult, error) {
	var r protocol.VCSResult
	return r, c.Call(ctx, protocol.MethodSessionUndo, p, &r)
}

// Redo restores what the last undo took back.
func (c *Client) Redo(ctx context.Context, p protocol.RedoParams) (protocol.VCSResult, error) {
	var r protocol.VCSResult
	return r, c.Call(ctx, protocol.MethodSessionRedo, p, &r)
}

// Restore restores the files to how they were at an entry.
func (c *Client) Restore(ctx context.Context, p protocol.RestoreParams) (protocol.VCSResult, error) {
	var r protocol.VCSResult
	return r, c.Call(ctx, protocol.MethodSessionRestore, p, &r)
}

// Compact compacts the current session's context now and returns what it
// did; the compaction's events arrive meanwhile.
func (c *Client) Compact(ctx context.Context, p protocol.CompactParams) (protocol.CompactResult, error) {
	var r protocol.CompactResult
	return r, c.Call(ctx, protocol.MethodSessionCompact, p, &r)
}

// Model returns the current session's model.
func (c *Client) Model(ctx context.Context) (protocol.ModelState, error) {
	var r protocol.ModelState
	return r, c.Call(ctx, protocol.MethodModelGet, nil, &r)
}

// SetModel changes the current session's model or thinking level.
func (c *Client) SetModel(ctx context.Context, p protocol.SetModelParams) (protocol.ModelState, error) {
	var r protocol.ModelState
	return r, c.Call(ctx, protocol.MethodModelSet, p, &r)
}

// Models lists the catalog's models and the configuration's routes.
func (c *Client) Models(ctx context.Context) (protocol.ModelList, error) {
	var r protocol.ModelList
	return r, c.Call(ctx, protocol.MethodModelList, nil, &r)
}

// Commands lists the contributed commands.
func (c *Client) Commands(ctx context.Context) ([]protocol.Command, error) {
	var r []protocol.Command
	return r, c.Call(ctx, protocol.MethodCommandsList, nil, &r)
}

// RunCommand runs a command in the current session.
func (c *Client) RunCommand(ctx context.Context, p protocol.RunCommandParams) (protocol.CommandResult, error) {
	var r protocol.CommandResult
	return r, c.Call(ctx, protocol.MethodCommandsRun, p, &r)
}

// State returns what the current session is doing.
func (c *Client) State(ctx context.Context) (protocol.State, error) {
	var r protocol.State
	return r, c.Call(ctx, protocol.MethodState, nil, &r)
}

// Stats returns the current session's accounting.
func (c *Client) Stats(ctx context.Context) (protocol.Stats, error) {
	var r protocol.Stats
	return r, c.Call(ctx, protocol.MethodStats, nil, &r)
}

// Shutdown asks the server to abort a run still active, close the session
// and exit; it returns once the server has done so.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.Call(ctx, protocol.MethodShutdown, nil, nil)
}

// Texts makes a queue of text messages for [Client.SetQueue].
func Texts(texts ...string) *[]model.UserMessage {
	q := make([]model.UserMessage, len(texts))
	for i, t := range texts {
		q[i] = model.UserText(t)
	}
	return &q
}
