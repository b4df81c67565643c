package providers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// failedResponse is one failed HTTP response served to the bridge.
type failedResponse struct {
	name   string
	status int
	header map[string]string
	body   string
}

// classifyCases cover status/header/body combinations no fixture records:
// vendor retry signals, overload statuses, auth errors disguised as 400s,
// quota against rate limit, retry hints in every documented form.
var classifyCases = []failedResponse{
	{"anthropic overloaded 529", 529, map[string]string{"request-id": "req_h"},
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_b"}`},
	{"anthropic x-should-retry false wins", 500, map[string]string{"X-Should-Retry": "false", "request-id": "req_h"},
		`{"type":"error","error":{"type":"api_error","message":"Internal"}}`},
	{"anthropic retry-after-ms beats retry-after", 429, map[string]string{"retry-after-ms": "1500", "retry-after": "9"},
		`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`},
	{"anthropic prompt too long", 400, nil,
		`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`},
	{"anthropic billing", 402, nil, `{"type":"error","error":{"type":"billing_error","message":"credit balance too low"}}`},
	{"anthropic html from a proxy", 502, nil, `<html>bad gateway</html>`},
	{"openai invalid key is auth despite its type", 401, map[string]string{"x-request-id": "req_o"},
		`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`},
	{"openai rate limit hint from the message", 429, nil,
		`{"error":{"message":"Rate limit reached for gpt-5 on tokens per min. Please try again in 3.328s.","type":"tokens","code":"rate_limit_exceeded"}}`},
	{"openai rate limit hint in minutes and seconds", 429, nil,
		`{"error":{"message":"Rate limit reached. Please try again in 1m30.5s. Visit our docs.","type":"tokens","code":"rate_limit_exceeded"}}`},
	{"openai rate limit hint in milliseconds", 429, nil,
		`{"error":{"message":"Please try again in 250ms.","type":"requests","code":"rate_limit_exceeded"}}`},
	{"openai rate limit reset header", 429, map[string]string{"x-ratelimit-reset-tokens": "6m0s", "x-ratelimit-reset-requests": "120ms"},
		`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`},
	{"openai context length", 400, nil,
		`{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`},
	{"openai quota is not retried even if told", 429, map[string]string{"x-should-retry": "true"},
		`{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`},
	{"compatible server 503 without body", 503, nil, ``},
	{"retry-after decimal seconds", 429, map[string]string{"retry-after": "2.5"}, `{"error":{"message":"slow"}}`},
	{"retry-after beyond a day is clamped", 429, map[string]string{"retry-after": "999999999"}, `{"error":{"message":"slow"}}`},
	{"retry-after garbage is ignored", 429, map[string]string{"retry-after": "soon", "retry-after-ms": "-4"}, `{"error":{"message":"slow"}}`},
	{"gemini bad key is a 400 but auth", 400, nil,
		`{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}`},
	{"gemini overloaded 503", 503, nil,
		`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`},
	{"gemini daily quota", 429, nil,
		`{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}}`},
	{"gemini retry info", 429, nil,
		`{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"37s"}]}}`},
	{"gemini context overflow", 400, nil,
		`{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`},
	{"gemini model not found", 404, nil, `{"error":{"code":404,"message":"models/gemini-9 is not found","status":"NOT_FOUND"}}`},
}

// errorFixture is the part of a recorded errors/NAME.expect.json the
// bridge needs: the response's status and headers.
type errorFixture struct {
	HTTPStatus      int               `json:"http_status"`
	ResponseHeaders map[string]string `json:"response_headers"`
}

// TestClassifyGolden serves failed responses — every recorded error body,
// classifyCases, and bodies of the wrong shape under every failure status
// — through the bridge for every declared provider; the classified errors
// are the ones in testdata/golden/classify/*.txt.
func TestClassifyGolden(t *testing.T) {
	var recorded []failedResponse
	paths, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", "errors", "*.json"))
	for _, path := range paths {
		if strings.HasSuffix(path, ".expect.json") {
			continue
		}
		var fx errorFixture
		if err := json.Unmarshal(mustRead(t, strings.TrimSuffix(path, ".json")+".expect.json"), &fx); err != nil {
			t.Fatal(err)
		}
		recorded = append(recorded, failedResponse{strings.TrimPrefix(path, fixtureRoot+"/"), fx.HTTPStatus, fx.ResponseHeaders, string(mustRead(t, path))})
	}
	if len(recorded) == 0 {
		t.Fatalf("no errors/*.json under %s", fixtureRoot)
	}
	var shapes []failedResponse
	for _, st := range []int{400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529} {
		for i, b := range []string{"", "not json", "{}", `{"error":null}`, `{"error":"plain"}`, `[1,2]`, "{\"error\":{\"message\":\"\xff\"}}"} {
			shapes = append(shapes, failedResponse{fmt.Sprintf("status %d body %d", st, i), st,
				map[string]string{"x-request-id": "req_1", "retry-after": "2"}, b})
		}
	}
	for _, group := range []struct {
		name  string
		cases []failedResponse
	}{{"recorded", recorded}, {"cases", classifyCases}, {"shapes", shapes}} {
		t.Run(group.name, func(t *testing.T) {
			var out strings.Builder
			for _, c := range group.cases {
				for _, name := range declaredProviders {
					evs, url := classify(t, name, c)
					fmt.Fprintf(&out, "%s | %s: %s", c.name, name, strings.ReplaceAll(trace(evs), url, "http://loopback"))
				}
			}
			golden(t, filepath.Join("classify", group.name+".txt"), []byte(out.String()))
		})
	}
}

// TestClassifyHTTPDate resolves an IMF-fixdate Retry-After against the
// clock: 30 s ahead waits about 30 s.
func TestClassifyHTTPDate(t *testing.T) {
	at := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	for _, name := range declaredProviders {
		evs, _ := classify(t, name, failedResponse{"date", 429, map[string]string{"retry-after": at}, `{"error":{"message":"slow"}}`})
		e, ok := evs[len(evs)-1].(model.StreamError)
		if !ok || e.Err.RetryAfterMillis < 27_000 || e.Err.RetryAfterMillis > 31_000 {
			t.Errorf("%s: Retry-After %q gave %s, want a wait of about 30 s", name, at, trace(evs))
		}
	}
}

// classify serves r to the bridge for provider name and returns the
// events of the stream (one StreamError) and the server's URL.
func classify(t testing.TB, name string, r failedResponse) ([]model.StreamEvent, string) {
	t.Helper()
	srv := newLoopback(t)
	hdr := map[string]string{"content-type": "application/json"}
	for k, v := range r.header {
		hdr[k] = v
	}
	srv.respond(r.status, hdr, [][]byte{[]byte(r.body)})
	p := bridge(t, name, srv.URL, nil)
	return pull(t, p, &model.Request{Model: "golden-model", Messages: []model.Message{model.UserText("hi")}}), srv.URL
}
