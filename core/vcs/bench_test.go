package vcs

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchTree writes n files of 2 KiB in 20 directories.
func benchTree(b *testing.B, n int) string {
	wt := b.TempDir()
	body := make([]byte, 2048)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	for i := range n {
		d := filepath.Join(wt, fmt.Sprintf("dir%02d", i%20))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d.txt", i)), append([]byte(fmt.Sprint(i)), body...), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return wt
}

// BenchmarkSnapshotFirst: the first snapshot of a 10,000-file project
// (every file hashed and stored).
func BenchmarkSnapshotFirst(b *testing.B) {
	wt := benchTree(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, err := Open(filepath.Join(b.TempDir(), "store"), wt, Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Snapshot(context.Background(), SnapshotRequest{Session: "S", Cause: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

// warmStore returns a store of a 10,000-file tree with one snapshot whose
// stat cache vouches for every file (as after a turn's wait).
func warmStore(b *testing.B) (*Store, string) {
	wt := benchTree(b, 10000)
	s, err := Open(filepath.Join(b.TempDir(), "store"), wt, Options{NoSync: os.Getenv("VCS_BENCH_NOSYNC") != ""})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Snapshot(ctx, SnapshotRequest{Session: "S", Cause: "first"}); err != nil {
		b.Fatal(err)
	}
	// Files changed in the same second as a snapshot are hashed again (a
	// racily clean stat); age them as a turn's wait would.
	old := time.Now().Add(-time.Hour)
	if err := filepath.WalkDir(wt, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := s.Snapshot(ctx, SnapshotRequest{Session: "S", Cause: "aged"}); err != nil {
		b.Fatal(err)
	}
	return s, wt
}

// change rewrites ten files of the bench tree.
func change(b *testing.B, wt string, i int) {
	for k := range 10 {
		p := filepath.Join(wt, fmt.Sprintf("dir%02d", k), fmt.Sprintf("f%04d.txt", k))
		if err := os.WriteFile(p, []byte(fmt.Sprint("change ", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotTenChanges: a snapshot after a turn that changed ten
// files of 10,000 (the stat cache skips the rest), synced as in
// production: the per-turn cost (goal ≤ 50 ms).
func BenchmarkSnapshotTenChanges(b *testing.B) {
	s, wt := warmStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		change(b, wt, i)
		b.StartTimer()
		snap, err := s.Snapshot(ctx, SnapshotRequest{Session: "S", Cause: "turn"})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 && snap.Hashed > 10 {
			b.Logf("hashed %d files for ten changes", snap.Hashed)
		}
	}
}

// BenchmarkUndoTenFiles: planning and applying the undo of a turn that
// changed ten files of 10,000, synced as in production (goal ≤ 20 ms).
func BenchmarkUndoTenFiles(b *testing.B) {
	s, wt := warmStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		change(b, wt, i)
		if _, err := s.Snapshot(ctx, SnapshotRequest{Session: "S", Cause: "turn end"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		op, err := s.PlanUndo("S", "undo")
		if err != nil {
			b.Fatal(err)
		}
		res, err := s.Apply(ctx, op)
		if err != nil || len(res.Changes) != 10 {
			b.Fatalf("undo changed %d files, %v", len(res.Changes), err)
		}
	}
}

// BenchmarkScan: the stat scan alone of a 10,000-file worktree that
// matches the stat cache — the floor of an incremental snapshot and of
// an undo's check that the worktree is as the last snapshot left it.
func BenchmarkScan(b *testing.B) {
	s, _ := warmStore(b)
	c, err := s.loadCache()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := s.scan(context.Background(), c, false)
		if err != nil || len(res.entries) != 10000 || res.hashed != 0 {
			b.Fatalf("scan: %v", err)
		}
	}
}

// BenchmarkCommandTree: recording a 10,000-file worktree around one
// command that changed one file (Store.Tree, as each bash call does in
// worktrees up to the runtime's bound), synced as in production.
func BenchmarkCommandTree(b *testing.B) {
	s, wt := warmStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if err := os.WriteFile(filepath.Join(wt, "dir00", "f0000.txt"), []byte(fmt.Sprint("changed ", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.Tree(ctx, 0); err != nil {
			b.Fatal(err)
		}
	}
}
