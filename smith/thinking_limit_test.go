package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestEvalThinkingBudgetAtOutputLimit: claude-opus-4-1 may write 32000
// tokens, the xhigh thinking budget is 32000. The request is not refused:
// the budget is lowered to 24000, leaving a quarter of the limit for the
// answer, and a server enforcing Anthropic's rules (budget_tokens at
// least 1024 and below max_tokens, max_tokens within the model's limit)
// accepts it. An output bound that leaves no room for the minimum budget
// fails before dispatch, naming the model, its bound and what would work.
func TestEvalThinkingBudgetAtOutputLimit(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			MaxTokens int `json:"max_tokens"`
			Thinking  struct {
				Budget int `json:"budget_tokens"`
			} `json:"thinking"`
		}
		_ = json.Unmarshal(b, &req)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if req.MaxTokens > 32000 || req.Thinking.Budget < 1024 || req.Thinking.Budget >= req.MaxTokens {
			w.Header().Set("content-type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens %d, budget_tokens %d: not allowed"}}`, req.MaxTokens, req.Thinking.Budget)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, messagesStream("Thought it through.", "", "", ""))
	}))
	defer srv.Close()
	e := newEnv(t)
	e.demo()
	vars := []string{"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.URL}
	r := e.runWith(vars, "", "eval", "--no-session", "--model", "anthropic/claude-opus-4-1", "--thinking", "xhigh", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "Thought it through.") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	got := append([]string(nil), bodies...)
	mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], `"max_tokens":32000`) || !strings.Contains(got[0], `"budget_tokens":24000`) {
		t.Errorf("requests %q; want max_tokens 32000 and budget_tokens 24000", got)
	}

	r = e.runWith(append(vars, "SMITH_MAX_OUTPUT_TOKENS=1024"), "", "eval", "--no-session", "--model", "anthropic/claude-opus-4-1", "--thinking", "minimal", "hi")
	for _, w := range []string{"model claude-opus-4-1 may write at most 1024 output tokens", "allow more than 1024 output tokens", "turn thinking off"} {
		if r.code == 0 || !strings.Contains(r.stderr, w) {
			t.Errorf("exit %d; stderr lacks %q:\n%s", r.code, w, r.stderr)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 1 {
		t.Errorf("%d requests; the refused one must not be sent", len(bodies))
	}
}
