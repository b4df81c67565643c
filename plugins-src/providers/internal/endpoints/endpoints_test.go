package endpoints

import (
	"strings"
	"testing"
)

func TestResolveBaseURL(t *testing.T) {
	anthropic, _ := Lookup("anthropic")
	compat, _ := Lookup("openai-compatible")
	tests := []struct {
		name              string
		e                 Endpoint
		config, env, flag string
		want              string
		src               Source
		errContains       string
	}{
		{name: "default", e: anthropic, want: "https://api.anthropic.com", src: FromDefault},
		{name: "config over default", e: anthropic, config: "https://gw.example/anthropic/", want: "https://gw.example/anthropic", src: FromConfig},
		{name: "env over config", e: anthropic, config: "https://a.example", env: "https://b.example", want: "https://b.example", src: FromEnv},
		{name: "flag over env", e: anthropic, env: "https://b.example", flag: "http://127.0.0.1:9", want: "http://127.0.0.1:9", src: FromFlag},
		{name: "compatible needs a url", e: compat, errContains: "has no base URL"},
		{name: "compatible from flag", e: compat, flag: "http://localhost:8000/v1", want: "http://localhost:8000/v1", src: FromFlag},
		{name: "env value not a url names the variable", e: anthropic, env: "api.anthropic.com", errContains: "ANTHROPIC_BASE_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, src, err := ResolveBaseURL(tt.e, tt.config, tt.env, tt.flag)
			if tt.errContains != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errContains) {
					t.Fatalf("got %q, %v; want an error containing %q", got, err, tt.errContains)
				}
				return
			}
			if err != nil || got != tt.want || src != tt.src {
				t.Errorf("got %q from %s (%v), want %q from %s", got, src, err, tt.want, tt.src)
			}
		})
	}
}

func TestConventionalVariables(t *testing.T) {
	for name, env := range map[string]string{"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL",
		"openai-chat": "OPENAI_BASE_URL", "google": "GEMINI_BASE_URL"} {
		e, err := Lookup(name)
		if err != nil || e.BaseURLEnv != env {
			t.Errorf("%s: base URL variable %q (%v), want %s", name, e.BaseURLEnv, err, env)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "openrouter") {
		t.Errorf("unknown provider error should list the known ones, got %v", err)
	}
	for _, n := range Names() {
		e, _ := Lookup(n)
		if e.API == "" || (e.BaseURL == "" && n != "openai-compatible") {
			t.Errorf("%s: incomplete endpoint %+v", n, e)
		}
	}
}

// TestKeys: the vendors' keys are their conventional variables; a
// configured OpenAI-compatible server's key is the single optional secret
// (no variable of its own, marked with the host's trailing "?"); local
// servers take none.
func TestKeys(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{name: "anthropic", want: []string{"ANTHROPIC_API_KEY"}},
		{name: "google", want: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}},
		{name: "openrouter", want: []string{"OPENROUTER_API_KEY"}},
		{name: "openai-compatible", want: []string{"api-key?"}},
		{name: "vllm"},
		{name: "ollama"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Lookup(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(e.KeyEnv, ",") != strings.Join(tt.want, ",") {
				t.Errorf("KeyEnv = %q; want %q", e.KeyEnv, tt.want)
			}
		})
	}
	for _, n := range Names() {
		e, _ := Lookup(n)
		for i, k := range e.KeyEnv {
			if strings.HasSuffix(k, "?") && (k != OptionalKey || len(e.KeyEnv) != 1 || i != 0) {
				t.Errorf("%s: optional key %q must be the only one, named %q", n, k, OptionalKey)
			}
		}
	}
}
