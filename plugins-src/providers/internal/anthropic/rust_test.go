package anthropic_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustUnit runs the #[test]s of the Rust decoder (decode.rs, usage.rs,
// wire.rs, fastread.rs, opaque.rs) and of the modules its driver includes.
func TestRustUnit(t *testing.T) {
	rustdriver.RunTests(t, "testdata/driver_anthropic.rs")
}

// driver is the Rust decoder's driver for the comparisons, built with
// overflow checks so that arithmetic that would wrap in the plugin build
// fails the comparison, and without optimization (the later -C opt-level
// wins): on a loaded machine it builds in seconds instead of most of a
// minute, which every fuzz worker would spend before its first input.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, "testdata/driver_anthropic.rs", "-C", "overflow-checks=on", "-C", "opt-level=0")
}

// TestRustFixtures holds the Rust decoder to the Go one on every recorded
// body of the Messages API wire format under testdata/fixtures,
// fed whole, one SSE event per chunk, byte by byte and in uneven chunks.
func TestRustFixtures(t *testing.T) {
	paths := anthropicFixtures(t)
	for _, path := range paths {
		vendor := filepath.Base(filepath.Dir(path))
		name := vendor + "/" + strings.TrimSuffix(filepath.Base(path), ".sse")
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			for _, c := range chunkings {
				t.Run(c.name, func(t *testing.T) {
					compare(t, vendor, c.split(body))
				})
			}
		})
	}
}

// TestRustBodies compares the decoders on hand-made bodies that reach the
// paths the recordings do not: every failure, nulls and repeats, unknown
// stop reasons, server blocks, framing oddities.
func TestRustBodies(t *testing.T) {
	for _, tt := range handMade {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			for _, c := range chunkings {
				compare(t, "anthropic", c.split(body))
			}
		})
	}
}

// FuzzRustDecoder feeds arbitrary bytes, cut into chunks at fuzzed
// points, to the Go and the Rust decoder and requires the same events
// from every call and the same framing. The seeds are the recorded bodies
// and the hand-made ones.
func FuzzRustDecoder(f *testing.F) {
	for _, path := range anthropicFixtures(f) {
		body, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, []byte{17, 200, 3, 90})
	}
	for _, tt := range handMade {
		f.Add([]byte(tt.body), []byte{5, 1, 64})
	}
	// Build the driver before the first input, so a fuzz worker on a
	// loaded machine is not counted as hung while rustc runs.
	driver(f)
	f.Fuzz(func(t *testing.T, body, cuts []byte) {
		compare(t, "anthropic", cut(body, cuts))
	})
}

// FuzzRustPayloads reaches the JSON paths faster than arbitrary bytes:
// each line of the input is one event's data, so every mutation lands in
// an event payload. Cuts split the framed body as in FuzzRustDecoder.
func FuzzRustPayloads(f *testing.F) {
	f.Add([]byte(msgStart+"\n"+`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","input":{}}}`+"\n"+
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`+"\n"+endTurn+"\n"+msgStop), []byte{40})
	f.Add([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}}`), []byte{})
	f.Add([]byte(`{"type":"message_delta","usage":{"input_tokens":1,"output_tokens_details":{"thinking_tokens":2}}}`+"\n"+`{"type":"message_delta","delta":{"stop_reason":"x"}}`), []byte{9, 9})
	driver(f)
	f.Fuzz(func(t *testing.T, payloads, cuts []byte) {
		var body []byte
		for _, p := range bytes.Split(payloads, []byte("\n")) {
			body = append(append(append(body, "data: "...), p...), "\n\n"...)
		}
		compare(t, "anthropic", cut(body, cuts))
	})
}

// cut splits body: each cut byte is the length of the next chunk (0 is an
// empty feed), and what the cuts leave is the last chunk.
func cut(body, cuts []byte) [][]byte {
	var out [][]byte
	for _, c := range cuts {
		n := min(int(c), len(body))
		out = append(out, body[:n])
		body = body[n:]
	}
	return append(out, body)
}

// compare decodes chunks with both decoders and fails on the first
// difference.
func compare(t *testing.T, provider string, chunks [][]byte) {
	t.Helper()
	want := goTrace(provider, chunks)
	req := binary.LittleEndian.AppendUint32(nil, uint32(len(provider)))
	req = append(req, provider...)
	for _, c := range chunks {
		req = binary.LittleEndian.AppendUint32(req, uint32(len(c)))
		req = append(req, c...)
	}
	got := string(driver(t).Ask(t, 'd', req))
	if got != want {
		t.Fatalf("chunks %q: the Rust decoder differs from the Go one\n%s", chunks, diff(got, want))
	}
}

// goTrace is the Go decoder's trace in the driver's format (see
// testdata/driver_anthropic.rs).
func goTrace(provider string, chunks [][]byte) string {
	var b strings.Builder
	d := anthropic.NewDecoder(provider)
	for _, c := range chunks {
		ev := normtrace.Trace(d.Feed(c))
		b.WriteString("feed\n" + ev)
	}
	for range 2 {
		ev := normtrace.Trace(d.Close())
		b.WriteString("close\n" + ev)
	}
	b.WriteString(framingLine(d.Framing()))
	return b.String()
}

func framingLine(f norm.Framing) string {
	return fmt.Sprintf("Framing LineEndings=%q EventLines=%t Events=%d CommentLines=%d Done=%t NonSSE=%t\n",
		f.LineEndings, f.EventLines, f.Events, f.CommentLines, f.Done, f.NonSSE)
}

// diff shows the first differing line of two traces with its neighbours.
func diff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		if i < len(g) && i < len(w) && g[i] == w[i] {
			continue
		}
		line := func(l []string) string {
			if i < len(l) {
				return l[i]
			}
			return "<end>"
		}
		return fmt.Sprintf("line %d:\nrust: %s\n  go: %s", i+1, line(g), line(w))
	}
	return "the traces are equal"
}

// chunkings are the ways the tests feed a body.
var chunkings = []struct {
	name  string
	split func([]byte) [][]byte
}{
	{"whole", func(b []byte) [][]byte { return [][]byte{b} }},
	{"events", perEvent},
	{"bytes", func(b []byte) [][]byte { return cut(b, bytes.Repeat([]byte{1}, len(b))) }},
	{"uneven", func(b []byte) [][]byte { return cut(b, []byte{0, 3, 7, 1, 250, 2, 0, 9, 64, 5, 1, 1, 200, 13, 31}) }},
}

// perEvent splits a body after every blank line (LF LF, CRLF CRLF or
// CR CR), one SSE event per chunk.
func perEvent(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		end := -1
		for _, sep := range []string{"\r\n\r\n", "\n\n", "\r\r"} {
			if i := bytes.Index(b, []byte(sep)); i >= 0 && (end < 0 || i+len(sep) < end) {
				end = i + len(sep)
			}
		}
		if end < 0 {
			end = len(b)
		}
		out = append(out, b[:end])
		b = b[end:]
	}
	return out
}

// anthropicFixtures returns every recorded body whose expect.json names
// the anthropic API, in every vendor folder of the recorded fixtures.
func anthropicFixtures(tb testing.TB) []string {
	tb.Helper()
	root := fixtures.Root(tb)
	all, err := filepath.Glob(filepath.Join(root, "*", "*.sse"))
	if err != nil || len(all) == 0 {
		tb.Fatalf("anthropic: no *.sse fixtures under %s (%v)", root, err)
	}
	var out []string
	for _, path := range all {
		raw, err := os.ReadFile(strings.TrimSuffix(path, ".sse") + ".expect.json")
		if err != nil {
			tb.Fatalf("anthropic: %s has no expect.json beside it: %v", path, err)
		}
		var fx struct {
			Expect struct {
				API string `json:"api"`
			} `json:"expect"`
		}
		if err := json.Unmarshal(raw, &fx); err != nil {
			tb.Fatalf("anthropic: parse the expect.json of %s: %v", path, err)
		}
		if fx.Expect.API == "anthropic" {
			out = append(out, path)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("anthropic: no fixture under %s names the anthropic API", root)
	}
	return out
}
