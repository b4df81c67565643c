package conformance

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// TestRequestHeaders checks each API's method, path and headers, and that
// the credential is only ever a reference: building with a secret-looking
// reference name puts no value anywhere but SecretRef.
func TestRequestHeaders(t *testing.T) {
	tests := []struct {
		name     string
		endpoint string
		model    string
		path     string
		auth     norm.Header
	}{
		{"anthropic", "anthropic", "claude-sonnet-4-5", "/v1/messages", norm.Header{Name: "x-api-key", SecretRef: "ANTHROPIC_API_KEY"}},
		{"openai responses", "openai", "gpt-5", "/responses", norm.Header{Name: "authorization", Value: "Bearer ", SecretRef: "OPENAI_API_KEY"}},
		{"openai chat", "openai-chat", "gpt-5", "/chat/completions", norm.Header{Name: "authorization", Value: "Bearer ", SecretRef: "OPENAI_API_KEY"}},
		{"gemini", "google", "gemini-2.5-flash", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", norm.Header{Name: "x-goog-api-key", SecretRef: "GEMINI_API_KEY"}},
		{"openrouter", "openrouter", "anthropic/claude-haiku-4.5", "/chat/completions", norm.Header{Name: "authorization", Value: "Bearer ", SecretRef: "OPENROUTER_API_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep, err := endpoints.Lookup(tt.endpoint)
			if err != nil {
				t.Fatal(err)
			}
			req := &norm.Request{Model: tt.model, System: "s", Messages: []norm.Message{norm.UserText("hi")}}
			hr, err := codec.BuildRequest(codec.API(ep.API), req, ep.Quirks, ep.KeyEnv[0])
			if err != nil {
				t.Fatal(err)
			}
			if hr.Method != "POST" || hr.Path != tt.path {
				t.Errorf("got %s %s, want POST %s", hr.Method, hr.Path, tt.path)
			}
			found := false
			for _, h := range hr.Headers {
				if h.SecretRef != "" {
					if h != tt.auth {
						t.Errorf("credential header %+v, want %+v", h, tt.auth)
					}
					found = true
				}
				if strings.Contains(h.Value, "KEY") {
					t.Errorf("header %s carries %q: a credential name belongs in SecretRef only", h.Name, h.Value)
				}
			}
			if !found {
				t.Errorf("no header references the credential %s", tt.auth.SecretRef)
			}
			if strings.Contains(string(hr.Body), ep.KeyEnv[0]) {
				t.Errorf("the body mentions the credential %s", ep.KeyEnv[0])
			}
		})
	}
	// A keyless local server gets no Authorization header at all.
	ep, _ := endpoints.Lookup("ollama")
	hr, err := codec.BuildRequest(codec.OpenAIChat, &norm.Request{Model: "llama3", Messages: []norm.Message{norm.UserText("hi")}}, ep.Quirks, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hr.Headers {
		if strings.EqualFold(h.Name, "authorization") {
			t.Errorf("keyless server got %+v", h)
		}
	}
}
