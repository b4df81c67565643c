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
		"google": {"GEMINI_API_KEY", "GOOGLE_API_KEY"}, "openai-compatible": {"api-key?"}}
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
		{name: "openai-compatible key is optional", provider: "openai-compatible", doc: `{"messages":[],"base_url":"http://127.0.0.1:8080/v1"}`,
			wantURL: "http://127.0.0.1:8080/v1/chat/completions", wantAuth: map[string]string{"authorization": "Bearer ${api-key?}"}},
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
	rateLimited := `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`
	tests := []struct {
		name         string
		provider     string
		status       uint16
		body         string
		headers      []provider.ResponseHeader
		kind         types.FailureKind
		retryable    bool
		retryAfterMs uint64 // 0: no hint
		providerType string
		requestID    string
		messageHas   string
	}{
		{name: "retry-after seconds", provider: "anthropic", status: 429, body: rateLimited,
			headers: []provider.ResponseHeader{{Name: "retry-after", Value: "12"}},
			kind:    types.FailureKindRateLimit, retryable: true, retryAfterMs: 12000, providerType: "rate_limit_error", messageHas: "slow down"},
		{name: "retry-after-ms wins", provider: "anthropic", status: 429, body: rateLimited,
			headers: []provider.ResponseHeader{{Name: "retry-after", Value: "12"}, {Name: "retry-after-ms", Value: "250"}},
			kind:    types.FailureKindRateLimit, retryable: true, retryAfterMs: 250, providerType: "rate_limit_error", messageHas: "slow down"},
		{name: "x-should-retry false overrides the kind", provider: "anthropic", status: 529, body: overloaded,
			headers: []provider.ResponseHeader{{Name: "X-Should-Retry", Value: "false"}, {Name: "request-id", Value: "req_011"}},
			kind:    types.FailureKindOverloaded, providerType: "overloaded_error", requestID: "req_011", messageHas: "busy"},
		{name: "a repeated header keeps its first value", provider: "anthropic", status: 529, body: overloaded,
			headers: []provider.ResponseHeader{{Name: "x-should-retry", Value: "true"}, {Name: "x-should-retry", Value: "false"}},
			kind:    types.FailureKindOverloaded, retryable: true, providerType: "overloaded_error", messageHas: "busy"},
		{name: "openai ratelimit reset and request id", provider: "openai-chat", status: 429,
			body:    `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`,
			headers: []provider.ResponseHeader{{Name: "x-ratelimit-reset-requests", Value: "1.5s"}, {Name: "x-request-id", Value: "req_abc"}},
			kind:    types.FailureKindRateLimit, retryable: true, retryAfterMs: 1500, providerType: "requests", requestID: "req_abc", messageHas: "Rate limit"},
		{name: "unknown provider", provider: "acme", status: 500, body: "x", kind: types.FailureKindUnknown, messageHas: "acme"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Plugin{}.ClassifyFailure([]byte(tt.body), provider.ClassifyOptions{Provider: tt.provider, Status: tt.status, Headers: tt.headers})
			if f.Kind != tt.kind || f.Retryable != tt.retryable || !strings.Contains(f.Message, tt.messageHas) {
				t.Errorf("failure %+v; want %v, retryable %v, message with %q", f, tt.kind, tt.retryable, tt.messageHas)
			}
			if got := deref(f.RetryAfterMs); got != tt.retryAfterMs {
				t.Errorf("retry after %d ms; want %d", got, tt.retryAfterMs)
			}
			if got := deref(f.ProviderType); got != tt.providerType {
				t.Errorf("provider type %q; want %q", got, tt.providerType)
			}
			if got := deref(f.RequestID); got != tt.requestID {
				t.Errorf("request id %q; want %q", got, tt.requestID)
			}
			if tt.kind != types.FailureKindUnknown && deref(f.HTTPStatus) != tt.status {
				t.Errorf("http status %v; want %d", f.HTTPStatus, tt.status)
			}
		})
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
