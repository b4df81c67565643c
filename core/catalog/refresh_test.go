package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// server serves catalog documents on loopback; a request to /NAME answers
// with docs[NAME] once release[NAME] is closed, and signals started[NAME]
// when it arrives.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	docs    map[string][]byte
	release map[string]chan struct{}
	started map[string]chan struct{}
}

func newServer(t *testing.T) *server {
	s := &server{docs: map[string][]byte{}, release: map[string]chan struct{}{}, started: map[string]chan struct{}{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		s.mu.Lock()
		doc, rel, st := s.docs[name], s.release[name], s.started[name]
		s.mu.Unlock()
		close(st)
		select {
		case <-rel:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write(doc)
	}))
	t.Cleanup(s.Close)
	return s
}

// add registers a document that is served when the returned func is called.
func (s *server) add(name string, doc []byte) (release func(), started <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[name] = doc
	rel, st := make(chan struct{}), make(chan struct{})
	s.release[name], s.started[name] = rel, st
	return func() { close(rel) }, st
}

func (s *server) fetch(name string) Fetch {
	return func(ctx context.Context) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/"+name, nil)
		if err != nil {
			return nil, err
		}
		resp, err := s.Client().Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
}

// refreshedDoc describes acme/think (already bundled, with different
// figures) and a new model acme/fresh-N priced at n.
func refreshedDoc(t *testing.T, generated string, n float64) []byte {
	prov := Provenance{Source: "refresh " + generated, Date: generated}
	return encode(t, testDoc(generated,
		Model{Provider: "acme", ID: "think", Name: "Think", Context: 500000, MaxOutput: 32000, Input: []Modality{Text},
			Thinking: []Level{LevelOff}, Cache: CacheNone, Price: &Price{Input: 9, Output: 9}, Provenance: prov},
		Model{Provider: "acme", ID: fmt.Sprintf("fresh-%v", n), Name: "Fresh", Context: 8192, MaxOutput: 1024, Input: []Modality{Text},
			Thinking: []Level{LevelOff}, Cache: CacheNone, Price: &Price{Input: n, Output: n}, Provenance: prov},
	))
}

func newStore(t *testing.T, config ...Model) *Store {
	d := mustParse(t, testDoc("2026-01-01"), EvidenceBundled)
	var layers []Layer
	if config != nil {
		layers = append(layers, Layer{Evidence: EvidenceConfig, Origin: FileOrigin{Source: "smith.kdl"}, Models: config})
	}
	return NewStore(d, layers...)
}

func has(s *Snapshot, provider, id string) bool {
	m, err := s.Lookup(provider, id)
	return err == nil && m.Evidence != EvidenceInferred
}

// TestRefreshNeverBlocksStartup: while a refresh hangs, the bundled
// snapshot is served, and the refresh publishes when it completes.
func TestRefreshNeverBlocksStartup(t *testing.T) {
	srv := newServer(t)
	release, started := srv.add("a", refreshedDoc(t, "2026-02-01", 1))
	st := newStore(t)
	done := st.Start(context.Background(), "a", srv.fetch("a"))
	<-started
	if !has(st.Snapshot(), "acme", "think") || has(st.Snapshot(), "acme", "fresh-1") {
		t.Fatal("bundled snapshot not served during the refresh")
	}
	release()
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if !has(st.Snapshot(), "acme", "fresh-1") {
		t.Error("refreshed model not published")
	}
	if st.Snapshot().Generated() != "2026-02-01" {
		t.Errorf("generated %s", st.Snapshot().Generated())
	}
}

// TestStaleRefreshNeverReplacesNewer: refresh A starts first and finishes
// last; B (started later) has published by then, so A is discarded.
func TestStaleRefreshNeverReplacesNewer(t *testing.T) {
	srv := newServer(t)
	releaseA, startedA := srv.add("a", refreshedDoc(t, "2026-03-01", 1))
	releaseB, startedB := srv.add("b", refreshedDoc(t, "2026-03-01", 2))
	st := newStore(t)
	doneA := st.Start(context.Background(), "a", srv.fetch("a"))
	<-startedA
	doneB := st.Start(context.Background(), "b", srv.fetch("b"))
	<-startedB
	releaseB()
	if out := <-doneB; out.Err != nil {
		t.Fatal(out.Err)
	}
	releaseA()
	outA := <-doneA
	if !errors.Is(outA.Err, ErrStale) || !strings.Contains(outA.Err.Error(), "refresh #1 from a finished after #2 had published") {
		t.Fatalf("stale refresh: %v", outA.Err)
	}
	s := st.Snapshot()
	if !has(s, "acme", "fresh-2") || has(s, "acme", "fresh-1") {
		t.Error("stale data replaced the newer snapshot")
	}
}

// TestOlderDocumentIsStale: a later refresh carrying older data is refused.
func TestOlderDocumentIsStale(t *testing.T) {
	st := newStore(t)
	serve := func(b []byte) Fetch { return func(context.Context) ([]byte, error) { return b, nil } }
	if _, err := st.Refresh(context.Background(), "new", serve(refreshedDoc(t, "2026-05-01", 1))); err != nil {
		t.Fatal(err)
	}
	_, err := st.Refresh(context.Background(), "old", serve(refreshedDoc(t, "2026-04-01", 2)))
	if !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), "old is dated 2026-04-01, older than the published 2026-05-01") {
		t.Fatalf("older document: %v", err)
	}
	if has(st.Snapshot(), "acme", "fresh-2") {
		t.Error("older document published")
	}
}

// TestRefreshCancellable: cancelling abandons a hanging refresh and keeps
// the current snapshot.
func TestRefreshCancellable(t *testing.T) {
	srv := newServer(t)
	_, started := srv.add("a", refreshedDoc(t, "2026-02-01", 1))
	st := newStore(t)
	before := st.Snapshot()
	ctx, cancel := context.WithCancel(context.Background())
	done := st.Start(ctx, "a", srv.fetch("a"))
	<-started
	cancel()
	out := <-done
	if !errors.Is(out.Err, context.Canceled) {
		t.Fatalf("cancelled refresh: %v", out.Err)
	}
	if st.Snapshot() != before {
		t.Error("a cancelled refresh changed the snapshot")
	}
}

// TestRefreshKeepsHumanConfigAndBundle: refreshed figures for a model the
// user configured, or the reviewed bundle describes, are not published;
// the disagreement is reported as a conflict.
func TestRefreshKeepsHumanConfigAndBundle(t *testing.T) {
	mine := Model{Provider: "acme", ID: "fresh-1", Name: "Mine", Context: 2048, MaxOutput: 512, Input: []Modality{Text},
		Thinking: []Level{LevelOff}, Cache: CacheNone, Price: &Price{Input: 0.5, Output: 0.5}, Provenance: Provenance{Source: "smith.kdl", Date: "2026-01-01"}}
	st := newStore(t, mine)
	res, err := st.Refresh(context.Background(), "r", func(context.Context) ([]byte, error) { return refreshedDoc(t, "2026-02-01", 1), nil })
	if err != nil {
		t.Fatal(err)
	}
	s := st.Snapshot()
	got, _ := s.Lookup("acme", "fresh-1")
	if got.Evidence != EvidenceConfig || got.Context != 2048 || got.Price.Input != 0.5 {
		t.Errorf("user configuration overwritten: %+v", got)
	}
	think, _ := s.Lookup("acme", "think")
	if think.Evidence != EvidenceBundled || think.Context != 100000 {
		t.Errorf("reviewed entry overwritten: %+v", think)
	}
	want := map[string]Evidence{"acme/fresh-1 context": EvidenceConfig, "acme/think context": EvidenceBundled, "acme/think price": EvidenceBundled}
	found := map[string]bool{}
	for _, c := range res.Conflicts {
		if c.IgnoredFrom != EvidenceRefreshed {
			t.Errorf("conflict %+v not about the refresh", c)
		}
		if ev, ok := want[c.Ref+" "+c.Field]; ok {
			found[c.Ref+" "+c.Field] = true
			if c.KeptFrom != ev {
				t.Errorf("conflict %+v kept from %s, want %s", c, c.KeptFrom, ev)
			}
		}
	}
	if len(found) != len(want) {
		t.Errorf("conflicts %+v, want at least %v", res.Conflicts, want)
	}
}

// TestPublishedSnapshotsAreCoherent: readers racing many publications only
// ever see whole snapshots (every refreshed model priced the same).
func TestPublishedSnapshotsAreCoherent(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	doc := func(n int) []byte {
		var ms []Model
		for i := range 20 {
			ms = append(ms, Model{Provider: "r", ID: fmt.Sprint("m", i), Name: "m", Context: 4096, MaxOutput: 1024, Input: []Modality{Text},
				Thinking: []Level{LevelOff}, Cache: CacheNone, Price: &Price{Input: float64(n), Output: float64(n)},
				Provenance: Provenance{Source: "r", Date: "2026-01-01"}})
		}
		return encode(t, testDoc("2026-06-01", ms...))
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				price := -1.0
				for _, m := range st.Snapshot().Models() {
					if m.Provider != "r" {
						continue
					}
					if price >= 0 && m.Price.Input != price {
						t.Errorf("incoherent snapshot: %v and %v", price, m.Price.Input)
						return
					}
					price = m.Price.Input
				}
			}
		})
	}
	for n := 1; n <= 50; n++ {
		b := doc(n)
		if _, err := st.Refresh(ctx, "r", func(context.Context) ([]byte, error) { return b, nil }); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

func TestRefreshRejectsInvalidDocument(t *testing.T) {
	st := newStore(t)
	before := st.Snapshot()
	_, err := st.Refresh(context.Background(), "bad", func(context.Context) ([]byte, error) { return []byte(`{"format":1}`), nil })
	if err == nil || !strings.Contains(err.Error(), "refresh from bad rejected, keeping the current catalog") {
		t.Fatalf("invalid document: %v", err)
	}
	if st.Snapshot() != before {
		t.Error("invalid document changed the snapshot")
	}
}
