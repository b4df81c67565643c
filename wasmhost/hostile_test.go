package wasmhost

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostileBudgets keeps the hostile suite fast: every budget is small.
// hostileBudgets keeps the hostile suite fast: every budget is small.
var hostileBudgets = Budgets{
	Fuel:        1 << 28,
	Timeout:     20 * time.Second, // only the deadline cases rely on a timeout
	MemoryPages: 160,
	LogBytes:    4096,
	OutputBytes: 1 << 16,
}

// outcome is what one hostile call must produce for one guest.
type outcome struct {
	budget Budget
	want   string // substring of the error
}

func TestHostileGuests(t *testing.T) {
	tests := []struct {
		name    string
		export  string
		budgets Budgets
		lift    func(*Call, []uint64) error
		// deadline, if set, bounds the call's context (not the
		// instantiation, which a loaded machine may make slow).
		deadline time.Duration
		wat, gc  outcome
		// iwat and igc, when set, are the outcomes on the interpreter.
		iwat, igc outcome
	}{
		{name: "infinite loop hits the deadline", export: "forever", deadline: 50 * time.Millisecond,
			wat: outcome{BudgetDeadline, "context deadline passed"},
			gc:  outcome{BudgetDeadline, "context deadline passed"}},
		{name: "infinite loop runs out of fuel", export: "forever",
			budgets: Budgets{Fuel: 1_200_000, Timeout: time.Minute, MemoryPages: 160},
			wat:     outcome{BudgetFuel, "used all 1200000 fuel units"},
			gc:      outcome{BudgetFuel, "used all 1200000 fuel units"}},
		{name: "memory bomb", export: "bomb",
			wat: outcome{BudgetMemory, "its memory budget of 160 pages"},
			gc:  outcome{BudgetMemory, "its memory budget of 160 pages"}},
		{name: "log flood", export: "flood",
			wat: outcome{BudgetLog, "its log budget of 4096 bytes"},
			gc:  outcome{BudgetLog, "its log budget of 4096 bytes"}},
		{name: "deep recursion", export: "recurse",
			wat: outcome{BudgetStack, "its call-depth budget of 65536"},
			// Go's goroutine stack lives in linear memory and grows first.
			gc: outcome{BudgetMemory, "its memory budget of 160 pages"},
			// The interpreter allows fewer frames (interpretedCallDepth).
			iwat: outcome{BudgetStack, "deeper than 1990, the limit of an interpreted instance"},
			igc:  outcome{BudgetStack, "deeper than 1990, the limit of an interpreted instance"}},
		{name: "invalid UTF-8 result", export: "bad-utf8", lift: liftString(new(string)),
			wat: outcome{"", "not valid UTF-8 (first bad byte at offset 0)"},
			gc:  outcome{"", "not valid UTF-8 (first bad byte at offset 0)"}},
		{name: "out-of-bounds result", export: "out-of-bounds", lift: liftString(new(string)),
			wat: outcome{"", "pointer 0xfde8, length 1000 is outside linear memory (65536 bytes)"},
			gc:  outcome{"", "pointer 0xfff00000, length 1000 is outside linear memory"}},
		{name: "trap", export: "trap",
			wat: outcome{"", "guest trapped: wasm error: unreachable; a bug in the plugin, its log may say more (instance destroyed)"},
			gc:  outcome{"", "guest trapped: wasm error: unreachable; a bug in the plugin, its log may say more (instance destroyed)"}},
	}
	for _, tc := range tierCases {
		e := newEngine(t, Config{tiers: tc.tiers})
		for _, guest := range guests {
			wasm := guest.build(t)
			for _, tt := range tests {
				t.Run(tc.name+"/"+guest.name+"/"+tt.name, func(t *testing.T) {
					want, iwant := tt.wat, tt.iwat
					if guest.name == "go" {
						want, iwant = tt.gc, tt.igc
					}
					if tc.tiers == tiersInterpreter && iwant != (outcome{}) {
						want = iwant
					}
					b := hostileBudgets
					if tt.budgets != (Budgets{}) {
						b = tt.budgets
					}
					p := compile(t, e, "hostile", wasm, PluginConfig{Budgets: b})
					g, in := acquire(t, p)
					ctx := context.Background()
					if tt.deadline > 0 {
						var cancel context.CancelFunc
						ctx, cancel = context.WithTimeout(ctx, tt.deadline)
						defer cancel()
					}
					err := in.Invoke(ctx, ex+tt.export, nil, tt.lift)
					he := asError(t, err)
					if he.Budget != want.budget || he.Plugin != "hostile" || he.Export != ex+tt.export {
						t.Fatalf("error %v: budget %q, want %q", err, he.Budget, want.budget)
					}
					if !strings.Contains(err.Error(), want.want) {
						t.Fatalf("error %q does not mention %q", err, want.want)
					}
					if !strings.Contains(err.Error(), `plugin "hostile"`) {
						t.Fatalf("error %q does not name the plugin", err)
					}
					in.Release()
					if g.Idle("hostile") != 0 {
						t.Fatal("the failed instance went back to the pool")
					}
					// The host is unharmed: a fresh instance still works.
					in2, err := g.Acquire(context.Background(), "hostile")
					if err != nil {
						t.Fatal(err)
					}
					defer in2.Release()
					if got, err := callString(context.Background(), in2, ex+"echo", "alive"); err != nil || got != "alive" {
						t.Fatalf("fresh instance: %q, %v", got, err)
					}
					if in.interpreted != (tc.tiers == tiersInterpreter) || in2.interpreted != in.interpreted {
						t.Fatalf("instances interpreted %v, %v on the %s tier", in.interpreted, in2.interpreted, tc.name)
					}
				})
			}
		}
	}
}

// TestInfiniteLoopNeverWedges runs a guest spinning without calls while a host
// goroutine forces garbage collections, which need every goroutine to reach
// a preemption point: uninstrumented JIT code would hang the whole process
// here. Only after three collections completed does the host goroutine
// cancel the guest, so a wedged process never gets to cancel it and the
// guest runs into its 30 s timeout instead.
func TestInfiniteLoopNeverWedges(t *testing.T) {
	for _, tc := range tierCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, Config{tiers: tc.tiers})
			p := compile(t, e, "spinner", wat(t, "guest"), PluginConfig{Budgets: Budgets{Fuel: 1 << 62, Timeout: 30 * time.Second}})
			_, in := acquire(t, p)
			defer in.Release()

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var collections atomic.Int64
			go func() {
				time.Sleep(10 * time.Millisecond) // let the guest start spinning
				for range 3 {
					runtime.GC()
					collections.Add(1)
				}
				cancel()
			}()
			err := in.Invoke(ctx, ex+"forever", nil, nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v: the host goroutine completed %d collections and never cancelled the guest: the process was wedged",
					err, collections.Load())
			}
		})
	}
}

// TestDeadlineStopsGuest checks a spinning guest is stopped by its timeout;
// BenchmarkDeadlineOvershoot measures by how much it overshoots.
func TestDeadlineStopsGuest(t *testing.T) {
	for _, tc := range tierCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, Config{tiers: tc.tiers})
			const deadline = 50 * time.Millisecond
			p := compile(t, e, "spinner", wat(t, "guest"), PluginConfig{Budgets: Budgets{Fuel: 1 << 62, Timeout: deadline}})
			_, in := acquire(t, p)
			defer in.Release()
			start := time.Now()
			err := in.Invoke(context.Background(), ex+"forever", nil, nil)
			elapsed := time.Since(start)
			if he := asError(t, err); he.Budget != BudgetDeadline {
				t.Fatalf("error %v, want the deadline budget", err)
			}
			// Deliberately loose: it only proves the guest was stopped at all.
			if elapsed < deadline || elapsed > deadline+10*time.Second {
				t.Fatalf("guest stopped after %v, deadline %v", elapsed, deadline)
			}
			t.Logf("stopped after %v (deadline %v)", elapsed, deadline)
		})
	}
}

func TestContextCancellationStopsGuest(t *testing.T) {
	for _, tc := range tierCases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, Config{tiers: tc.tiers})
			p := compile(t, e, "spinner", wat(t, "guest"), PluginConfig{Budgets: Budgets{Fuel: 1 << 62, Timeout: time.Hour}})
			_, in := acquire(t, p)
			defer in.Release()
			ctx, cancel := context.WithCancel(context.Background())
			go func() { time.Sleep(20 * time.Millisecond); cancel() }()
			err := in.Invoke(ctx, ex+"forever", nil, nil)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if he := asError(t, err); he.Budget != "" {
				t.Fatalf("cancellation reported as budget %q", he.Budget)
			}
			ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			defer cancel()
			_, in2 := acquire(t, p)
			defer in2.Release()
			err = in2.Invoke(ctx, ex+"forever", nil, nil)
			if he := asError(t, err); he.Budget != BudgetDeadline || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v, want the deadline budget wrapping context.DeadlineExceeded", err)
			}
		})
	}
}

// TestFuelIsDeterministic exhausts the same fuel budget in fresh instances of
// each guest and checks the guest got exactly as far every time.
func TestFuelIsDeterministic(t *testing.T) {
	e := newEngine(t, Config{})
	const budget = 1_500_007 // over one FuelSlice
	for _, guest := range guests {
		t.Run(guest.name, func(t *testing.T) {
			var first int64 = -1
			for run := 0; run < 3; run++ {
				var ticks atomic.Int64
				p := compile(t, e, "ticker", guest.build(t), PluginConfig{
					Budgets: Budgets{Fuel: budget, Timeout: time.Minute},
					Hosts:   testHosts(&ticks),
				})
				_, in := acquire(t, p)
				err := in.Invoke(context.Background(), ex+"ticks", nil, nil)
				in.Release()
				if he := asError(t, err); he.Budget != BudgetFuel {
					t.Fatalf("run %d: error %v, want the fuel budget", run, err)
				}
				n := ticks.Load()
				if first == -1 {
					first = n
				} else if n != first {
					t.Fatalf("run %d: guest made %d host calls before running out of fuel, run 0 made %d", run, n, first)
				}
			}
			// In the WAT guest, one unit at the entry of ticks, then one per
			// loop iteration (the tick import is host code, not charged);
			// the unit after the last is refused.
			if guest.name == "wat" && first != budget-1 {
				t.Fatalf("guest made %d calls with %d fuel units; expected %d", first, budget, budget-1)
			}
			if first < budget/10 {
				t.Fatalf("guest made only %d calls with %d fuel units", first, budget)
			}
		})
	}
}

// TestFuelSameOnBothTiers exhausts one fuel budget (13 interpreted slices,
// one compiled) compiled and interpreted and checks the guest got exactly as
// far on both.
func TestFuelSameOnBothTiers(t *testing.T) {
	const budget = 200_003
	for _, guest := range guests {
		t.Run(guest.name, func(t *testing.T) {
			var got []int64
			for _, tc := range tierCases {
				var ticks atomic.Int64
				p := compile(t, newEngine(t, Config{tiers: tc.tiers}), "ticker", guest.build(t), PluginConfig{
					Budgets: Budgets{Fuel: budget, Timeout: time.Minute},
					Hosts:   testHosts(&ticks),
				})
				_, in := acquire(t, p)
				err := in.Invoke(context.Background(), ex+"ticks", nil, nil)
				in.Release()
				if he := asError(t, err); he.Budget != BudgetFuel {
					t.Fatalf("%s: error %v, want the fuel budget", tc.name, err)
				}
				got = append(got, ticks.Load())
			}
			if got[0] != got[1] || got[0] == 0 {
				t.Fatalf("host calls before the fuel ran out: compiled %d, interpreted %d", got[0], got[1])
			}
		})
	}
}

// TestCallDepthOnBothTiers checks the call depth a guest may reach: the
// budget's exactly on both tiers, and on the interpreter at most
// interpretedCallDepth, refused as a budget (never the interpreter's own
// stack overflow trap) right at that depth.
func TestCallDepthOnBothTiers(t *testing.T) {
	nest := func(in *Instance, n int) error {
		var got uint64
		err := in.Invoke(context.Background(), ex+"nest", func(_ *Call, params []uint64) error {
			params[0] = uint64(n)
			return nil
		}, func(_ *Call, results []uint64) error {
			got = results[0]
			return nil
		})
		if err == nil && got != uint64(n) {
			return fmt.Errorf("nest(%d) = %d", n, got)
		}
		return err
	}
	// nest(n) makes n+1 nested calls; a depth of d allows d-1.
	tests := []struct {
		name    string
		tiers   tiers
		depth   uint32 // Budgets.CallDepth
		deepest int    // the deepest nest(n) allowed
		want    string
	}{
		{name: "budget compiled", tiers: tiersCompiler, depth: 1000, deepest: 998, want: "deeper than its call-depth budget of 1000"},
		{name: "budget interpreted", tiers: tiersInterpreter, depth: 1000, deepest: 998, want: "deeper than its call-depth budget of 1000"},
		{name: "default compiled", tiers: tiersCompiler, deepest: DefaultCallDepth - 2, want: "deeper than its call-depth budget of 65536"},
		{name: "default interpreted", tiers: tiersInterpreter, deepest: interpretedCallDepth - 2,
			want: "deeper than 1990, the limit of an interpreted instance (the optimizing compile of the plugin had not finished; compiled instances allow 65536)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(t, Config{tiers: tt.tiers})
			p := compile(t, e, "nest", wat(t, "guest"), PluginConfig{Budgets: Budgets{CallDepth: tt.depth}})
			g, in := acquire(t, p)
			if err := nest(in, tt.deepest); err != nil {
				t.Fatalf("nest(%d): %v", tt.deepest, err)
			}
			err := nest(in, tt.deepest+1)
			in.Release()
			if he := asError(t, err); he.Budget != BudgetStack || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("nest(%d): %v, want the stack budget: %q", tt.deepest+1, err, tt.want)
			}
			in, err = g.Acquire(context.Background(), "nest")
			if err != nil {
				t.Fatal(err)
			}
			defer in.Release()
			if err := nest(in, 10); err != nil {
				t.Fatalf("a fresh instance: %v", err)
			}
		})
	}
}
