package provider_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/httpengine"
)

// Anthropic events for the fault servers.
const (
	messageStart = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test-1\",\"content\":[],\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"
	blockStart   = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	textDelta    = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"la \"}}\n\n"
	ping         = "event: ping\ndata: {\"type\": \"ping\"}\n\n"
)

// faultServer answers with head and then writes every period forever (or
// until the client goes away): what each write is decides the fault.
func faultServer(t *testing.T, first string, every string, period time.Duration) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, first)
		w.(http.Flusher).Flush()
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				if _, err := fmt.Fprint(w, every); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	})
}

// TestTimeBounds: a response that only keeps the connection alive, one
// that trickles bytes that never make an event, a head that never comes
// and an answer that never ends each end within their bound with a
// classified error that names the setting, never as success.
func TestTimeBounds(t *testing.T) {
	tests := []struct {
		name      string
		srv       func(t *testing.T) *server
		mod       func(*provider.Config)
		head      time.Duration
		retryable bool
		want      string
	}{
		{name: "keep-alive only", srv: func(t *testing.T) *server { return faultServer(t, messageStart, ping, 20*time.Millisecond) },
			mod: func(c *provider.Config) { c.IdleTimeout = 300 * time.Millisecond }, retryable: true,
			want: `"anthropic" sent no content for 300ms`},
		{name: "trickle", srv: func(t *testing.T) *server { return faultServer(t, messageStart+blockStart, ":", 20*time.Millisecond) },
			mod: func(c *provider.Config) { c.IdleTimeout = 300 * time.Millisecond }, retryable: true,
			want: "keep-alives do not count"},
		{name: "never ends", srv: func(t *testing.T) *server {
			return faultServer(t, messageStart+blockStart, textDelta, 20*time.Millisecond)
		},
			mod:  func(c *provider.Config) { c.IdleTimeout, c.ResponseTimeout = time.Minute, 400*time.Millisecond },
			want: "took longer than 400ms and was stopped; response-timeout"},
		{name: "no head", srv: func(t *testing.T) *server {
			return newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
		}, head: 300 * time.Millisecond, retryable: true, want: "no response head from \"anthropic\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.srv(t)
			p := newBridge(t, "anthropic", nil, func(c *provider.Config) {
				c.BaseURLFlag = srv.URL
				if tt.head > 0 {
					eng, err := httpengine.New(httpengine.Config{HeadTimeout: tt.head})
					if err != nil {
						t.Fatal(err)
					}
					c.Engine = eng
				}
				if tt.mod != nil {
					tt.mod(c)
				}
			})
			done := make(chan []model.StreamEvent, 1)
			go func() { done <- collect(p.Stream(t.Context(), hello())) }()
			var evs []model.StreamEvent
			select {
			case evs = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the stream did not end within its bound")
			}
			e := streamError(t, evs)
			if e.Kind != model.ErrTransport || e.Retryable != tt.retryable || !strings.Contains(e.Message, tt.want) {
				t.Errorf("error %+v; want a transport error (retryable %v) saying %q", e, tt.retryable, tt.want)
			}
		})
	}
}

// TestProgressNotes: while the head is late, and again while content is
// late (keep-alives arriving or not), the stream says it is waiting in
// progress notes, then delivers the answer as usual.
func TestProgressNotes(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(350 * time.Millisecond) // a late head
		w.Header().Set("content-type", "text/event-stream")
		fmt.Fprint(w, messageStart+blockStart)
		w.(http.Flusher).Flush()
		for range 7 { // late content, with keep-alives
			time.Sleep(50 * time.Millisecond)
			fmt.Fprint(w, ping)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, textDelta)
		fmt.Fprint(w, "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	})
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag, c.WaitNotice = srv.URL, 100*time.Millisecond })
	evs := collect(p.Stream(t.Context(), hello()))
	var head, content int
	for _, ev := range evs {
		if n, ok := ev.(model.Note); ok {
			switch {
			case !n.Progress:
				t.Errorf("a note that is not progress: %q", n.Text)
			case strings.Contains(n.Text, "waiting for anthropic to answer: no response yet after"):
				head++
			case strings.Contains(n.Text, "waiting for anthropic: no new content for") && strings.Contains(n.Text, "(idle-timeout 2m0s)"):
				content++
			default:
				t.Errorf("note %q", n.Text)
			}
		}
	}
	if head == 0 || content == 0 {
		t.Errorf("%d head and %d content progress notes in %d events; want some of each", head, content, len(evs))
	}
	if _, ok := terminal(t, evs).(model.Done); !ok {
		t.Fatalf("the stream ended with %#v", terminal(t, evs))
	}
}
