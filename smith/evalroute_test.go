package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/protocol"

	"github.com/smith-agent/smith/core/model"
)

// recorder is a loopback Messages API server answering with replies in
// turn and keeping the request bodies.
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newRecorder(t *testing.T, replies ...string) *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		n := len(r.bodies)
		r.bodies = append(r.bodies, string(b))
		r.mu.Unlock()
		if n >= len(replies) {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no more replies"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, replies[n])
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bodies...)
}

func (r *recorder) vars() []string {
	return []string{"ANTHROPIC_API_KEY=sk-route-key-77", "ANTHROPIC_BASE_URL=" + r.URL}
}

// TestEvalCostJSON: a bare catalog alias resolves to its model with no
// network; eval --output json carries each assistant message's stop
// reason, usage and cost (from the catalog's prices and the recorded
// usage), and agent_end the session's total.
func TestEvalCostJSON(t *testing.T) {
	srv := newRecorder(t,
		messagesStream("Reading it.", "toolu_1", "read", `{"path":"greet.sh"}`),
		messagesStream("greet.sh misspells Hello.", "", "", ""))
	e := newEnv(t)
	e.demo()
	r := e.runWith(srv.vars(), "", "eval", "--model", "claude-sonnet-4-5", "--output", "json", "--session", "priced", "what is wrong with greet.sh?")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 2 || !strings.Contains(reqs[0], `"model":"claude-sonnet-4-5-20250929"`) {
		t.Fatalf("requests %q: want two for the resolved model id", reqs)
	}
	// Per message: input 5 × $3/M + output 7 × $15/M + cache read 100 ×
	// $0.30/M + cache write 0 = 150 µ$ = 150000 nano-USD.
	type usage struct {
		Input     *int64 `json:"input"`
		Output    *int64 `json:"output"`
		CacheRead *int64 `json:"cache_read"`
		Cost      *int64 `json:"cost_nano_usd"`
	}
	var stops []string
	var costs []int64
	var total *int64
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		ev, err := protocol.UnmarshalEvent([]byte(line))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		switch ev := ev.(type) {
		case protocol.MessageEnd:
			am, ok := ev.Message.(model.AssistantMessage)
			if !ok {
				continue
			}
			var raw struct {
				Message struct {
					Stop  string `json:"stop"`
					Usage usage  `json:"usage"`
				} `json:"message"`
			}
			if err := json.Unmarshal([]byte(line), &raw); err != nil {
				t.Fatal(err)
			}
			u := raw.Message.Usage
			if u.Cost == nil || u.Input == nil || *u.Input != 5 || u.Output == nil || *u.Output != 7 || u.CacheRead == nil || *u.CacheRead != 100 {
				t.Fatalf("message_end usage %s", line)
			}
			stops = append(stops, string(am.Stop)+"/"+raw.Message.Stop)
			costs = append(costs, *u.Cost)
		case protocol.AgentEnd:
			var raw struct {
				Cost *int64 `json:"cost_nano_usd"`
			}
			if err := json.Unmarshal([]byte(line), &raw); err != nil {
				t.Fatal(err)
			}
			total = raw.Cost
		}
	}
	if strings.Join(stops, " ") != "tool_use/tool_use end/end" {
		t.Errorf("stop reasons %q", stops)
	}
	if len(costs) != 2 || costs[0] != 150_000 || costs[1] != 150_000 {
		t.Errorf("message costs %v, want 150000 each", costs)
	}
	if total == nil || *total != 300_000 {
		t.Errorf("agent_end cost_nano_usd = %v, want 300000", total)
	}

	// Continuing the session adds to the session's total.
	srv2 := newRecorder(t, messagesStream("Still misspelled.", "", "", ""))
	r = e.runWith(srv2.vars(), "", "eval", "--model", "anthropic/claude-sonnet-4-5", "--output", "json", "--session", "priced", "and now?")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if last := lines[len(lines)-2]; !strings.Contains(last, `"type":"agent_end"`) || !strings.Contains(last, `"cost_nano_usd":450000`) {
		t.Errorf("continued agent_end %s, want the session's total 450000", last)
	}
}

// TestEvalModelResolution: --model names and --thinking levels are checked
// before anything is sent: an unknown bare name, an invalid level and an
// unknown provider fail with exit 2 naming them; a level the model lacks is
// clamped with a warning.
func TestEvalModelResolution(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		requests int
		want     []string // in stderr
		sent     []string // in every request body
	}{
		{"unknown bare name", []string{"--model", "no-such-model"}, exitUsage, 0, []string{`"no-such-model"`, "smith models"}, nil},
		{"invalid thinking level", []string{"--model", "anthropic/claude-sonnet-4-6", "--thinking", "ultra"}, exitUsage, 0, []string{`"ultra"`, "flag --thinking", "off, minimal, low, medium, high or xhigh"}, nil},
		{"thinking on the mock", []string{"--model", "mock", "--thinking", "high"}, exitUsage, 0, []string{"--thinking"}, nil},
		{"clamped thinking level", []string{"--model", "anthropic/claude-sonnet-4-6", "--thinking", "minimal"}, 0, 1,
			[]string{"anthropic/claude-sonnet-4-6 has no thinking level minimal (it supports off, low, medium, high); using off"}, nil},
		// With no bound asked for, the model's output limit from the
		// catalog is sent (not the codec's budget + 4096, which can exceed
		// a model's limit and be refused by the vendor).
		{"high thinking without max tokens", []string{"--model", "claude-sonnet-4-5", "--thinking", "high"}, 0, 1, nil,
			[]string{`"budget_tokens":16384`, `"max_tokens":64000`}},
		{"catalog output limit of a smaller model", []string{"--model", "claude-opus-4-1", "--thinking", "high"}, 0, 1, nil,
			[]string{`"budget_tokens":16384`, `"max_tokens":32000`}},
		{"max output tokens flag", []string{"--model", "claude-sonnet-4-5", "--max-output-tokens", "20000"}, 0, 1, nil,
			[]string{`"max_tokens":20000`}},
		{"max output tokens above the limit is lowered", []string{"--model", "claude-opus-4-1", "--max-output-tokens", "50000"}, 0, 1,
			[]string{"claude-opus-4-1-20250805 writes at most 32000 output tokens; the bound 50000 was lowered to it"}, []string{`"max_tokens":32000`}},
		{"invalid max output tokens", []string{"--model", "claude-sonnet-4-5", "--max-output-tokens", "lots"}, exitUsage, 0,
			[]string{`flag --max-output-tokens: max-output-tokens: "lots" is not a whole number of tokens`}, nil},
		{"unknown model", []string{"--model", "no-such-model"}, exitUsage, 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, messagesStream("Done.", "", "", ""))
			e := newEnv(t)
			e.demo()
			r := e.runWith(srv.vars(), "", append(append([]string{"eval", "--no-session"}, tt.args...), "hi")...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tt.code, r.stderr)
			}
			if n := len(srv.requests()); n != tt.requests {
				t.Errorf("the server saw %d requests, want %d", n, tt.requests)
			}
			for _, body := range srv.requests() {
				for _, w := range tt.sent {
					if !strings.Contains(body, w) {
						t.Errorf("request body lacks %s:\n%s", w, body)
					}
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// TestEvalRetriesTransientFailure: an overloaded response before any output
// is retried on the same target under the failover policy (honouring the
// provider's retry hint), and both exchanges are journaled.
func TestEvalRetriesTransientFailure(t *testing.T) {
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			w.Header().Set("retry-after", "0")
			w.Header().Set("content-type", "application/json")
			w.WriteHeader(529)
			_, _ = io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, messagesStream("Recovered.", "", "", ""))
	}))
	defer srv.Close()
	e := newEnv(t)
	e.demo()
	r := e.runWith([]string{"ANTHROPIC_API_KEY=k-retry", "ANTHROPIC_BASE_URL=" + srv.URL}, "", "eval", "--model", "anthropic/claude-sonnet-4-5", "--session", "retry", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "Recovered.") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	if n != 2 {
		t.Errorf("the server saw %d requests, want 2", n)
	}
	mu.Unlock()
	dump := e.mustRun("", "session", "dump", "retry").stdout
	if c := strings.Count(dump, "provider.exchange"); c != 2 {
		t.Errorf("the dump shows %d exchanges, want 2 (the refused and the served)", c)
	}
}
