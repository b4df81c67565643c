package runtime

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/session"
)

// messageStart opens an Anthropic message stream.
const messageStart = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"

// anthropicWorld is a world whose anthropic provider is srv, with config
// (smith.kdl lines) before the provider block, and a session on
// anthropic/claude-sonnet-4-5.
func anthropicWorld(t *testing.T, srv *httptest.Server, config, name string) *Session {
	t.Helper()
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-test-key"
	w.config(config + `provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	rt := w.open(map[string]string{"model": "anthropic/claude-sonnet-4-5"}, nil)
	s, err := rt.NewSession(t.Context(), NewSessionOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestIdleTimeoutFromConfig: smith.kdl's idle-timeout reaches the
// provider: a server that starts a response and then sends only SSE
// comments ends the run within the bound, as a provider error naming the
// setting.
func TestIdleTimeoutFromConfig(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, messageStart)
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
	s := anthropicWorld(t, srv, "idle-timeout 1\n", "")
	runPrompt(t, s, "hi")
	end, err := s.Wait(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != protocol.EndProviderError || !strings.Contains(end.Error, "sent no content for 1s") || !strings.Contains(end.Error, "idle-timeout") {
		t.Fatalf("end %+v", end)
	}
}

// TestHugeResponseIsCutAndKept: a response body over MaxResponseBytes is
// cut there: the run ends with a truncated provider error, and what
// arrived is recorded in the session with that mark, not lost.
func TestHugeResponseIsCutAndKept(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, messageStart)
		fmt.Fprint(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
		delta := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + strings.Repeat("y", 4000) + "\"}}\n\n"
		for sent := 0; sent <= MaxResponseBytes+len(delta); sent += len(delta) {
			if _, err := fmt.Fprint(w, delta); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	s := anthropicWorld(t, srv, "", "huge")
	runPrompt(t, s, "hi")
	end, err := s.Wait(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != protocol.EndProviderError || !strings.Contains(end.Error, "was cut after 8388608 bytes, Smith's bound on one response") {
		t.Fatalf("end %+v", end)
	}
	msgs, err := session.Messages(mustLoad(t, s.Info().Path))
	if err != nil {
		t.Fatal(err)
	}
	last, ok := msgs[len(msgs)-1].(model.AssistantMessage)
	text := 0
	for _, c := range last.Content {
		if tx, ok := c.(model.Text); ok {
			text += len(tx.Text)
		}
	}
	if !ok || last.Error == nil || last.Error.Kind != model.ErrTruncated || text < MaxResponseBytes/2 {
		t.Fatalf("the session's last message is %T (error %+v, %d bytes of text); want the cut answer with its truncation", msgs[len(msgs)-1], last.Error, text)
	}
}
