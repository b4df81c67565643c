package runcatalog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/core/catalog"
)

// FuzzCacheLoad: whatever a cache file holds, opening the catalog never
// panics, and either restores a valid document (the refreshed models are
// in the snapshot) or ignores the file with one notice.
func FuzzCacheLoad(f *testing.F) {
	f.Add([]byte(`{"format":1,"url":"u","fetched":"2026-12-01T00:00:00Z","ticket":7,"generated":"2026-12-01","document":{}}`))
	f.Add([]byte(`{"format":1,"ticket":8}`))
	f.Add([]byte(`[]`))
	const url = "https://catalog.example/c.json"
	f.Fuzz(func(t *testing.T, b []byte) {
		data := t.TempDir()
		c := NewCache(data, url, nil)
		if err := os.MkdirAll(c.Dir(), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(c.Dir(), entryName(7)), b, 0o600); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		cat, err := Open(Options{URL: url, DataDir: data, Warn: func(s string) { warnings = append(warnings, s) }})
		if err != nil {
			t.Fatal(err)
		}
		refreshed := 0
		for _, m := range cat.Snapshot().Models() {
			if m.Evidence == catalog.EvidenceRefreshed {
				refreshed++
			}
		}
		restored := cat.entry != nil
		if restored == (len(warnings) > 0) || (!restored && refreshed > 0) {
			t.Fatalf("restored %v with %d refreshed models, warnings %q", restored, refreshed, warnings)
		}
	})
}
