package hostfs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRead reads a 200-line file through the confined primitive: the
// baseline for the per-tool overhead of the read tool plugin.
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte(strings.Repeat("func f() { return 42 }\n", 200)), 0o644); err != nil {
		b.Fatal(err)
	}
	h, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	cwd := h.Roots()[0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Read(context.Background(), cwd, "f.go", ReadOptions{Offset: 10, Limit: 50}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEdit applies one exact replacement (atomic replace with fsync).
func BenchmarkEdit(b *testing.B) {
	dir := b.TempDir()
	h, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	cwd := h.Roots()[0]
	if _, err := h.Write(context.Background(), cwd, "f.txt", []byte("alpha\nbeta\n")); err != nil {
		b.Fatal(err)
	}
	words := [2]string{"beta", "gamma"}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h.Edit(context.Background(), cwd, "f.txt", words[i%2], words[(i+1)%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
