package runcatalog

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/smith-agent/smith/core/catalog"
)

// server serves catalog documents on loopback. Each request for /NAME
// takes the next response queued for NAME (the last one repeats); a held
// response is answered once its release is called. requests counts every
// request.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	queues   map[string][]*response
	requests atomic.Int64
}

type response struct {
	doc     []byte
	gate    chan struct{} // nil: answer at once
	arrived chan struct{} // closed when a request takes this response
	once    sync.Once
}

func newServer(t testing.TB) *server {
	t.Helper()
	s := &server{queues: map[string][]*response{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		name := strings.TrimPrefix(r.URL.Path, "/")
		s.mu.Lock()
		q := s.queues[name]
		var resp *response
		if len(q) > 0 {
			resp = q[0]
			if len(q) > 1 {
				s.queues[name] = q[1:]
			}
		}
		s.mu.Unlock()
		if resp == nil {
			http.NotFound(w, r)
			return
		}
		resp.once.Do(func() { close(resp.arrived) })
		if resp.gate != nil {
			select {
			case <-resp.gate:
			case <-r.Context().Done():
				return
			}
		}
		_, _ = w.Write(resp.doc)
	}))
	t.Cleanup(s.Close)
	return s
}

// queue queues doc as the next response for /name. When hold is true the
// response waits for release (nil otherwise). arrived is closed when a
// request takes the response.
func (s *server) queue(name string, doc []byte, hold bool) (release func(), arrived <-chan struct{}) {
	r := &response{doc: doc, arrived: make(chan struct{})}
	if hold {
		r.gate = make(chan struct{})
		var once sync.Once
		release = func() { once.Do(func() { close(r.gate) }) }
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queues[name] = append(s.queues[name], r)
	return release, r.arrived
}

func (s *server) url(name string) string { return s.URL + "/" + name }

// doc returns a catalog document dated generated describing acme/fresh-N
// for each n, and a different context for the bundled
// anthropic/claude-sonnet-4-5-20250929.
func doc(t testing.TB, generated string, ns ...int) []byte {
	t.Helper()
	prov := catalog.Provenance{Source: "test refresh " + generated, Date: generated}
	models := []catalog.Model{{Provider: "anthropic", ID: "claude-sonnet-4-5-20250929", Name: "Claude Sonnet 4.5", Context: 123456, MaxOutput: 4096,
		Input: []catalog.Modality{catalog.Text}, Thinking: []catalog.Level{catalog.LevelOff}, Cache: catalog.CacheNone, Provenance: prov}}
	for _, n := range ns {
		models = append(models, catalog.Model{Provider: "acme", ID: fmt.Sprint("fresh-", n), Name: "Fresh", Context: 8192 * n, MaxOutput: 1024,
			Input: []catalog.Modality{catalog.Text}, Tools: true, Thinking: []catalog.Level{catalog.LevelOff}, Cache: catalog.CacheNone,
			Price: &catalog.Price{Input: float64(n), Output: float64(n)}, Provenance: prov})
	}
	b, err := json.Marshal(catalog.Document{Format: 1, Generated: generated, Provenance: catalog.FileOrigin{Source: "test", Date: generated}, Models: models})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
