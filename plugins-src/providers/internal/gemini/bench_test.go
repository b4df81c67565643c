package gemini_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/gemini"
)

// rustdriverBench is the driver built as the plugin will be optimized
// (no overflow checks), for the benchmark.
func rustdriverBench(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, driverRoot, "-C", "overflow-checks=off")
}

// longestFixture returns the longest recorded Gemini stream, cut into one
// SSE event per chunk.
func longestFixture(b *testing.B) (string, [][]byte) {
	b.Helper()
	paths, err := filepath.Glob(filepath.Join(fixtures.Root(b), "google", "*.sse"))
	if err != nil || len(paths) == 0 {
		b.Fatalf("gemini: no google/*.sse fixtures (%v)", err)
	}
	var name string
	var body []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if len(data) > len(body) {
			name, body = filepath.Base(p), data
		}
	}
	return name, byEvent(body)
}

// BenchmarkDecodeGo decodes the longest recorded stream natively with the
// Go decoder, one SSE event per chunk, and reports ns per chunk.
func BenchmarkDecodeGo(b *testing.B) {
	_, chunks := longestFixture(b)
	events := 0
	b.ResetTimer()
	for range b.N {
		d := gemini.NewDecoder("google")
		for _, c := range chunks {
			events += len(d.Feed(c))
		}
		events += len(d.Close())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
	if events == 0 {
		b.Fatal("gemini: the Go decoder produced no events")
	}
}

// BenchmarkDecodeRust decodes the same chunks natively with the Rust
// decoder (timed inside the driver, so the pipe is not counted) and
// reports ns per chunk.
func BenchmarkDecodeRust(b *testing.B) {
	_, chunks := longestFixture(b)
	d := rustdriverBench(b)
	b.ResetTimer()
	payload := binary.LittleEndian.AppendUint32(nil, uint32(b.N))
	reply := d.Ask(b, 'b', frameChunks(payload, chunks))
	b.StopTimer()
	if len(reply) != 16 {
		b.Fatalf("gemini: the driver's bench reply is %d bytes, want 16", len(reply))
	}
	ns := binary.LittleEndian.Uint64(reply)
	if binary.LittleEndian.Uint64(reply[8:]) == 0 {
		b.Fatal("gemini: the Rust decoder produced no events")
	}
	b.ReportMetric(float64(ns)/float64(b.N*len(chunks)), "ns/chunk")
}
