package hostops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/pluginabi"
)

type invocationKey struct{}

// WithInvocation returns ctx carrying inv; the plugin host sets it for each
// tool invocation before calling into the guest, so the guest's host calls
// run in that invocation's directory and are attributed to its tool call.
func WithInvocation(ctx context.Context, inv Invocation) context.Context {
	return context.WithValue(ctx, invocationKey{}, inv)
}

// InvocationFrom returns the invocation carried by ctx.
func InvocationFrom(ctx context.Context) (Invocation, bool) {
	inv, ok := ctx.Value(invocationKey{}).(Invocation)
	return inv, ok
}

// PluginHost serves the plugin API's fs and process imports
// (smith:plugin/fs and smith:plugin/process) through [Ops]: every call is a
// journaled effect of the invocation in its context. Failures of the file
// or process are returned as the interface's fault values; a missing
// invocation or a journal failure is a host error, which aborts the guest.
type PluginHost struct {
	Ops *Ops
}

var (
	_ pluginabi.FsImports      = PluginHost{}
	_ pluginabi.ProcessImports = PluginHost{}
)

func invocation(ctx context.Context) (Invocation, error) {
	inv, ok := InvocationFrom(ctx)
	if !ok {
		return Invocation{}, errors.New("hostops: the host call has no invocation in its context; the plugin host must use WithInvocation")
	}
	return inv, nil
}

// fault maps a primitive's failure to the fs fault variant; journal
// failures stay host errors.
func fault(path string, limit uint64, err error) error {
	var he *hostfs.Error
	if !errors.As(err, &he) {
		return err
	}
	switch he.Fault() {
	case hostfs.FaultNotFound:
		return pluginabi.FileFault{Case: pluginabi.FileFaultNotFound, NotFound: path}
	case hostfs.FaultDenied:
		return pluginabi.FileFault{Case: pluginabi.FileFaultPermissionDenied, PermissionDenied: path}
	case hostfs.FaultTooLarge:
		if l := he.Limit(); l > 0 {
			limit = uint64(l) // the bound the file exceeded, not the caller's window
		}
		return pluginabi.FileFault{Case: pluginabi.FileFaultTooLarge, TooLarge: limit}
	case hostfs.FaultNotText:
		return pluginabi.FileFault{Case: pluginabi.FileFaultNotText, NotText: path}
	case hostfs.FaultConflict:
		return pluginabi.FileFault{Case: pluginabi.FileFaultEditConflict, EditConflict: he.Err.Error()}
	}
	return pluginabi.FileFault{Case: pluginabi.FileFaultUnknown, Unknown: he.Error()}
}

// ReadFile implements smith:plugin/fs read-file.
func (p PluginHost) ReadFile(ctx context.Context, path string, o pluginabi.ReadOptions) (pluginabi.FileText, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return pluginabi.FileText{}, err
	}
	limit := int(o.Limit)
	if limit == 0 {
		limit = math.MaxInt32 // all lines; the byte limit still bounds them
	}
	res, _, err := p.Ops.Read(ctx, inv, ReadArgs{Path: path, Offset: int(o.Offset), Limit: limit, MaxBytes: int(min(o.ByteLimit, math.MaxInt32))})
	if err != nil {
		return pluginabi.FileText{}, fault(path, o.ByteLimit, err)
	}
	return pluginabi.FileText{Text: res.Text, TotalLines: uint32(res.TotalLines), Truncated: res.EndLine < res.TotalLines}, nil
}

// WriteFile implements smith:plugin/fs write-file.
func (p PluginHost) WriteFile(ctx context.Context, path, content string, o pluginabi.WriteOptions) (uint64, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return 0, err
	}
	res, _, err := p.Ops.WriteFile(ctx, inv, path, content, o.CreateParents)
	if err != nil {
		return 0, fault(path, 0, err)
	}
	return uint64(res.Bytes), nil
}

// EditFile implements smith:plugin/fs edit-file: all edits or none, with a
// unified diff of the change.
func (p PluginHost) EditFile(ctx context.Context, path string, edits []pluginabi.TextEdit, o pluginabi.EditOptions) (pluginabi.EditOutcome, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return pluginabi.EditOutcome{}, err
	}
	tes := make([]hostfs.TextEdit, len(edits))
	for i, e := range edits {
		tes[i] = hostfs.TextEdit{Old: e.OldText, New: e.NewText}
	}
	res, _, err := p.Ops.EditAll(ctx, inv, path, tes, int(min(o.ByteLimit, math.MaxInt32)))
	if err != nil {
		return pluginabi.EditOutcome{}, fault(path, o.ByteLimit, err)
	}
	return pluginabi.EditOutcome{Diff: udiff.Unified("a/"+path, "b/"+path, res.Before, res.After), FirstChangedLine: uint32(res.Line)}, nil
}

// ListDirectory implements smith:plugin/fs list-directory.
func (p PluginHost) ListDirectory(ctx context.Context, path string, o pluginabi.ListOptions) ([]pluginabi.DirectoryEntry, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return nil, err
	}
	res, _, err := p.Ops.Ls(ctx, inv, LsArgs{Path: path, Limit: int(o.Limit)})
	if err != nil {
		return nil, fault(path, 0, err)
	}
	out := make([]pluginabi.DirectoryEntry, len(res.Entries))
	for i, e := range res.Entries {
		kind := pluginabi.EntryKindFile
		switch {
		case e.Symlink:
			kind = pluginabi.EntryKindSymlink
		case e.Dir:
			kind = pluginabi.EntryKindDirectory
		}
		out[i] = pluginabi.DirectoryEntry{Name: e.Name, Kind: kind}
	}
	return out, nil
}

// FindFiles implements smith:plugin/fs find-files; paths are sorted and
// directories end in "/".
func (p PluginHost) FindFiles(ctx context.Context, pattern, directory string, o pluginabi.FindOptions) ([]string, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return nil, err
	}
	res, _, err := p.Ops.Find(ctx, inv, FindArgs{Pattern: pattern, Path: directory, Limit: int(o.Limit), IncludeIgnored: o.IncludeIgnored})
	if err != nil {
		var he *hostfs.Error
		if errors.As(err, &he) && he.Fault() == hostfs.FaultOther && strings.Contains(he.Err.Error(), "not a valid glob") {
			return nil, pluginabi.FileFault{Case: pluginabi.FileFaultUnknown, Unknown: he.Error()}
		}
		return nil, fault(directory, 0, err)
	}
	paths := slices.Clone(res.Paths)
	slices.Sort(paths)
	if paths == nil {
		paths = []string{}
	}
	return paths, nil
}

// SearchText implements smith:plugin/fs search-text.
func (p PluginHost) SearchText(ctx context.Context, pattern, directory string, o pluginabi.SearchOptions) ([]pluginabi.TextMatch, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return nil, err
	}
	a := GrepArgs{Pattern: pattern, Path: directory, Literal: o.Literal, IgnoreCase: o.IgnoreCase, Limit: int(o.Limit)}
	if o.Glob != nil {
		a.Glob = *o.Glob
	}
	res, _, err := p.Ops.Grep(ctx, inv, a)
	if err != nil {
		return nil, fault(directory, 0, err)
	}
	out := make([]pluginabi.TextMatch, len(res.Matches))
	for i, m := range res.Matches {
		out[i] = pluginabi.TextMatch{Path: m.Path, Line: uint32(m.Line), Text: m.Text}
	}
	return out, nil
}

// RunProcess implements smith:plugin/process run-process.
func (p PluginHost) RunProcess(ctx context.Context, c pluginabi.Command, o pluginabi.RunOptions) (pluginabi.ProcessOutcome, error) {
	inv, err := invocation(ctx)
	if err != nil {
		return pluginabi.ProcessOutcome{}, err
	}
	res, comp, err := p.Ops.Bash(ctx, inv, BashArgs{Command: c.Line, Dir: c.Directory, TimeoutMs: int(o.TimeoutMs), OutputLimit: int(o.OutputLimit)})
	switch {
	case err != nil && comp.ID == "":
		return pluginabi.ProcessOutcome{}, err // the journal failed: a host error
	case err != nil:
		return pluginabi.ProcessOutcome{}, pluginabi.ProcessFault{Case: pluginabi.ProcessFaultSpawnFailure, SpawnFailure: err.Error()}
	case res.TimedOut:
		ms := o.TimeoutMs
		if ms == 0 {
			ms = 120000
		}
		output := string(res.Output)
		if n := res.Notice(); n != "" {
			output = n + "\n" + output
		}
		return pluginabi.ProcessOutcome{}, pluginabi.ProcessFault{Case: pluginabi.ProcessFaultTimeout,
			Timeout: pluginabi.TimedOut{LimitMs: ms, Output: output, Truncated: res.Truncated}}
	case res.Cancelled:
		return pluginabi.ProcessOutcome{}, pluginabi.ProcessFault{Case: pluginabi.ProcessFaultCancelled}
	}
	out := pluginabi.ProcessOutcome{Output: string(res.Output), Truncated: res.Truncated}
	if res.Signal == "" {
		code := int32(res.ExitCode)
		out.ExitCode = &code
	}
	if n := res.Notice(); n != "" {
		out.Output = n + "\n" + out.Output
	}
	return out, nil
}

// String describes the host for diagnostics.
func (p PluginHost) String() string {
	return fmt.Sprintf("hostops.PluginHost(roots %s)", strings.Join(p.Ops.FS.Roots(), ", "))
}
