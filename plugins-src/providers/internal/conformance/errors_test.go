package conformance

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

type errorFixture struct {
	HTTPStatus      int               `json:"http_status"`
	ResponseHeaders map[string]string `json:"response_headers"`
	Expect          struct {
		Kind              string   `json:"kind"`
		Retryable         bool     `json:"retryable"`
		RetryAfterSeconds *float64 `json:"retry_after_seconds"`
		ProviderType      *string  `json:"provider_type"`
		RequestID         *string  `json:"request_id"`
	} `json:"expect"`
}

// TestFixturesErrors classifies every errors/NAME.json body as its
// errors/NAME.expect.json says.
func TestFixturesErrors(t *testing.T) {
	root := fixtures.Root(t)
	bodies, _ := filepath.Glob(filepath.Join(root, "*", "errors", "*.json"))
	n := 0
	for _, path := range bodies {
		if strings.HasSuffix(path, ".expect.json") {
			continue
		}
		n++
		vendor := filepath.Base(filepath.Dir(filepath.Dir(path)))
		name := vendor + "/errors/" + strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(strings.TrimSuffix(path, ".json") + ".expect.json")
			if err != nil {
				t.Fatalf("conformance: %s has no expect.json beside it: %v", path, err)
			}
			var fx errorFixture
			if err := json.Unmarshal(raw, &fx); err != nil {
				t.Fatalf("conformance: parse %s.expect.json: %v", name, err)
			}
			e, err := codec.ClassifyResponse(codec.API(vendorAPI(vendor)), fx.HTTPStatus, fx.ResponseHeaders, body, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			checkError(t, e, fx)
		})
	}
	if n == 0 {
		t.Fatalf("conformance: no errors/*.json fixtures under %s", root)
	}
}

func checkError(t *testing.T, e *norm.Error, fx errorFixture) {
	t.Helper()
	want := fx.Expect
	if string(e.Kind) != want.Kind || e.Retryable != want.Retryable {
		t.Errorf("kind/retryable: got %s/%v, want %s/%v (%v)", e.Kind, e.Retryable, want.Kind, want.Retryable, e)
	}
	var wantAfter time.Duration
	if want.RetryAfterSeconds != nil {
		wantAfter = time.Duration(math.Round(*want.RetryAfterSeconds * float64(time.Second)))
	}
	if e.RetryAfter != wantAfter {
		t.Errorf("retry after: got %v, want %v", e.RetryAfter, wantAfter)
	}
	if want.ProviderType != nil && e.ProviderType != *want.ProviderType || want.ProviderType == nil && e.ProviderType != "" {
		t.Errorf("provider type: got %q, want %v", e.ProviderType, show(want.ProviderType))
	}
	if want.RequestID != nil && e.RequestID != *want.RequestID || want.RequestID == nil && e.RequestID != "" {
		t.Errorf("request id: got %q, want %v", e.RequestID, show(want.RequestID))
	}
}

// classifyNow is the clock classifyCases' HTTP-date hints are relative to.
var classifyNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// classifyCase is a failed response no fixture records and its expected
// classification.
type classifyCase struct {
	name    string
	api     codec.API
	status  int
	headers retryhint.Headers
	body    string
	kind    norm.ErrorKind
	retry   bool
	after   time.Duration
	reqID   string
}

// classifyCases cover status/header/body combinations no fixture records:
// vendor retry signals, overload statuses, auth errors disguised as 400s,
// quota vs rate limit.
var classifyCases = []classifyCase{
	{"anthropic overloaded 529", codec.Anthropic, 529, retryhint.Headers{"request-id": "req_h"},
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_b"}`,
		norm.ErrOverloaded, true, 0, "req_b"},
	{"anthropic x-should-retry false wins", codec.Anthropic, 500, retryhint.Headers{"X-Should-Retry": "false", "request-id": "req_h"},
		`{"type":"error","error":{"type":"api_error","message":"Internal"}}`, norm.ErrServer, false, 0, "req_h"},
	{"anthropic retry-after-ms beats retry-after", codec.Anthropic, 429, retryhint.Headers{"retry-after-ms": "1500", "retry-after": "9"},
		`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, norm.ErrRateLimit, true, 1500 * time.Millisecond, ""},
	{"anthropic http-date retry-after", codec.Anthropic, 429, retryhint.Headers{"retry-after": "Fri, 02 Jan 2026 03:04:35 GMT"},
		`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, norm.ErrRateLimit, true, 30 * time.Second, ""},
	{"anthropic prompt too long", codec.Anthropic, 400, nil,
		`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`,
		norm.ErrContextOverflow, false, 0, ""},
	{"anthropic billing", codec.Anthropic, 402, nil,
		`{"type":"error","error":{"type":"billing_error","message":"credit balance too low"}}`, norm.ErrQuota, false, 0, ""},
	{"anthropic html from a proxy", codec.Anthropic, 502, nil, `<html>bad gateway</html>`, norm.ErrServer, true, 0, ""},
	{"openai invalid key is auth despite its type", codec.OpenAIChat, 401, retryhint.Headers{"x-request-id": "req_o"},
		`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
		norm.ErrAuth, false, 0, "req_o"},
	{"openai rate limit hint from the message", codec.OpenAIChat, 429, nil,
		`{"error":{"message":"Rate limit reached for gpt-5 on tokens per min. Please try again in 3.328s.","type":"tokens","code":"rate_limit_exceeded"}}`,
		norm.ErrRateLimit, true, 3328 * time.Millisecond, ""},
	{"openai rate limit reset header", codec.OpenAIResponses, 429, retryhint.Headers{"x-ratelimit-reset-tokens": "6m0s", "x-ratelimit-reset-requests": "120ms"},
		`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`,
		norm.ErrRateLimit, true, 6 * time.Minute, ""},
	{"openai context length", codec.OpenAIChat, 400, nil,
		`{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`,
		norm.ErrContextOverflow, false, 0, ""},
	{"openai quota is not retried even if told", codec.OpenAIChat, 429, retryhint.Headers{"x-should-retry": "true"},
		`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`,
		norm.ErrQuota, false, 0, ""},
	{"compatible server 503 without body", codec.OpenAIChat, 503, nil, ``, norm.ErrOverloaded, true, 0, ""},
	{"gemini bad key is a 400 but auth", codec.Gemini, 400, nil,
		`{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}`,
		norm.ErrAuth, false, 0, ""},
	{"gemini overloaded 503", codec.Gemini, 503, nil,
		`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`,
		norm.ErrOverloaded, true, 0, ""},
	{"gemini daily quota", codec.Gemini, 429, nil,
		`{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}}`,
		norm.ErrQuota, false, 0, ""},
	{"gemini context overflow", codec.Gemini, 400, nil,
		`{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`,
		norm.ErrContextOverflow, false, 0, ""},
	{"gemini model not found", codec.Gemini, 404, nil,
		`{"error":{"code":404,"message":"models/gemini-9 is not found","status":"NOT_FOUND"}}`, norm.ErrNotFound, false, 0, ""},
}

// TestClassifyResponses classifies every classifyCases response natively.
func TestClassifyResponses(t *testing.T) {
	for _, tt := range classifyCases {
		t.Run(tt.name, func(t *testing.T) {
			e, err := codec.ClassifyResponse(tt.api, tt.status, tt.headers, []byte(tt.body), classifyNow)
			if err != nil {
				t.Fatal(err)
			}
			if e.Kind != tt.kind || e.Retryable != tt.retry || e.RetryAfter != tt.after || e.RequestID != tt.reqID {
				t.Errorf("got kind %s retryable %v after %v request %q; want %s %v %v %q (%v)",
					e.Kind, e.Retryable, e.RetryAfter, e.RequestID, tt.kind, tt.retry, tt.after, tt.reqID, e)
			}
			if e.HTTPStatus != tt.status {
				t.Errorf("http status: got %d, want %d", e.HTTPStatus, tt.status)
			}
		})
	}
}
