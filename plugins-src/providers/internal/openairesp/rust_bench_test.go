package openairesp_test

import (
	"encoding/binary"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/openairesp"
)

// benchFixture is the longest recorded Responses stream.
const benchFixture = "reasoning-summary-tool-call.sse"

// benchChunks is the fixture cut into one SSE event per chunk, as a
// server sends it.
func benchChunks(b *testing.B) [][]byte {
	body, ok := recordedStreams(b)[benchFixture]
	if !ok {
		b.Fatalf("openairesp: fixture %s is missing", benchFixture)
	}
	return perEvent(body)
}

// BenchmarkDecodeGo decodes the longest fixture, one event per chunk,
// with the Go decoder natively; ns/chunk is the time per chunk.
func BenchmarkDecodeGo(b *testing.B) {
	chunks := benchChunks(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		d := openairesp.NewDecoder("openai")
		for _, c := range chunks {
			d.Feed(c)
		}
		d.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(chunks)), "ns/chunk")
}

// BenchmarkDecodeRust decodes the same chunks with the Rust decoder,
// natively in the driver (built with the tests' flags), which times its
// own loop; ns/chunk is the time per chunk without the pipe.
func BenchmarkDecodeRust(b *testing.B) {
	chunks := benchChunks(b)
	d := driver(b)
	b.ResetTimer() // the build is not timed
	runs := uint32(b.N)
	reply := d.Ask(b, 'b', append(binary.LittleEndian.AppendUint32(nil, runs), payload(chunks)...))
	if len(reply) != 16 {
		b.Fatalf("openairesp: the driver's bench reply is %d bytes, want 16", len(reply))
	}
	ns := binary.LittleEndian.Uint64(reply)
	if events := binary.LittleEndian.Uint64(reply[8:]); events == 0 {
		b.Fatal("openairesp: the Rust decoder produced no events")
	}
	b.ReportMetric(float64(ns)/float64(b.N), "rust-ns/op")
	b.ReportMetric(float64(ns)/float64(b.N)/float64(len(chunks)), "ns/chunk")
}
