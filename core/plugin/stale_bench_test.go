package plugin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostfs"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/session"
	"github.com/smith-agent/smith/sessionfmt"
)

// BenchmarkBindResumed measures Bind over a session's journal: empty, and
// resumed with files effects to recall (each file read, a third of them
// edited; a read records its 200-line window). The difference is the cost
// of seeding the stale-edit memory at every resumed eval.
func BenchmarkBindResumed(b *testing.B) {
	g := shared(b)
	ctx := context.Background()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	journal := func(b *testing.B, files int) *effect.Journal {
		dir, err := session.OpenDir(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		f, info, err := dir.Create("bench")
		if err != nil {
			b.Fatal(err)
		}
		store, err := session.New(f)
		if err != nil {
			b.Fatal(err)
		}
		if err := store.Record(ctx, model.UserText("go")); err != nil {
			b.Fatal(err)
		}
		j, _, err := effect.Open(ctx, store, effect.Options{})
		if err != nil {
			b.Fatal(err)
		}
		fs, err := hostfs.New(root)
		if err != nil {
			b.Fatal(err)
		}
		ops := &hostops.Ops{FS: fs, Journal: j}
		inv := hostops.Invocation{Cwd: root}
		for i := range files {
			name := fmt.Sprintf("f%03d.go", i)
			if err := os.WriteFile(filepath.Join(root, name), []byte(numbered(200)), 0o644); err != nil {
				b.Fatal(err)
			}
			if _, _, err := ops.Read(ctx, inv, hostops.ReadArgs{Path: name}); err != nil {
				b.Fatal(err)
			}
			if i%3 == 0 {
				if _, _, err := ops.Edit(ctx, inv, name, "line 7\n", "line seven\n"); err != nil {
					b.Fatal(err)
				}
			}
		}
		fs.Close()
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		// A new process: the session reopened, its journal recovered.
		f, err = sessionfmt.Open(info.Path, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		if store, err = session.New(f); err != nil {
			b.Fatal(err)
		}
		if j, _, err = effect.Open(ctx, store, effect.Options{}); err != nil {
			b.Fatal(err)
		}
		return j
	}
	for _, files := range []int{0, 30, 300} {
		b.Run(fmt.Sprintf("files-%d", files), func(b *testing.B) {
			j := journal(b, files)
			b.ReportAllocs()
			for b.Loop() {
				bd, err := g.Bind(Effects{Journal: j, Roots: []string{root}})
				if err != nil {
					b.Fatal(err)
				}
				bd.Close()
			}
		})
	}
}
