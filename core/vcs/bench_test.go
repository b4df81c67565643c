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

// BenchmarkSnapshotFirst: the first snapshot of a 2,000-file project
// (every file hashed and stored).
func BenchmarkSnapshotFirst(b *testing.B) {
	wt := benchTree(b, 2000)
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

// BenchmarkSnapshotOneChange: a snapshot after a turn that changed one
// file of 2,000 (the stat cache skips the rest): the per-turn cost.
func BenchmarkSnapshotOneChange(b *testing.B) {
	wt := benchTree(b, 2000)
	s, err := Open(filepath.Join(b.TempDir(), "store"), wt, Options{NoSync: true})
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
	target := filepath.Join(wt, "dir00", "f0000.txt")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := os.WriteFile(target, []byte(fmt.Sprint("change ", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		snap, err := s.Snapshot(ctx, SnapshotRequest{Session: "S", Cause: "turn"})
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 && snap.Hashed > 2 {
			b.Logf("hashed %d files for one change", snap.Hashed)
		}
	}
}
