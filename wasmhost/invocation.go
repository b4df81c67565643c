package wasmhost

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// invocation is the budget state of the one call in flight on an instance.
type invocation struct {
	in       *Instance
	ctx      context.Context // the caller's context
	export   string
	deadline time.Time
	fuelLeft uint64 // budget not yet handed to the guest
	fuelG    api.MutableGlobal
	depthG   api.MutableGlobal
	logBytes int64
	outBytes int64
	// abort is the first budget violation or host failure; once set the
	// guest is unwound at the next host call or yield.
	abort *Error
}

// abortPanic unwinds the guest out of a host function; the invocation's
// abort field says why.
type abortPanic struct{}

func (abortPanic) Error() string { return "wasmhost: invocation aborted" }

func (inv *invocation) fail(b Budget, err error) {
	if inv.abort == nil {
		inv.abort = &Error{Plugin: inv.in.plugin.name, Export: inv.export, Budget: b, Err: err}
	}
}

func (inv *invocation) begin(ctx context.Context, export string) {
	b := &inv.in.plugin.budgets
	inv.ctx = ctx
	inv.export = export
	inv.deadline = time.Now().Add(b.Timeout)
	inv.fuelLeft = b.Fuel
	inv.logBytes, inv.outBytes = 0, 0
	inv.abort = nil
	if inv.fuelG != nil {
		inv.refill()
		inv.depthG.Set(uint64(inv.in.callDepth()))
	}
}

// bind finds the instrumentation globals of mod.
func (inv *invocation) bind(mod api.Module) {
	f, ok1 := mod.ExportedGlobal(fuel.GlobalExport).(api.MutableGlobal)
	d, ok2 := mod.ExportedGlobal(fuel.DepthExport).(api.MutableGlobal)
	if !ok1 || !ok2 {
		panic(errors.New("wasmhost: instrumented module lost its fuel globals"))
	}
	inv.fuelG, inv.depthG = f, d
}

// refill hands the guest the next slice of the budget.
func (inv *invocation) refill() {
	slice := uint64(FuelSlice)
	if inv.in.interpreted {
		slice = InterpretedFuelSlice
	}
	slice = min(slice, inv.fuelLeft)
	inv.fuelLeft -= slice
	inv.fuelG.Set(slice)
}

// fuelUsed reports the units the guest consumed so far.
func (inv *invocation) fuelUsed() uint64 {
	used := inv.in.plugin.budgets.Fuel - inv.fuelLeft
	if inv.fuelG != nil {
		used -= inv.fuelG.Get()
	}
	return used
}

// check reports whether the invocation may continue, recording why not.
func (inv *invocation) check() bool {
	if inv.abort != nil {
		return false
	}
	if err := inv.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			inv.fail(BudgetDeadline, fmt.Errorf("context deadline passed after %d fuel units: %w", inv.fuelUsed(), err))
		} else {
			inv.fail("", fmt.Errorf("cancelled after %d fuel units: %w", inv.fuelUsed(), err))
		}
		return false
	}
	if time.Now().After(inv.deadline) {
		inv.fail(BudgetDeadline, fmt.Errorf("ran past its time budget of %v (%d fuel units used); make the call cheaper or raise the budget",
			inv.in.plugin.budgets.Timeout, inv.fuelUsed()))
		return false
	}
	return true
}

// yield is the guest's fuel import: called by the charge that took the
// counter below zero once the current slice was spent. It counts that charge
// against the next slice.
func (inv *invocation) yield(mod api.Module) {
	if inv.fuelG == nil {
		inv.bind(mod)
	}
	inv.fuelG.Set(0) // the slice is spent; the charging unit is not yet paid
	if !inv.check() {
		panic(abortPanic{})
	}
	if inv.fuelLeft == 0 {
		b := inv.in.plugin.budgets.Fuel
		inv.fail(BudgetFuel, fmt.Errorf("used all %d fuel units of its budget; find the runaway loop or raise the budget", b))
		panic(abortPanic{})
	}
	inv.refill()
	inv.fuelG.Set(inv.fuelG.Get() - 1)
}

// tooDeep is called by a function entry past Budgets.CallDepth.
func (inv *invocation) tooDeep() {
	if d, b := inv.in.callDepth(), inv.in.plugin.budgets.CallDepth; d < b {
		inv.fail(BudgetStack, fmt.Errorf("guest calls nested deeper than %d, the limit of an interpreted instance (the optimizing compile of the plugin had not finished; "+
			"compiled instances allow %d); look for unbounded recursion, or start again once the compiled code is cached", d, b))
	} else {
		inv.fail(BudgetStack, fmt.Errorf("guest calls nested deeper than its call-depth budget of %d; look for unbounded recursion or raise the budget", b))
	}
	panic(abortPanic{})
}

// grow is the guest's memory.grow: it enforces Budgets.MemoryPages.
func (inv *invocation) grow(mod api.Module, delta uint32) uint32 {
	mem := mod.Memory()
	cur := mem.Size() / PageSize
	limit := inv.in.plugin.budgets.MemoryPages
	if uint64(cur)+uint64(delta) > uint64(limit) {
		inv.fail(BudgetMemory, fmt.Errorf("growing linear memory from %d by %d pages would pass its memory budget of %d pages (64 KiB each); use less memory or raise the budget",
			cur, delta, limit))
		panic(abortPanic{})
	}
	prev, ok := mem.Grow(delta)
	if !ok {
		inv.fail(BudgetMemory, fmt.Errorf("the engine refused to grow linear memory from %d by %d pages (Config.MemoryLimitPages)", cur, delta))
		panic(abortPanic{})
	}
	return prev
}

// stateKey finds the invocation in the context a host function receives.
type stateKey struct{}

// invCtx is an instance's reusable context: the caller's context plus the
// invocation, without allocating per call. The caller's context changes
// with every call, while a context a host function derived from an earlier
// one may still consult it (a timer context's cancellation reads its
// parent's Done after the call returned), so it is guarded by a mutex.
type invCtx struct {
	mu     sync.Mutex
	parent context.Context
	inv    *invocation
}

// set makes ctx the caller's context of the calls that follow.
func (c *invCtx) set(ctx context.Context) {
	c.mu.Lock()
	c.parent = ctx
	c.mu.Unlock()
}

func (c *invCtx) get() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.parent
}

func (c *invCtx) Deadline() (time.Time, bool) { return c.get().Deadline() }
func (c *invCtx) Done() <-chan struct{}       { return c.get().Done() }
func (c *invCtx) Err() error                  { return c.get().Err() }

func (c *invCtx) Value(key any) any {
	if _, ok := key.(stateKey); ok {
		return c.inv
	}
	return c.get().Value(key)
}

func invocationOf(ctx context.Context) *invocation {
	inv, _ := ctx.Value(stateKey{}).(*invocation)
	if inv == nil {
		panic(errors.New("wasmhost: host function called outside an invocation"))
	}
	return inv
}

// hostCall wraps a HostFunc as a wazero host function.
func hostCall(module string, def HostFuncDef) api.GoModuleFunction {
	fn := def.Fn
	return api.GoModuleFunc(func(ctx context.Context, _ api.Module, stack []uint64) {
		inv := invocationOf(ctx)
		if inv.abort != nil {
			panic(abortPanic{})
		}
		if err := fn(ctx, &inv.in.call, stack); err != nil {
			if inv.abort == nil {
				var he *Error
				if errors.As(err, &he) {
					inv.abort = he
				} else {
					inv.fail("", fmt.Errorf("host function %q %q: %w", module, def.Name, err))
				}
			}
			panic(abortPanic{})
		}
	})
}
