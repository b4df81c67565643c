package providers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/model"
)

// loopback is a Messages API server that answers every request with sse
// and keeps the request bodies.
type loopback struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newLoopback(t *testing.T, stream string) *loopback {
	l := &loopback{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		l.mu.Lock()
		l.bodies = append(l.bodies, string(b))
		l.mu.Unlock()
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, stream)
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *loopback) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.bodies...)
}

// textOnly is a catalog model that takes text only and thinks at off or low.
var textOnly = catalog.Model{Provider: "anthropic", ID: "claude-text", Input: []catalog.Modality{catalog.Text}, Tools: true,
	Thinking: []catalog.Level{catalog.LevelOff, catalog.LevelLow}, Evidence: catalog.EvidenceConfig,
	Provenance: catalog.Provenance{Source: "test"}}

func openLoopback(t *testing.T, l *loopback, o Options) *Opened {
	t.Helper()
	wasm, err := codecWasm()
	if err != nil {
		t.Fatal(err)
	}
	o.LookupEnv = env(map[string]string{"ANTHROPIC_API_KEY": "sk-guard-secret"})
	o.Environ = []string{"ANTHROPIC_BASE_URL=" + l.URL}
	o.CacheDir = filepath.Join(testDir, "cache")
	op, err := open(context.Background(), wasm, "anthropic", "claude-text", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = op.Close(context.Background()) })
	return op
}

// drainStream returns the terminal event of a stream of p for req.
func drainStream(t *testing.T, o *Opened, req *model.Request) model.StreamEvent {
	t.Helper()
	p, err := o.Provider(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stream(context.Background(), req)
	defer s.Close()
	var last model.StreamEvent
	for ev, ok := s.Next(); ok; ev, ok = s.Next() {
		last = ev
	}
	return last
}

// TestImageToTextOnlyModel: an image for a model whose catalog entry takes
// text only fails before dispatch naming the model and the capability (the
// server sees no request), or, when the policy says so, is replaced by a
// note and the request goes out without it.
func TestImageToTextOnlyModel(t *testing.T) {
	req := &model.Request{Model: "claude-text", Messages: []model.Message{model.UserMessage{Content: []model.Content{
		model.Text{Text: "what is this?"}, model.Image{MediaType: "image/png", Data: []byte("\x89PNG-not-really")}}}}}
	tests := []struct {
		name     string
		policy   catalog.Policy
		requests int
		want     string // in the stream error, or in the warning
	}{
		{"fail", catalog.Policy{}, 0, "model anthropic/claude-text does not support image input"},
		{"adjust", catalog.Policy{Images: catalog.DegradeAdjust}, 1, "anthropic/claude-text takes no images"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoopback(t, sse)
			var warnings []string
			m := textOnly
			o := openLoopback(t, l, Options{Catalog: &m, Policy: tt.policy, Warn: func(s string) { warnings = append(warnings, s) }})
			last := drainStream(t, o, req)
			got := l.requests()
			if len(got) != tt.requests {
				t.Fatalf("the server saw %d requests, want %d", len(got), tt.requests)
			}
			if tt.requests == 0 {
				e, ok := last.(model.StreamError)
				if !ok || !strings.Contains(e.Err.Error(), tt.want) {
					t.Fatalf("terminal event %#v, want an error containing %q", last, tt.want)
				}
				return
			}
			if _, ok := last.(model.Done); !ok {
				t.Fatalf("terminal event %#v", last)
			}
			if strings.Contains(got[0], `"image"`) {
				t.Errorf("the image was sent: %s", got[0])
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], tt.want) {
				t.Errorf("warnings %q, want one containing %q", warnings, tt.want)
			}
		})
	}
}

// TestThinkingLevel: a thinking level the model lacks fails before
// anything is sent when the policy says fail, and is clamped with a
// warning by default.
func TestThinkingLevel(t *testing.T) {
	l := newLoopback(t, sse)
	wasm, err := codecWasm()
	if err != nil {
		t.Fatal(err)
	}
	m := textOnly
	_, err = open(context.Background(), wasm, "anthropic", "claude-text", Options{Catalog: &m, Thinking: catalog.LevelHigh,
		Policy: catalog.Policy{Thinking: catalog.DegradeFail}, LookupEnv: env(map[string]string{"ANTHROPIC_API_KEY": "k"}),
		Environ: []string{"ANTHROPIC_BASE_URL=" + l.URL}, CacheDir: filepath.Join(testDir, "cache")})
	if err == nil || !strings.Contains(err.Error(), "anthropic/claude-text does not support thinking level high") || !strings.Contains(err.Error(), "off, low") {
		t.Fatalf("open = %v", err)
	}
	var warnings []string
	o := openLoopback(t, l, Options{Catalog: &m, Thinking: catalog.LevelHigh, Warn: func(s string) { warnings = append(warnings, s) }})
	if len(l.requests()) != 0 {
		t.Fatal("a request was sent while opening")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "using low") {
		t.Fatalf("warnings %q", warnings)
	}
	if o.cfg.Thinking != "low" {
		t.Fatalf("thinking sent = %q, want low", o.cfg.Thinking)
	}
}

// TestCost: with a priced catalog model, the stop carries the cost of the
// reported usage; without one it stays unknown.
func TestCost(t *testing.T) {
	priced := textOnly
	priced.Price = &catalog.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	// input 3 × $3/M + output 6 × $15/M = 99 µ$; cache fields reported as 0.
	stream := strings.Replace(sse, `"usage":{"input_tokens":3,"output_tokens":1}`,
		`"usage":{"input_tokens":3,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}`, 1)
	tests := []struct {
		name string
		m    *catalog.Model
		want model.Amount
	}{
		{"priced", &priced, model.Known(99_000)},
		{"not in the catalog", nil, model.Unknown()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoopback(t, stream)
			o := openLoopback(t, l, Options{Catalog: tt.m})
			last := drainStream(t, o, &model.Request{Model: "claude-text", Messages: []model.Message{model.UserText("hi")}})
			d, ok := last.(model.Done)
			if !ok {
				t.Fatalf("terminal event %#v", last)
			}
			if d.Usage.CostNanoUSD != tt.want {
				t.Fatalf("cost %v, want %v (usage %+v)", d.Usage.CostNanoUSD, tt.want, d.Usage)
			}
		})
	}
}

// TestDeclared: the embedded plugin's declaration names the providers and
// their credential variables.
func TestDeclared(t *testing.T) {
	wasm, err := codecWasm()
	if err != nil {
		t.Fatal(err)
	}
	d, err := declaredOf(context.Background(), wasm, filepath.Join(testDir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	if got := d["anthropic"]; len(got) != 1 || got[0] != "ANTHROPIC_API_KEY" {
		t.Fatalf("anthropic declares %q (all: %v)", got, d)
	}
	if _, ok := d["openai-compatible"]; !ok {
		t.Fatalf("openai-compatible is not declared: %v", d)
	}
}
