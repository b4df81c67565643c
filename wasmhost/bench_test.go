package wasmhost

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkCompile compiles the ≈4 MB Go guest: cold (empty cache
// directory, so validation, fuel instrumentation and the optimizing compiler
// all run) and warm (a new engine on a populated cache directory, as in a
// second process).
func BenchmarkCompile(b *testing.B) {
	wasm := goGuest(b)
	b.Run("cold", func(b *testing.B) {
		b.SetBytes(int64(len(wasm)))
		for i := 0; i < b.N; i++ {
			e := newEngine(b, Config{CacheDir: filepath.Join(b.TempDir(), strconv.Itoa(i))})
			compile(b, e, "go", wasm, PluginConfig{})
			e.Close(context.Background())
		}
	})
	b.Run("warm", func(b *testing.B) {
		dir := b.TempDir()
		e := newEngine(b, Config{CacheDir: dir})
		compile(b, e, "go", wasm, PluginConfig{})
		e.Close(context.Background())
		b.SetBytes(int64(len(wasm)))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			e := newEngine(b, Config{CacheDir: dir})
			compile(b, e, "go", wasm, PluginConfig{})
			e.Close(context.Background())
		}
	})
}

// BenchmarkInstantiate measures getting an instance: "pool" takes an idle
// one (Acquire + Release), "fresh" instantiates and runs _initialize.
func BenchmarkInstantiate(b *testing.B) {
	e := newEngine(b, Config{})
	for _, guest := range guests {
		p := compile(b, e, guest.name, guest.build(b), PluginConfig{})
		b.Run(guest.name+"/pool", func(b *testing.B) {
			g, in := acquire(b, p)
			in.Release()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				in, err := g.Acquire(context.Background(), guest.name)
				if err != nil {
					b.Fatal(err)
				}
				in.Release()
			}
		})
		b.Run(guest.name+"/fresh", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				in, err := p.instantiate(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				in.destroy()
			}
		})
	}
}

// BenchmarkStringCall is one canonical-ABI string -> string call: Alloc and
// write the argument, call, lift the result, post-return.
func BenchmarkStringCall(b *testing.B) {
	e := newEngine(b, Config{})
	for _, guest := range guests {
		p := compile(b, e, guest.name, guest.build(b), PluginConfig{})
		b.Run(guest.name, func(b *testing.B) {
			_, in := acquire(b, p)
			defer in.Release()
			arg := "hello, world"
			var out string
			lower := func(c *Call, params []uint64) error {
				ptr, err := c.Alloc(uint32(len(arg)), 1)
				if err != nil {
					return err
				}
				params[0], params[1] = uint64(ptr), uint64(len(arg))
				return c.WriteString(ptr, arg)
			}
			lift := liftString(&out)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := in.Invoke(ctx, ex+"echo", lower, lift); err != nil {
					b.Fatal(err)
				}
			}
			if out != arg {
				b.Fatalf("echo = %q", out)
			}
		})
	}
}

// BenchmarkFuelOverhead runs compute-heavy Go guest calls with and without
// the fuel instrumentation, alternating the two in every iteration so that
// load from other processes hits both alike, and reports the overhead. The
// uninstrumented build is unsafe (nothing can stop it) and exists only for
// this comparison.
func BenchmarkFuelOverhead(b *testing.B) {
	e := newEngine(b, Config{})
	wasm := goGuest(b)
	items := make([]string, 2000)
	for i := range items {
		items[i] = "user" + strconv.Itoa(i) + " wrote to alice@example.com and bob@example.com about x"
	}
	payload, _ := json.Marshal(items)
	withFuel := compile(b, e, "fuel", wasm, PluginConfig{})
	without := compile(b, e, "nofuel", wasm, PluginConfig{noFuel: true})
	watFuel := compile(b, e, "watfuel", wat(b, "guest"), PluginConfig{})
	watWithout := compile(b, e, "watnofuel", wat(b, "guest"), PluginConfig{noFuel: true})
	workloads := []struct {
		name          string
		fuel, without *Plugin
		call          func(*Instance) error
	}{
		// A call-free loop of a few arithmetic instructions: the worst case,
		// one charge per iteration.
		{"tight-loop", watFuel, watWithout, func(in *Instance) error {
			return in.Invoke(context.Background(), ex+"spin", func(_ *Call, params []uint64) error {
				params[0] = 1_000_000
				return nil
			}, nil)
		}},
		{"spin", withFuel, without, func(in *Instance) error {
			return in.Invoke(context.Background(), ex+"spin", func(_ *Call, params []uint64) error {
				params[0] = 2000
				return nil
			}, nil)
		}},
		{"json-regexp", withFuel, without, func(in *Instance) error {
			out, err := callString(context.Background(), in, ex+"regex-count", string(payload))
			if err == nil && !strings.HasPrefix(out, "4000 matches") {
				b.Fatalf("regex-count = %q", out)
			}
			return err
		}},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			_, fin := acquire(b, w.fuel)
			defer fin.Release()
			_, nin := acquire(b, w.without)
			defer nin.Release()
			var tf, tn time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if err := w.call(fin); err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				if err := w.call(nin); err != nil {
					b.Fatal(err)
				}
				tf += mid.Sub(start)
				tn += time.Since(mid)
			}
			b.ReportMetric(float64(tf.Nanoseconds())/float64(b.N), "ns-fuel/op")
			b.ReportMetric(float64(tn.Nanoseconds())/float64(b.N), "ns-nofuel/op")
			b.ReportMetric(100*(float64(tf)/float64(tn)-1), "%overhead")
		})
	}
}

// BenchmarkDeadlineOvershoot reports how far past a 10 ms deadline (the
// call's context; Budgets.Timeout is checked at the same points) a guest
// spinning in a call-free loop runs before it is stopped, on each tier.
func BenchmarkDeadlineOvershoot(b *testing.B) {
	const deadline = 10 * time.Millisecond
	for _, tc := range tierCases {
		e := newEngine(b, Config{tiers: tc.tiers})
		for _, guest := range guests {
			p := compile(b, e, guest.name, guest.build(b), PluginConfig{Budgets: Budgets{Fuel: 1 << 62, Timeout: time.Minute}})
			g, err := NewGeneration(p)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(tc.name+"/"+guest.name, func(b *testing.B) {
				var worst, total time.Duration
				for i := 0; i < b.N; i++ {
					in, err := g.Acquire(context.Background(), guest.name)
					if err != nil {
						b.Fatal(err)
					}
					start := time.Now()
					ctx, cancel := context.WithTimeout(context.Background(), deadline)
					err = in.Invoke(ctx, ex+"forever", nil, nil)
					over := time.Since(start) - deadline
					cancel()
					in.Release()
					if he := asError(b, err); he.Budget != BudgetDeadline {
						b.Fatal(err)
					}
					total += over
					worst = max(worst, over)
				}
				b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs-overshoot/op")
				b.ReportMetric(float64(worst.Microseconds()), "µs-worst")
			})
			g.Close()
		}
	}
}
