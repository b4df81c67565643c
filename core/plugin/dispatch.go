package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/model"
)

// dispatcher serves the fs and process imports of every plugin of a Host.
// Plugins are compiled once, independent of any session; each import call
// finds the session's journaled primitives and the call's mutation tracker
// in its context, put there by the tool's Execute.
type dispatcher struct{}

var (
	_ pluginabi.FsImports      = (*dispatcher)(nil)
	_ pluginabi.ProcessImports = (*dispatcher)(nil)
)

type callKey struct{}

// callState is one tool call's view of the host: the primitives and what
// its effects did so far.
type callState struct {
	ops *hostops.Ops
	// readOnly refuses writes and edits: the scope of prompts and
	// context transforms (scope.go).
	readOnly bool
	mu       sync.Mutex
	// applied: a mutating effect completed; unknown: one may have happened.
	applied, unknown bool
	// log is the call's budget of log records (log.go).
	log logBudget
	// ui reaches the person (intent.go); nil when nobody can answer.
	ui UI
	// vcs reaches the session's snapshots (vcs.go); nil when it keeps
	// none. command is set for a command's call, the only one that may
	// undo, redo or restore.
	vcs     VCS
	command bool
	// state keeps the plugins' durable state (state.go); nil when the
	// call keeps none. stores are the handles this call opened.
	state  State
	stores []uint64
	// binding is the session's tools, for child calls (compose.go);
	// depth is how deep a child this call is (0: made by the agent, a
	// frontend or a handler), children how many it made, and allowed,
	// for a child, the capabilities its effects may use (nil: its
	// plugin's grants, which linking already enforces).
	binding  *Binding
	depth    int
	children int
	allowed  map[string]bool
	// callID names what runs: a tool call's id, "handler:EVENT",
	// "command:NAME".
	callID string
	// budget is the handlers' time budget, paused while a person is
	// asked; nil for tools and commands, whose budget is wasmhost's.
	budget *budget
}

func callOf(ctx context.Context) (*callState, error) {
	st, ok := ctx.Value(callKey{}).(*callState)
	if !ok {
		return nil, errors.New("plugin: an import was called outside a tool call; only tool invocations may perform effects")
	}
	return st, nil
}

// note records the outcome of a mutating effect.
func (st *callState) note(err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var ff pluginabi.FileFault
	var pf pluginabi.ProcessFault
	switch {
	case err == nil:
		st.applied = true
	case errors.As(err, &ff):
		// The primitives check before they write; only an unclassified
		// failure may have left a change behind.
		st.unknown = st.unknown || ff.Case == pluginabi.FileFaultUnknown
	case errors.As(err, &pf):
		st.unknown = st.unknown || pf.Case != pluginabi.ProcessFaultSpawnFailure
	default:
		st.unknown = true
	}
}

// noteHTTP records the outcome m of an exchange with method: one that
// may change the server's state (any method but GET, HEAD, OPTIONS and
// TRACE) counts as a mutating effect.
func (st *callState) noteHTTP(method string, m model.Mutation) {
	switch method {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	switch m {
	case model.MutationApplied:
		st.applied = true
	case model.MutationUnknown:
		st.unknown = true
	}
}

// mutation is the call's mutation state given whether it succeeded.
func (st *callState) mutation(ok bool) model.Mutation {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.unknown:
		return model.MutationUnknown
	case ok || st.applied:
		return model.MutationApplied
	}
	return model.MutationNotApplied
}

func (d *dispatcher) ops(ctx context.Context, cp string) (hostops.PluginHost, *callState, error) {
	st, err := callOf(ctx)
	if err != nil {
		return hostops.PluginHost{}, nil, err
	}
	if why := st.permits(cp); why != "" {
		if cp == "process" {
			return hostops.PluginHost{}, nil, pluginabi.ProcessFault{Case: pluginabi.ProcessFaultSpawnFailure, SpawnFailure: why}
		}
		return hostops.PluginHost{}, nil, pluginabi.FileFault{Case: pluginabi.FileFaultUnknown, Unknown: why}
	}
	return hostops.PluginHost{Ops: st.ops}, st, nil
}

// ReadFile serves fs read-file.
func (d *dispatcher) ReadFile(ctx context.Context, path string, o pluginabi.ReadOptions) (pluginabi.FileText, error) {
	h, _, err := d.ops(ctx, "fs")
	if err != nil {
		return pluginabi.FileText{}, err
	}
	return h.ReadFile(ctx, path, o)
}

// WriteFile serves fs write-file.
func (d *dispatcher) WriteFile(ctx context.Context, path, content string, o pluginabi.WriteOptions) (uint64, error) {
	h, st, err := d.ops(ctx, "fs")
	if err != nil {
		return 0, err
	}
	if st.readOnly {
		return 0, readOnlyFault(path)
	}
	n, err := h.WriteFile(ctx, path, content, o)
	st.note(err)
	return n, err
}

// EditFile serves fs edit-file.
func (d *dispatcher) EditFile(ctx context.Context, path string, edits []pluginabi.TextEdit, o pluginabi.EditOptions) (pluginabi.EditOutcome, error) {
	h, st, err := d.ops(ctx, "fs")
	if err != nil {
		return pluginabi.EditOutcome{}, err
	}
	if st.readOnly {
		return pluginabi.EditOutcome{}, readOnlyFault(path)
	}
	out, err := h.EditFile(ctx, path, edits, o)
	st.note(err)
	return out, err
}

// ListDirectory serves fs list-directory.
func (d *dispatcher) ListDirectory(ctx context.Context, path string, o pluginabi.ListOptions) ([]pluginabi.DirectoryEntry, error) {
	h, _, err := d.ops(ctx, "fs")
	if err != nil {
		return nil, err
	}
	return h.ListDirectory(ctx, path, o)
}

// FindFiles serves fs find-files.
func (d *dispatcher) FindFiles(ctx context.Context, pattern, directory string, o pluginabi.FindOptions) ([]string, error) {
	h, _, err := d.ops(ctx, "fs")
	if err != nil {
		return nil, err
	}
	return h.FindFiles(ctx, pattern, directory, o)
}

// SearchText serves fs search-text.
func (d *dispatcher) SearchText(ctx context.Context, pattern, directory string, o pluginabi.SearchOptions) ([]pluginabi.TextMatch, error) {
	h, _, err := d.ops(ctx, "fs")
	if err != nil {
		return nil, err
	}
	return h.SearchText(ctx, pattern, directory, o)
}

// RunProcess serves process run-process.
func (d *dispatcher) RunProcess(ctx context.Context, c pluginabi.Command, o pluginabi.RunOptions) (pluginabi.ProcessOutcome, error) {
	h, st, err := d.ops(ctx, "process")
	if err != nil {
		return pluginabi.ProcessOutcome{}, err
	}
	if st.readOnly {
		return pluginabi.ProcessOutcome{}, pluginabi.ProcessFault{Case: pluginabi.ProcessFaultSpawnFailure,
			SpawnFailure: "a prompt or context transform may only read files; run commands from a tool"}
	}
	out, err := h.RunProcess(ctx, c, o)
	st.note(err)
	return out, err
}

// record runs fn as an effect of kind of st's call, with input in (never
// a secret's value): applied with fn's result as its output, or not
// applied with fn's error, which it returns as ferr; jerr is a failure to
// record it.
func (st *callState) record(ctx context.Context, kind string, in any, fn func() (any, error)) (ferr, jerr error) {
	if st.ops == nil || st.ops.Journal == nil {
		return nil, fmt.Errorf("plugin: %s: this call has no effect journal to record it in", kind)
	}
	input, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("plugin: encode the %s input: %w", kind, err)
	}
	inv, _ := hostops.InvocationFrom(ctx)
	_, jerr = st.ops.Journal.Run(ctx, effect.Intent{Kind: kind, Parent: st.callID, Generation: inv.Generation, Input: input},
		func(ctx context.Context) effect.Outcome {
			out, err := fn()
			ferr = err
			if err != nil {
				return effect.Outcome{Mutation: model.MutationNotApplied, Err: err}
			}
			b, _ := json.Marshal(out)
			return effect.Outcome{Mutation: model.MutationApplied, Output: b}
		})
	return ferr, jerr
}
