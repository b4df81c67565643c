package gemini_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/gemini"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

// buildRoot is the crate root of the native driver of the Rust builder
// (build.rs) and classifier (classify.rs); built with --test it runs
// their #[test]s.
const buildRoot = "testdata/driver_build_gemini.rs"

// TestRustBuildUnit runs the Rust builder's and classifier's own tests.
func TestRustBuildUnit(t *testing.T) {
	rustdriver.RunTests(t, buildRoot)
}

// buildDriver is that driver built with overflow checks.
func buildDriver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, buildRoot, "-C", "overflow-checks=on")
}

// goClassify traces Go's classification. A status outside 0..65535 is
// traced as 0, the port's one documented difference (norm's u16).
func goClassify(status int, h retryhint.Headers, body []byte, now time.Time) string {
	e := gemini.ClassifyResponse(status, h, body, now)
	if e.HTTPStatus < 0 || e.HTTPStatus > 65535 {
		e.HTTPStatus = 0
	}
	return string(normtrace.AppendError(nil, e))
}

// rustClassify traces the Rust classification through op 'c', passing
// the headers as the plugin glue does: a list, here in name order.
func rustClassify(tb testing.TB, status int, h retryhint.Headers, body []byte, now time.Time) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	list := make([][2]string, len(names))
	for i, k := range names {
		list[i] = [2]string{k, h[k]}
	}
	return string(buildDriver(tb).Ask(tb, 'c', normtrace.ClassifyPayload(status, list, body, now)))
}

// appendField appends b with its u32 LE length, as the driver reads a
// field.
func appendField(p, b []byte) []byte {
	p = binary.LittleEndian.AppendUint32(p, uint32(len(b)))
	return append(p, b...)
}

func compareClassify(t *testing.T, status int, h retryhint.Headers, body []byte, now time.Time) {
	t.Helper()
	want := goClassify(status, h, body, now)
	if got := rustClassify(t, status, h, body, now); got != want {
		t.Fatalf("gemini: the Rust classification of status %d, headers %q, body %q differs\n go:   %s\n rust: %s", status, h, body, want, got)
	}
}

// errorBodies are the recorded error bodies and hand-made ones for the
// paths they do not take.
func errorBodies(tb testing.TB) map[string][]byte {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtures.Root(tb), "google", "errors", "*.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("gemini: no recorded error bodies under google/errors (%v)", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		if strings.HasSuffix(p, ".expect.json") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	for name, body := range map[string]string{
		"bad key":          `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`,
		"expired key":      `{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_EXPIRED"}]}}`,
		"daily quota":      `{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]}]}}`,
		"daily with delay": `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"violations":[{"quotaId":"PerDay"}]},{"@type":"x/google.rpc.RetryInfo","retryDelay":"2s"}]}}`,
		"context overflow": `{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`,
		"not found":        `{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta","status":"NOT_FOUND"}}`,
		"overloaded":       `{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`,
		"internal":         `{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}`,
		"deadline":         `{"error":{"code":504,"status":"DEADLINE_EXCEEDED"}}`,
		"permission":       `{"error":{"code":403,"status":"PERMISSION_DENIED","message":"denied"}}`,
		"precondition":     `{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"User location is not supported for the API use."}}`,
		"unknown status":   `{"error":{"code":418,"status":"TEAPOT","message":"short and stout"}}`,
		"no status":        `{"error":{"message":"bare"}}`,
		"bad retry delay":  `{"error":{"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"soon"}]}}`,
		"huge retry delay": `{"error":{"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"99999999s"}]}}`,
		"folded keys":      "{\"ERROR\":{\"\u017ftatus\":\"UNAVAILABLE\",\"Code\":503,\"DETAILS\":[{\"REASON\":\"API_KEY_INVALID\"}]}}",
		"code of a type":   `{"error":{"code":"400","status":"INVALID_ARGUMENT"}}`,
		"error null":       `{"error":null}`,
		"an array":         `[{"error":{"code":400}}]`,
		"html":             "<html><body>502 Bad Gateway</body></html>",
		"invalid json":     `{"error":{"code":400,`,
		"invalid utf-8":    "{\"error\":{\"message\":\"\xff\xfe\",\"status\":\"INTERNAL\"}}",
		"long text":        strings.Repeat("\u00e9\x01 gateway timeout ", 30),
		"empty":            "",
	} {
		out[name] = []byte(body)
	}
	return out
}

// classifyHeaders are header sets as the glue passes them: names
// lower-cased, one value each.
var classifyHeaders = []retryhint.Headers{
	nil,
	{"retry-after": "7"},
	{"retry-after": "Mon, 30 Nov 2026 18:00:30 GMT", "x-request-id": "r"},
	{"retry-after-ms": "1500", "retry-after": "9"},
	{"x-ratelimit-reset-requests": "1m30s", "x-ratelimit-reset-tokens": "2s"},
	{"retry-after": "-1", "x-should-retry": "false"},
}

// classifyStatuses are the statuses each body is classified with.
var classifyStatuses = []int{0, 200, 400, 401, 403, 404, 408, 418, 429, 499, 500, 502, 503, 504, 599, 700, -1, 70000}

// TestRustClassify holds the Rust classification to Go's for every
// status × header set × body.
func TestRustClassify(t *testing.T) {
	now := time.Date(2026, 11, 30, 18, 0, 0, 250_000_000, time.UTC)
	for name, body := range errorBodies(t) {
		t.Run(name, func(t *testing.T) {
			for _, status := range classifyStatuses {
				for _, h := range classifyHeaders {
					compareClassify(t, status, h, body, now)
				}
			}
		})
	}
}

// headerNames are the names FuzzRustClassify gives its header values:
// the ones the hints are read from, and one they are not.
var headerNames = []string{"retry-after", "retry-after-ms", "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens", "x-other"}

// FuzzRustClassify classifies an arbitrary body with an arbitrary status,
// clock and header values (each line of headers is the value of the next
// of headerNames) in Go and in Rust and requires the same error.
func FuzzRustClassify(f *testing.F) {
	i := 0
	for _, body := range errorBodies(f) {
		h := []string{"", "7", "", "", "x"}
		if i%2 == 1 {
			h = []string{"Mon, 30 Nov 2026 18:00:30 GMT", "", "1m", "3s", ""}
		}
		f.Add(classifyStatuses[i%len(classifyStatuses)], []byte(strings.Join(h, "\n")), body, int64(1796061600), uint32(i*7919))
		i++
	}
	buildDriver(f)
	f.Fuzz(func(t *testing.T, status int, headers, body []byte, secs int64, nanos uint32) {
		secs %= 1 << 40 // keep time.Unix in its range
		nanos %= 1e9
		h := retryhint.Headers{}
		for i, v := range strings.SplitN(string(headers), "\n", len(headerNames)) {
			if v != "" {
				h[headerNames[i]] = v
			}
		}
		compareClassify(t, status, h, body, time.Unix(secs, int64(nanos)))
	})
}
