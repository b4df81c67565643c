package sysplugins

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/httpengine"
)

// firstRequestBudget bounds the body of a session's first request: the
// system prompt, the seven tool definitions and a short prompt, as the
// Anthropic codec encodes them. pi's is 5.6 KB; the other peers send
// 31-50 KB.
const firstRequestBudget = 7 << 10

// TestFirstRequestBudget builds the first request of a session in a
// repository through the embedded plugins — the product plugin's system
// prompt, the tools plugin's definitions, the Anthropic codec plugin —
// and holds its body to firstRequestBudget. The working
// directory is a realistic depth below the temporary directory, so the
// prompt's paths are no shorter than a user's.
func TestFirstRequestBudget(t *testing.T) {
	ctx := context.Background()
	h := testHost(t)
	arts, err := Artifacts("tools", "product", "providers-anthropic")
	if err != nil {
		t.Fatal(err)
	}
	g, err := h.Load(ctx, arts)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(base, "home", "ada", "src", "github.com", "acme", "engine")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	j, _, err := effect.Open(ctx, &effect.MemStore{}, effect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Bind(plugin.Effects{Journal: j, Roots: []string{repo}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var names []string
	for _, d := range g.Tools() {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"read", "write", "edit", "bash", "find", "grep", "ls"}) {
		t.Fatalf("tools = %v; the budget is for the seven", names)
	}
	system, err := b.SystemPrompt(ctx, plugin.Facts{Cwd: repo, OS: "linux", Arch: "amd64", Shell: "/bin/bash", Date: "2025-06-01",
		Repository: &plugin.Repository{Root: repo, Branch: "main"},
		Model:      plugin.ModelIdentity{Provider: "anthropic", Name: "claude-sonnet-4-5", DisplayName: "Claude Sonnet 4.5"},
		Tools:      names, ConfigDir: filepath.Join(base, "home", "ada", ".config", "smith")})
	if err != nil {
		t.Fatal(err)
	}
	body := anthropicBody(t, g, &model.Request{Model: "claude-sonnet-4-5", System: system, Tools: g.Tools(),
		Messages: []model.Message{model.UserMessage{Content: []model.Content{model.Text{Text: "Fix the failing test in parser_test.go."}}}}})
	t.Logf("first request: %d bytes (system prompt %d bytes; budget %d)", len(body), len(system), firstRequestBudget)
	if len(body) > firstRequestBudget {
		t.Errorf("the first request is %d bytes, over the %d-byte budget (system prompt %d bytes); tighten plugins-src/product/src/system.rs or the tool descriptions in plugins-src/tools/src/catalog.rs", len(body), firstRequestBudget, len(system))
	}
}

// anthropicBody returns the body the embedded Anthropic codec of g sends
// for req, captured by a loopback server.
func anthropicBody(t *testing.T, g *plugin.Generation, req *model.Request) []byte {
	t.Helper()
	var mu sync.Mutex
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body = b
		mu.Unlock()
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"captured"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	p, ok := g.Provider("anthropic")
	if !ok {
		t.Fatal("no anthropic provider in the embedded plugins")
	}
	he, err := httpengine.New(httpengine.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// CacheKey as the runtime sets it (a session id): the body carries the
	// cache breakpoints a real first request does.
	bridge, err := provider.New(provider.Config{Name: p.Name, Plugin: p.Plugin, Instances: g, Engine: he, Environ: []string{}, CacheKey: "01M8TBYC6E25494KR6JZ40WEEX",
		BaseURLFlag: srv.URL, Secrets: func(string) (string, error) { return "sk-test", nil }})
	if err != nil {
		t.Fatal(err)
	}
	s := bridge.Stream(context.Background(), req)
	for {
		if _, ok := s.Next(); !ok {
			break
		}
	}
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(body) == 0 {
		t.Fatal("the codec sent no request body")
	}
	return body
}
