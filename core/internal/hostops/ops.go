package hostops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/hostproc"
	"github.com/smith-agent/smith/core/model"
)

// Invocation identifies the tool call a primitive runs for.
type Invocation struct {
	// Cwd is the call's absolute working directory.
	Cwd string
	// CallID is the tool call id, the effect's causal parent.
	CallID string
	// Generation is the plugin generation that made the call.
	Generation uint64
}

// Ops runs primitives under a journal. It is safe for concurrent use.
type Ops struct {
	FS      *hostfs.FS
	Journal *effect.Journal
	// Env is the environment of processes; nil means the process's.
	Env []string
}

// run records the intent, runs fn unless that failed, and records the
// completion. fn returns the value to encode as output, the mutation state
// and an error.
func (o *Ops) run(ctx context.Context, inv Invocation, kind string, input any, fn func(context.Context) (any, model.Mutation, error)) (effect.Completion, error) {
	in, err := json.Marshal(input)
	if err != nil {
		return effect.Completion{Mutation: model.MutationNotApplied}, fmt.Errorf("hostops: encode %s input: %w", kind, err)
	}
	var ferr error
	c, jerr := o.Journal.Run(ctx, effect.Intent{Kind: kind, Parent: inv.CallID, Generation: inv.Generation, Input: in},
		func(ctx context.Context) effect.Outcome {
			out, m, err := fn(ctx)
			ferr = err
			var b []byte
			if out != nil {
				b, _ = json.Marshal(out)
			}
			return effect.Outcome{Mutation: m, Output: b, Err: err}
		})
	if jerr != nil {
		return c, jerr
	}
	return c, ferr
}

func mutationOf(err error, success model.Mutation) model.Mutation {
	if err == nil {
		return success
	}
	var he *hostfs.Error
	if errors.As(err, &he) {
		return he.Mutation
	}
	return model.MutationUnknown
}

// ReadArgs are the read primitive's inputs.
type ReadArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// Read reads a line window (kind "fs.read").
func (o *Ops) Read(ctx context.Context, inv Invocation, a ReadArgs) (hostfs.ReadResult, effect.Completion, error) {
	var res hostfs.ReadResult
	c, err := o.run(ctx, inv, "fs.read", a, func(ctx context.Context) (any, model.Mutation, error) {
		var err error
		res, err = o.FS.Read(ctx, inv.Cwd, a.Path, hostfs.ReadOptions{Offset: a.Offset, Limit: a.Limit})
		return res, mutationOf(err, model.MutationApplied), err
	})
	return res, c, err
}

type textInput struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Write replaces or creates a file (kind "fs.write").
func (o *Ops) Write(ctx context.Context, inv Invocation, path, content string) (hostfs.WriteResult, effect.Completion, error) {
	var res hostfs.WriteResult
	c, err := o.run(ctx, inv, "fs.write", textInput{Path: path, SHA256: digest(content), Bytes: len(content)},
		func(ctx context.Context) (any, model.Mutation, error) {
			var err error
			res, err = o.FS.Write(ctx, inv.Cwd, path, []byte(content))
			return res, mutationOf(err, model.MutationApplied), err
		})
	return res, c, err
}

// Edit applies one exact replacement (kind "fs.edit").
func (o *Ops) Edit(ctx context.Context, inv Invocation, path, old, new string) (hostfs.EditResult, effect.Completion, error) {
	var res hostfs.EditResult
	input := struct {
		Path      string `json:"path"`
		OldSHA256 string `json:"old_sha256"`
		NewSHA256 string `json:"new_sha256"`
	}{path, digest(old), digest(new)}
	c, err := o.run(ctx, inv, "fs.edit", input, func(ctx context.Context) (any, model.Mutation, error) {
		var err error
		res, err = o.FS.Edit(ctx, inv.Cwd, path, old, new)
		return res, mutationOf(err, model.MutationApplied), err
	})
	return res, c, err
}

// LsArgs are the ls primitive's inputs.
type LsArgs struct {
	Path  string `json:"path,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// Ls lists a directory (kind "fs.ls").
func (o *Ops) Ls(ctx context.Context, inv Invocation, a LsArgs) (hostfs.LsResult, effect.Completion, error) {
	var res hostfs.LsResult
	c, err := o.run(ctx, inv, "fs.ls", a, func(ctx context.Context) (any, model.Mutation, error) {
		var err error
		res, err = o.FS.Ls(ctx, inv.Cwd, a.Path, a.Limit)
		return res, mutationOf(err, model.MutationApplied), err
	})
	return res, c, err
}

// FindArgs are the find primitive's inputs.
type FindArgs struct {
	Pattern        string `json:"pattern"`
	Path           string `json:"path,omitempty"`
	Limit          int    `json:"limit,omitempty"`
	IncludeIgnored bool   `json:"include_ignored,omitempty"`
}

// Find finds paths by glob (kind "fs.find").
func (o *Ops) Find(ctx context.Context, inv Invocation, a FindArgs) (hostfs.FindResult, effect.Completion, error) {
	var res hostfs.FindResult
	c, err := o.run(ctx, inv, "fs.find", a, func(ctx context.Context) (any, model.Mutation, error) {
		var err error
		res, err = o.FS.Find(ctx, inv.Cwd, a.Path, a.Pattern, hostfs.FindOptions{Limit: a.Limit, IncludeIgnored: a.IncludeIgnored})
		return res, mutationOf(err, model.MutationApplied), err
	})
	return res, c, err
}

// GrepArgs are the grep primitive's inputs.
type GrepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path,omitempty"`
	Glob       string `json:"glob,omitempty"`
	Literal    bool   `json:"literal,omitempty"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`
	Limit      int    `json:"limit,omitempty"`
}

// Grep searches file contents (kind "fs.grep").
func (o *Ops) Grep(ctx context.Context, inv Invocation, a GrepArgs) (hostfs.GrepResult, effect.Completion, error) {
	var res hostfs.GrepResult
	c, err := o.run(ctx, inv, "fs.grep", a, func(ctx context.Context) (any, model.Mutation, error) {
		var err error
		res, err = o.FS.Grep(ctx, inv.Cwd, a.Pattern, hostfs.GrepOptions{Dir: a.Path, Glob: a.Glob,
			Literal: a.Literal, IgnoreCase: a.IgnoreCase, Limit: a.Limit})
		return res, mutationOf(err, model.MutationApplied), err
	})
	return res, c, err
}

// BashArgs are the process primitive's inputs.
type BashArgs struct {
	Command        string `json:"command"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty"`
}

// Bash runs a shell command in the invocation's directory (kind
// "process.run"). The directory must lie inside the allowed roots.
func (o *Ops) Bash(ctx context.Context, inv Invocation, a BashArgs) (hostproc.Result, effect.Completion, error) {
	var res hostproc.Result
	c, err := o.run(ctx, inv, "process.run", a, func(ctx context.Context) (any, model.Mutation, error) {
		if _, err := o.FS.Ls(ctx, inv.Cwd, ".", 1); err != nil {
			return nil, model.MutationNotApplied, fmt.Errorf("hostops: working directory: %w", err)
		}
		var err error
		res, err = hostproc.Run(ctx, a.Command, hostproc.Options{Dir: inv.Cwd, Env: o.Env,
			Timeout: time.Duration(a.TimeoutSeconds) * time.Second})
		if err != nil {
			return nil, model.MutationNotApplied, err
		}
		return struct {
			ExitCode  int    `json:"exit_code"`
			Signal    string `json:"signal,omitempty"`
			Output    string `json:"output"`
			Truncated bool   `json:"truncated,omitempty"`
			TimedOut  bool   `json:"timed_out,omitempty"`
			Cancelled bool   `json:"cancelled,omitempty"`
		}{res.ExitCode, res.Signal, string(res.Output), res.Truncated, res.TimedOut, res.Cancelled}, res.Mutation, nil
	})
	return res, c, err
}
