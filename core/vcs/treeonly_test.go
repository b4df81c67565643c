package vcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTreeAndDiffTrees: Tree records the worktree without a snapshot (no
// commit, no ref: the session's log is unchanged), DiffTrees compares two
// such records, and a bound below the last scan's file count refuses
// without scanning.
func TestTreeAndDiffTrees(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	write(t, wt, map[string]string{"a.txt": "one\n", "dir/b.txt": "b\n"})
	s := open(t, wt, Options{})
	before, err := s.Tree(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	write(t, wt, map[string]string{"a.txt": "one\nmore\n", "c.txt": "new\n"})
	if err := os.Remove(filepath.Join(wt, "dir", "b.txt")); err != nil {
		t.Fatal(err)
	}
	after, err := s.Tree(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.DiffTrees(before, after)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, string(c.Kind)+" "+c.Path)
	}
	if strings.Join(got, ", ") != "modified a.txt, added c.txt, deleted dir/b.txt" || !strings.Contains(cs[0].Patch, "+more") {
		t.Fatalf("changes %v (%+v)", got, cs)
	}
	if log, err := s.Log("01J000000000000000000000AA"); err != nil || len(log) != 0 {
		t.Fatalf("Tree made snapshots: %v, %v", log, err)
	}
	if _, err := s.Tree(ctx, 1); !errors.Is(err, ErrTooManyFiles) || !strings.Contains(err.Error(), "2, more than 1") {
		t.Fatalf("Tree over its bound: %v", err)
	}
}
