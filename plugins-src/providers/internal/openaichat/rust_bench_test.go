package openaichat_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
)

// benchChunkings are the ways BenchmarkDecodeGo and BenchmarkDecodeRust
// feed the recorded DeepSeek stream (117 KB, 403 events): one SSE event
// per chunk, as a server flushes them, and 4 KiB reads.
var benchChunkings = []splitting{
	{"event", perEvent},
	{"4KiB", func(b []byte) [][]byte { return sized(b, 4096) }},
}

func benchBody(b *testing.B) []byte {
	body, err := os.ReadFile(filepath.Join(fixtures.Root(b), "openai-compatible", "deepseek-length.sse"))
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkDecodeGo decodes the recorded DeepSeek stream with the Go
// decoder; ns/chunk is per Feed call.
func BenchmarkDecodeGo(b *testing.B) {
	body := benchBody(b)
	for _, c := range benchChunkings {
		chunks := c.split(body)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				d := openaichat.NewDecoder("openai-compatible")
				for _, ch := range chunks {
					d.Feed(ch)
				}
				d.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
		})
	}
}

// BenchmarkDecodeRust decodes the same stream with the Rust decoder built
// natively (-C opt-level=2, no overflow checks, as the plugin is built);
// the driver times the b.N runs itself, so ns/chunk excludes the pipe to
// it. Its event count must equal the Go decoder's.
func BenchmarkDecodeRust(b *testing.B) {
	body := benchBody(b)
	d := rustdriverStart(b)
	for _, c := range benchChunkings {
		chunks := c.split(body)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			req := appendChunks(binary.LittleEndian.AppendUint32(nil, uint32(b.N)), chunks)
			b.ResetTimer()
			rep := d.Ask(b, 'b', req)
			if len(rep) != 16 {
				b.Fatalf("driver reply %q, want 16 bytes", rep)
			}
			if events, want := binary.LittleEndian.Uint64(rep[8:]), uint64(b.N*goEvents(chunks)); events != want {
				b.Fatalf("the Rust decoder emitted %d events in %d runs, want %d as the Go decoder", events, b.N, want)
			}
			b.ReportMetric(float64(binary.LittleEndian.Uint64(rep))/float64(b.N*len(chunks)), "ns/chunk")
		})
	}
}

// goEvents is how many events the Go decoder emits for chunks.
func goEvents(chunks [][]byte) int {
	d := openaichat.NewDecoder("openai-compatible")
	n := 0
	for _, c := range chunks {
		n += len(d.Feed(c))
	}
	return n + len(d.Close())
}
