package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/httpengine"
)

// testKey is the credential the tests send; no artifact may contain it.
const testKey = "sk-ant-test-5d1f0c9e-DO-NOT-LOG"

// server is a loopback provider: handle answers each request; every
// request is kept.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []*http.Request
	bodies   [][]byte
}

func newServer(t *testing.T, handle http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.requests = append(s.requests, r.Clone(context.Background()))
		s.bodies = append(s.bodies, b)
		s.mu.Unlock()
		handle(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *server) request(i int) (*http.Request, []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[i], s.bodies[i]
}

// sse serves body as an event stream, flushing after every event.
func sse(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Request-Id", "req_test")
		f := w.(http.Flusher)
		for _, ev := range strings.SplitAfter(string(body), "\n\n") {
			io.WriteString(w, ev)
			f.Flush()
		}
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// artifacts is everything a run leaves behind: observed engine events and
// recorded exchanges.
type artifacts struct {
	mu        sync.Mutex
	observed  []string
	exchanges []provider.Exchange
}

func (a *artifacts) Observe(e httpengine.Event) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.observed = append(a.observed, fmt.Sprintf("%#v", e))
}

func (a *artifacts) Record(x provider.Exchange) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.exchanges = append(a.exchanges, x)
}

func (a *artifacts) dump() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	j, _ := json.Marshal(a.exchanges)
	return strings.Join(a.observed, "\n") + string(j) + fmt.Sprintf("%#v", a.exchanges)
}

// newBridge returns a bridge for name whose credential is testKey; mod
// adjusts the configuration.
func newBridge(t *testing.T, name string, arts *artifacts, mod func(*provider.Config)) *provider.Provider {
	t.Helper()
	if arts == nil {
		arts = &artifacts{}
	}
	eng, err := httpengine.New(httpengine.Config{Observer: arts})
	if err != nil {
		t.Fatal(err)
	}
	// A name no codec declares goes to one that refuses it.
	codec := "providers-anthropic"
	if d, ok := instances(t).Provider(name); ok {
		codec = d.Plugin
	}
	cfg := provider.Config{Name: name, Plugin: codec, Instances: instances(t), Engine: eng, Environ: []string{},
		Secrets: provider.EnvSecrets(func(k string) string {
			if strings.HasSuffix(k, "_API_KEY") {
				return testKey
			}
			return ""
		}), Recorder: arts}
	if mod != nil {
		mod(&cfg)
	}
	p, err := provider.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func collect(s model.Stream) []model.StreamEvent {
	defer s.Close()
	var out []model.StreamEvent
	for {
		e, ok := s.Next()
		if !ok {
			return out
		}
		out = append(out, e)
	}
}

func hello() *model.Request {
	return &model.Request{Model: "claude-test-1", System: "be brief", Messages: []model.Message{model.UserText("hi")}}
}

func terminal(t *testing.T, evs []model.StreamEvent) model.StreamEvent {
	t.Helper()
	if len(evs) == 0 {
		t.Fatal("the stream produced no event")
	}
	return evs[len(evs)-1]
}

func streamError(t *testing.T, evs []model.StreamEvent) *model.Error {
	t.Helper()
	se, ok := terminal(t, evs).(model.StreamError)
	if !ok {
		t.Fatalf("last event %#v; want a model.StreamError", terminal(t, evs))
	}
	return se.Err
}

func newEngine(t *testing.T) *httpengine.Engine {
	t.Helper()
	eng, err := httpengine.New(httpengine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// joined returns evs with each run of text, thinking or tool-call deltas
// of one block joined into one: how finely a codec splits a block's
// deltas follows how the body was cut into reads (it joins the deltas one
// chunk completes), which a live stream over loopback does not fix, so
// tests of live streams compare joined events.
func joined(evs []model.StreamEvent) []model.StreamEvent {
	var out []model.StreamEvent
	for _, e := range evs {
		if n := len(out); n > 0 {
			switch e := e.(type) {
			case model.TextDelta:
				if last, ok := out[n-1].(model.TextDelta); ok && last.Index == e.Index && last.Signature == nil && e.Signature == nil {
					last.Text += e.Text
					out[n-1] = last
					continue
				}
			case model.ThinkingDelta:
				if last, ok := out[n-1].(model.ThinkingDelta); ok && last.Index == e.Index && last.Signature == nil && e.Signature == nil &&
					last.Encrypted == nil && e.Encrypted == nil && last.Redacted == e.Redacted {
					last.Text += e.Text
					out[n-1] = last
					continue
				}
			case model.ToolCallDelta:
				if last, ok := out[n-1].(model.ToolCallDelta); ok && last.Index == e.Index {
					last.Arguments += e.Arguments
					out[n-1] = last
					continue
				}
			}
		}
		out = append(out, e)
	}
	return out
}
