package wasmhost

import (
	"context"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
)

// PageSize is the size of a WebAssembly linear memory page: 64 KiB.
const PageSize = 64 << 10

// DefaultMemoryLimitPages is the engine-wide linear memory ceiling when
// Config.MemoryLimitPages is zero: 4096 pages of PageSize, 256 MiB.
const DefaultMemoryLimitPages = 4096

// Config configures an Engine. The zero value is usable and means the
// defaults stated on each field.
type Config struct {
	// CacheDir holds compiled machine code and instrumented modules
	// between processes; the caller chooses it (a product's directory in
	// os.UserCacheDir, say). NewEngine creates it if needed. Empty means
	// no cache on disk: code is compiled in memory, for this engine only.
	// A directory that cannot be created or written does not fail
	// NewEngine: the engine compiles in memory and CacheNote says why.
	CacheDir string
	// MemoryLimitPages is the hard ceiling on any instance's linear memory,
	// in 64 KiB pages (wazero's WithMemoryLimitPages). Zero means
	// DefaultMemoryLimitPages. Budgets.MemoryPages may only be lower.
	MemoryLimitPages uint32

	// tiers says which compilers run; only tests and benchmarks set it.
	tiers tiers
}

// tiers selects the compilers an engine uses.
type tiers uint8

const (
	// tiersAuto: the optimizing compiler, with the interpreter serving
	// while it runs in the background on a compile-cache miss.
	tiersAuto tiers = iota
	// tiersCompiler: the optimizing compiler only, in Compile (before
	// the interpreter tier existed).
	tiersCompiler
	// tiersInterpreter: the interpreter only.
	tiersInterpreter
)

// Engine compiles and runs plugins with wazero's optimizing compiler and a
// compilation cache, on disk when Config.CacheDir is set. Compiling a
// module takes that compiler about a second per megabyte, so on a cache
// miss Compile returns a plugin whose instances run on wazero's
// interpreter at once while the optimizing compile runs in the
// background; once it is done, new instances run the compiled code (see
// the package documentation, "Compilation"). An Engine is safe for
// concurrent use; create one per process.
type Engine struct {
	opt      *backend // the optimizing compiler
	cache    wazero.CompilationCache
	memLimit uint32
	cacheDir string
	note     string
	tiers    tiers

	interpOnce sync.Once
	interp     *backend // the interpreter, made on the first cache miss
	interpErr  error

	modMu   sync.Mutex
	modules map[moduleKey]*moduleEntry
	// compiling holds a channel per key being compiled, closed when that
	// compile ends: one compile per key at a time (see compiledModule).
	compiling map[moduleKey]chan struct{}
	bg        background // guarded by modMu
	// bgHook, if set (by tests, before Compile), runs at the start of
	// every background compile.
	bgHook func()
}

// NewEngine creates an Engine, and the cache directory if needed.
func NewEngine(ctx context.Context, cfg Config) (*Engine, error) {
	limit := cfg.MemoryLimitPages
	if limit == 0 {
		limit = DefaultMemoryLimitPages
	}
	if limit > 65536 {
		return nil, fmt.Errorf("wasmhost: Config.MemoryLimitPages %d exceeds the wasm32 maximum 65536; lower it", limit)
	}
	e := &Engine{memLimit: limit, tiers: cfg.tiers}
	rc := wazero.NewRuntimeConfigCompiler().WithMemoryLimitPages(limit)
	if dir := cfg.CacheDir; dir != "" {
		c, err := openCache(dir)
		if err != nil {
			e.note = fmt.Sprintf("wasmhost: compilation cache %s is unusable (%v), so plugins are compiled in memory and every start compiles them again; "+
				"make the directory writable or set Config.CacheDir to one that is", dir, err)
		} else {
			e.cache, e.cacheDir = c, dir
			rc = rc.WithCompilationCache(c)
		}
	}
	opt, err := newBackend(ctx, rc)
	if err != nil {
		if e.cache != nil {
			_ = e.cache.Close(ctx)
		}
		return nil, err
	}
	e.opt = opt
	return e, nil
}

// CacheDir reports the compilation cache directory in use, or "" when
// compiled code is cached in memory only (none was configured, or it is
// unusable: see CacheNote).
func (e *Engine) CacheDir() string { return e.cacheDir }

// CacheNote is "" when the engine uses the configured cache directory, or
// has none; otherwise it is one line for the user saying why the
// directory cannot be used and what to do, while the engine compiles in
// memory. It is set by NewEngine and never changes.
func (e *Engine) CacheNote() string { return e.note }

// Settle waits until no compile runs in the background (see the package
// documentation, "Compilation"): from then on, until a later Compile
// misses the cache, new instances run compiled code. It returns ctx's
// error if ctx ends first. A benchmark or a test that measures compiled
// code calls it before acquiring instances. Settle is safe for concurrent
// use.
func (e *Engine) Settle(ctx context.Context) error {
	e.modMu.Lock()
	drained := e.bg.drained
	e.modMu.Unlock()
	if drained == nil {
		return nil
	}
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wasmhost: wait for the background compiles: %w", ctx.Err())
	}
}

// Close releases the runtime, every plugin compiled by it and every
// instance still alive; calls running on those instances fail. A
// background compile still running (see the package documentation,
// "Compilation") is waited for until ctx ends, so that its code reaches
// the cache directory; if ctx ends first, Close returns without it, the
// compile's result is dropped when it ends (or with the process, which
// leaves that module uncached, never half-written), and the optimizing
// runtime is released then.
func (e *Engine) Close(ctx context.Context) error {
	e.modMu.Lock()
	e.bg.closed = true
	drained := e.bg.drained
	e.modMu.Unlock()
	if drained != nil {
		select {
		case <-drained:
		case <-ctx.Done():
		}
	}
	var err error
	e.interpOnce.Do(func() {}) // waits for an interpreter being made
	if e.interp != nil {
		err = e.interp.close(ctx)
	}
	e.modMu.Lock()
	later := e.bg.running > 0
	e.bg.releaseLater = later
	e.modMu.Unlock()
	if later {
		return err
	}
	if oerr := e.closeOptimizing(ctx); err == nil {
		err = oerr
	}
	return err
}

// closeOptimizing releases the optimizing runtime and the cache.
func (e *Engine) closeOptimizing(ctx context.Context) error {
	err := e.opt.close(ctx)
	if e.cache != nil {
		if cerr := e.cache.Close(ctx); err == nil {
			err = cerr
		}
	}
	return err
}
