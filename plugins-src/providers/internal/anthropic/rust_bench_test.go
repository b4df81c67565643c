package anthropic_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
)

// benchSizes are the chunk sizes the benchmarks feed: a small network
// read, a typical one, and a full buffer.
var benchSizes = []int{64, 512, 4096}

// BenchmarkDecodeGo decodes the longest recorded Anthropic body with the
// Go decoder; ns/chunk is per Feed call, Close included in the total.
func BenchmarkDecodeGo(b *testing.B) {
	body := longestFixture(b)
	for _, size := range benchSizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				d := anthropic.NewDecoder("anthropic")
				for i := 0; i < len(body); i += size {
					d.Feed(body[i:min(i+size, len(body))])
				}
				d.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunkCount(len(body), size)), "ns/chunk")
		})
	}
}

// BenchmarkDecodeRust decodes the same body with the Rust port built
// natively (-C opt-level=2); the driver times the b.N runs itself, so
// ns/chunk excludes the pipe to it.
func BenchmarkDecodeRust(b *testing.B) {
	body := longestFixture(b)
	d := rustdriver.Start(b, "testdata/driver_anthropic.rs") // as the plugin: no overflow checks
	for _, size := range benchSizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			req := binary.LittleEndian.AppendUint32(nil, uint32(size))
			req = binary.LittleEndian.AppendUint32(req, uint32(b.N))
			req = append(req, body...)
			b.ResetTimer()
			rep := d.Ask(b, 'b', req)
			if len(rep) != 16 {
				b.Fatalf("driver reply %q, want 16 bytes", rep)
			}
			ns := binary.LittleEndian.Uint64(rep)
			if events, want := binary.LittleEndian.Uint64(rep[8:]), uint64(b.N*goEvents(body)); events != want {
				b.Fatalf("the Rust decoder produced %d events in %d runs, want %d as the Go decoder", events, b.N, want)
			}
			b.ReportMetric(float64(ns)/float64(b.N*chunkCount(len(body), size)), "ns/chunk")
		})
	}
}

// longestFixture is the largest recorded body of the anthropic API.
func longestFixture(b *testing.B) []byte {
	var longest []byte
	for _, path := range anthropicFixtures(b) {
		body, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(body) > len(longest) {
			longest = body
		}
	}
	return longest
}

// goEvents is how many events the Go decoder produces for body.
func goEvents(body []byte) int {
	d := anthropic.NewDecoder("anthropic")
	return len(d.Feed(body)) + len(d.Close())
}

func chunkCount(n, size int) int { return (n + size - 1) / size }
