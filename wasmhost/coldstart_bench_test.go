package wasmhost

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wabin/binary"
	"github.com/tetratelabs/wabin/wasm"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// coldStart is one way of getting a system plugin from its bytes to the
// end of its first turn.
type coldStart struct {
	name  string
	tiers tiers
	// cache keeps compiled code in a directory; warm fills it before the
	// timed runs, otherwise each run starts with an empty one.
	cache, warm bool
}

var coldStarts = []coldStart{
	// The optimizing compiler alone (before the interpreter tier): a
	// first-ever start, then every later one.
	{name: "compiler/cold", tiers: tiersCompiler, cache: true},
	{name: "compiler/warm", tiers: tiersCompiler, cache: true, warm: true},
	// The interpreter alone, no cache.
	{name: "interpreter", tiers: tiersInterpreter},
	// The default: the interpreter while the optimizing compiler runs in
	// the background on a cache miss; the compiled code on a hit.
	{name: "tiered/cold", cache: true},
	{name: "tiered/warm", cache: true, warm: true},
}

// BenchmarkColdStart measures the levers for the first-ever turn on an
// empty compile cache for each committed system plugin. Each run is one
// start: a new engine compiles the plugin (compile-ms), acquires an
// instance and runs the plugin's turn (first-turn-ms: instantiation and
// the calls of providerTurn or toolTurn), runs the same turn again on that
// instance (next-turn-ms: the tier's steady speed), then waits for any
// background compile (settled-ms, from the start) and closes the engine.
// cpu-ms is the process's CPU time per start, background work included.
func BenchmarkColdStart(b *testing.B) {
	for _, name := range []string{"providers-anthropic", "tools"} {
		sp := loadSysPlugin(b, name)
		for _, cs := range coldStarts {
			b.Run(name+"/"+cs.name, func(b *testing.B) {
				root := b.TempDir()
				cfg := func(i int) Config {
					c := Config{tiers: cs.tiers}
					switch {
					case cs.warm:
						c.CacheDir = filepath.Join(root, "warm")
					case cs.cache:
						c.CacheDir = filepath.Join(root, strconv.Itoa(i))
					}
					return c
				}
				if cs.warm {
					coldStartOnce(b, sp, cfg(-1))
				}
				var sum coldStartTimes
				var cpu time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					c0 := processCPU()
					r := coldStartOnce(b, sp, cfg(i))
					cpu += processCPU() - c0
					sum.compile += r.compile
					sum.first += r.first
					sum.next += r.next
					sum.settled += r.settled
				}
				ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
				b.ReportMetric(ms(sum.compile), "compile-ms")
				b.ReportMetric(ms(sum.first), "first-turn-ms")
				b.ReportMetric(ms(sum.next), "next-turn-ms")
				b.ReportMetric(ms(sum.settled), "settled-ms")
				b.ReportMetric(ms(cpu), "cpu-ms")
			})
		}
	}
}

type coldStartTimes struct{ compile, first, next, settled time.Duration }

// coldStartOnce runs one start: engine, compile, acquire, two turns,
// settle, close.
func coldStartOnce(tb testing.TB, sp *sysPlugin, cfg Config) coldStartTimes {
	tb.Helper()
	ctx := context.Background()
	var r coldStartTimes
	start := time.Now()
	e, err := NewEngine(ctx, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	defer e.Close(ctx)
	p, err := e.Compile(ctx, sp.artifact(), sp.config())
	if err != nil {
		tb.Fatal(err)
	}
	r.compile = time.Since(start)
	g, err := NewGeneration(p)
	if err != nil {
		tb.Fatal(err)
	}
	defer g.Close()
	in, err := g.Acquire(ctx, sp.name)
	if err != nil {
		tb.Fatal(err)
	}
	defer in.Release()
	if err := sp.turn(ctx, in); err != nil {
		tb.Fatal(err)
	}
	r.first = time.Since(start) - r.compile
	mid := time.Now()
	if err := sp.turn(ctx, in); err != nil {
		tb.Fatal(err)
	}
	r.next = time.Since(mid)
	e.settle(tb)
	r.settled = time.Since(start)
	return r
}

// BenchmarkCompileWhatTheTurnNeeds bounds the levers "compile only what
// the turn needs" and "split the codec by wire format": it runs each
// system plugin's turn once, interpreted, recording which functions ran,
// then compiles (optimizing compiler, no cache) the whole module ("all")
// and the module with every function that did not run replaced by
// unreachable ("ran"), the least any codec serving that turn could hold.
// It reports the functions and code bytes that ran and both compile
// times.
func BenchmarkCompileWhatTheTurnNeeds(b *testing.B) {
	for _, name := range []string{"providers-anthropic", "tools"} {
		sp := loadSysPlugin(b, name)
		ran := functionsRun(b, sp)
		pruned, stats := pruneModule(b, sp.wasm, ran)
		for _, v := range []struct {
			name string
			wasm []byte
		}{{"all", sp.wasm}, {"ran", pruned}} {
			b.Run(name+"/"+v.name, func(b *testing.B) {
				ctx := context.Background()
				var cpu time.Duration
				for i := 0; i < b.N; i++ {
					rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
					c0 := processCPU()
					if _, err := rt.CompileModule(ctx, v.wasm); err != nil {
						b.Fatal(err)
					}
					cpu += processCPU() - c0
					rt.Close(ctx)
				}
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms")
				b.ReportMetric(float64(stats.ranFuncs), "funcs-ran")
				b.ReportMetric(float64(stats.funcs), "funcs")
				b.ReportMetric(float64(stats.ranBytes), "code-bytes-ran")
				b.ReportMetric(float64(stats.bytes), "code-bytes")
			})
		}
	}
}

// functionsRun runs sp's turn on the interpreter and returns the indices
// (in the function index space) of the functions that ran.
func functionsRun(tb testing.TB, sp *sysPlugin) map[uint32]bool {
	tb.Helper()
	ran := map[uint32]bool{}
	var mu sync.Mutex
	ctx := experimental.WithFunctionListenerFactory(context.Background(),
		experimental.FunctionListenerFactoryFunc(func(def api.FunctionDefinition) experimental.FunctionListener {
			return experimental.FunctionListenerFunc(func(context.Context, api.Module, api.FunctionDefinition, []uint64, experimental.StackIterator) {
				mu.Lock()
				ran[def.Index()] = true
				mu.Unlock()
			})
		}))
	e := newEngine(tb, Config{tiers: tiersInterpreter})
	p, err := e.Compile(ctx, sp.artifact(), sp.config())
	if err != nil {
		tb.Fatal(err)
	}
	_, in := acquire(tb, p)
	defer in.Release()
	if err := sp.turn(context.Background(), in); err != nil {
		tb.Fatal(err)
	}
	return ran
}

type pruneStats struct{ funcs, ranFuncs, bytes, ranBytes int }

// pruneModule replaces the body of every defined function not in keep by
// unreachable.
func pruneModule(tb testing.TB, raw []byte, keep map[uint32]bool) ([]byte, pruneStats) {
	tb.Helper()
	m, err := binary.DecodeModule(raw, wasm.CoreFeaturesV2)
	if err != nil {
		tb.Fatal(err)
	}
	imported := uint32(0)
	for _, imp := range m.ImportSection {
		if imp.Type == wasm.ExternTypeFunc {
			imported++
		}
	}
	var st pruneStats
	for i, c := range m.CodeSection {
		st.funcs++
		st.bytes += len(c.Body)
		if keep[imported+uint32(i)] {
			st.ranFuncs++
			st.ranBytes += len(c.Body)
			continue
		}
		c.LocalTypes = nil
		c.Body = []byte{wasm.OpcodeUnreachable, wasm.OpcodeEnd}
	}
	return binary.EncodeModule(m), st
}
