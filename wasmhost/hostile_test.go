package wasmhost

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostileBudgets keeps the hostile suite fast: every budget is small.
var hostileBudgets = Budgets{
	Fuel:        1 << 26,
	Timeout:     200 * time.Millisecond,
	MemoryPages: 64,
	LogBytes:    4096,
	OutputBytes: 1 << 16,
}

func TestHostileGuests(t *testing.T) {
	tests := []struct {
		name    string
		export  string
		budgets Budgets
		lift    func(*Call, []uint64) error
		budget  Budget
		want    string // substring of the error
	}{
		{name: "infinite loop hits the timeout", export: "forever",
			budgets: Budgets{Fuel: 1 << 62, Timeout: 50 * time.Millisecond},
			budget:  BudgetDeadline, want: "Budgets.Timeout 50ms"},
		{name: "infinite loop runs out of fuel", export: "forever",
			budgets: Budgets{Fuel: 5_000_000, Timeout: time.Minute},
			budget:  BudgetFuel, want: "used all 5000000 fuel units"},
		{name: "memory bomb", export: "bomb", budget: BudgetMemory, want: "Budgets.MemoryPages 64"},
		{name: "log flood", export: "flood", budget: BudgetLog, want: "Budgets.LogBytes 4096"},
		{name: "deep recursion", export: "recurse", budget: BudgetStack, want: "Budgets.CallDepth 65536"},
		{name: "invalid UTF-8 result", export: "bad-utf8", lift: liftString(new(string)),
			want: "not valid UTF-8 (first bad byte at offset 0)"},
		{name: "out-of-bounds result", export: "out-of-bounds", lift: liftString(new(string)),
			want: "pointer 0xfde8, length 1000 is outside linear memory (65536 bytes)"},
		{name: "trap", export: "trap", want: "unreachable"},
	}
	e := newEngine(t, Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := hostileBudgets
			if tt.budgets != (Budgets{}) {
				b = tt.budgets
			}
			p := compile(t, e, "hostile", wat(t, "guest"), PluginConfig{Budgets: b})
			g, in := acquire(t, p)
			lower := func(c *Call, params []uint64) error { return nil }
			err := in.Invoke(context.Background(), ex+tt.export, lower, tt.lift)
			he := asError(t, err)
			if he.Budget != tt.budget || he.Plugin != "hostile" || he.Export != ex+tt.export {
				t.Fatalf("error %v: budget %q, want %q", err, he.Budget, tt.budget)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not mention %q", err, tt.want)
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
		})
	}
}

// TestInfiniteLoopNeverWedges runs a guest spinning without calls while a host
// goroutine keeps ticking and forcing garbage collections, which need every
// goroutine to reach a preemption point: uninstrumented JIT code would hang
// the whole process here.
func TestInfiniteLoopNeverWedges(t *testing.T) {
	e := newEngine(t, Config{})
	const deadline = 100 * time.Millisecond
	p := compile(t, e, "spinner", wat(t, "guest"), PluginConfig{Budgets: Budgets{Fuel: 1 << 62, Timeout: deadline}})
	_, in := acquire(t, p)
	defer in.Release()

	var ticks atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			runtime.GC()
			ticks.Add(1)
			time.Sleep(time.Millisecond)
		}
	}()
	start := time.Now()
	err := in.Invoke(context.Background(), ex+"forever", nil, nil)
	elapsed := time.Since(start)
	close(stop)
	<-done
	if he := asError(t, err); he.Budget != BudgetDeadline {
		t.Fatalf("error %v, want the deadline budget", err)
	}
	if ticks.Load() < 2 {
		t.Fatalf("the host goroutine ticked %d times while the guest spun: the process was wedged", ticks.Load())
	}
	// A loose bound only proves the guest was stopped at all; the benchmark
	// BenchmarkDeadlineOvershoot measures the overshoot.
	if elapsed > deadline+5*time.Second {
		t.Fatalf("guest stopped after %v, deadline %v", elapsed, deadline)
	}
	t.Logf("stopped after %v (deadline %v), %d host ticks", elapsed, deadline, ticks.Load())
}

func TestContextCancellationStopsGuest(t *testing.T) {
	e := newEngine(t, Config{})
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
}

// TestFuelIsDeterministic exhausts the same fuel budget in fresh instances and
// checks the guest got exactly as far every time.
func TestFuelIsDeterministic(t *testing.T) {
	e := newEngine(t, Config{})
	const budget = 3_000_017
	var first int64 = -1
	for run := 0; run < 3; run++ {
		var ticks atomic.Int64
		p := compile(t, e, "ticker", wat(t, "guest"), PluginConfig{
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
	// One unit at the entry of ticks, then one per loop iteration (the tick
	// import is host code, not charged); the unit after the last is refused.
	if first != budget-1 {
		t.Fatalf("guest made %d calls with %d fuel units; expected %d", first, budget, budget-1)
	}
}
