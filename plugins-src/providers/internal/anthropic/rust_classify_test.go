package anthropic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
	"github.com/smith-agent/smith/plugins-src/providers/internal/retryhint"
)

// buildDriverRoot is the crate root of the native driver of the Rust
// request builder and failure classifier (and of their unit tests).
const buildDriverRoot = "testdata/driver_build_anthropic.rs"

// buildDriver is that driver, built with overflow checks so arithmetic
// that would wrap silently in the plugin build fails the comparison.
func buildDriver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, buildDriverRoot, "-C", "overflow-checks=on", "-C", "opt-level=0")
}

// TestRustBuildUnit runs the #[test]s of build.rs and classify.rs (and of
// the modules the driver includes).
func TestRustBuildUnit(t *testing.T) {
	rustdriver.RunTests(t, buildDriverRoot)
}

// respHeader is one response header as the host passes it: the name
// lower-cased, the first value of a repeated name.
type respHeader struct{ name, value string }

// response is one failed response to classify.
type response struct {
	status  uint16
	headers []respHeader
	body    []byte
	now     time.Time
}

// goClassify classifies r with anthropic.ClassifyResponse and traces the
// error as the driver's op 'c' does. A header's request id is a Rust
// String there, so each byte of it that is not UTF-8 is U+FFFD, as a
// []rune conversion shows it.
func goClassify(r response) string {
	h := retryhint.Headers{}
	for _, kv := range r.headers {
		if _, dup := h[kv.name]; !dup {
			h[kv.name] = kv.value
		}
	}
	e := anthropic.ClassifyResponse(int(r.status), h, r.body, r.now)
	e.RequestID = string([]rune(e.RequestID))
	return string(normtrace.AppendError(nil, e))
}

// rustClassify asks the driver to classify r; it sends the headers
// deduplicated as goClassify's map holds them.
func rustClassify(tb testing.TB, d *rustdriver.Driver, r response) string {
	var h [][2]string
	for _, kv := range r.headers {
		dup := false
		for _, seen := range h {
			dup = dup || seen[0] == kv.name
		}
		if !dup {
			h = append(h, [2]string{kv.name, kv.value})
		}
	}
	return string(d.Ask(tb, 'c', normtrace.ClassifyPayload(int(r.status), h, r.body, r.now)))
}

func compareClassify(t *testing.T, d *rustdriver.Driver, what string, r response) {
	t.Helper()
	want, got := goClassify(r), rustClassify(t, d, r)
	if got != want {
		t.Fatalf("%s: status %d, headers %q, body %q:\nGo   %s\nRust %s", what, r.status, r.headers, r.body, want, got)
	}
}

// errorBodies are the bodies the classifiers are compared on: hand-made
// API errors of every type the API documents and of odd shapes, bodies
// that are not API errors, and every recorded file of the Messages API
// fixtures (streams and request bodies are not API errors either, and
// long: the quoted excerpt is cut at 120 characters).
func errorBodies(t testing.TB) map[string][]byte {
	bodies := map[string][]byte{}
	for _, path := range anthropicFixtures(t) {
		base := strings.TrimSuffix(path, ".sse")
		for _, p := range []string{path, base + ".expect.json", base + ".request.json"} {
			b, err := os.ReadFile(p)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			bodies[filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p)] = b
		}
	}
	for _, typ := range []string{"invalid_request_error", "authentication_error", "permission_error", "billing_error",
		"not_found_error", "request_too_large", "rate_limit_error", "api_error", "timeout_error", "overloaded_error", "teapot_error", ""} {
		bodies["type "+typ] = []byte(`{"type":"error","error":{"type":"` + typ + `","message":"m"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`)
	}
	for name, b := range map[string]string{
		"prompt too long":      `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`,
		"too long elsewhere":   `{"type":"error","error":{"type":"api_error","message":"prompt is too long"}}`,
		"no request id":        `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		"folded keys":          "{\"ERROR\":{\"TYPE\":\"rate_limit_error\",\"meſſage\":\"folded\"},\"Request_ID\":\"r\"}",
		"escaped keys":         `{"\u0065rror":{"typ\u0065":"api_error","Mess\u0061ge":"m"},"request\u005fid":"r"}`,
		"kelvin is not k":      "{\"error\":{\"type\":\"x\",\"\u212aey\":1}}",
		"dotless i is not i":   "{\"error\":{\"type\":\"api_error\"},\"request_\u0131d\":\"r1\",\"REQUEST_\u0130D\":\"r2\"}",
		"duplicate error":      `{"error":{"type":"api_error"},"error":{"message":"second"}}`,
		"later null error":     `{"error":{"type":"api_error"},"error":null}`,
		"null then object":     `{"error":null,"error":{"message":"m"}}`,
		"null members":         `{"error":{"type":null,"message":null},"request_id":null}`,
		"wrong member types":   `{"error":{"type":["t"],"message":1,"type":"billing_error"},"request_id":5}`,
		"message then false":   `{"error":{"message":"kept","message":false}}`,
		"string error":         `{"error":"Invalid token","request_id":"r"}`,
		"number error":         `{"error":503}`,
		"bool error":           `{"error":true}`,
		"array error":          `{"error":[{"type":"api_error"}]}`,
		"empty error":          `{"error":{}}`,
		"empty object":         `{}`,
		"null":                 `null`,
		"array":                `[{"error":{"type":"api_error"}}]`,
		"string":               `"error"`,
		"invalid UTF-8 type":   "{\"error\":{\"type\":\"\xff\xfe\",\"message\":\"bad \xc3( byte\"},\"request_id\":\"\xe2\x82\"}",
		"lone surrogate":       `{"error":{"message":"\ud800\udc00\ud800x"}}`,
		"plain text":           `Bad Gateway`,
		"html":                 `<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>`,
		"empty":                ``,
		"spaces":               " \n\t",
		"truncated":            `{"error":{"type":"api_error","message":"cut`,
		"trailing garbage":     `{"error":{"type":"api_error"}} x`,
		"two values":           `{"error":{}}{"error":{}}`,
		"long text":            strings.Repeat("é\x00\"\\ \u2028\U0001F600", 40),
		"invalid UTF-8 text":   "\xff\xfe\xc3(\xed\xa0\x80",
		"deep":                 strings.Repeat(`{"error":`, 10001) + `1` + strings.Repeat(`}`, 10001),
		"deep inside an error": `{"error":{"type":"api_error","x":` + strings.Repeat(`[`, 9998) + strings.Repeat(`]`, 9998) + `}}`,
		"too deep in an error": `{"error":{"type":"api_error","x":` + strings.Repeat(`[`, 9999) + strings.Repeat(`]`, 9999) + `}}`,
	} {
		bodies[name] = []byte(b)
	}
	return bodies
}

// headerSets are the header lists the bodies are classified with.
var headerSets = [][]respHeader{
	nil,
	{{"request-id", "req_h"}},
	{{"retry-after-ms", "1500"}, {"retry-after", "9"}},
	{{"retry-after", "2.5"}, {"x-should-retry", "false"}},
	{{"retry-after", "Mon, 30 Nov 2026 18:00:10 GMT"}, {"x-should-retry", "True"}},
	{{"retry-after", "soon"}, {"x-ratelimit-reset-requests", "1m30s"}, {"x-ratelimit-reset-tokens", "6ms"}},
	{{"x-should-retry", "yes"}, {"retry-after-ms", "-1"}, {"request-id", "req_\xff\xe2\x82"}},
	{{"request-id", "first"}, {"request-id", "second"}},
	{{"retry-after", "99999999999"}, {"request-id", ""}},
}

var statuses = []uint16{0, 200, 400, 401, 402, 403, 404, 408, 413, 418, 429, 499, 500, 502, 503, 504, 529, 599, 600, 65535}

// TestRustClassifyResponse holds the Rust classify_response to Go's
// ClassifyResponse on every body × status × header set.
func TestRustClassifyResponse(t *testing.T) {
	d := buildDriver(t)
	now := time.Date(2026, 11, 30, 18, 0, 0, 250_000_000, time.UTC)
	n := 0
	for name, body := range errorBodies(t) {
		for _, st := range statuses {
			for _, h := range headerSets {
				compareClassify(t, d, name, response{status: st, headers: h, body: body, now: now})
				n++
			}
		}
	}
	t.Logf("%d failed responses classified alike", n)
}

// FuzzRustClassifyResponse compares the classifiers on arbitrary bodies,
// statuses, clocks and headers, seeded with errorBodies' short bodies. headerText holds "name: value" lines; a
// name is lower-cased as the host lower-cases it, and one that folds to
// an earlier name is dropped, since Go's map lookup by folding would pick
// among them at random.
func FuzzRustClassifyResponse(f *testing.F) {
	f.Add(uint16(529), "request-id: req_h", []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_b"}`), int64(1764525600), uint32(0))
	f.Add(uint16(429), "retry-after-ms: 1500\nretry-after: 9\nx-should-retry: false", []byte(`{"error":{"type":"rate_limit_error"}}`), int64(0), uint32(0))
	f.Add(uint16(502), "", []byte(`<html>bad gateway</html>`), int64(-1), uint32(1_500_000_000))
	f.Add(uint16(400), "retry-after: Mon, 30 Nov 2026 18:00:10 GMT", []byte(`{"Error":"x","REQUEST_ID":"r"}`), int64(1764525600), uint32(999_999_999))
	f.Add(uint16(400), "", []byte(`{"error":{"type":"invalid_request_error","message":"prompt is too long"}}`), int64(0), uint32(0))
	for _, body := range errorBodies(f) {
		if len(body) < 4096 {
			f.Add(uint16(400), "request-id: r\nretry-after: 1", body, int64(1764525600), uint32(5))
		}
	}
	d := buildDriver(f)
	f.Fuzz(func(t *testing.T, status uint16, headerText string, body []byte, secs int64, nanos uint32) {
		var h []respHeader
		for _, line := range strings.Split(headerText, "\n") {
			name, value, _ := strings.Cut(line, ":")
			name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
			dup := false
			for _, kv := range h {
				dup = dup || strings.EqualFold(kv.name, name)
			}
			if !dup {
				h = append(h, respHeader{name, value})
			}
		}
		compareClassify(t, d, "fuzz", response{status: status, headers: h, body: body, now: time.Unix(secs, int64(nanos))})
	})
}
