package openairesp_test

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
	"github.com/smith-agent/smith/plugins-src/providers/internal/openairesp"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// driverRoot is the crate root of the Rust decoder's native driver; built
// with --test it runs the #[test]s of decode.rs (and of the
// modules it includes).
const driverRoot = "testdata/driver_openairesp.rs"

// TestRustUnit runs the Rust port's own tests.
func TestRustUnit(t *testing.T) {
	rustdriver.RunTests(t, driverRoot)
}

// driver is the Rust decoder's driver, built with overflow checks so that
// arithmetic that would wrap in the plugin build fails the comparison.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, driverRoot, "-C", "overflow-checks=on")
}

// payload encodes chunks as the driver's cuts and body: every chunk but
// the last is a cut, the last is the rest of the body.
func payload(chunks [][]byte) []byte {
	var p []byte
	n := max(len(chunks)-1, 0)
	p = binary.LittleEndian.AppendUint32(p, uint32(n))
	for _, c := range chunks[:n] {
		p = binary.LittleEndian.AppendUint32(p, uint32(len(c)))
	}
	for _, c := range chunks {
		p = append(p, c...)
	}
	return p
}

// goTrace decodes chunks with the Go decoder and writes what the Rust
// driver writes for them: per feed and per close (twice) its events'
// trace and the framing facts.
func goTrace(chunks [][]byte) string {
	var b strings.Builder
	d := openairesp.NewDecoder("openai")
	framing := func() {
		f := d.Framing()
		fmt.Fprintf(&b, "Framing LineEndings=%q EventLines=%t Events=%d CommentLines=%d Done=%t NonSSE=%t\n",
			f.LineEndings, f.EventLines, f.Events, f.CommentLines, f.Done, f.NonSSE)
	}
	for _, c := range chunks {
		b.WriteString("feed\n")
		b.WriteString(normtrace.Trace(validErrors(d.Feed(c))))
		framing()
	}
	for range 2 {
		b.WriteString("close\n")
		b.WriteString(normtrace.Trace(validErrors(d.Close())))
		framing()
	}
	return b.String()
}

// validErrors returns events with the ProviderType and Code of a
// StreamError's error made valid UTF-8, each invalid byte U+FFFD: the one
// place the Go decoder makes a string that is not (the JSON text of an
// error code that is not a string, with invalid UTF-8 in a nested
// string), which a Rust String cannot hold (decode.rs, code_string).
func validErrors(events []norm.Event) []norm.Event {
	out := make([]norm.Event, len(events))
	for i, ev := range events {
		if se, ok := ev.(norm.StreamError); ok && se.Err != nil {
			e := *se.Err
			e.ProviderType, e.Code = string([]rune(e.ProviderType)), string([]rune(e.Code))
			se.Err = &e
			ev = se
		}
		out[i] = ev
	}
	return out
}

// compare decodes chunks with both decoders and fails on any difference.
func compare(t *testing.T, d *rustdriver.Driver, chunks [][]byte) {
	t.Helper()
	if len(chunks) == 0 {
		chunks = [][]byte{nil}
	}
	want := goTrace(chunks)
	got := string(d.Ask(t, 'd', payload(chunks)))
	if got != want {
		t.Fatalf("openairesp: the Rust decoder differs from the Go one on %d chunks of %q\n%s", len(chunks), bytes.Join(chunks, nil), firstDiff(want, got))
	}
}

// firstDiff shows the first line where the traces differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n go:   %s\n rust: %s", i+1, wl, gl)
		}
	}
	return "(equal)"
}

// Three chunkings of a body: whole, one SSE event per chunk, byte by byte.
func whole(body []byte) [][]byte { return [][]byte{body} }

func perEvent(body []byte) [][]byte {
	var out [][]byte
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		if j := bytes.Index(body, []byte("\r\n\r\n")); j >= 0 && (i < 0 || j < i) {
			i = j + 2
		}
		if i < 0 {
			break
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return append(out, body)
}

func byteByByte(body []byte) [][]byte {
	out := make([][]byte, 0, len(body))
	for i := range body {
		out = append(out, body[i:i+1])
	}
	return out
}

// recordedStreams returns the recorded Responses API streams (the
// openai-responses fixtures, mapped to this codec as the conformance
// tests map them), by name.
func recordedStreams(tb testing.TB) map[string][]byte {
	tb.Helper()
	dir := filepath.Join(fixtures.Root(tb), "openai-responses")
	paths, err := filepath.Glob(filepath.Join(dir, "*.sse"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("openairesp: no *.sse fixtures in %s (%v); restore plugins-src/providers/testdata/fixtures from git", dir, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// TestRustFixtures holds the Rust decoder to the Go one on every recorded
// Responses stream, fed whole, one SSE event per chunk and byte by byte.
func TestRustFixtures(t *testing.T) {
	d := driver(t)
	for name, body := range recordedStreams(t) {
		t.Run(name, func(t *testing.T) {
			for _, chunks := range [][][]byte{whole(body), perEvent(body), byteByByte(body)} {
				compare(t, d, chunks)
			}
			// The trace must see the decoder's work, not an empty stream.
			if tr := goTrace(whole(body)); !strings.Contains(tr, "Start ") {
				t.Fatalf("openairesp: fixture %s decodes to no Start event:\n%s", name, tr)
			}
		})
	}
}
