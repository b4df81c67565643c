package hostops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/internal/pluginabi"
)

func pluginCtx(f *fixture) context.Context {
	return WithInvocation(context.Background(), f.inv)
}

func wantFault(t *testing.T, err error, c pluginabi.FileFaultCase) pluginabi.FileFault {
	t.Helper()
	var ff pluginabi.FileFault
	if !errors.As(err, &ff) || ff.Case != c {
		t.Fatalf("err = %v; want file fault %s", err, c)
	}
	return ff
}

func TestPluginHostFs(t *testing.T) {
	f := setup(t, nil)
	h := PluginHost{Ops: f.ops}
	ctx := pluginCtx(f)

	text, err := h.ReadFile(ctx, "a.txt", pluginabi.ReadOptions{Offset: 2})
	if err != nil || text != (pluginabi.FileText{Text: "beta\n", TotalLines: 2}) {
		t.Fatalf("read = %+v, %v", text, err)
	}
	text, err = h.ReadFile(ctx, "a.txt", pluginabi.ReadOptions{Limit: 1})
	if err != nil || !text.Truncated || text.Text != "alpha\n" {
		t.Fatalf("read limit 1 = %+v, %v", text, err)
	}
	n, err := h.WriteFile(ctx, "d/new.txt", "one\ntwo\n", pluginabi.WriteOptions{CreateParents: true})
	if err != nil || n != 8 {
		t.Fatalf("write = %d, %v", n, err)
	}
	_, err = h.WriteFile(ctx, "e/new.txt", "x", pluginabi.WriteOptions{})
	wantFault(t, err, pluginabi.FileFaultNotFound)

	out, err := h.EditFile(ctx, "d/new.txt", []pluginabi.TextEdit{{OldText: "two", NewText: "2"}}, pluginabi.EditOptions{})
	if err != nil || out.FirstChangedLine != 2 || !strings.Contains(out.Diff, "-two\n+2\n") || !strings.HasPrefix(out.Diff, "--- a/d/new.txt\n+++ b/d/new.txt\n") {
		t.Fatalf("edit = %+v, %v", out, err)
	}
	_, err = h.EditFile(ctx, "d/new.txt", []pluginabi.TextEdit{{OldText: "zzz", NewText: "y"}}, pluginabi.EditOptions{})
	if ff := wantFault(t, err, pluginabi.FileFaultEditConflict); !strings.Contains(ff.EditConflict, "was not found") {
		t.Fatalf("conflict = %q", ff.EditConflict)
	}
	_, err = h.EditFile(ctx, "d/new.txt", []pluginabi.TextEdit{{OldText: "one", NewText: strings.Repeat("x", 100)}}, pluginabi.EditOptions{ByteLimit: 10})
	if ff := wantFault(t, err, pluginabi.FileFaultTooLarge); ff.TooLarge != 10 {
		t.Fatalf("too large = %+v", ff)
	}

	entries, err := h.ListDirectory(ctx, "", pluginabi.ListOptions{})
	want := []pluginabi.DirectoryEntry{{Name: "a.txt", Kind: pluginabi.EntryKindFile}, {Name: "d", Kind: pluginabi.EntryKindDirectory}}
	if err != nil || !reflect.DeepEqual(entries, want) {
		t.Fatalf("list = %+v, %v", entries, err)
	}
	paths, err := h.FindFiles(ctx, "*.txt", "", pluginabi.FindOptions{})
	if err != nil || !reflect.DeepEqual(paths, []string{"a.txt", "d/new.txt"}) {
		t.Fatalf("find = %v, %v", paths, err)
	}
	glob := "*.txt"
	matches, err := h.SearchText(ctx, "ALPHA", "", pluginabi.SearchOptions{IgnoreCase: true, Glob: &glob})
	if err != nil || !reflect.DeepEqual(matches, []pluginabi.TextMatch{{Path: "a.txt", Line: 1, Text: "alpha"}}) {
		t.Fatalf("search = %+v, %v", matches, err)
	}

	_, err = h.ReadFile(ctx, "../outside", pluginabi.ReadOptions{})
	if ff := wantFault(t, err, pluginabi.FileFaultPermissionDenied); ff.PermissionDenied != "../outside" {
		t.Fatalf("denied = %+v", ff)
	}
	_, err = h.ReadFile(ctx, "missing.txt", pluginabi.ReadOptions{})
	wantFault(t, err, pluginabi.FileFaultNotFound)
	if err := os.WriteFile(filepath.Join(f.dir, "bin"), []byte{0}, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = h.ReadFile(ctx, "bin", pluginabi.ReadOptions{})
	wantFault(t, err, pluginabi.FileFaultNotText)

	// Every call, failed or not, is in the journal as an intent and a
	// completion attributed to the tool call.
	intents, completions := f.records(t)
	if len(intents) != 13 || len(completions) != 13 {
		t.Fatalf("%d intents, %d completions", len(intents), len(completions))
	}
	for _, in := range intents {
		if in.Parent != "call_1" || in.Generation != 7 {
			t.Fatalf("intent %+v not attributed", in)
		}
	}
}

func TestPluginHostProcess(t *testing.T) {
	f := setup(t, nil)
	h := PluginHost{Ops: f.ops}
	ctx := pluginCtx(f)
	out, err := h.RunProcess(ctx, pluginabi.Command{Line: "echo hi; exit 4"}, pluginabi.RunOptions{})
	if err != nil || out.ExitCode == nil || *out.ExitCode != 4 || out.Output != "hi\n" {
		t.Fatalf("run = %+v, %v", out, err)
	}
	out, err = h.RunProcess(ctx, pluginabi.Command{Line: "kill -9 $$"}, pluginabi.RunOptions{})
	if err != nil || out.ExitCode != nil {
		t.Fatalf("killed = %+v, %v", out, err)
	}
	out, err = h.RunProcess(ctx, pluginabi.Command{Line: "seq 1 1000"}, pluginabi.RunOptions{OutputLimit: 9})
	if err != nil || !out.Truncated || out.Output != "[output truncated: showing the last 9 of 3893 bytes]\n999\n1000\n" {
		t.Fatalf("truncated = %+v, %v", out, err)
	}
	_, err = h.RunProcess(ctx, pluginabi.Command{Line: "echo so far; sleep 30"}, pluginabi.RunOptions{TimeoutMs: 200})
	var pf pluginabi.ProcessFault
	if !errors.As(err, &pf) || pf.Case != pluginabi.ProcessFaultTimeout || pf.Timeout.LimitMs != 200 || pf.Timeout.Output != "so far\n" {
		t.Fatalf("timeout = %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancelSoon(cancel)
	_, err = h.RunProcess(cctx, pluginabi.Command{Line: "sleep 30"}, pluginabi.RunOptions{})
	if !errors.As(err, &pf) || pf.Case != pluginabi.ProcessFaultCancelled {
		t.Fatalf("cancel = %v", err)
	}
	_, err = h.RunProcess(ctx, pluginabi.Command{Line: "true", Directory: filepath.Dir(f.dir)}, pluginabi.RunOptions{})
	if !errors.As(err, &pf) || pf.Case != pluginabi.ProcessFaultSpawnFailure || !strings.Contains(pf.SpawnFailure, "outside the allowed roots") {
		t.Fatalf("outside dir = %v", err)
	}
}

func TestPluginHostNeedsAnInvocation(t *testing.T) {
	f := setup(t, nil)
	h := PluginHost{Ops: f.ops}
	_, err := h.ReadFile(context.Background(), "a.txt", pluginabi.ReadOptions{})
	var ff pluginabi.FileFault
	if err == nil || errors.As(err, &ff) || !strings.Contains(err.Error(), "no invocation in its context") {
		t.Fatalf("err = %v; want a host error", err)
	}
}

// TestJournalFailureIsAHostError: when the intent cannot be recorded the
// guest is not handed a fault it could ignore; the host call fails.
func TestJournalFailureIsAHostError(t *testing.T) {
	f := setup(t, func(r effectRecord) error {
		return errors.New("disk full")
	})
	h := PluginHost{Ops: f.ops}
	_, err := h.WriteFile(pluginCtx(f), "x.txt", "x", pluginabi.WriteOptions{})
	var ff pluginabi.FileFault
	if err == nil || errors.As(err, &ff) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("err = %v", err)
	}
	_, err = h.RunProcess(pluginCtx(f), pluginabi.Command{Line: "touch ran"}, pluginabi.RunOptions{})
	var pf pluginabi.ProcessFault
	if err == nil || errors.As(err, &pf) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "ran")); !os.IsNotExist(err) {
		t.Fatal("the command ran")
	}
}
