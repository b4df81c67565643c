package anthropic_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
	"github.com/smith-agent/smith/wasmhost"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// wasmGuest is the Rust decoder as a wasm module under wazero (see the
// exports of testdata/wasm_anthropic.rs).
type wasmGuest struct {
	rt                        wazero.Runtime
	mem                       api.Memory
	chunk, start, feed, close api.Function
	frame, read               api.Function // the first stages of feed alone
	buf                       uint32       // the guest's chunk buffer
	bufLen                    int
	fuel                      api.MutableGlobal
	stack                     []uint64
}

// newWasmGuest builds testdata/wasm_anthropic.rs with tools/pluginbuild's
// rustc flags (rustdriver.BuildWasm), instruments it for fuel as
// pluginbuild does, and instantiates it under wazero's compiler with a
// fuel module that only refills the fuel, grows the memory and refuses a
// call-depth overflow.
func newWasmGuest(b *testing.B) *wasmGuest {
	b.Helper()
	module, err := wasmhost.Instrument(rustdriver.BuildWasm(b, filepath.Join("testdata", "wasm_anthropic.rs")))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	g := &wasmGuest{rt: wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler()), stack: make([]uint64, 1)}
	b.Cleanup(func() { g.rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, g.rt)
	_, err = g.rt.NewHostModuleBuilder("wasmhost").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
		g.fuel.Set(1 << 62)
	}), nil, nil).Export("yield").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, m api.Module, s []uint64) {
		old, ok := m.Memory().Grow(uint32(s[0]))
		if !ok {
			s[0] = uint64(0xffffffff)
			return
		}
		s[0] = uint64(old)
	}), []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).Export("grow").
		NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
		panic("anthropic: the wasm decoder nested calls beyond the depth budget")
	}), nil, nil).Export("depth").
		Instantiate(ctx)
	if err != nil {
		b.Fatal(err)
	}
	mod, err := g.rt.InstantiateWithConfig(ctx, module, wazero.NewModuleConfig().WithName("anthropic"))
	if err != nil {
		b.Fatal(err)
	}
	g.mem = mod.Memory()
	fn := func(name string) api.Function { return mod.ExportedFunction("anthropic_" + name) }
	g.chunk, g.start, g.feed, g.close, g.frame, g.read = fn("chunk"), fn("start"), fn("feed"), fn("close"), fn("frame"), fn("read")
	if fuel, ok := mod.ExportedGlobal("wasmhost.fuel").(api.MutableGlobal); ok {
		g.fuel = fuel
		g.fuel.Set(1 << 62)
		mod.ExportedGlobal("wasmhost.depth").(api.MutableGlobal).Set(1 << 16)
	}
	return g
}

// call runs f with one argument and returns its result, if any.
func (g *wasmGuest) call(b *testing.B, f api.Function, arg uint64) uint64 {
	g.stack[0] = arg
	if err := f.CallWithStack(context.Background(), g.stack); err != nil {
		b.Fatal(err)
	}
	return g.stack[0]
}

// decode runs one stream through the guest and returns how many events
// it made.
func (g *wasmGuest) decode(b *testing.B, chunks [][]byte) int {
	return g.run(b, g.feed, chunks) + int(g.call(b, g.close, 0))
}

// run starts a stream and passes each chunk to feed (the guest's feed,
// frame or read), returning the sum of what it returned.
func (g *wasmGuest) run(b *testing.B, feed api.Function, chunks [][]byte) int {
	g.call(b, g.start, 0)
	n := 0
	for _, c := range chunks {
		if len(c) > g.bufLen {
			g.buf, g.bufLen = uint32(g.call(b, g.chunk, uint64(len(c)))), len(c)
		}
		if !g.mem.Write(g.buf, c) {
			b.Fatalf("anthropic: the guest's chunk buffer at %#x does not hold %d bytes", g.buf, len(c))
		}
		n += int(g.call(b, feed, uint64(len(c))))
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
					if got := g.decode(b, chunks); got != want+len(d.Close()) {
						b.Fatalf("the wasm decoder made %d events; the Go decoder %d", got, want+len(d.Close()))
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
