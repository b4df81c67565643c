package guest

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/wit/contrib"
	"github.com/smith-agent/smith/wit/provider"
	"github.com/smith-agent/smith/wit/types"
)

func TestDeclareContributions(t *testing.T) {
	c, err := Plugin{}.DeclareContributions(contrib.DeclareOptions{WorldVersion: "0.0.0", Configuration: "{}"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, p := range c.Providers {
		got[p.Name] = p.SecretNames
		if p.DisplayName == "" {
			t.Errorf("provider %s has no display name", p.Name)
		}
	}
	want := map[string][]string{"anthropic": {"ANTHROPIC_API_KEY"}, "openai": {"OPENAI_API_KEY"}, "openai-chat": {"OPENAI_API_KEY"},
		"google": {"GEMINI_API_KEY", "GOOGLE_API_KEY"}, "openai-compatible": {}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("declared %v; want %v", got, want)
	}
}

const hiDoc = `{"system":"be brief","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`

func text(parts []provider.TemplatePart) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.Case {
		case provider.TemplatePartLiteral:
			b.WriteString(p.Literal)
		case provider.TemplatePartSecret:
			b.WriteString("${" + p.Secret.Name + "}")
		}
	}
	return b.String()
}

func TestBuildRequest(t *testing.T) {
	tests := []struct {
		name      string
		provider  string
		doc       string
		wantURL   string
		wantAuth  map[string]string // header → templated value
		wantFault provider.CodecFaultCase
		faultHas  string
	}{
		{name: "anthropic default", provider: "anthropic", doc: hiDoc, wantURL: "https://api.anthropic.com/v1/messages",
			wantAuth: map[string]string{"x-api-key": "${ANTHROPIC_API_KEY}"}},
		{name: "config base URL", provider: "anthropic", doc: `{"messages":[],"base_url":"http://gw.test/"}`,
			wantURL: "http://gw.test/v1/messages"},
		{name: "environment beats config", provider: "openai",
			doc:     `{"messages":[],"base_url":"http://cfg.test","environment":{"OPENAI_BASE_URL":"http://env.test/v1","ANTHROPIC_BASE_URL":"http://other.test"}}`,
			wantURL: "http://env.test/v1/responses", wantAuth: map[string]string{"authorization": "Bearer ${OPENAI_API_KEY}"}},
		{name: "flag beats environment", provider: "google",
			doc:     `{"messages":[],"environment":{"GEMINI_BASE_URL":"http://env.test"},"base_url_flag":"http://flag.test"}`,
			wantURL: "http://flag.test/v1beta/models/m1:streamGenerateContent?alt=sse", wantAuth: map[string]string{"x-goog-api-key": "${GEMINI_API_KEY}"}},
		{name: "openai-compatible is keyless", provider: "openai-compatible", doc: `{"messages":[],"base_url":"http://127.0.0.1:8080/v1"}`,
			wantURL: "http://127.0.0.1:8080/v1/chat/completions", wantAuth: map[string]string{"authorization": ""}},
		{name: "openai-compatible without base URL", provider: "openai-compatible", doc: hiDoc,
			wantFault: provider.CodecFaultUnsupportedRequest, faultHas: "no base URL"},
		{name: "unknown provider", provider: "acme", doc: hiDoc, wantFault: provider.CodecFaultUnknownProvider, faultHas: "acme"},
		{name: "document not JSON", provider: "anthropic", doc: `{"messages":`, wantFault: provider.CodecFaultUnsupportedRequest, faultHas: "not valid JSON"},
		{name: "unknown role", provider: "anthropic", doc: `{"messages":[{"role":"system","content":[]}]}`,
			wantFault: provider.CodecFaultUnsupportedRequest, faultHas: `messages[0]`},
		{name: "unknown block", provider: "anthropic", doc: `{"messages":[{"role":"user","content":[{"type":"audio"}]}]}`,
			wantFault: provider.CodecFaultUnsupportedRequest, faultHas: `content[0]: unknown block type "audio"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, err := Plugin{}.BuildRequest(provider.RequestSnapshot{Provider: tt.provider, Model: "m1", Document: tt.doc}, provider.BuildOptions{Streaming: true})
			if tt.faultHas != "" {
				var f provider.CodecFault
				if !errors.As(err, &f) || f.Case != tt.wantFault || !strings.Contains(f.Error(), tt.faultHas) {
					t.Fatalf("error %v; want a %v fault containing %q", err, tt.wantFault, tt.faultHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := text(tpl.URL); got != tt.wantURL || tpl.Method != provider.HTTPMethodPost {
				t.Errorf("%v %s; want POST %s", tpl.Method, got, tt.wantURL)
			}
			headers := map[string]string{}
			for _, h := range tpl.Headers {
				headers[h.Name] = text(h.Value)
			}
			for k, v := range tt.wantAuth {
				if headers[k] != v {
					t.Errorf("header %s = %q; want %q (all: %v)", k, headers[k], v, headers)
				}
			}
			if !json.Valid(tpl.Body) {
				t.Errorf("body is not JSON: %s", tpl.Body)
			}
		})
	}
}

func TestBuildRequestQuirks(t *testing.T) {
	doc := `{"messages":[],"max_output_tokens":100,"base_url":"http://x.test/v1","quirks":{"max_tokens_field":"max_tokens"}}`
	tpl, err := Plugin{}.BuildRequest(provider.RequestSnapshot{Provider: "openai-compatible", Model: "m", Document: doc}, provider.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(tpl.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body["max_tokens"] != 100.0 || body["max_completion_tokens"] != nil {
		t.Errorf("body %s; the quirk must send max_tokens", tpl.Body)
	}
}

// TestArgumentsTextVerbatim: a tool call's arguments go back byte for byte.
func TestArgumentsTextVerbatim(t *testing.T) {
	doc := `{"base_url":"http://x.test/v1","messages":[{"role":"user","content":[{"type":"text","text":"go"}]},` +
		`{"role":"assistant","provider":"openai-compatible","content":[{"type":"tool_call","id":"c1","name":"f","arguments":{"a":1},"arguments_text":"{\"a\": 1}"}]},` +
		`{"role":"tool_result","call_id":"c1","name":"f","content":[{"type":"text","text":"ok"}]}]}`
	tpl, err := Plugin{}.BuildRequest(provider.RequestSnapshot{Provider: "openai-compatible", Model: "m", Document: doc}, provider.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tpl.Body), `"arguments":"{\"a\": 1}"`) {
		t.Errorf("body %s; want the arguments text verbatim", tpl.Body)
	}
}

func TestClassifyFailure(t *testing.T) {
	ra := "12"
	f := Plugin{}.ClassifyFailure([]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`),
		provider.ClassifyOptions{Provider: "anthropic", Status: 429, RetryAfter: &ra})
	if f.Kind != types.FailureKindRateLimit || f.Message != "slow down" || f.RetryAfterMs == nil || *f.RetryAfterMs != 12000 {
		t.Errorf("failure %+v; want rate-limit, the vendor message, 12000 ms", f)
	}
	f = Plugin{}.ClassifyFailure([]byte("x"), provider.ClassifyOptions{Provider: "acme", Status: 500})
	if f.Kind != types.FailureKindUnknown || !strings.Contains(f.Message, "acme") {
		t.Errorf("failure %+v; want unknown naming the provider", f)
	}
}
