//go:build unix

package hostfs

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesAreRefused: a FIFO is never opened for a blocking read:
// read and edit refuse it at once, saying what it is, and grep and a
// .gitignore that is a FIFO are passed over instead of hanging the walk.
func TestSpecialFilesAreRefused(t *testing.T) {
	root := writeTree(t, map[string]string{"sub/f.txt": "needle\n"})
	for _, p := range []string{"pipe", "sub/.gitignore"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Fatalf("mkfifo: %v", err)
		}
	}
	h := newFS(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := h.Read(ctx, root, "pipe", ReadOptions{}); err == nil || !strings.Contains(err.Error(), "is a named pipe (FIFO), not a regular file") {
			t.Errorf("read of a FIFO: %v", err)
		}
		if _, err := h.Edit(ctx, root, "pipe", "a", "b"); err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("edit of a FIFO: %v", err)
		}
		g, err := h.Grep(ctx, root, "needle", GrepOptions{})
		if err != nil || len(g.Matches) != 1 {
			t.Errorf("grep past FIFOs: %+v, %v", g, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("an operation on a FIFO hung")
	}
}
