package sse_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/sse"
)

// benchSizes are the chunk sizes the fixture benchmarks feed: a small
// network read, a typical one, and a full buffer.
var benchSizes = []int{64, 512, 4096}

// BenchmarkFixtureGo frames the recorded DeepSeek stream (117 KB, 403
// events) with the Go framer; ns/chunk is per Feed call.
func BenchmarkFixtureGo(b *testing.B) {
	body := fixture(b)
	for _, size := range benchSizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			n := 0
			emit := func(sse.Item) { n++ }
			for b.Loop() {
				var f sse.Framer
				for i := 0; i < len(body); i += size {
					f.Feed(body[i:min(i+size, len(body))], emit)
				}
				f.Close(emit)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunkCount(len(body), size)), "ns/chunk")
		})
	}
}

// BenchmarkFixtureRust frames the same stream with the Rust port built
// natively (-C opt-level=2); the driver times the b.N runs itself, so
// ns/chunk excludes the pipe to it.
func BenchmarkFixtureRust(b *testing.B) {
	body := fixture(b)
	d := rustdriver.Start(b, "testdata/driver.rs")
	for _, size := range benchSizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			req := binary.LittleEndian.AppendUint32(nil, uint32(size))
			req = binary.LittleEndian.AppendUint32(req, uint32(b.N))
			req = append(req, body...)
			b.ResetTimer()
			rep := d.Ask(b, 'b', req)
			if len(rep) != 24 {
				b.Fatalf("driver reply %q, want 24 bytes", rep)
			}
			ns := binary.LittleEndian.Uint64(rep)
			if items, want := binary.LittleEndian.Uint64(rep[8:]), uint64(b.N*goItems(body)); items != want {
				b.Fatalf("rust framer reported %d items in %d runs, want %d as the Go framer", items, b.N, want)
			}
			b.ReportMetric(float64(ns)/float64(b.N*chunkCount(len(body), size)), "ns/chunk")
		})
	}
}

func fixture(b *testing.B) []byte {
	body, err := os.ReadFile("testdata/deepseek-length.sse")
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// goItems is how many items the Go framer reports for body.
func goItems(body []byte) int {
	var f sse.Framer
	n := 0
	f.Feed(body, func(sse.Item) { n++ })
	f.Close(func(sse.Item) { n++ })
	return n
}

func chunkCount(n, size int) int { return (n + size - 1) / size }
