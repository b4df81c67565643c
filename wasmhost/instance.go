package wasmhost

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"
)

// Instance is one live instance of a plugin, obtained from
// Generation.Acquire and returned with Release. It serves one call at a time:
// an Instance is not safe for concurrent use. An instance whose call failed
// is destroyed on Release, never reused.
type Instance struct {
	plugin *Plugin
	pool   *pool
	mod    api.Module
	fns    map[string]*exportFn
	stack  []uint64
	call   Call
	inv    invocation
	ctx    invCtx
	log    logWriter
	broken bool
	// interpreted says the instance runs the interpreter's code; it is
	// not pooled once the optimizing compiler's is there.
	interpreted bool
	dropped     bool // destroy counted the interpreted instance as gone
	// busy guards the one call in flight: a second Invoke, from another
	// goroutine or re-entrantly from a host function, is refused.
	busy atomic.Bool
}

// exportFn caches one export's function handles, looked up once per
// instance.
type exportFn struct {
	fn       api.Function
	post     api.Function // cabi_post_<name>, or nil
	nparams  int
	nresults int
}

// instantiate creates an instance and runs _initialize under the plugin's
// budgets.
func (p *Plugin) instantiate(ctx context.Context) (*Instance, error) {
	in := &Instance{plugin: p, fns: make(map[string]*exportFn, 4)}
	in.inv.in = in
	in.ctx.inv = &in.inv
	in.ctx.set(ctx)
	in.call.in = in
	in.log.in = in
	in.inv.begin(ctx, "_initialize")
	clock := &fakeClock{}
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions().
		WithStdout(&in.log).
		WithStderr(&in.log).
		WithWalltime(clock.walltime, 1).
		WithNanotime(clock.nanotime, 1).
		WithNanosleep(clock.sleep).
		WithRandSource(seededRand(p.cfg.Seed))
	code, interpreted := p.engine.take(p.entry)
	l := &p.opt
	if interpreted {
		l = &p.interp
	}
	in.interpreted = interpreted
	rctx := experimental.WithImportResolver(&in.ctx, l.resolve)
	rctx = experimental.WithMemoryAllocator(rctx, p.memory)
	mod, err := l.be.rt.InstantiateModule(rctx, code, cfg)
	if err != nil {
		return nil, in.failure(err)
	}
	in.mod = mod
	if !p.cfg.noFuel {
		if in.inv.fuelG == nil {
			in.inv.bind(mod)
		}
		in.inv.depthG.Set(uint64(in.callDepth()))
	}
	in.call.mem = mod.Memory()
	in.call.realloc = mod.ExportedFunction("cabi_realloc")
	in.stack = make([]uint64, p.stackLen)
	if p.hasInit {
		// _initialize gets fresh budgets: the wall time of wazero's own
		// instantiation (large data segments, a race-instrumented host)
		// is not the guest's.
		in.inv.begin(ctx, "_initialize")
		if err := mod.ExportedFunction("_initialize").CallWithStack(&in.ctx, nil); err != nil {
			return nil, in.failure(err)
		}
	}
	if in.inv.abort != nil {
		return nil, in.failure(nil)
	}
	in.ctx.set(context.Background())
	return in, nil
}

// interpretedCallDepth caps the call depth of an interpreted instance
// below the wazero interpreter's own limit of 2000 frames, which it
// enforces with a trap: a depth of N allows N-1 nested charged function
// entries, so an invocation holds at most N+1 frames (with a leaf that
// calls nothing, or the refused entry, and the fuel module's host
// function called to yield, grow memory or refuse the depth).
const interpretedCallDepth = 1990

// callDepth is the call depth an invocation of in may reach.
func (in *Instance) callDepth() uint32 {
	d := in.plugin.budgets.CallDepth
	if in.interpreted {
		d = min(d, interpretedCallDepth)
	}
	return d
}

// Invoke calls the guest export named export under a fresh set of budgets:
// lower (if non-nil) fills params, one core value per parameter, typically
// after Call.Alloc and Call.Write* for strings and lists; then the export
// runs; then lift (if non-nil) reads results, whose slice is only valid
// during lift; finally the guest's cabi_post_<export>, if exported, runs
// with the results.
//
// Any failure — a trap, an exceeded budget, a host function error, a lower
// or lift error such as invalid UTF-8 or an out-of-bounds pointer from the
// guest — destroys the instance and returns an *Error. Asking for an export
// the plugin does not have returns a plain error and leaves the instance
// usable.
func (in *Instance) Invoke(ctx context.Context, export string, lower func(call *Call, params []uint64) error, lift func(call *Call, results []uint64) error) error {
	if !in.busy.CompareAndSwap(false, true) {
		return fmt.Errorf("wasmhost: plugin %q: Invoke %q while another call is in flight on this instance; acquire another instance", in.plugin.name, export)
	}
	defer in.busy.Store(false)
	if in.broken {
		return &Error{Plugin: in.plugin.name, Export: export, Err: errors.New("the instance was destroyed by an earlier failure; acquire a new one")}
	}
	ef, ok := in.fns[export]
	if !ok {
		// Looked up once per instance, on first use: each handle costs a
		// wazero call engine (≈10 KiB), too much to make for every export
		// of every instance up front.
		info, ok := in.plugin.exports[export]
		if !ok {
			return fmt.Errorf("wasmhost: plugin %q has no export %q; check the world's exports", in.plugin.name, export)
		}
		ef = &exportFn{fn: in.mod.ExportedFunction(export), nparams: len(info.sig.Params), nresults: len(info.sig.Results)}
		if info.post {
			ef.post = in.mod.ExportedFunction("cabi_post_" + export)
		}
		in.fns[export] = ef
	}
	in.ctx.set(ctx)
	// Drop the caller's context afterwards; a host function that kept the
	// context it was given sees an uncancelled one, never a nil.
	defer in.ctx.set(context.Background())
	in.inv.begin(ctx, export)
	stack := in.stack
	clear(stack)
	if lower != nil {
		if err := lower(&in.call, stack[:ef.nparams]); err != nil {
			return in.failure(staged{"lower the arguments", err})
		}
	}
	if err := ef.fn.CallWithStack(&in.ctx, stack); err != nil {
		return in.failure(err)
	}
	if in.inv.abort != nil {
		return in.failure(nil)
	}
	if lift != nil {
		if err := lift(&in.call, stack[:ef.nresults]); err != nil {
			return in.failure(staged{"lift the results", err})
		}
	}
	if ef.post != nil {
		if err := ef.post.CallWithStack(&in.ctx, stack); err != nil {
			return in.failure(err)
		}
	}
	if in.inv.abort != nil {
		return in.failure(nil)
	}
	return nil
}

// failure destroys the instance and builds the *Error for err.
func (in *Instance) failure(err error) error {
	in.destroy()
	inv := &in.inv
	if inv.abort == nil {
		var he *Error
		var exit *sys.ExitError
		var st staged
		switch {
		case err == nil:
			inv.fail("", errors.New("aborted"))
		case errors.As(err, &st) && !errors.As(st.err, &he):
			// A binding refused what the guest handed over.
			inv.fail("", err)
		case errors.As(err, &he):
			he.Export = inv.export
			inv.abort = he
		case errors.As(err, &exit):
			inv.fail("", fmt.Errorf("guest exited with code %d (proc_exit)", exit.ExitCode()))
		default:
			if inv.ctx != nil && inv.ctx.Err() != nil && errors.Is(err, inv.ctx.Err()) {
				inv.check()
			} else {
				inv.fail("", trapError{err})
			}
		}
	}
	return inv.abort
}

// Plugin returns the plugin this instance runs.
func (in *Instance) Plugin() *Plugin { return in.plugin }

// Release returns the instance to its pool, or destroys it if a call
// failed, its generation was closed, its memory grew past
// PluginConfig.RecycleBytes, or it runs the interpreter's code and the
// compiled code is there now. The instance must not be used afterwards.
func (in *Instance) Release() {
	if in.pool != nil {
		in.pool.put(in)
		return
	}
	in.destroy()
}

// stale reports whether the instance runs the interpreter's code while
// compiled code exists: it gives way to a compiled instance rather than
// serve again from the pool.
func (in *Instance) stale() bool {
	return in.interpreted && in.plugin.entry.opt.Load() != nil
}

// destroy closes the instance's module; it is idempotent.
func (in *Instance) destroy() {
	in.broken = true
	if in.mod != nil {
		_ = in.mod.Close(context.Background())
	}
	if in.interpreted && !in.dropped {
		in.dropped = true
		in.plugin.engine.drop(in.plugin.entry)
	}
}

// logWriter is the guest's stdout and stderr: it forwards to PluginConfig.Log
// and enforces Budgets.LogBytes.
type logWriter struct{ in *Instance }

func (w *logWriter) Write(b []byte) (int, error) {
	inv := &w.in.inv
	p := w.in.plugin
	room := p.budgets.LogBytes - inv.logBytes
	n := int64(len(b))
	out := b
	if n > room {
		out = b[:max(room, 0)]
		inv.fail(BudgetLog, fmt.Errorf("wrote more than its log budget of %d bytes to stdout/stderr; log less or raise the budget", p.budgets.LogBytes))
	}
	inv.logBytes += int64(len(out))
	if len(out) > 0 && p.cfg.Log != nil {
		p.logMu.Lock()
		_, _ = p.cfg.Log.Write(out)
		p.logMu.Unlock()
	}
	if inv.abort != nil {
		// Write runs inside the guest's fd_write: unwind the guest now.
		panic(abortPanic{})
	}
	return len(b), nil
}

// trapError reports a trap by the first line of wazero's error, leaving out
// the wasm stack trace, which names only function indices of a stripped
// module.
type trapError struct{ err error }

func (e trapError) Error() string {
	msg, _, _ := strings.Cut(e.err.Error(), "\n")
	return "guest trapped: " + msg + "; a bug in the plugin, its log may say more"
}

func (e trapError) Unwrap() error { return e.err }

// staged wraps an error of the bindings' lower or lift function.
type staged struct {
	stage string
	err   error
}

func (e staged) Error() string { return e.stage + ": " + e.err.Error() }

func (e staged) Unwrap() error { return e.err }
