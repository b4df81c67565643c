package openairesp_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openairesp"
	"github.com/tetratelabs/wazero/api"
)

// wasmBenchRoot is the crate root of the wasm guest the benchmarks run.
var wasmBenchRoot = filepath.Join("testdata", "wasm_bench_openairesp.rs")

// wasmGuest is the Rust decoder as a wasm module under wazero (see
// testdata/wasm_bench_openairesp.rs).
type wasmGuest struct {
	*rustdriver.WasmGuest
	start, feed, close api.Function
	frame, scan        api.Function // the first stages of feed alone
}

// buildWasmGuest builds the guest as pluginbuild builds the plugin
// (rustdriver.BuildWasmGuest: its rustc flags, fuel-instrumented).
func buildWasmGuest(b *testing.B) *wasmGuest {
	b.Helper()
	g := &wasmGuest{WasmGuest: rustdriver.BuildWasmGuest(b, "openairesp", wasmBenchRoot, "chunk")}
	g.start, g.feed, g.close = g.Func(b, "start"), g.Func(b, "feed"), g.Func(b, "close")
	g.frame, g.scan = g.Func(b, "frame"), g.Func(b, "scan")
	return g
}

// run starts a stream and passes each chunk to feed (the guest's feed,
// frame or scan), returning the sum of what it returned.
func (g *wasmGuest) run(b *testing.B, feed api.Function, chunks [][]byte) int {
	g.Call(b, g.start, 0)
	n := 0
	for _, c := range chunks {
		g.Put(b, c)
		n += int(g.Call(b, feed, uint64(len(c))))
	}
	return n
}

// decode runs one stream through the guest's decoder and returns how
// many events it made.
func (g *wasmGuest) decode(b *testing.B, chunks [][]byte) int {
	return g.run(b, g.feed, chunks) + int(g.Call(b, g.close, 0))
}

// goEvents returns how many events the Go decoder makes of chunks.
func goEvents(chunks [][]byte) int {
	d := openairesp.NewDecoder("openai")
	n := 0
	for _, c := range chunks {
		n += len(d.Feed(c))
	}
	return n + len(d.Close())
}

// wasmChunkings are the ways the benchmarks cut the stream: one SSE event
// per chunk, as a server sends it, and 4 KiB reads.
var wasmChunkings = []struct {
	name  string
	split func([]byte) [][]byte
}{
	{"events", perEvent},
	{"4KiB", func(body []byte) [][]byte {
		var out [][]byte
		for len(body) > 4096 {
			out = append(out, body[:4096])
			body = body[4096:]
		}
		return append(out, body)
	}},
}

// BenchmarkWasmStages times the Rust decoder compiled to wasm as the
// plugin will be (pluginbuild's flags, fuel-instrumented, wazero's
// compiler) on the longest recorded stream, stage by stage, each run
// alone: the SSE framer (frame), the framer with a validating JSON scan
// of every event (scan), and the whole decoder (decode); the difference
// between two stages is the cost of the later one. The events stay in
// the guest: lowering them to the host is not included. Each stage is
// timed against the whole Go decoder natively in the same loop (vsGo),
// so x-native is the share of issue 6's ≤ 2× budget the stage takes.
func BenchmarkWasmStages(b *testing.B) {
	body, ok := recordedStreams(b)[benchFixture]
	if !ok {
		b.Fatalf("openairesp: fixture %s is missing", benchFixture)
	}
	g := buildWasmGuest(b)
	stages := []struct {
		name string
		run  func(b *testing.B, chunks [][]byte) int
	}{
		{"frame", func(b *testing.B, chunks [][]byte) int { return g.run(b, g.frame, chunks) }},
		{"scan", func(b *testing.B, chunks [][]byte) int { return g.run(b, g.scan, chunks) }},
		{"decode", g.decode},
	}
	for _, st := range stages {
		for _, c := range wasmChunkings {
			chunks := c.split(body)
			b.Run(st.name+"/"+c.name, func(b *testing.B) {
				if st.name == "decode" {
					if got, want := g.decode(b, chunks), goEvents(chunks); got != want {
						b.Fatalf("openairesp: the wasm decoder made %d events; the Go decoder %d", got, want)
					}
				} else if st.run(b, chunks) == 0 {
					b.Fatalf("openairesp: the %s stage saw no event", st.name)
				}
				b.SetBytes(int64(len(body)))
				vsGo(b, chunks, func() { st.run(b, chunks) })
			})
		}
	}
}

// vsGo times run against the Go decoder natively on the same chunks, in
// one loop, so that both see the same machine, and reports the fastest
// iteration of each per chunk (wasm-ns/chunk, native-ns/chunk) and their
// ratio (x-native): on a shared machine the fastest iteration is the one
// least disturbed.
func vsGo(b *testing.B, chunks [][]byte, run func()) {
	native, wasm := time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		t0 := time.Now()
		d := openairesp.NewDecoder("openai")
		for _, ch := range chunks {
			d.Feed(ch)
		}
		d.Close()
		t1 := time.Now()
		run()
		native, wasm = min(native, t1.Sub(t0)), min(wasm, time.Since(t1))
	}
	n := float64(len(chunks))
	b.ReportMetric(float64(wasm)/float64(native), "x-native")
	b.ReportMetric(float64(wasm.Nanoseconds())/n, "wasm-ns/chunk")
	b.ReportMetric(float64(native.Nanoseconds())/n, "native-ns/chunk")
}
