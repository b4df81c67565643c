package runtime

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
)

// messagesServer speaks the Anthropic Messages wire format on loopback:
// it refuses the first `limited` requests with a 429 and answers the rest
// with a short streamed text, keeping every request body.
type messagesServer struct {
	*httptest.Server
	mu      sync.Mutex
	limited int
	bodies  []string
	// usage is message_start's usage object; default 10 input tokens, 1
	// output.
	usage string
}

func newMessagesServer(t *testing.T, limited int) *messagesServer {
	s := &messagesServer{limited: limited}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(b))
		refuse := len(s.bodies) <= s.limited
		s.mu.Unlock()
		if refuse {
			w.Header().Set("content-type", "application/json")
			w.Header().Set("retry-after-ms", "5")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}`)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		usage := s.usage
		if usage == "" {
			usage = `{"input_tokens":10,"output_tokens":1}`
		}
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"usage":` + usage + `}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello from the loopback."}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}`,
			`{"type":"message_stop"}`,
		} {
			typ := ev[len(`{"type":"`) : strings.Index(ev[len(`{"type":"`):], `"`)+len(`{"type":"`)]
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, ev)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *messagesServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// TestSingleTargetRetriesAndUnknownModel: a model the catalog does not
// know is sent with a notice naming the nearest models it knows and the
// documented output bound (never the vendor's own default); a single
// target's rate limits are retried after the server's hint, each retry an
// event; the answer comes through the real codec.
func TestSingleTargetRetriesAndUnknownModel(t *testing.T) {
	srv := newMessagesServer(t, 2)
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-test-key"
	w.config(`provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	rt := w.open(map[string]string{"model": "anthropic/claude-sonet-4-5"}, nil)
	s, err := rt.NewSession(t.Context(), NewSessionOptions{Name: "typo"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "hi")
	var retries []protocol.ProviderRetry
	var notices []string
	for _, ev := range evs {
		switch e := ev.(type) {
		case protocol.ProviderRetry:
			retries = append(retries, e)
		case protocol.Notice:
			notices = append(notices, e.Text)
		}
	}
	// The first request also says where it went, once for all its retries.
	status := "anthropic: sending to " + srv.URL + " (base-url from " + filepath.Join(w.home, "smith.kdl") + ":2:14)"
	if len(notices) != 2 || !strings.Contains(notices[0], "anthropic/claude-sonet-4-5 is not in Smith's catalog; sending it as named") ||
		!strings.Contains(notices[0], "anthropic/claude-sonnet-4-5") || !strings.Contains(notices[0], "output bounded to 16384 tokens") ||
		notices[1] != status {
		t.Errorf("notices %q", notices)
	}
	if len(retries) != 2 || retries[0].Attempt != 1 || retries[1].Attempt != 2 || retries[0].WaitMillis != 5 || retries[0].Error.Kind != model.ErrRateLimit {
		t.Errorf("retries %+v", retries)
	}
	if got := lastText(evs); got != "Hello from the loopback." {
		t.Errorf("answer %q", got)
	}
	bodies := srv.requests()
	if len(bodies) != 3 || !strings.Contains(bodies[2], `"max_tokens":16384`) || !strings.Contains(bodies[2], `"model":"claude-sonet-4-5"`) {
		t.Errorf("requests %q", bodies)
	}
	for _, b := range bodies {
		if strings.Contains(b, "sk-test-key") {
			t.Fatal("the key is in a request body")
		}
	}
	if st := s.Stats(); st.Responses != 1 || st.Usage.CostNanoUSD.IsKnown() {
		t.Errorf("stats %+v; an unknown model's cost stays unknown", st)
	}
}

// TestKnownModelLimitAndCost: a catalog model gets its own output limit
// and a known cost; a rate limit that never ends fails after the bounded
// retries with one classified error.
func TestKnownModelLimitAndCost(t *testing.T) {
	srv := newMessagesServer(t, 0)
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-test-key"
	w.config(`provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	rt := w.open(map[string]string{"model": "anthropic/claude-sonnet-4-5"}, nil)
	s, err := rt.NewSession(t.Context(), NewSessionOptions{Name: "known"})
	if err != nil {
		t.Fatal(err)
	}
	evs := runPrompt(t, s, "hi")
	for _, ev := range evs {
		if n, ok := ev.(protocol.Notice); ok && !strings.HasPrefix(n.Text, "anthropic: sending to "+srv.URL+" (base-url from ") {
			t.Errorf("unexpected notice %q", n.Text)
		}
	}
	m := s.Model()
	if !m.Known || m.MaxOutput == 0 || m.Context == 0 {
		t.Fatalf("model state %+v", m)
	}
	if b := srv.requests(); len(b) != 1 || !strings.Contains(b[0], fmt.Sprintf(`"max_tokens":%d`, m.MaxOutput)) {
		t.Errorf("request %q; want the catalog's output limit %d", b, m.MaxOutput)
	}
	st := s.Stats()
	if !st.Usage.CostNanoUSD.IsKnown() || st.ContextWindow != m.Context || st.ContextPercent < 0 {
		t.Errorf("stats %+v", st)
	}

	always := newMessagesServer(t, 1000)
	w.config(`provider "anthropic" {
    base-url "` + always.URL + `"
}
`)
	rt2 := w.open(map[string]string{"model": "anthropic/claude-sonnet-4-5"}, nil)
	s2, _ := rt2.NewSession(t.Context(), NewSessionOptions{Name: "limited"})
	retries := 0
	for _, ev := range runPrompt(t, s2, "hi") {
		if _, ok := ev.(protocol.ProviderRetry); ok {
			retries++
		}
	}
	end, _ := s2.Wait(t.Context())
	if retries != 4 {
		t.Errorf("%d retry events, want 4", retries)
	}
	if end.Reason != protocol.EndProviderError || !strings.Contains(end.Error, "rate_limit") || !strings.Contains(end.Error, "5 attempts on anthropic/claude-sonnet-4-5") {
		t.Fatalf("end %+v", end)
	}
	if n := len(always.requests()); n != 5 {
		t.Errorf("%d requests; want 1 + 4 retries", n)
	}
}
