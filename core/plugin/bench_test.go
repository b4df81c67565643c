package plugin

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/hostops"
)

// BenchmarkToolOverhead compares a tool call through the wasm plugin with
// the same primitive called directly, journaled (hostops) and bare
// (hostfs/hostproc via hostops' FS). The ratio plugin/journaled is the
// plugin's per-call overhead.
func BenchmarkToolOverhead(b *testing.B) {
	g := shared(b)
	w := newBench(b, g, Effects{})
	w.write(b, "f.go", numbered(200))
	ctx := context.Background()
	inv := hostops.Invocation{Cwd: w.root, CallID: "call_bench", Generation: g.ID()}
	cases := []struct {
		name string
		tool string
		args string
		ops  func() error
	}{
		{name: "read-200-lines", tool: "read", args: `{"path":"f.go"}`, ops: func() error {
			_, _, err := w.b.ops.Read(ctx, inv, hostops.ReadArgs{Path: "f.go"})
			return err
		}},
		{name: "ls", tool: "ls", args: `{}`, ops: func() error {
			_, _, err := w.b.ops.Ls(ctx, inv, hostops.LsArgs{Path: "."})
			return err
		}},
		{name: "bash-true", tool: "bash", args: `{"command":"true"}`, ops: func() error {
			_, _, err := w.b.ops.Bash(ctx, inv, hostops.BashArgs{Command: "true"})
			return err
		}},
	}
	for _, c := range cases {
		t := w.tools[c.tool]
		call := &agent.Call{ID: "call_bench", Name: c.tool, Arguments: json.RawMessage(c.args), Cwd: w.root}
		b.Run(c.name+"/plugin", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res, err := t.Execute(ctx, call); err != nil || res.IsError {
					b.Fatal(res, err)
				}
			}
		})
		b.Run(c.name+"/direct", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.ops(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("read-200-lines/hostfs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := w.b.ops.FS.Read(ctx, w.root, "f.go", hostfsReadOptions()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLoad measures publishing the tools plugin and serving its
// first call: cold (empty cache directory: registration and compilation)
// and warm (cached registration and machine code).
func BenchmarkLoad(b *testing.B) {
	art := artifact(b, "tools")
	ctx := context.Background()
	first := func(b *testing.B, dir string) {
		h, err := Open(ctx, Config{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		g, err := h.Load(ctx, []Artifact{art})
		if err != nil {
			b.Fatal(err)
		}
		w := newBench(b, g, Effects{})
		if res, _, err := w.call(ctx, b, "ls", `{}`); err != nil || res.IsError {
			b.Fatal(res, err)
		}
		w.b.Close()
		g.Close()
		h.Close(ctx)
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			first(b, b.TempDir())
		}
	})
	b.Run("warm", func(b *testing.B) {
		dir := filepath.Join(b.TempDir(), "cache")
		first(b, dir)
		for b.Loop() {
			first(b, dir)
		}
	})
}

func hostfsReadOptions() hostfs.ReadOptions { return hostfs.ReadOptions{} }
