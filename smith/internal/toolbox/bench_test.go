package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/agent"
	"github.com/smith-agent/smith/core/effect"
)

// BenchmarkPluginsWarm splits a warm eval's tool cost: opening the tools
// plugin (artifact verification, host, cached registration, bind), its
// first call (waiting for the background Prepare: loading the compiled
// code from the cache, instantiating, the guest runtime's initialisation)
// and a second call on the pooled instance.
func BenchmarkPluginsWarm(b *testing.B) {
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	ctx := context.Background()
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	call := func(tools []agent.Tool) {
		for _, tool := range tools {
			if tool.Definition().Name == "read" {
				if _, err := tool.Execute(ctx, &agent.Call{ID: "c", Name: "read", Arguments: json.RawMessage(`{"path":"a.txt"}`), Cwd: root}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	once := func() (open, first, second time.Duration) {
		j, _, err := effect.Open(ctx, &effect.MemStore{}, effect.Options{})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		set, err := Plugins(ctx)
		if err != nil {
			b.Fatal(err)
		}
		tools, err := set.Bind(j, root, nil)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		call(tools)
		t2 := time.Now()
		call(tools)
		t3 := time.Now()
		if err := set.Close(ctx); err != nil {
			b.Fatal(err)
		}
		return t1.Sub(t0), t2.Sub(t1), t3.Sub(t2)
	}
	once() // fill the cache
	var open, first, second time.Duration
	b.ResetTimer()
	for range b.N {
		o, f, s := once()
		open, first, second = open+o, first+f, second+s
	}
	n := float64(b.N)
	b.ReportMetric(float64(open.Microseconds())/1000/n, "open-ms")
	b.ReportMetric(float64(first.Microseconds())/1000/n, "first-call-ms")
	b.ReportMetric(float64(second.Microseconds())/1000/n, "next-call-ms")
}
