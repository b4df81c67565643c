package openaichat_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
)

// driverRoot is the crate root of the native driver (and of the Rust unit
// tests): it includes decode.rs and the modules it needs.
const driverRoot = "testdata/driver_openaichat.rs"

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// driver is the Rust decoder's driver built with overflow checks, so
// arithmetic that would wrap silently in the plugin build fails.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, driverRoot, "-C", "overflow-checks=on")
}

// TestRustUnit runs the #[test]s of decode.rs and its helpers (and of the
// modules the driver includes).
func TestRustUnit(t *testing.T) {
	rustdriver.RunTests(t, driverRoot)
}

// goDecode feeds chunks to the Go decoder and writes what the driver's op
// 'd' writes for the Rust one: per call a header line and the trace of
// the events it returned, then the framing facts.
func goDecode(provider string, chunks [][]byte) string {
	d := openaichat.NewDecoder(provider)
	var b strings.Builder
	for i, c := range chunks {
		fmt.Fprintf(&b, "feed %d\n", i)
		b.WriteString(trace(d.Feed(c)))
	}
	for range 2 {
		b.WriteString("close\n")
		b.WriteString(trace(d.Close()))
	}
	f := d.Framing()
	fmt.Fprintf(&b, "framing LineEndings=%q EventLines=%t Events=%d CommentLines=%d Done=%t NonSSE=%t\n",
		f.LineEndings, f.EventLines, f.Events, f.CommentLines, f.Done, f.NonSSE)
	return b.String()
}

// trace is normtrace.Trace with the one difference Rust forces made
// visible: an error's strings are Rust Strings, so the bytes of a Go
// string that are not UTF-8 (the decoder keeps a malformed error value's
// text as it came) are each U+FFFD there, as a []rune conversion shows
// them.
func trace(events []norm.Event) string {
	out := make([]norm.Event, len(events))
	for i, ev := range events {
		if se, ok := ev.(norm.StreamError); ok && se.Err != nil {
			e := *se.Err
			e.Message, e.ProviderType, e.Code = string([]rune(e.Message)), string([]rune(e.ProviderType)), string([]rune(e.Code))
			se.Err = &e
			ev = se
		}
		out[i] = ev
	}
	return normtrace.Trace(out)
}

// rustDecode asks the driver to decode chunks with the Rust decoder.
func rustDecode(tb testing.TB, provider string, chunks [][]byte) string {
	p := append([]byte{byte(len(provider))}, provider...)
	return string(driver(tb).Ask(tb, 'd', appendChunks(p, chunks)))
}

func appendChunks(p []byte, chunks [][]byte) []byte {
	for _, c := range chunks {
		p = binary.LittleEndian.AppendUint32(p, uint32(len(c)))
		p = append(p, c...)
	}
	return p
}

// compare decodes chunks with both decoders and fails on any difference.
func compare(t *testing.T, what, provider string, chunks [][]byte) {
	t.Helper()
	want := goDecode(provider, chunks)
	if got := rustDecode(t, provider, chunks); got != want {
		t.Fatalf("%s: the Rust decoder differs from the Go one:\n%s", what, firstDiff(got, want))
	}
}

// firstDiff shows the first differing line of two traces with its
// context.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			ctx := ""
			if i > 0 && i-1 < len(w) {
				ctx = w[i-1]
			}
			return fmt.Sprintf("line %d (after %q):\nRust: %s\nGo:   %s", i+1, ctx, gl, wl)
		}
	}
	return "(no differing line)"
}

// splitting is a way of cutting a body into chunks.
type splitting struct {
	name  string
	split func([]byte) [][]byte
}

var splittings = []splitting{
	{"whole", func(b []byte) [][]byte { return [][]byte{b} }},
	{"per event", perEvent},
	{"byte by byte", func(b []byte) [][]byte { return sized(b, 1) }},
}

// perEvent cuts body after every blank line, so that each chunk holds one
// SSE event (as a server flushes them).
func perEvent(body []byte) [][]byte {
	var out [][]byte
	start := 0
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '\n')
		if j < 0 {
			break
		}
		line := body[i : i+j]
		i += j + 1
		if len(bytes.TrimSuffix(line, []byte("\r"))) == 0 {
			out = append(out, body[start:i])
			start = i
		}
	}
	if start < len(body) {
		out = append(out, body[start:])
	}
	return out
}

// sized cuts body into chunks of size bytes.
func sized(body []byte, size int) [][]byte {
	var out [][]byte
	for i := 0; i < len(body); i += size {
		out = append(out, body[i:min(i+size, len(body))])
	}
	return out
}

// fixture is a recorded Chat Completions stream and the provider name its
// folder gives the decoder (as the conformance tests name it).
type fixture struct {
	name, provider string
	body           []byte
}

// chatFolders are the fixture folders recorded in this wire format.
var chatFolders = []string{"openai-chat", "openai-compatible"}

// fixtures reads every recorded stream of this wire format from
// plugins-src/providers/testdata/fixtures.
func recordedStreams(tb testing.TB) []fixture {
	tb.Helper()
	root := fixtures.Root(tb)
	var out []fixture
	for _, dir := range chatFolders {
		paths, err := filepath.Glob(filepath.Join(root, dir, "*.sse"))
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range paths {
			body, err := os.ReadFile(p)
			if err != nil {
				tb.Fatalf("openaichat: read fixture: %v", err)
			}
			out = append(out, fixture{name: dir + "/" + filepath.Base(p), provider: dir, body: body})
		}
	}
	if len(out) < 15 {
		tb.Fatalf("openaichat: found %d Chat Completions fixtures under %s, want at least 15", len(out), root)
	}
	return out
}

// TestRustFixtures holds the Rust decoder to the Go one on every recorded
// stream of this wire format, fed whole, one SSE event per chunk and byte
// by byte: the same events from the same calls, and the same framing.
func TestRustFixtures(t *testing.T) {
	for _, fx := range recordedStreams(t) {
		for _, s := range splittings {
			t.Run(fx.name+"/"+s.name, func(t *testing.T) {
				chunks := s.split(fx.body)
				want := goDecode(fx.provider, chunks)
				if !strings.Contains(want, "\nDone ") && !strings.Contains(want, "\nStreamError ") {
					t.Fatalf("the Go decoder ended %s without a terminal event:\n%s", fx.name, want)
				}
				compare(t, fx.name, fx.provider, chunks)
			})
		}
	}
}

// cases are bodies that reach what the fixtures do not: every error, the
// reasoning and content variants, tool calls without index or id, usage
// in every place, and error objects of every shape.
var cases = []struct{ name, body string }{
	{"empty body", ""},
	{"non-SSE line", "data: {\"id\":\"a\",\"choices\":[]}\n\n<html>oops \xff\u2028 " + strings.Repeat("é", 90) + "\n"},
	{"not JSON", "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: {\"id\":\n\n"},
	{"type mismatch is malformed", "data: {\"id\":5}\n\n"},
	{"unknown finish reason", "data: {\"choices\":[{\"delta\":{\"content\":\"x\"},\"finish_reason\":\"weird\\u0007é\"}]}\n\ndata: [DONE]\n\n"},
	{"finish reason error", "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"error\"}],\"usage\":{\"prompt_tokens\":3}}\n\n"},
	{"truncated with usage", "data: {\"id\":\"r\",\"model\":\"m\",\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\n"},
	{"no DONE after finish", "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\n"},
	{"null choice starts", "data: {\"choices\":[null]}\n\ndata: {\"choices\":[{\"finish_reason\":\"length\"}],\"x_groq\":{\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1}}}\n\n"},
	{"reasoning fields in order", "data: {\"choices\":[{\"delta\":{\"reasoning_content\":\"\",\"reasoning\":\"r1\",\"reasoning_text\":\"r2\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"reasoning_text\":\"r3\",\"content\":\"c\",\"refusal\":\"no\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"reasoning\":\"r4\"},\"finish_reason\":\"content_filter\"}]}\n\n"},
	{"reasoning details", `data: {"choices":[{"delta":{"reasoning_details":[{"type":"reasoning.text","text":"t","signature":"s1","format":"anthropic-claude-v1"},{"type":"reasoning.summary","summary":"sum"},{"type":"reasoning.encrypted","data":"enc=="},{"type":"reasoning.text","text":""},{"type":"other","data":"x"}]}}]}` + "\n\n" + `data: {"choices":[{"delta":{"reasoning":"r","reasoning_details":[{"text":"dropped","signature":"s2"}]},"finish_reason":"stop"}]}` + "\n\n"},
	{"content parts", `data: {"choices":[{"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"a"},{"text":"b\u00e9"}]},{"type":"text","text":"x"},{"type":"text","text":""},{"type":"image","text":"no"},{"type":"thinking","thinking":[]}]}}]}` + "\n\n" + `data: {"choices":[{"delta":{"content":[{"type":"text","text":5}]}}]}` + "\n\n" + `data: {"choices":[{"delta":{"content":{"type":"text"}}}]}` + "\n\n" + `data: {"choices":[{"delta":{"content":7},"finish_reason":"stop"}]}` + "\n\n"},
	{"tool calls by index, id and neither", `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{\"a\""}},{"index":1,"id":"c2","function":{"name":"g"}}]}}]}` + "\n\n" + `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":":1}"}},{"index":null,"id":"c3","function":{"arguments":"{}"}},{"function":{"arguments":"more"}}]}}]}` + "\n\n" + `data: {"choices":[{"delta":{"content":"after"},"finish_reason":"tool_calls"}]}` + "\n\n" + `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"late"}}]},"finish_reason":"tool_calls"}]}` + "\n\n"},
	{"anonymous tool calls", `data: {"choices":[{"delta":{"tool_calls":[{"function":{"name":"a","arguments":"1"}}]}}]}` + "\n\n" + `data: {"choices":[{"delta":{"tool_calls":[{"index":-9223372036854775808,"function":{"arguments":"2"}}]},"finish_reason":"function_call"}]}` + "\n\n"},
	{"error object", `data: {"id":"g","choices":[],"usage":{"prompt_tokens":4},"error":{"message":"Rate limit: try again in 2s","code":429,"metadata":{}}}` + "\n\n"},
	{"error string", `data: {"error":"upstream failed"}` + "\n\n"},
	{"error array with invalid UTF-8", "data: {\"error\":[\"\xff\xe2\x80\",1]}\n\n"},
	{"error with folded keys", "data: {\"error\":{\"MESSAGE\":\"context length exceeded\",\"\u017fype\":null,\"Code\":\"bad\",\"code\":null}}\n\n"},
	{"error lowered as Go lowers", `data: {"error":{"message":"Too many to\u212aens; MAX\u0130MUM CONTEXT","code":"400"}}` + "\n\n"},
	{"error with a folded message key and an object code", "data: {\"error\":{\"me\u017f\u017fage\":\"x\",\"type\":\"invalid_request_error\",\"code\":{\"n\":[1]}}}\n\n"},
	{"error with a wrong field type", `data: {"error":{"type":"server_is_overloaded","message":{"x":1}}}` + "\n\n"},
	{"null error is none", `data: {"error":null,"choices":[{"delta":{"content":"ok"},"finish_reason":"stop","usage":{"prompt_tokens":1}}],"usage":null}` + "\n\ndata: [DONE]\n\n"},
	{"events after the end are dropped", "data: {\"choices\":[{\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n"},
	{"CRLF comments and event lines", ": keep-alive\r\nevent: message\r\ndata: {\"id\":\"x\",\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\r\n\r\ndata: {\"choices\":[{\"finish_reason\":\"end_turn\"}]}\r\n\r\n"},
}

// TestRustCases holds the Rust decoder to the Go one on cases, fed whole
// and byte by byte.
func TestRustCases(t *testing.T) {
	for _, c := range cases {
		for _, s := range []splitting{splittings[0], splittings[2]} {
			t.Run(c.name+"/"+s.name, func(t *testing.T) {
				compare(t, c.name, "openrouter", s.split([]byte(c.body)))
			})
		}
	}
}

// cut splits body at the points cuts gives: each byte is the length of
// the next chunk less one, taken in turn; no cuts is the whole body.
func cut(body, cuts []byte) [][]byte {
	if len(cuts) == 0 {
		return [][]byte{body}
	}
	var out [][]byte
	for i, k := 0, 0; i < len(body); k++ {
		n := int(cuts[k%len(cuts)]) + 1
		out = append(out, body[i:min(i+n, len(body))])
		i += n
	}
	return out
}

// seedLimit bounds the fixture bodies FuzzRustDecoder starts from: the
// longest recorded streams (117 KB) make every mutation slow, and
// TestRustFixtures covers them whole.
const seedLimit = 16 << 10

// FuzzRustDecoder holds the Rust decoder to the Go one on arbitrary
// bodies cut into arbitrary chunks. Its seeds are the recorded fixtures
// (the first seedLimit bytes) and cases; testdata/fuzz holds the cases
// too.
func FuzzRustDecoder(f *testing.F) {
	for _, fx := range recordedStreams(f) {
		body := fx.body[:min(len(fx.body), seedLimit)]
		f.Add(body, []byte{})
		f.Add(body, []byte{7, 200, 0, 63})
	}
	for _, c := range cases {
		f.Add([]byte(c.body), []byte{3, 0, 17})
	}
	driver(f) // built before the first input, so a worker is not killed as hung
	f.Fuzz(func(t *testing.T, body, cuts []byte) {
		compare(t, "fuzzed body", "openrouter", cut(body, cuts))
	})
}

// rustdriverStart starts the driver as the plugin is built: without
// overflow checks.
func rustdriverStart(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, driverRoot)
}
