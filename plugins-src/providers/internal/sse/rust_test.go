package sse_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/sse"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustUnit runs the Rust port's own tests (sse.rs, mod tests),
// through the driver, which includes the crate::norm that sse.rs needs.
func TestRustUnit(t *testing.T) {
	rustdriver.RunTests(t, "testdata/driver.rs")
}

// TestRustUnitWasm runs them built for wasm as the plugin is (the SIMD
// line search included), under wazero.
func TestRustUnitWasm(t *testing.T) {
	rustdriver.RunWasmTests(t, "testdata/driver.rs")
}

// TestRustFramer holds the Rust framer to the Go one on recorded and
// hand-made bodies, each whole, byte by byte and in uneven chunks.
func TestRustFramer(t *testing.T) {
	fixture, err := os.ReadFile("testdata/deepseek-length.sse")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		body string
	}{
		{"deepseek recording", string(fixture)},
		{"crlf with names and done", "event: a\r\ndata: 1\r\n\r\ndata: [DONE]\r\n\r\n"},
		{"cr only without a final blank line", "data: 1\r\rdata: 2\rdata: 3\r"},
		{"comments id retry and unknown fields", ": c\n\nid: 7\nretry: 1\nfoo: bar\ndata\ndata:x\n\n"},
		{"gemini bare json error after crlf events", "data: {}\r\n\r\n{\n  \"error\": 1\n}\n"},
		{"mixed endings", "data: a\r\ndata: b\ndata: c\r\n\n"},
		{"empty", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			for _, cuts := range [][]byte{nil, bytes.Repeat([]byte{1}, len(body)), {0, 3, 7, 1, 250, 2, 0, 9, 64, 5, 1, 1, 200}} {
				compare(t, body, cuts)
			}
		})
	}
}

// FuzzRustFramer feeds arbitrary bytes, cut into chunks at fuzzed points,
// to the Go and the Rust framer and requires the same items, stats after
// every chunk, and close result.
func FuzzRustFramer(f *testing.F) {
	f.Add([]byte("event: a\ndata: 1\n\n"), []byte{1, 2, 3})
	f.Add([]byte("data: x\r\n\r\ndata: [DONE]\r\n\r\n"), []byte{8, 0, 1})
	// Build the driver before the first input: every fuzz worker builds
	// its own, which on a loaded machine can outlast the 10 s a single
	// input may take before the worker counts as hung.
	driver(f)
	f.Fuzz(func(t *testing.T, body, cuts []byte) {
		compare(t, body, cuts)
	})
}

// driver is the Rust framer's driver built with overflow checks, so that
// arithmetic that would wrap in the plugin build fails the comparison.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, "testdata/driver.rs", "-C", "overflow-checks=on")
}

// chunks cuts body: each cut byte is the length of the next chunk (0 is
// an empty feed), and what the cuts leave is the last chunk.
func chunks(body, cuts []byte) [][]byte {
	var out [][]byte
	for _, c := range cuts {
		n := min(int(c), len(body))
		out = append(out, body[:n])
		body = body[n:]
	}
	return append(out, body)
}

func compare(t *testing.T, body, cuts []byte) {
	t.Helper()
	cs := chunks(body, cuts)
	want := goTrace(cs)
	var req []byte
	for _, c := range cs {
		req = binary.LittleEndian.AppendUint32(req, uint32(len(c)))
		req = append(req, c...)
	}
	got := driver(t).Ask(t, 'f', req)
	if !bytes.Equal(got, want) {
		t.Fatalf("body %q in chunks of %v: the Rust framer differs from the Go one\nrust: %s\n  go: %s", body, cuts, describe(got), describe(want))
	}
}

// goTrace is the Go framer's trace in the driver's format (see
// testdata/driver.rs).
func goTrace(chunks [][]byte) []byte {
	var f sse.Framer
	var out []byte
	emit := func(it sse.Item) {
		out = append(out, 'I', byte(it.Kind), b2u(it.Done))
		out = binary.LittleEndian.AppendUint32(out, uint32(len(it.Name)))
		out = append(out, it.Name...)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(it.Data)))
		out = append(out, it.Data...)
	}
	stats := func(tag byte) {
		s := f.Stats()
		out = append(out, tag, byte(len(s.LineEndings)))
		out = append(out, s.LineEndings...)
		out = append(out, b2u(s.EventLines))
		out = binary.LittleEndian.AppendUint64(out, uint64(s.Events))
		out = binary.LittleEndian.AppendUint64(out, uint64(s.CommentLines))
		out = append(out, b2u(s.Done), b2u(s.NonSSE))
		out = binary.LittleEndian.AppendUint64(out, uint64(s.Bytes))
	}
	for _, c := range chunks {
		f.Feed(c, emit)
		stats('S')
	}
	for range 2 {
		f.Close(emit)
		stats('C')
	}
	return out
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// describe renders a trace for a failure message.
func describe(tr []byte) string {
	var b strings.Builder
	bad := func() string { return b.String() + fmt.Sprintf(" <malformed: %q>", tr) }
	for len(tr) > 0 {
		switch tag := tr[0]; tag {
		case 'I':
			if len(tr) < 7 {
				return bad()
			}
			kind, done := tr[1], tr[2]
			tr = tr[3:]
			var name, data []byte
			for _, p := range []*[]byte{&name, &data} {
				if len(tr) < 4 || uint64(len(tr)-4) < uint64(binary.LittleEndian.Uint32(tr)) {
					return bad()
				}
				n := binary.LittleEndian.Uint32(tr)
				*p, tr = tr[4:4+n], tr[4+n:]
			}
			fmt.Fprintf(&b, "\n  item kind=%d done=%d name=%q data=%q", kind, done, name, data)
		case 'S', 'C':
			if len(tr) < 2 || len(tr) < 2+int(tr[1])+27 {
				return bad()
			}
			n := int(tr[1])
			e, rest := tr[2:2+n], tr[2+n:]
			fmt.Fprintf(&b, "\n  %c endings=%q eventLines=%d events=%d comments=%d done=%d nonSSE=%d bytes=%d", tag, e,
				rest[0], binary.LittleEndian.Uint64(rest[1:]), binary.LittleEndian.Uint64(rest[9:]), rest[17], rest[18], binary.LittleEndian.Uint64(rest[19:]))
			tr = rest[27:]
		default:
			return bad()
		}
	}
	return b.String()
}
