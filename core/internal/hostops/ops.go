package hostops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/hostproc"
	"github.com/smith-agent/smith/core/internal/sandbox"
	"github.com/smith-agent/smith/core/internal/secret"
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
	// Sandbox confines the processes Bash starts; the zero Policy is Off
	// (no sandbox). Empty Roots mean the FS's allowed roots.
	Sandbox sandbox.Policy
	// Secrets, when set, are the registered secrets: no process inherits
	// an environment variable holding one, and a process's output is
	// redacted as it streams and in its result.
	Secrets *secret.Set
	// SecretAllowed says which registered secrets a process may receive:
	// a reference ${secret:NAME} to one in a command is replaced by its
	// plaintext there (the intent keeps the reference; the completion
	// names the secrets restored). nil allows none.
	SecretAllowed func(name string) bool
	// Contents, when set, keeps what each applied write and edit replaced
	// and left (keep.go), named in its completion output. nil keeps none.
	Contents ContentStore
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
			// An effect that failed without happening has nothing to show
			// but its error (a read of a missing file is most of them).
			if out != nil && !(err != nil && m == model.MutationNotApplied) {
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
	Path     string `json:"path"`
	Offset   int    `json:"offset,omitempty"`
	Limit    int    `json:"limit,omitempty"`
	MaxBytes int    `json:"max_bytes,omitempty"`
}

// fileOutput leads the completion output of fs.read, fs.write and fs.edit:
// the file's real path and the SHA-256 (hex) of its whole content after the
// effect, which [Ops.Recall] reads back. It comes first so that it survives
// an output cut at the journal's bound.
type fileOutput struct {
	RealPath string `json:"real_path,omitempty"`
	SHA256   string `json:"sha256,omitempty"`
}

func fileOutputOf(f hostfs.FileHash) fileOutput {
	if f.Path == "" {
		return fileOutput{}
	}
	return fileOutput{RealPath: f.Path, SHA256: hex.EncodeToString(f.SHA256[:])}
}

// Read reads a line window (kind "fs.read"). The completion output is the
// window with the file's real path and content hash.
func (o *Ops) Read(ctx context.Context, inv Invocation, a ReadArgs) (hostfs.ReadResult, effect.Completion, error) {
	var res hostfs.ReadResult
	c, err := o.run(ctx, inv, "fs.read", a, func(ctx context.Context) (any, model.Mutation, error) {
		var err error
		res, err = o.FS.Read(ctx, inv.Cwd, a.Path, hostfs.ReadOptions{Offset: a.Offset, Limit: a.Limit, MaxBytes: a.MaxBytes})
		return struct {
			fileOutput
			hostfs.ReadResult
		}{fileOutputOf(res.File), res}, mutationOf(err, model.MutationApplied), err
	})
	return res, c, err
}

// textInput is the intent input of a write: the path as given, the path
// made absolute against the invocation's working directory (so a write
// whose outcome is unknown can be traced to its file), and the new text's
// hash and size.
type textInput struct {
	Path    string `json:"path"`
	AbsPath string `json:"abs_path"`
	SHA256  string `json:"sha256"`
	Bytes   int    `json:"bytes"`
}

// absPath is path made absolute against the invocation's working directory
// and cleaned, without touching the file system.
func absPath(inv Invocation, path string) string {
	if path == "" {
		return ""
	}
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(inv.Cwd, path)
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Write replaces or creates a file, creating parents (kind "fs.write"). The
// completion output is the write's result with the file's real path and
// content hash.
func (o *Ops) Write(ctx context.Context, inv Invocation, path, content string) (hostfs.WriteResult, effect.Completion, error) {
	return o.WriteFile(ctx, inv, path, content, true)
}

// WriteFile is Write with the choice of creating parent directories.
func (o *Ops) WriteFile(ctx context.Context, inv Invocation, path, content string, createParents bool) (hostfs.WriteResult, effect.Completion, error) {
	var res hostfs.WriteResult
	abs := absPath(inv, path)
	c, err := o.run(ctx, inv, "fs.write", textInput{Path: path, AbsPath: abs, SHA256: digest(content), Bytes: len(content)},
		func(ctx context.Context) (any, model.Mutation, error) {
			prior := o.prior(abs)
			var err error
			res, err = o.FS.WriteFile(ctx, inv.Cwd, path, []byte(content), createParents)
			var kept *KeptContent
			if err == nil {
				kept = o.keep(prior, []byte(content))
			}
			return struct {
				fileOutput
				Kept *KeptContent `json:"kept,omitempty"`
				hostfs.WriteResult
			}{fileOutputOf(res.File), kept, res}, mutationOf(err, model.MutationApplied), err
		})
	return res, c, err
}

// Edit applies one exact replacement (kind "fs.edit").
func (o *Ops) Edit(ctx context.Context, inv Invocation, path, old, new string) (hostfs.EditResult, effect.Completion, error) {
	return o.EditAll(ctx, inv, path, []hostfs.TextEdit{{Old: old, New: new}}, 0)
}

// EditAll applies exact replacements, all or none (kind "fs.edit"). The
// intent records the path (as given and absolute) and the SHA-256 of each
// old and new text, not the texts; the completion output the first changed
// line, the new size, and the file's real path and new content hash.
func (o *Ops) EditAll(ctx context.Context, inv Invocation, path string, edits []hostfs.TextEdit, maxBytes int) (hostfs.EditResult, effect.Completion, error) {
	var res hostfs.EditResult
	type editDigest struct {
		Old string `json:"old_sha256"`
		New string `json:"new_sha256"`
	}
	input := struct {
		Path    string       `json:"path"`
		AbsPath string       `json:"abs_path"`
		Edits   []editDigest `json:"edits"`
	}{Path: path, AbsPath: absPath(inv, path), Edits: make([]editDigest, len(edits))}
	for i, e := range edits {
		input.Edits[i] = editDigest{digest(e.Old), digest(e.New)}
	}
	c, err := o.run(ctx, inv, "fs.edit", input, func(ctx context.Context) (any, model.Mutation, error) {
		prior := o.prior(input.AbsPath)
		var err error
		res, err = o.FS.EditAll(ctx, inv.Cwd, path, edits, maxBytes)
		if err != nil {
			return nil, mutationOf(err, model.MutationApplied), err
		}
		var kept *KeptContent
		if prior.ok && prior.existed && res.File.Path != "" {
			if after, rerr := os.ReadFile(res.File.Path); rerr == nil {
				kept = o.keep(prior, after)
			}
		}
		return struct {
			fileOutput
			Kept  *KeptContent `json:"kept,omitempty"`
			Line  int          `json:"line"`
			Bytes int          `json:"bytes"`
		}{fileOutputOf(res.File), kept, res.Line, res.Bytes}, model.MutationApplied, nil
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
	Command string `json:"command"`
	// Dir is the absolute working directory; "" means the invocation's.
	Dir string `json:"dir,omitempty"`
	// TimeoutMs bounds the run; 0 means the default (2 minutes).
	TimeoutMs int `json:"timeout_ms,omitempty"`
	// OutputLimit bounds the kept output tail; 0 means the default.
	OutputLimit int `json:"output_limit,omitempty"`
}

// Bash runs a shell command (kind "process.run") in a working directory
// that must lie inside the allowed roots, in the sandbox o.Sandbox (its
// Roots defaulting to the FS's roots). The completion output records the
// sandbox that was in force ("sandbox", absent when none was configured).
func (o *Ops) Bash(ctx context.Context, inv Invocation, a BashArgs) (hostproc.Result, effect.Completion, error) {
	var res hostproc.Result
	dir := a.Dir
	if dir == "" {
		dir = inv.Cwd
	}
	c, err := o.run(ctx, inv, "process.run", a, func(ctx context.Context) (any, model.Mutation, error) {
		if _, err := o.FS.Ls(ctx, dir, ".", 1); err != nil {
			return nil, model.MutationNotApplied, fmt.Errorf("hostops: working directory: %w", err)
		}
		policy := o.Sandbox
		if len(policy.Roots) == 0 {
			policy.Roots = o.FS.Roots()
		}
		p := o.process(ctx, a.Command)
		before := o.treeBefore(ctx)
		var err error
		res, err = hostproc.Run(ctx, p.command, hostproc.Options{Dir: dir, Env: p.env,
			Timeout: time.Duration(a.TimeoutMs) * time.Millisecond, MaxOutput: a.OutputLimit, Output: p.output,
			Sandbox: policy})
		p.done(&res)
		if err != nil {
			return nil, model.MutationNotApplied, err
		}
		kept := o.treeAfter(ctx, before)
		// The sandbox and the trees come before the output, so that they
		// survive an output cut at the journal's bound.
		return struct {
			ExitCode  int          `json:"exit_code"`
			Signal    string       `json:"signal,omitempty"`
			Sandbox   string       `json:"sandbox,omitempty"`
			Secrets   []string     `json:"secrets,omitempty"`
			Kept      *KeptContent `json:"kept,omitempty"`
			Output    string       `json:"output"`
			Truncated bool         `json:"truncated,omitempty"`
			TimedOut  bool         `json:"timed_out,omitempty"`
			Cancelled bool         `json:"cancelled,omitempty"`
		}{res.ExitCode, res.Signal, res.Sandbox, p.restored, kept, string(res.Output), res.Truncated, res.TimedOut, res.Cancelled}, res.Mutation, nil
	})
	return res, c, err
}
