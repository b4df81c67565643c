package vcs

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestSnapshotReuseMakesNoCommitWhenNothingChanged(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	write(t, wt, map[string]string{"a.txt": "one"})
	s := open(t, wt, Options{})
	first, err := s.Snapshot(ctx, SnapshotRequest{Session: "s1", Cause: "turn 1 start", Reuse: true})
	if err != nil || first.Reused {
		t.Fatalf("first snapshot: %+v, %v; want a new commit", first, err)
	}
	again, err := s.Snapshot(ctx, SnapshotRequest{Session: "s1", Cause: "turn 1 end", Reuse: true})
	if err != nil || !again.Reused || again.ID != first.ID || again.Seq != first.Seq {
		t.Fatalf("unchanged snapshot: %+v, %v; want the head %s (seq %d) reused", again, err, first.ID, first.Seq)
	}
	write(t, wt, map[string]string{"a.txt": "two"})
	changed, err := s.Snapshot(ctx, SnapshotRequest{Session: "s1", Cause: "turn 2 end", Reuse: true})
	if err != nil || changed.Reused || changed.Parent != first.ID || changed.Seq != 2 {
		t.Fatalf("changed snapshot: %+v, %v; want seq 2 on %s", changed, err, first.ID)
	}
	plain, err := s.Snapshot(ctx, SnapshotRequest{Session: "s1", Cause: "no reuse"})
	if err != nil || plain.Reused || plain.Seq != 3 {
		t.Fatalf("snapshot without Reuse: %+v, %v; want a new commit (seq 3)", plain, err)
	}
}

func TestSnapshotRefusesTooManyFiles(t *testing.T) {
	wt := t.TempDir()
	spec := map[string]string{}
	for i := range 6 {
		spec[fmt.Sprintf("f%d", i)] = "x"
	}
	write(t, wt, spec)
	s := open(t, wt, Options{MaxFiles: 5})
	_, err := s.Snapshot(context.Background(), SnapshotRequest{Session: "s1", Cause: "turn 1 start"})
	if !errors.Is(err, ErrTooManyFiles) {
		t.Fatalf("err = %v, want ErrTooManyFiles", err)
	}
	if head, _ := s.Head("s1"); !head.IsZero() {
		t.Fatalf("head = %s after a refused snapshot, want none", head)
	}
}

func TestAdoptSeedsOnlyAnEmptyHead(t *testing.T) {
	ctx := context.Background()
	wt := t.TempDir()
	write(t, wt, map[string]string{"a.txt": "one"})
	s := open(t, wt, Options{})
	a, err := s.Snapshot(ctx, SnapshotRequest{Session: "parent", Cause: "turn 1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Adopt("fork", a.ID); err != nil {
		t.Fatal(err)
	}
	if head, _ := s.Head("fork"); head != a.ID {
		t.Fatalf("fork head = %s, want %s", head, a.ID)
	}
	write(t, wt, map[string]string{"a.txt": "two"})
	b, err := s.Snapshot(ctx, SnapshotRequest{Session: "fork", Cause: "turn 2"})
	if err != nil || b.Parent != a.ID {
		t.Fatalf("fork snapshot %+v, %v; want parent %s", b, err, a.ID)
	}
	if err := s.Adopt("fork", a.ID); err != nil {
		t.Fatal(err)
	}
	if head, _ := s.Head("fork"); head != b.ID {
		t.Fatalf("Adopt moved an existing head to %s, want it left at %s", head, b.ID)
	}
	if err := s.Adopt("other", ID{1}); err == nil {
		t.Fatal("Adopt of a missing commit succeeded")
	}
}
