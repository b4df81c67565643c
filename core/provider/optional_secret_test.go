package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// chatStream is a Chat Completions stream in the documented chunk format.
const chatStream = `data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi."},"finish_reason":null}]}` + "\n\n" +
	`data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}` + "\n\n" +
	"data: [DONE]\n\n"

// TestOptionalSecret: openai-compatible declares its key as an optional
// secret. A resolver with a value sends "Authorization: Bearer <key>"
// (recorded as ${api-key?}, the key in no artifact); one answering
// ErrNoSecret sends no Authorization header at all. ErrNoSecret for a
// required secret, or another failure for the optional one, still fails
// before dispatch.
func TestOptionalSecret(t *testing.T) {
	tests := []struct {
		name     string
		provider string
		secrets  provider.Secrets
		wantAuth string // the Authorization header the server gets; "" none
		wantErr  string // non-empty: fails before dispatch with this
	}{
		{name: "configured", provider: "openai-compatible", wantAuth: "Bearer " + testKey,
			secrets: func(ref string) (string, error) {
				if ref != "api-key?" {
					return "", fmt.Errorf("unexpected reference %s", ref)
				}
				return testKey, nil
			}},
		{name: "none configured", provider: "openai-compatible",
			secrets: func(string) (string, error) { return "", fmt.Errorf("wrapped: %w", provider.ErrNoSecret) }},
		{name: "environment resolver", provider: "openai-compatible",
			secrets: provider.EnvSecrets(func(string) string { return testKey })},
		{name: "other failure of the optional secret", provider: "openai-compatible", wantErr: "credential api-key? for \"openai-compatible\": the auth file is unreadable",
			secrets: func(string) (string, error) { return "", errors.New("the auth file is unreadable") }},
		{name: "required secret is not optional", provider: "openai-chat", wantErr: "resolve credential OPENAI_API_KEY",
			secrets: func(string) (string, error) { return "", provider.ErrNoSecret }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, sse([]byte(chatStream)))
			arts := &artifacts{}
			store := &effect.MemStore{}
			p := newBridge(t, tt.provider, arts, func(c *provider.Config) {
				c.BaseURLFlag = srv.URL + "/v1"
				c.Secrets = tt.secrets
				c.Journal = openJournal(t, store)
			})
			req := hello()
			req.Model = "qwen3"
			evs := collect(p.Stream(context.Background(), req))
			if tt.wantErr != "" {
				e := streamError(t, evs)
				if !strings.Contains(e.Message, tt.wantErr) || srv.count() != 0 {
					t.Errorf("error %v after %d requests; want %q before dispatch", e, srv.count(), tt.wantErr)
				}
				return
			}
			if _, ok := terminal(t, evs).(model.Done); !ok {
				t.Fatalf("the request did not complete: %#v", evs)
			}
			r, _ := srv.request(0)
			if got := r.Header.Get("Authorization"); got != tt.wantAuth {
				t.Errorf("Authorization = %q; want %q", got, tt.wantAuth)
			}
			if _, sent := r.Header["Authorization"]; sent != (tt.wantAuth != "") {
				t.Errorf("Authorization header sent = %v; want %v", sent, tt.wantAuth != "")
			}
			if len(arts.exchanges) != 1 {
				t.Fatalf("%d exchanges recorded; want 1", len(arts.exchanges))
			}
			shown := arts.exchanges[0].Header.Get("Authorization")
			if want := map[bool]string{true: "Bearer ${api-key?}"}[tt.wantAuth != ""]; shown != want {
				t.Errorf("recorded Authorization %q; want %q", shown, want)
			}
			recs, _ := store.Records(context.Background())
			j, _ := json.Marshal(recs)
			if all := arts.dump() + string(j); strings.Contains(all, testKey) {
				t.Errorf("the key appears in an artifact:\n%s", all)
			}
		})
	}
}

func TestOptionalSecretName(t *testing.T) {
	for name, want := range map[string]bool{"api-key?": true, "OPENAI_API_KEY": false, "": false, "?x": false} {
		if got := provider.OptionalSecret(name); got != want {
			t.Errorf("OptionalSecret(%q) = %v; want %v", name, got, want)
		}
	}
}
