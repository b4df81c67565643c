package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// TestCredentialNeverInArtifacts runs exchanges that succeed, fail with a
// body echoing the key, and break mid-body, and greps every artifact (the
// events and their errors, the engine's observed events, the recorded
// exchanges, the effect journal) for the credential. The server must have
// received it.
func TestCredentialNeverInArtifacts(t *testing.T) {
	body := mustRead(t, "testdata/anthropic-text.sse")
	tests := []struct {
		name   string
		handle http.HandlerFunc
	}{
		{name: "success", handle: sse(body)},
		{name: "rejected key echoed", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key %s"}}`, r.Header.Get("X-Api-Key"))
		}},
		{name: "echoed in a stream error", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"key %s overloaded\"}}\n\n", r.Header.Get("X-Api-Key"))
		}},
		{name: "connection dropped", handle: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(body[:100])
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.handle)
			arts := &artifacts{}
			store := &effect.MemStore{}
			p := newBridge(t, "anthropic", arts, func(c *provider.Config) {
				c.BaseURLFlag = srv.URL
				c.Journal = openJournal(t, store)
			})
			evs := collect(p.Stream(context.Background(), hello()))
			var all strings.Builder
			for _, e := range evs {
				j, _ := json.Marshal(e)
				fmt.Fprintf(&all, "%s %#v\n", j, e)
				if se, ok := e.(model.StreamError); ok {
					all.WriteString(se.Err.Error())
				}
			}
			all.WriteString(arts.dump())
			recs, _ := store.Records(context.Background())
			if len(recs) != 2 {
				t.Fatalf("journal has %d records; want the exchange's intent and completion", len(recs))
			}
			j, _ := json.Marshal(recs)
			all.Write(j)
			if r, _ := srv.request(0); r.Header.Get("X-Api-Key") != testKey {
				t.Fatalf("the server got x-api-key %q; the credential was not substituted", r.Header.Get("X-Api-Key"))
			}
			if len(arts.exchanges) != 1 || len(arts.observed) == 0 {
				t.Fatalf("%d exchanges recorded, %d engine events observed; want artifacts to grep", len(arts.exchanges), len(arts.observed))
			}
			if tt.name != "success" && arts.exchanges[0].Err == "" {
				t.Errorf("the recorded exchange of a failed request has no error")
			}
			if strings.Contains(all.String(), testKey) {
				t.Errorf("the credential appears in an artifact:\n%s", all.String())
			}
		})
	}
}
