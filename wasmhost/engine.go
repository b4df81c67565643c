package wasmhost

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// DefaultMemoryLimitPages is the engine-wide linear memory ceiling when
// Config.MemoryLimitPages is zero: 4096 pages of 64 KiB, 256 MiB.
const DefaultMemoryLimitPages = 4096

// Config configures an Engine. The zero value is usable and means the
// defaults stated on each field.
type Config struct {
	// CacheDir holds compiled machine code between processes. Empty means
	// os.UserCacheDir()/smith/wazero; if the user cache directory is
	// unknown, compiled code is cached in memory only.
	CacheDir string
	// MemoryLimitPages is the hard ceiling on any instance's linear memory,
	// in 64 KiB pages (wazero's WithMemoryLimitPages). Zero means
	// DefaultMemoryLimitPages. Budgets.MemoryPages may only be lower.
	MemoryLimitPages uint32
}

// Engine compiles and runs plugins: one wazero runtime with the optimizing
// compiler and an on-disk compilation cache. An Engine is safe for
// concurrent use; create one per process.
type Engine struct {
	rt       wazero.Runtime
	cache    wazero.CompilationCache
	memLimit uint32
	cacheDir string
	fuelState
	modMu   sync.Mutex
	modules map[moduleKey]*moduleEntry
}

// NewEngine creates an Engine. It creates the cache directory if needed.
func NewEngine(ctx context.Context, cfg Config) (*Engine, error) {
	limit := cfg.MemoryLimitPages
	if limit == 0 {
		limit = DefaultMemoryLimitPages
	}
	if limit > 65536 {
		return nil, fmt.Errorf("wasmhost: Config.MemoryLimitPages %d exceeds the wasm32 maximum 65536; lower it", limit)
	}
	dir := cfg.CacheDir
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "smith", "wazero")
		}
	}
	rc := wazero.NewRuntimeConfigCompiler().
		WithMemoryLimitPages(limit)
	var cache wazero.CompilationCache
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("wasmhost: create compilation cache directory %s: %w; set Config.CacheDir to a writable directory", dir, err)
		}
		c, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, fmt.Errorf("wasmhost: open compilation cache %s: %w; set Config.CacheDir to a writable directory", dir, err)
		}
		cache = c
		rc = rc.WithCompilationCache(c)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("wasmhost: instantiate WASI preview 1: %w", err)
	}
	e := &Engine{rt: rt, cache: cache, memLimit: limit, cacheDir: dir}
	return e, nil
}

// CacheDir reports the compilation cache directory in use, or "" when
// compiled code is cached in memory only.
func (e *Engine) CacheDir() string { return e.cacheDir }

// Close releases the runtime, every plugin compiled by it and every instance
// still alive. Calls running on those instances fail.
func (e *Engine) Close(ctx context.Context) error {
	err := e.rt.Close(ctx)
	if e.cache != nil {
		if cerr := e.cache.Close(ctx); err == nil {
			err = cerr
		}
	}
	return err
}
