package runcatalog

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkOpen measures what refresh adds to startup: opening the
// catalog with refresh off, and with a cached refresh of 100 models to
// read, validate and layer (no network either way).
func BenchmarkOpen(b *testing.B) {
	ns := make([]int, 100)
	for i := range ns {
		ns[i] = i + 1
	}
	for _, withCache := range []bool{false, true} {
		b.Run(fmt.Sprintf("cached=%v", withCache), func(b *testing.B) {
			data, url := b.TempDir(), ""
			if withCache {
				srv := newServer(b)
				srv.queue("c", doc(b, "2026-12-01", ns...), false)
				url = srv.url("c")
				c, err := Open(Options{URL: url, DataDir: data})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.Refresh(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				c, err := Open(Options{URL: url, DataDir: data})
				if err != nil || (withCache && c.entry == nil) {
					b.Fatal("not opened from the cache", err)
				}
			}
		})
	}
}
