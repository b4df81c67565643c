package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/catalog/runcatalog"
)

// catalogServer serves catalog documents on loopback at /catalog.json:
// each request takes the next queued response (the last one repeats); a
// held response waits for its release. requests counts every request.
type catalogServer struct {
	*httptest.Server
	mu       sync.Mutex
	queue    []*heldDoc
	requests atomic.Int64
}

type heldDoc struct {
	doc     []byte
	gate    chan struct{}
	arrived chan struct{}
	once    sync.Once
}

func newCatalogServer(t *testing.T) *catalogServer {
	s := &catalogServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		var d *heldDoc
		if len(s.queue) > 0 {
			d = s.queue[0]
			if len(s.queue) > 1 {
				s.queue = s.queue[1:]
			}
		}
		s.mu.Unlock()
		if d == nil || r.URL.Path != "/catalog.json" {
			http.NotFound(w, r)
			return
		}
		d.once.Do(func() { close(d.arrived) })
		if d.gate != nil {
			select {
			case <-d.gate:
			case <-r.Context().Done():
				return
			}
		}
		_, _ = w.Write(d.doc)
	}))
	t.Cleanup(s.Close)
	return s
}

// add queues doc; with hold it is answered only after release.
func (s *catalogServer) add(doc []byte, hold bool) (release func(), arrived <-chan struct{}) {
	d := &heldDoc{doc: doc, arrived: make(chan struct{})}
	release = func() {}
	if hold {
		d.gate = make(chan struct{})
		var once sync.Once
		release = func() { once.Do(func() { close(d.gate) }) }
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, d)
	return release, d.arrived
}

func (s *catalogServer) url() string { return s.URL + "/catalog.json" }

// catalogDoc is a catalog document dated 2026-12-01 with acme/fresh-N for
// each n, anthropic/claude-fresh-9 (a model the bundle lacks) and other
// figures for the bundled anthropic/claude-sonnet-4-5-20250929.
func catalogDoc(t *testing.T, ns ...int) []byte {
	t.Helper()
	prov := catalog.Provenance{Source: "test refresh", Date: "2026-12-01"}
	m := func(provider, id string, context int) catalog.Model {
		return catalog.Model{Provider: provider, ID: id, Name: id, Context: context, MaxOutput: 1024, Input: []catalog.Modality{catalog.Text},
			Tools: true, Thinking: []catalog.Level{catalog.LevelOff}, Cache: catalog.CacheNone, Provenance: prov}
	}
	models := []catalog.Model{m("anthropic", "claude-sonnet-4-5-20250929", 123456), m("anthropic", "claude-fresh-9", 64000)}
	for _, n := range ns {
		models = append(models, m("acme", fmt.Sprint("fresh-", n), 8192))
	}
	b, err := json.Marshal(catalog.Document{Format: 1, Generated: "2026-12-01", Provenance: catalog.FileOrigin{Source: "test", Date: "2026-12-01"}, Models: models})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// listedModels runs smith models --output json and returns each model's
// "from" by "provider/id".
func (e *env) listedModels() map[string]string {
	e.t.Helper()
	var l struct {
		Models []struct{ Provider, ID, From string }
	}
	out := e.mustRun("", "models", "--output", "json").stdout
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		e.t.Fatalf("models json: %v\n%s", err, out)
	}
	from := map[string]string{}
	for _, m := range l.Models {
		from[m.Provider+"/"+m.ID] = m.From
	}
	return from
}

// TestModelsRefresh: smith models --refresh fetches the document, reports
// what it added and what the configuration and the reviewed catalog kept,
// and caches it; the next runs list and resolve the refreshed models with
// their provenance, from the cache, without any request.
func TestModelsRefresh(t *testing.T) {
	srv := newCatalogServer(t)
	srv.add(catalogDoc(t, 1, 2), false)
	e := newEnv(t)
	modelInfo := `model-info "acme/fresh-1" {
    context 2048
    max-output 512
}
`
	// The listing before the refresh runs without catalog-refresh: with it,
	// that listing would start a background refresh of its own, and the
	// explicit one below might find the document already cached.
	e.writeConfig("\n" + modelInfo)
	before := e.listedModels()
	if _, ok := before["acme/fresh-2"]; ok {
		t.Fatal("a refreshed model is listed before any refresh")
	}
	cfgPath := e.writeConfig(`catalog-refresh "` + srv.url() + `"` + "\n" + modelInfo)
	out := strings.ReplaceAll(e.mustRun("", "models", "--refresh").stdout, cfgPath, "FILE")
	for _, want := range []string{
		"refreshed the catalog from " + srv.url() + ": a document dated 2026-12-01 with 4 models, cached for the next runs\n",
		"added: acme/fresh-2, anthropic/claude-fresh-9\n",
		"updated: none\n",
		"kept acme/fresh-1 context = 2048 (config FILE:2:1); the refresh says 8192\n",
		"(bundled); the refresh says 123456\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	n := srv.requests.Load()
	from := e.listedModels()
	today := time.Now().UTC().Format(time.DateOnly)
	for ref, want := range map[string]string{
		"acme/fresh-2":                         "refreshed " + today + " from " + srv.url(),
		"acme/fresh-1":                         "config " + cfgPath + ":2:1",
		"anthropic/claude-sonnet-4-5-20250929": "bundled",
	} {
		if from[ref] != want {
			t.Errorf("%s from %q, want %q", ref, from[ref], want)
		}
	}
	table := e.mustRun("", "models").stdout
	if !strings.Contains(table, "FROM") || !strings.Contains(table, "refreshed "+today+" from "+srv.url()+"\n") {
		t.Errorf("table lacks the provenance column:\n%s", table)
	}
	// eval resolves a bare name only the refresh knows (and then fails for
	// want of a credential, which is beside the point).
	r := e.run("", "eval", "--model", "claude-fresh-9", "--no-session", "hi")
	if strings.Contains(r.stderr, "no alias, group or model named") || !strings.Contains(r.stderr, "anthropic") {
		t.Errorf("eval did not resolve the refreshed model: exit %d\n%s", r.code, r.stderr)
	}
	if got := srv.requests.Load(); got != n {
		t.Errorf("%d requests after the refresh; the next runs must use the fresh cache", got-n)
	}
}

// TestCatalogRefreshNeverDelaysStartup: with no cache a refresh is due;
// smith models and smith eval each start it in the background and
// complete while the server still holds the request, saying nothing.
func TestCatalogRefreshNeverDelaysStartup(t *testing.T) {
	for _, args := range [][]string{{"models"}, {"eval", "--model", "mock", "--no-session", "fix the bug"}} {
		t.Run(args[0], func(t *testing.T) {
			srv := newCatalogServer(t)
			release, _ := srv.add(catalogDoc(t, 1), true)
			defer release()
			e := newEnv(t)
			e.demo()
			e.writeConfig(`catalog-refresh "` + srv.url() + `"` + "\n")
			r := e.mustRun("", args...) // the server answers only after release
			if strings.Contains(r.stderr, "catalog") {
				t.Errorf("stderr mentions the catalog:\n%s", r.stderr)
			}
			attempt := filepath.Join(runcatalog.NewCache(e.home, srv.url(), nil).Dir(), "attempt")
			if _, err := os.Stat(attempt); err != nil {
				t.Errorf("no background refresh was started: %v", err)
			}
		})
	}
}

// TestCatalogRefreshInvalidDocument: an invalid document fails the
// refresh with a message naming the URL and the problem; the cached
// catalog stays.
func TestCatalogRefreshInvalidDocument(t *testing.T) {
	srv := newCatalogServer(t)
	srv.add(catalogDoc(t, 1), false)
	srv.add([]byte(`{"format":1,"generated":"2026-12-02","provenance":{"source":"x","date":"2026-12-02"},"models":[{"provider":"acme"}]}`), false)
	e := newEnv(t)
	e.writeConfig(`catalog-refresh "` + srv.url() + `"` + "\n")
	e.mustRun("", "models", "--refresh")
	r := e.run("", "models", "--refresh")
	want := "smith: models: catalog: refresh from " + srv.url() + " rejected, keeping the current catalog: catalog: " + srv.url() + ": models[0] (acme/): provider and id are required\n"
	if r.code != exitFailure || r.stderr != want {
		t.Errorf("exit %d, stderr %q\nwant exit 1, %q", r.code, r.stderr, want)
	}
	if _, ok := e.listedModels()["acme/fresh-1"]; !ok {
		t.Error("the invalid document replaced the cached catalog")
	}
}

// TestCatalogRefreshStaleAcrossProcesses: one smith's refresh starts
// first and finishes last, after another smith's has been cached; it is
// discarded as stale and the cache keeps the newer one.
func TestCatalogRefreshStaleAcrossProcesses(t *testing.T) {
	srv := newCatalogServer(t)
	releaseA, arrivedA := srv.add(catalogDoc(t, 1), true)
	srv.add(catalogDoc(t, 2), false)
	defer releaseA()
	e := newEnv(t)
	e.writeConfig(`catalog-refresh "` + srv.url() + `"` + "\n")
	a := e.command("", "models", "--refresh")
	var aErr bytes.Buffer
	a.Stderr = &aErr
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	<-arrivedA
	e.mustRun("", "models", "--refresh")
	releaseA()
	err := a.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitFailure || !strings.Contains(aErr.String(), "catalog: stale refresh discarded: refresh #") ||
		!strings.Contains(aErr.String(), "which started later (perhaps in another smith), had been cached") {
		t.Fatalf("the late refresh: %v\n%s", err, aErr.String())
	}
	from := e.listedModels()
	if _, ok := from["acme/fresh-1"]; ok {
		t.Error("the stale refresh replaced the newer cache")
	}
	if _, ok := from["acme/fresh-2"]; !ok {
		t.Error("the newer refresh is not cached")
	}
}

// TestModelsRefreshUsage: --refresh needs a URL and lists no provider.
func TestModelsRefreshUsage(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no URL", args: []string{"models", "--refresh"}, want: `models: --refresh needs a catalog URL; set catalog-refresh "https://…" in smith.kdl`},
		{name: "with provider", args: []string{"models", "--refresh", "--provider", "openai"}, want: "--refresh reports on the whole catalog; drop --provider"},
		{name: "plain http", args: []string{"models", "--refresh", "--catalog-refresh", "http://catalog.example/c.json"}, want: "is plain http to another machine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.run("", tt.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, tt.want)
			}
		})
	}
}
