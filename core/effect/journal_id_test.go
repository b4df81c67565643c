package effect

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/sessionfmt"
)

// begin starts and completes an effect and returns its generated id.
func begin(t *testing.T, j *Journal) string {
	t.Helper()
	e, err := j.Begin(context.Background(), Intent{Kind: "fs.read"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Complete(Outcome{}); err != nil {
		t.Fatal(err)
	}
	return e.Intent().ID
}

// TestEffectIDsWithFixedClock: effect ids are ULIDs carrying the injected
// clock's time, and strictly increasing even when the clock stands still,
// across journals and across goroutines.
func TestEffectIDsWithFixedClock(t *testing.T) {
	now := time.Now()
	opts := Options{Now: func() time.Time { return now }}
	a, _, err := Open(context.Background(), &MemStore{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Open(context.Background(), &MemStore{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	prev := ""
	for i := range 300 {
		j := a
		if i%3 == 0 {
			j = b
		}
		id := begin(t, j)
		u, err := sessionfmt.ParseID(id)
		if err != nil {
			t.Fatalf("effect id %q: %v", id, err)
		}
		if u.Time().UnixMilli() != now.UnixMilli() {
			t.Fatalf("effect id %s has time %v, want the clock's %v", id, u.Time(), now)
		}
		if id <= prev {
			t.Fatalf("effect id %s is not after %s", id, prev)
		}
		prev = id
	}

	const goroutines, each = 8, 100
	got := make([][]string, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for range each {
				e, err := a.Begin(context.Background(), Intent{Kind: "fs.read"})
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := e.Complete(Outcome{}); err != nil {
					t.Error(err)
					return
				}
				got[g] = append(got[g], e.Intent().ID)
			}
		})
	}
	wg.Wait()
	seen := make(map[string]bool)
	for g, ids := range got {
		for i, id := range ids {
			if seen[id] || id <= prev && i == 0 || i > 0 && id <= ids[i-1] {
				t.Fatalf("goroutine %d: effect id %d %s repeats or does not increase", g, i, id)
			}
			seen[id] = true
		}
	}
	if len(seen) != goroutines*each {
		t.Fatalf("%d unique effect ids, want %d", len(seen), goroutines*each)
	}
}
