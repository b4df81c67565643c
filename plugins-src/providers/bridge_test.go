package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/httpengine"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// testKey is the credential every test sends; no request body, event or
// record may contain it.
const testKey = "sk-test-9f3c1e7a-NEVER-LOGGED-4b2d"

// fixtureRoot is the directory of the recorded provider streams: one
// folder per vendor and the README that describes the files.
const fixtureRoot = "testdata/fixtures"

// declaredProviders are the providers the plugin declares.
var declaredProviders = []string{"anthropic", "openai", "openai-chat", "openai-compatible", "google"}

// vendorProvider maps a fixture folder to the provider that decodes it.
func vendorProvider(vendor string) string {
	if vendor == "openai-responses" {
		return "openai"
	}
	return vendor
}

// bridge returns core's provider bridge for name on the shipped plugin,
// sending to baseURL. mod, when not nil, adjusts the configuration.
func bridge(t testing.TB, name, baseURL string, mod func(*provider.Config)) *provider.Provider {
	t.Helper()
	eng, err := httpengine.New(httpengine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := provider.Config{Name: name, Plugin: codecOf(t, name), Instances: codecInstances(t), Engine: eng,
		Secrets: func(string) (string, error) { return testKey, nil }, BaseURLFlag: baseURL, Environ: []string{}}
	if mod != nil {
		mod(&cfg)
	}
	p, err := provider.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pull runs one request to its end and returns every event.
func pull(t testing.TB, p *provider.Provider, req *model.Request) []model.StreamEvent {
	t.Helper()
	s := p.Stream(context.Background(), req)
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

// decoded is everything one decode of a body gives: the model events and
// the first error, as core/provider reports them.
type decoded struct {
	events []model.StreamEvent
	err    string
}

// decode feeds chunks to one decoder of provider name on the shipped
// plugin, as the bridge and replay do.
func decode(tb testing.TB, name string, chunks [][]byte) decoded {
	tb.Helper()
	ctx := context.Background()
	d, err := provider.NewDecoder(ctx, codecInstances(tb), codecOf(tb, name), provider.DecodeOptions{Provider: name, Model: "golden-model"})
	if err != nil {
		return decoded{err: err.Error()}
	}
	defer d.Close()
	var out decoded
	for _, c := range chunks {
		if out.events, err = d.Decode(ctx, c, out.events); err != nil {
			out.err = err.Error()
			return out
		}
	}
	if out.events, err = d.Finish(ctx, out.events); err != nil {
		out.err = err.Error()
	}
	return out
}

// trace is the text of events: one line per event, its type and its JSON.
func trace(events []model.StreamEvent) string {
	var b strings.Builder
	for _, ev := range events {
		j, err := json.Marshal(ev)
		if err != nil {
			j = []byte(err.Error())
		}
		b.WriteString(strings.TrimPrefix(fmt.Sprintf("%T", ev), "model."))
		b.WriteByte(' ')
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// golden compares got with the file at path (under testdata/golden);
// go test -update rewrites it.
func golden(t testing.TB, path string, got []byte) {
	t.Helper()
	path = filepath.Join("testdata", "golden", path)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file: %v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it after review):\n got:\n%s\nwant:\n%s", path, got, want)
	}
	if bytes.Contains(got, []byte(testKey)) {
		t.Errorf("%s carries the credential", path)
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

// captured is one request the loopback server received.
type captured struct {
	Method string      `json:"method"`
	Path   string      `json:"path"`
	Header http.Header `json:"headers"`
	Body   any         `json:"body"`
	raw    []byte
}

// loopback serves one canned response per request, written in the given
// chunks with a flush after each, and keeps the requests it received.
type loopback struct {
	*httptest.Server
	mu       sync.Mutex
	requests []captured
	status   int
	header   map[string]string
	chunks   [][]byte
}

func newLoopback(t testing.TB) *loopback {
	t.Helper()
	l := &loopback{status: http.StatusOK}
	l.Server = httptest.NewServer(http.HandlerFunc(l.serve))
	t.Cleanup(l.Close)
	return l
}

// respond sets the response of the following requests.
func (l *loopback) respond(status int, header map[string]string, chunks [][]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.status, l.header, l.chunks = status, header, chunks
}

// last returns the latest request, with the headers the HTTP client sets
// per connection dropped.
func (l *loopback) last() captured {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.requests) == 0 {
		return captured{}
	}
	c := l.requests[len(l.requests)-1]
	c.Header = c.Header.Clone()
	for _, k := range []string{"Content-Length", "Accept-Encoding", "User-Agent", "Idempotency-Key", "X-Stainless-Retry-Count"} {
		c.Header.Del(k)
	}
	return c
}

func (l *loopback) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	c := captured{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), raw: body}
	if json.Unmarshal(body, &c.Body) != nil {
		c.Body = string(body)
	}
	l.mu.Lock()
	l.requests = append(l.requests, c)
	status, header, chunks := l.status, l.header, l.chunks
	l.mu.Unlock()
	if _, ok := header["content-type"]; !ok && status == http.StatusOK {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	f, _ := w.(http.Flusher)
	for _, c := range chunks {
		if _, err := io.Copy(w, bytes.NewReader(c)); err != nil {
			return
		}
		if f != nil {
			f.Flush()
		}
	}
}

// assemble folds model events into the assistant message, the way the
// agent loop keeps it in the history.
func assemble(t testing.TB, evs []model.StreamEvent) model.AssistantMessage {
	t.Helper()
	var m model.AssistantMessage
	args := map[int]*strings.Builder{}
	for _, e := range evs {
		switch e := e.(type) {
		case model.Start:
			m.Provider, m.Model, m.ResponseID = e.Provider, e.Model, e.ResponseID
		case model.TextDelta:
			if e.Index == len(m.Content) {
				m.Content = append(m.Content, model.Text{Producer: m.Provider})
			}
			b := m.Content[e.Index].(model.Text)
			b.Text += e.Text
			b.Signature = append(b.Signature, e.Signature...)
			m.Content[e.Index] = b
		case model.ThinkingDelta:
			if e.Index == len(m.Content) {
				m.Content = append(m.Content, model.Thinking{Producer: m.Provider})
			}
			b := m.Content[e.Index].(model.Thinking)
			b.Text += e.Text
			b.Signature = append(b.Signature, e.Signature...)
			b.Encrypted = append(b.Encrypted, e.Encrypted...)
			b.Redacted = b.Redacted || e.Redacted
			m.Content[e.Index] = b
		case model.ToolCallStart:
			m.Content = append(m.Content, model.ToolCall{ID: e.ID, Name: e.Name, Producer: m.Provider})
			args[e.Index] = &strings.Builder{}
		case model.ToolCallDelta:
			args[e.Index].WriteString(e.Arguments)
		case model.ToolCallEnd:
			b := m.Content[e.Index].(model.ToolCall)
			b.Signature = append(b.Signature, e.Signature...)
			m.Content[e.Index] = b
		case model.Done:
			m.Stop, m.Usage = e.Reason, e.Usage
		case model.StreamError:
			t.Fatalf("history stream failed: %v", e.Err)
		}
	}
	for i, sb := range args {
		b := m.Content[i].(model.ToolCall)
		b.Arguments = json.RawMessage(sb.String())
		if strings.TrimSpace(sb.String()) == "" {
			b.Arguments = json.RawMessage("{}")
		}
		m.Content[i] = b
	}
	return m
}
