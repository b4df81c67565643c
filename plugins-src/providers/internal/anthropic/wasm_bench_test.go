package anthropic_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
	"github.com/tetratelabs/wazero/api"
)

// wasmGuest is the Rust decoder as a wasm module under wazero (see the
// exports of testdata/wasm_anthropic.rs).
type wasmGuest struct {
	*rustdriver.WasmGuest
	start, feed, close api.Function
	frame, read        api.Function // the first stages of feed alone
}

// newWasmGuest builds testdata/wasm_anthropic.rs as pluginbuild builds the
// plugin (rustdriver.BuildWasmGuest: its rustc flags, fuel-instrumented).
func newWasmGuest(b *testing.B) *wasmGuest {
	b.Helper()
	g := &wasmGuest{WasmGuest: rustdriver.BuildWasmGuest(b, "anthropic", filepath.Join("testdata", "wasm_anthropic.rs"), "anthropic_chunk")}
	fn := func(name string) api.Function { return g.Func(b, "anthropic_"+name) }
	g.start, g.feed, g.close, g.frame, g.read = fn("start"), fn("feed"), fn("close"), fn("frame"), fn("read")
	return g
}

// decode runs one stream through the guest and returns how many events
// it made.
func (g *wasmGuest) decode(b *testing.B, chunks [][]byte) int {
	return g.run(b, g.feed, chunks) + int(g.Call(b, g.close, 0))
}

// run starts a stream and passes each chunk to feed (the guest's feed,
// frame or read), returning the sum of what it returned.
func (g *wasmGuest) run(b *testing.B, feed api.Function, chunks [][]byte) int {
	g.Call(b, g.start, 0)
	n := 0
	for _, c := range chunks {
		g.Put(b, c)
		n += int(g.Call(b, feed, uint64(len(c))))
	}
	return n
}

// BenchmarkWasmStages times the Rust decoder compiled to wasm as the
// plugin will be (pluginbuild's flags, fuel-instrumented, wazero's
// optimizing compiler) on the longest recorded Anthropic stream, stage by
// stage: the SSE framer alone (frame), the framer and the reading of every
// event's JSON (read), and the whole decoder with its events left in the
// guest (decode; lowering them to the host is not included). The
// difference between two stages is the cost of the later one. Each
// iteration also decodes the stream with the Go decoder natively, so both
// see the same machine; metrics are of the fastest iterations, which a
// loaded machine disturbs least: x-native is the stage's time over the
// whole Go decoder's (the goal for decode is ≤ 2).
func BenchmarkWasmStages(b *testing.B) {
	body := longestFixture(b)
	g := newWasmGuest(b)
	stages := []struct {
		name string
		run  func(b *testing.B, chunks [][]byte) int
	}{
		{"frame", func(b *testing.B, chunks [][]byte) int { return g.run(b, g.frame, chunks) }},
		{"read", func(b *testing.B, chunks [][]byte) int { return g.run(b, g.read, chunks) }},
		{"decode", g.decode},
	}
	splits := []struct {
		name  string
		split func([]byte) [][]byte
	}{
		{"events", perEvent},
		{"4KiB", func(b []byte) [][]byte {
			var out [][]byte
			for ; len(b) > 4096; b = b[4096:] {
				out = append(out, b[:4096])
			}
			return append(out, b)
		}},
	}
	for _, st := range stages {
		for _, sp := range splits {
			chunks := sp.split(body)
			b.Run(st.name+"/"+sp.name, func(b *testing.B) {
				if st.run(b, chunks) == 0 {
					b.Fatalf("the %s stage saw no event", st.name)
				}
				if st.name == "decode" {
					d, want := anthropic.NewDecoder("anthropic"), 0
					for _, ch := range chunks {
						want += len(d.Feed(ch))
					}
					want += len(d.Close())
					if got := g.decode(b, chunks); got != want {
						b.Fatalf("the wasm decoder made %d events; the Go decoder %d", got, want)
					}
				}
				b.SetBytes(int64(len(body)))
				native, wasm := time.Duration(1<<62), time.Duration(1<<62)
				for b.Loop() {
					t0 := time.Now()
					d := anthropic.NewDecoder("anthropic")
					for _, ch := range chunks {
						d.Feed(ch)
					}
					d.Close()
					t1 := time.Now()
					st.run(b, chunks)
					native, wasm = min(native, t1.Sub(t0)), min(wasm, time.Since(t1))
				}
				n := float64(len(chunks))
				b.ReportMetric(float64(wasm)/float64(native), "x-native")
				b.ReportMetric(float64(wasm.Nanoseconds())/n, "wasm-ns/chunk")
				b.ReportMetric(float64(native.Nanoseconds())/n, "native-ns/chunk")
			})
		}
	}
}
