package runcatalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/catalog"
)

func open(t *testing.T, dataDir, url string, layers ...catalog.Layer) (*Catalog, []string) {
	t.Helper()
	var warnings []string
	c, err := Open(Options{URL: url, DataDir: dataDir, Layers: layers, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	return c, warnings
}

func lookup(t *testing.T, s *catalog.Snapshot, provider, id string) (catalog.Model, bool) {
	t.Helper()
	m, err := s.Lookup(provider, id)
	return m, err == nil && m.Evidence != catalog.EvidenceInferred
}

// TestRefreshAppliedAndCached: a refresh adds its models below the bundle,
// reports what changed, and is cached; the next start uses the cache
// without any request and starts no refresh while it is fresh.
func TestRefreshAppliedAndCached(t *testing.T) {
	srv := newServer(t)
	srv.queue("c", doc(t, "2026-12-01", 1), false)
	data := t.TempDir()
	c, _ := open(t, data, srv.url("c"))
	if _, ok := lookup(t, c.Snapshot(), "acme", "fresh-1"); ok {
		t.Fatal("refreshed model known before any refresh")
	}
	r, err := c.Refresh(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Added, []string{"acme/fresh-1"}) || len(r.Updated) != 0 || r.Generated != "2026-12-01" || r.Models != 2 {
		t.Errorf("report %+v", r)
	}
	kept := false
	for _, k := range r.Kept {
		kept = kept || (k.Ref == "anthropic/claude-sonnet-4-5-20250929" && k.Field == "context" && k.KeptFrom == catalog.EvidenceBundled)
	}
	if !kept {
		t.Errorf("the reviewed figure kept over the refresh is not reported: %+v", r.Kept)
	}
	n := srv.requests.Load()

	next, warnings := open(t, data, srv.url("c"))
	m, ok := lookup(t, next.Snapshot(), "acme", "fresh-1")
	if !ok || m.Evidence != catalog.EvidenceRefreshed || len(warnings) > 0 {
		t.Fatalf("next start: %+v %v, warnings %v", m, ok, warnings)
	}
	want := "refreshed " + time.Now().UTC().Format(time.DateOnly) + " from " + srv.url("c")
	if got := next.Provenance(m); got != want {
		t.Errorf("provenance %q, want %q", got, want)
	}
	sonnet, _ := lookup(t, next.Snapshot(), "anthropic", "claude-sonnet-4-5-20250929")
	if sonnet.Context == 123456 || next.Provenance(sonnet) != "bundled" {
		t.Errorf("refresh replaced a reviewed entry: %+v", sonnet)
	}
	bg := next.Start(context.Background())
	<-bg.Done()
	notice := bg.Stop()
	if srv.requests.Load() != n || notice != "" {
		t.Errorf("the next start made %d requests (notice %q); want none while the cache is fresh", srv.requests.Load()-n, notice)
	}
}

// TestConfigBeatsRefreshed: a model the user describes keeps the user's
// figures; the refresh's are reported as kept conflicts.
func TestConfigBeatsRefreshed(t *testing.T) {
	srv := newServer(t)
	srv.queue("c", doc(t, "2026-12-01", 1), false)
	mine := catalog.Model{Provider: "acme", ID: "fresh-1", Name: "Mine", Context: 2048, MaxOutput: 512, Input: []catalog.Modality{catalog.Text},
		Thinking: []catalog.Level{catalog.LevelOff}, Cache: catalog.CacheNone, Provenance: catalog.Provenance{Source: "smith.kdl:3:1", Date: "2026-11-30"}}
	cfg := catalog.Layer{Evidence: catalog.EvidenceConfig, Origin: catalog.FileOrigin{Source: "smith.kdl"}, Models: []catalog.Model{mine}}
	data := t.TempDir()
	c, _ := open(t, data, srv.url("c"), cfg)
	r, err := c.Refresh(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, k := range r.Kept {
		found = found || (k.Ref == "acme/fresh-1" && k.Field == "context" && k.KeptFrom == catalog.EvidenceConfig && k.Kept == "2048" && k.Ignored == "8192")
	}
	if !found || len(r.Added) != 0 {
		t.Errorf("report %+v: want the configured context kept and nothing added", r)
	}
	next, _ := open(t, data, srv.url("c"), cfg)
	m, _ := lookup(t, next.Snapshot(), "acme", "fresh-1")
	if m.Context != 2048 || next.Provenance(m) != "config smith.kdl:3:1" {
		t.Errorf("configured model overwritten: %+v (%s)", m, next.Provenance(m))
	}
}

// TestInvalidDocumentKeepsCache: an invalid document is rejected with a
// message naming the URL and the problem, and the cached catalog stays.
func TestInvalidDocumentKeepsCache(t *testing.T) {
	srv := newServer(t)
	srv.queue("c", doc(t, "2026-12-01", 1), false)
	srv.queue("c", []byte(`{"format":1,"generated":"2026-12-02"}`), false)
	data := t.TempDir()
	c, _ := open(t, data, srv.url("c"))
	if _, err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := c.Refresh(context.Background())
	want := "catalog: refresh from " + srv.url("c") + " rejected, keeping the current catalog: catalog: " + srv.url("c") + ": provenance.source is empty"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("invalid document: %v\nwant %q", err, want)
	}
	next, _ := open(t, data, srv.url("c"))
	if _, ok := lookup(t, next.Snapshot(), "acme", "fresh-1"); !ok {
		t.Error("the invalid document replaced the cached catalog")
	}
}

// TestSlowServerDoesNotBlock: a due background refresh does not hold up
// the run: Stop returns while the server still holds the request, says
// nothing, and caches nothing.
func TestSlowServerDoesNotBlock(t *testing.T) {
	srv := newServer(t)
	release, arrived := srv.queue("c", doc(t, "2026-12-01", 1), true)
	defer release()
	data := t.TempDir()
	c, _ := open(t, data, srv.url("c"))
	bg := c.Start(context.Background())
	<-arrived
	if notice := bg.Stop(); notice != "" { // returns while the server holds the request
		t.Errorf("an abandoned refresh printed %q", notice)
	}
	<-bg.Done() // the abandoned refresh ends (cancelled) without the server answering
	if e, err := NewCache(data, srv.url("c"), nil).Load(); e != nil || err != nil {
		t.Errorf("an abandoned refresh was cached: %+v, %v", e, err)
	}
}

// TestBackgroundFailureNotice: a background refresh that fails before the
// command ends leaves one line naming the URL and the reason, and the
// next attempt waits RetryAfter.
func TestBackgroundFailureNotice(t *testing.T) {
	srv := newServer(t)
	data := t.TempDir()
	c, _ := open(t, data, srv.url("missing"))
	bg := c.Start(context.Background())
	<-bg.Done()
	notice := bg.Stop()
	want := "catalog: refresh from " + srv.url("missing") + ` failed, keeping the current catalog: the server answered "404 Not Found", not 200 OK with a catalog document; check the URL`
	if notice != want {
		t.Errorf("notice %q\nwant %q", notice, want)
	}
	n := srv.requests.Load()
	again, _ := open(t, data, srv.url("missing"))
	bg = again.Start(context.Background())
	<-bg.Done()
	if srv.requests.Load() != n {
		t.Error("a failed refresh was retried at once")
	}
}

// TestStaleRefreshAcrossProcesses: two catalogs sharing the cache, as two
// smith processes do: A starts first and finishes last, after B has
// cached; A is discarded as stale and the cache keeps B's document.
func TestStaleRefreshAcrossProcesses(t *testing.T) {
	srv := newServer(t)
	releaseA, arrivedA := srv.queue("c", doc(t, "2026-12-01", 1), true)
	srv.queue("c", doc(t, "2026-12-01", 2), false)
	data := t.TempDir()
	a, _ := open(t, data, srv.url("c"))
	b, _ := open(t, data, srv.url("c"))
	errA := make(chan error, 1)
	go func() {
		_, err := a.Refresh(context.Background())
		errA <- err
	}()
	<-arrivedA
	if _, err := b.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	releaseA()
	err := <-errA
	if !errors.Is(err, catalog.ErrStale) || !strings.Contains(err.Error(), "which started later (perhaps in another smith), had been cached") {
		t.Fatalf("late refresh: %v", err)
	}
	next, _ := open(t, data, srv.url("c"))
	_, has1 := lookup(t, next.Snapshot(), "acme", "fresh-1")
	_, has2 := lookup(t, next.Snapshot(), "acme", "fresh-2")
	if has1 || !has2 {
		t.Errorf("cache holds fresh-1 %v, fresh-2 %v; want only the newer refresh's fresh-2", has1, has2)
	}
}

// TestOlderDocumentIsStale: a document older than the cached one is
// refused, whether the process restored the newer one or another process
// cached it.
func TestOlderDocumentIsStale(t *testing.T) {
	srv := newServer(t)
	srv.queue("c", doc(t, "2026-12-05", 1), false)
	srv.queue("c", doc(t, "2026-12-01", 2), false)
	data := t.TempDir()
	a, _ := open(t, data, srv.url("c"))
	b, _ := open(t, data, srv.url("c"))
	if _, err := a.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := b.Refresh(context.Background())
	if !errors.Is(err, catalog.ErrStale) || !strings.Contains(err.Error(), "is dated 2026-12-01, older than the cached 2026-12-05") {
		t.Fatalf("older document: %v", err)
	}
}

// TestBrokenCache: an unreadable cache file is ignored with a notice
// naming it, the bundled catalog is used, and a refresh is due.
func TestBrokenCache(t *testing.T) {
	data := t.TempDir()
	cache := NewCache(data, "https://catalog.example/c.json", nil)
	if err := os.MkdirAll(cache.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(cache.Dir(), entryName(7))
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, warnings := open(t, data, "https://catalog.example/c.json")
	if len(warnings) != 1 || !strings.Contains(warnings[0], "ignored the cached catalog "+path) || !strings.Contains(warnings[0], "run smith models --refresh") {
		t.Fatalf("warnings %q", warnings)
	}
	bundled, _ := catalog.Bundled()
	if len(c.Snapshot().Models()) != len(bundled.Models()) || !cache.Due(nil) {
		t.Error("a broken cache changed the catalog or is not due for replacement")
	}
}

func TestOffReadsNothing(t *testing.T) {
	c, _ := open(t, filepath.Join(t.TempDir(), "absent"), "")
	if c.Enabled() {
		t.Fatal("enabled without a URL")
	}
	if _, err := c.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), `set catalog-refresh "https://…" in smith.kdl`) {
		t.Errorf("refresh without a URL: %v", err)
	}
	bg := c.Start(context.Background())
	<-bg.Done()
	if notice := bg.Stop(); notice != "" {
		t.Errorf("Stop with refresh off = %q", notice)
	}
}
