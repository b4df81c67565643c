package runtime

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
)

// TestIdleTimeoutFromConfig: smith.kdl's idle-timeout reaches the
// provider: a server that starts a response and then sends only SSE
// comments ends the run within the bound, as a provider error naming the
// setting.
func TestIdleTimeoutFromConfig(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
				fmt.Fprint(w, ": keep-alive\n\n")
				w.(http.Flusher).Flush()
			}
		}
	}))
	t.Cleanup(srv.Close)
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-test-key"
	w.config(`idle-timeout 1
provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	rt := w.open(map[string]string{"model": "anthropic/claude-sonnet-4-5"}, nil)
	s, err := rt.NewSession(t.Context(), NewSessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	runPrompt(t, s, "hi")
	end, err := s.Wait(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != protocol.EndProviderError || !strings.Contains(end.Error, "sent no content for 1s") || !strings.Contains(end.Error, "idle-timeout") {
		t.Fatalf("end %+v", end)
	}
}
