package wasmhost

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/smith-agent/smith/wasmhost/internal/fuel"
)

// errEngineClosed is returned by Compile on a closed Engine.
var errEngineClosed = errors.New("wasmhost: the engine is closed; create a new one with NewEngine")

// backend is one wazero runtime, the optimizing compiler's or the
// interpreter's, with the modules every plugin links against besides its
// own host modules: WASI preview 1 and the fuel module. A module compiled
// by one runtime can only be instantiated by it, and links only to host
// modules instantiated by it, so each plugin has its host modules in every
// backend it runs on.
type backend struct {
	rt       wazero.Runtime
	fuelOnce sync.Once
	fuelErr  error
}

func newBackend(ctx context.Context, rc wazero.RuntimeConfig) (*backend, error) {
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("wasmhost: instantiate WASI preview 1: %w", err)
	}
	return &backend{rt: rt}, nil
}

func (b *backend) close(ctx context.Context) error { return b.rt.Close(ctx) }

// ensureFuelModule instantiates the fuel module (yield, grow and depth)
// once per backend.
func (b *backend) ensureFuelModule(ctx context.Context) error {
	b.fuelOnce.Do(func() {
		_, b.fuelErr = b.rt.NewHostModuleBuilder(fuel.Module).
			NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, _ []uint64) {
				invocationOf(ctx).yield(mod)
			}), nil, nil).
			WithName(fuel.YieldName).Export(fuel.YieldName).
			NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
				stack[0] = uint64(invocationOf(ctx).grow(mod, uint32(stack[0])))
			}), []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}).
			WithName(fuel.GrowName).Export(fuel.GrowName).
			NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, _ []uint64) {
				invocationOf(ctx).tooDeep()
			}), nil, nil).
			WithName(fuel.DepthName).Export(fuel.DepthName).
			Instantiate(ctx)
		if b.fuelErr != nil {
			b.fuelErr = fmt.Errorf("wasmhost: instantiate the fuel module: %w", b.fuelErr)
		}
	})
	return b.fuelErr
}

// interpreter returns the interpreter backend, making it on first use.
func (e *Engine) interpreter(ctx context.Context) (*backend, error) {
	e.interpOnce.Do(func() {
		e.modMu.Lock()
		closed := e.bg.closed
		e.modMu.Unlock()
		if closed {
			e.interpErr = errEngineClosed
			return
		}
		e.interp, e.interpErr = newBackend(ctx, wazero.NewRuntimeConfigInterpreter().WithMemoryLimitPages(e.memLimit))
	})
	if e.interp == nil && e.interpErr == nil {
		return nil, errEngineClosed // Close ran first
	}
	return e.interp, e.interpErr
}

// moduleKey identifies compiled code: the artifact's bytes and whether it
// was instrumented. Budgets do not change the code, so plugins compiled from
// the same artifact share it.
type moduleKey struct {
	sum    [32]byte
	noFuel bool
	// final says the artifact's bytes are what wazero compiles (instrumented
	// ahead of time), so there is no instrumented form to cache.
	final bool
}

// moduleEntry is the compiled code of one module, shared by the plugins
// compiled from it. Its fields other than key are guarded by
// Engine.modMu; opt may also be loaded without it.
type moduleEntry struct {
	key moduleKey
	// interp is the interpreter's code while the module has no compiled
	// code or interpreted instances are alive (it holds ~30 bytes of heap
	// per byte of function bodies), then nil.
	interp wazero.CompiledModule
	// interpLive counts the instances running interp.
	interpLive int
	// opt is the optimizing compiler's code, once compiled; it never goes
	// back to nil while the entry lives.
	opt  atomic.Pointer[wazero.CompiledModule]
	refs int
	dead bool
	// pending is the module an optimizing compile is owed for, held while
	// only passive plugins (PluginConfig.Passive) were compiled from it.
	pending []byte
}

// take returns the code for a new instance of ent: the optimizing
// compiler's once it is there, else the interpreter's, counting the
// instance until drop.
func (e *Engine) take(ent *moduleEntry) (code wazero.CompiledModule, interpreted bool) {
	e.modMu.Lock()
	defer e.modMu.Unlock()
	if m := ent.opt.Load(); m != nil {
		return *m, false
	}
	ent.interpLive++
	return ent.interp, true
}

// drop counts an interpreted instance of ent as gone.
func (e *Engine) drop(ent *moduleEntry) {
	e.modMu.Lock()
	ent.interpLive--
	stale := e.staleInterp(ent)
	e.modMu.Unlock()
	if stale != nil {
		_ = stale.Close(context.Background())
	}
}

// staleInterp detaches ent's interpreter code once nothing needs it and
// returns it for closing outside the lock.
func (e *Engine) staleInterp(ent *moduleEntry) wazero.CompiledModule {
	m := ent.interp
	if m == nil || ent.interpLive > 0 || ent.opt.Load() == nil {
		return nil
	}
	ent.interp = nil
	return m
}

// interpreted reports whether new instances of ent would run the
// interpreter's code.
func (e *Engine) interpreted(ent *moduleEntry) bool {
	e.modMu.Lock()
	defer e.modMu.Unlock()
	return ent.opt.Load() == nil
}

// detach takes ent's code out of it for closing.
func (ent *moduleEntry) detach() []wazero.CompiledModule {
	var ms []wazero.CompiledModule
	if ent.interp != nil {
		ms = append(ms, ent.interp)
		ent.interp = nil
	}
	if m := ent.opt.Swap(nil); m != nil {
		ms = append(ms, *m)
	}
	return ms
}

func closeAll(ctx context.Context, ms []wazero.CompiledModule) error {
	var errs []error
	for _, m := range ms {
		errs = append(errs, m.Close(ctx))
	}
	return errors.Join(errs...)
}

// background counts the optimizing compiles running in the background;
// it is guarded by Engine.modMu.
type background struct {
	running int
	drained chan struct{} // closed when running drops to zero; nil while none runs
	closed  bool          // Close was called
	// releaseLater says Close returned while compiles were running: the
	// last of them releases the optimizing runtime.
	releaseLater bool
}

func (b *background) start() {
	if b.running == 0 {
		b.drained = make(chan struct{})
	}
	b.running++
}

// done counts one compile as ended. When it was the last, it returns the
// channel to close once the compile's goroutine is done, and whether that
// goroutine must release the optimizing runtime first.
func (b *background) done() (drained chan struct{}, release bool) {
	b.running--
	if b.running > 0 {
		return nil, false
	}
	drained, b.drained = b.drained, nil
	return drained, b.releaseLater
}

// compiledModule returns the compiled code for key, compiling code() only
// if no plugin of this engine holds it. On a cache miss (no marker says
// the optimizing compiler's code for key is in the cache directory) the
// module is compiled by the interpreter, and the optimizing compiler runs
// in the background.
//
// Compiles of one key are serialized: wazero publishes a module it loads
// from its file cache before the module's entry preambles are compiled,
// so a second CompileModule of the same bytes meanwhile would get, and
// instantiate, a half-made module (a panic in wazevo's NewFunction, seen
// when plugin generations are reloaded: the last holder of a module
// closes it and two generations then load it from the cache at once).
func (e *Engine) compiledModule(ctx context.Context, key moduleKey, passive bool, code func() ([]byte, error)) (*moduleEntry, error) {
	e.modMu.Lock()
	for {
		if e.bg.closed {
			e.modMu.Unlock()
			return nil, errEngineClosed
		}
		if ent, ok := e.modules[key]; ok {
			ent.refs++
			if !passive {
				e.optimizeLocked(ent)
			}
			e.modMu.Unlock()
			return ent, nil
		}
		wait, busy := e.compiling[key]
		if !busy {
			break
		}
		e.modMu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		e.modMu.Lock()
	}
	if e.compiling == nil {
		e.compiling = map[moduleKey]chan struct{}{}
	}
	done := make(chan struct{})
	e.compiling[key] = done
	e.modMu.Unlock()
	defer func() {
		e.modMu.Lock()
		delete(e.compiling, key)
		e.modMu.Unlock()
		close(done)
	}()
	interpret := e.tiers == tiersInterpreter || e.tiers == tiersAuto && !e.compiledBefore(key)
	ent := &moduleEntry{key: key, refs: 1}
	compile := func(b []byte) error {
		if !interpret {
			m, err := e.opt.rt.CompileModule(ctx, b)
			if err == nil {
				ent.opt.Store(&m)
			}
			return err
		}
		be, err := e.interpreter(ctx)
		if err != nil {
			return err
		}
		ent.interp, err = be.rt.CompileModule(ctx, b)
		return err
	}
	b := e.readInstrumented(key)
	if b == nil || compile(b) != nil {
		var err error
		if b, err = code(); err != nil {
			return nil, err
		}
		if err := compile(b); err != nil {
			return nil, err
		}
		e.writeInstrumented(key, b)
	}
	e.modMu.Lock()
	defer e.modMu.Unlock()
	if ent2, ok := e.modules[key]; ok { // compiled concurrently
		ent2.refs++
		if !passive {
			e.optimizeLocked(ent2)
		}
		_ = closeAll(ctx, ent.detach())
		return ent2, nil
	}
	if e.bg.closed {
		_ = closeAll(ctx, ent.detach())
		return nil, errEngineClosed
	}
	if e.modules == nil {
		e.modules = map[moduleKey]*moduleEntry{}
	}
	e.modules[key] = ent
	if interpret && e.tiers == tiersAuto {
		ent.pending = b
		if !passive {
			e.optimizeLocked(ent)
		}
	}
	return ent, nil
}

// optimizeLocked starts the optimizing compile ent is owed, if any.
// Called with e.modMu held.
func (e *Engine) optimizeLocked(ent *moduleEntry) {
	if ent.pending == nil || ent.dead || e.bg.closed {
		return
	}
	b := ent.pending
	ent.pending = nil
	e.bg.start()
	go e.compileInBackground(ent, b)
}

// compileInBackground compiles b, the module of ent, with the optimizing
// compiler, which writes the code to the cache directory (wazero writes a
// temporary file and renames it), and marks it compiled there. New
// instances of ent run the result, unless ent was released meanwhile.
func (e *Engine) compileInBackground(ent *moduleEntry, b []byte) {
	ctx := context.Background()
	if e.bgHook != nil {
		e.bgHook()
	}
	m, err := e.opt.rt.CompileModule(ctx, b)
	if err == nil {
		e.markCompiled(ent.key)
	}
	e.modMu.Lock()
	keep := err == nil && !ent.dead && !e.bg.closed
	var stale wazero.CompiledModule
	if keep {
		ent.opt.Store(&m)
		stale = e.staleInterp(ent)
	}
	drained, release := e.bg.done()
	e.modMu.Unlock()
	if err == nil && !keep {
		_ = m.Close(ctx)
	}
	if stale != nil {
		_ = stale.Close(ctx)
	}
	if release {
		_ = e.closeOptimizing(ctx)
	}
	if drained != nil {
		close(drained)
	}
}

func (e *Engine) releaseModule(ctx context.Context, ent *moduleEntry) error {
	e.modMu.Lock()
	if ent.refs--; ent.refs > 0 {
		e.modMu.Unlock()
		return nil
	}
	ent.dead = true
	if e.modules[ent.key] == ent {
		delete(e.modules, ent.key)
	}
	ms := ent.detach()
	e.modMu.Unlock()
	return closeAll(ctx, ms)
}
