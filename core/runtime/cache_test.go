package runtime

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// TestAnthropicPromptCaching: a model the catalog marks as caching
// explicitly gets cache_control breakpoints on the system prompt and on
// the last block of the latest message, on every turn; the cache reads
// and writes the server reports are counted and priced.
func TestAnthropicPromptCaching(t *testing.T) {
	srv := newMessagesServer(t, 0)
	srv.usage = `{"input_tokens":12,"output_tokens":1,"cache_creation_input_tokens":2000,"cache_read_input_tokens":3000}`
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-test-key"
	w.config(`provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	rt := w.open(map[string]string{"model": "anthropic/claude-sonnet-4-5"}, nil)
	s, err := rt.NewSession(t.Context(), NewSessionOptions{Name: "cached"})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "first")
	runPrompt(t, s, "second")
	bodies := srv.requests()
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	for i, b := range bodies {
		var req struct {
			System []struct {
				CacheControl *struct{ Type string } `json:"cache_control"`
			}
			Messages []struct {
				Content []struct {
					Text         string
					CacheControl *struct{ Type string } `json:"cache_control"`
				}
			}
		}
		if err := json.Unmarshal([]byte(b), &req); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if len(req.System) != 1 || req.System[0].CacheControl == nil || req.System[0].CacheControl.Type != "ephemeral" {
			t.Errorf("request %d: the system prompt carries no ephemeral breakpoint: %s", i, b)
		}
		marks := 0
		for j, m := range req.Messages {
			for k, c := range m.Content {
				if c.CacheControl == nil {
					continue
				}
				marks++
				if j != len(req.Messages)-1 || k != len(m.Content)-1 {
					t.Errorf("request %d: breakpoint on message %d block %d, not the latest block", i, j, k)
				}
			}
		}
		if marks != 1 {
			t.Errorf("request %d: %d message breakpoints, want 1 on the latest message: %s", i, marks, b)
		}
	}
	st := s.Stats()
	if got := st.Usage.CacheRead; got != model.Known(6000) {
		t.Errorf("cache read %v, want 6000 over two turns", got)
	}
	if got := st.Usage.CacheWrite; got != model.Known(4000) {
		t.Errorf("cache write %v, want 4000 over two turns", got)
	}
	// Claude Sonnet 4.5: $3 input, $15 output, $0.30 cache read, $3.75
	// cache write per million tokens, in billionths of a dollar.
	want := int64(2*12*3 + 2*5*15 + 6000*0.3 + 4000*3.75)
	if st.Usage.CostNanoUSD != model.Known(want*1000) {
		t.Errorf("cost %v nano-USD, want %d (cache reads and writes priced)", st.Usage.CostNanoUSD, want*1000)
	}
}

// chatServer speaks enough of the Chat Completions wire format: it keeps
// every request body and answers with one streamed word.
type chatServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newChatServer(t *testing.T) *chatServer {
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(b))
		s.mu.Unlock()
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","model":"q","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","model":"q","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":3}}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(s.Close)
	return s
}

// TestPromptCacheKey: an OpenAI-style codec gets the session id as its
// prompt cache key, except for a model the configuration declares (its
// cache mode is none).
func TestPromptCacheKey(t *testing.T) {
	srv := newChatServer(t)
	w := newWorld(t)
	w.env["LOCAL_KEY"] = "sk-local"
	w.config(`provider "local" {
    api "openai-chat"
    base-url "` + srv.URL + `/v1"
    credential env="LOCAL_KEY"
}
model-info "local/declared" {
    context 32768
    max-output 4096
}
`)
	tests := []struct {
		name  string
		model string
		key   bool
	}{
		{name: "unknown model", model: "local/qwen3-coder", key: true},
		{name: "declared without caching", model: "local/declared", key: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.bodies)
			rt := w.open(map[string]string{"model": tt.model}, nil)
			s, err := rt.NewSession(t.Context(), NewSessionOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := lastText(runPrompt(t, s, "hi")); got != "ok" {
				t.Fatalf("answer %q", got)
			}
			srv.mu.Lock()
			bodies := srv.bodies[before:]
			srv.mu.Unlock()
			if len(bodies) != 1 {
				t.Fatalf("%d requests", len(bodies))
			}
			var req struct {
				Key *string `json:"prompt_cache_key"`
			}
			if err := json.Unmarshal([]byte(bodies[0]), &req); err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.key && (req.Key == nil || *req.Key != s.Info().ID):
				t.Errorf("prompt_cache_key %v, want the session id %s: %s", req.Key, s.Info().ID, bodies[0])
			case !tt.key && req.Key != nil:
				t.Errorf("prompt_cache_key %q sent for a model that does not cache", *req.Key)
			}
			if u := s.Stats().Usage; u.CacheRead != model.Known(3) {
				t.Errorf("cache read %v, want 3 (prompt_tokens_details.cached_tokens)", u.CacheRead)
			}
		})
	}
}
