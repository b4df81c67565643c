package runcatalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/catalog"
)

func parsed(t *testing.T, b []byte) *catalog.Document {
	t.Helper()
	d, err := catalog.Parse("test", b, false, catalog.EvidenceRefreshed)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCacheCommit: commits are atomic files named by ticket; the largest
// ticket is loaded, a smaller ticket is refused as stale, older files are
// pruned, and tickets always exceed the cached ones.
func TestCacheCommit(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c := NewCache(t.TempDir(), "https://u:tok3n@catalog.example/c.json", func() time.Time { return now })
	raw := doc(t, "2026-12-01", 1)
	if err := c.Commit(100, parsed(t, raw), raw); err != nil {
		t.Fatal(err)
	}
	raw2 := doc(t, "2026-12-01", 2)
	if err := c.Commit(200, parsed(t, raw2), raw2); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(150, parsed(t, raw), raw); !errors.Is(err, catalog.ErrStale) {
		t.Fatalf("smaller ticket: %v", err)
	}
	e, err := c.Load()
	if err != nil || e.Ticket != 200 || e.Generated != "2026-12-01" || !e.Fetched.Equal(now) || e.URL != "https://[redacted]@catalog.example/c.json" {
		t.Fatalf("loaded %+v, %v", e, err)
	}
	if _, err := catalog.Parse("cached", e.Document, false, catalog.EvidenceRefreshed); err != nil {
		t.Errorf("cached document: %v", err)
	}
	des, _ := os.ReadDir(c.Dir())
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	if len(names) != 1 || names[0] != entryName(200) {
		t.Errorf("cache holds %v; want only %s", names, entryName(200))
	}
	b, _ := os.ReadFile(filepath.Join(c.Dir(), entryName(200)))
	if strings.Contains(string(b), "tok3n") {
		t.Error("the cache file holds the URL's password")
	}
	tk, err := c.Ticket()
	if err != nil || tk < uint64(now.UnixNano()) {
		t.Errorf("ticket %d, %v: want at least the clock", tk, err)
	}
	now = time.Unix(0, 50) // the clock moved back
	if tk, _ := c.Ticket(); tk != 201 {
		t.Errorf("ticket %d after the clock moved back; want 201, above the cached 200", tk)
	}
}

func TestDue(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		fetched time.Duration // before now; 0: no entry
		attempt time.Duration // before now; 0: no attempt
		due     bool
	}{
		{name: "nothing cached", due: true},
		{name: "fresh", fetched: time.Hour},
		{name: "a day old", fetched: Interval, due: true},
		{name: "dated in the future", fetched: -time.Hour, due: true},
		{name: "old, attempted just now", fetched: 2 * Interval, attempt: time.Minute},
		{name: "old, attempted an hour ago", fetched: 2 * Interval, attempt: RetryAfter, due: true},
		{name: "nothing cached, attempted just now", attempt: time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := now
			c := NewCache(t.TempDir(), "https://catalog.example/c.json", func() time.Time { return clock })
			if tt.attempt != 0 {
				clock = now.Add(-tt.attempt)
				if err := c.MarkAttempt(); err != nil {
					t.Fatal(err)
				}
				clock = now
			}
			var e *Entry
			if tt.fetched != 0 {
				e = &Entry{Fetched: now.Add(-tt.fetched)}
			}
			if got := c.Due(e); got != tt.due {
				t.Errorf("Due = %v, want %v", got, tt.due)
			}
		})
	}
}
