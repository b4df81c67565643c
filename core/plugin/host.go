package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/smith-agent/smith/wasmhost"
)

// WorldVersion is the smith:plugin world version this host serves.
const WorldVersion = "0.0.0"

// Config configures a [Host]. The zero value is usable.
type Config struct {
	// CacheDir holds compiled machine code and cached registrations between
	// processes. Empty means os.UserCacheDir()/smith; if that is unknown,
	// nothing is cached on disk.
	CacheDir string
	// Log receives what plugins write to stdout and stderr; default
	// io.Discard.
	Log io.Writer
}

// Artifact is one plugin to load.
type Artifact struct {
	// Name identifies the plugin in errors and effects; unique per Load.
	Name string
	// Wasm is the core WebAssembly module. Load hashes it once and the
	// plugin is compiled from it later without hashing again, so it must not
	// be modified after Load.
	Wasm []byte
	// SHA256 pins Wasm: the lowercase hex SHA-256 it must have. Required.
	SHA256 string
	// Grants are the capabilities the plugin may import ("fs", "process",
	// ...); importing any other capability refuses the artifact.
	Grants []string
	// Network are the network scopes of an "http" grant: absolute URL
	// prefixes (scheme://host[:port][/path]) a send-request may reach;
	// a URL outside every one is a scope-denied fault before any
	// connection. Empty with an "http" grant reaches nothing.
	Network []string
	// Timeout bounds the wall time of one call, host effects included;
	// zero means wasmhost.DefaultTimeout (30s). A tool plugin running
	// processes needs at least its longest process timeout.
	Timeout time.Duration
	// Instrumented is the wasmhost.InstrumentationVersion Wasm was
	// instrumented with ahead of time (wasmhost.Instrument, as
	// tools/pluginbuild does for the system plugins), or "" when the host
	// instruments it. Since Load verifies the pin, a pinned, instrumented
	// artifact compiles without a second copy of the module being read or
	// checked; another version is refused.
	Instrumented string
	// Registration is the artifact's registration computed ahead by
	// [Host.Register] (the smith binary embeds its system plugins'), so
	// that Load need not compile the plugin to ask what it contributes.
	// Load uses it only if it was computed for the same bytes, grants and
	// world version, like a cached registration, and ignores it otherwise.
	// Optional.
	Registration []byte
}

// Host loads plugins into generations. It is safe for concurrent use.
type Host struct {
	engine   *wasmhost.Engine
	contrib  string // registration cache directory, or ""
	log      io.Writer
	nextGen  atomic.Uint64
	dispatch dispatcher
}

// Open creates a Host and its engine.
func Open(ctx context.Context, cfg Config) (*Host, error) {
	dir := cfg.CacheDir
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "smith")
		}
	}
	wcfg := wasmhost.Config{}
	contrib := ""
	if dir != "" {
		wcfg.CacheDir = filepath.Join(dir, "wazero")
		contrib = filepath.Join(dir, "registrations")
	}
	eng, err := wasmhost.NewEngine(ctx, wcfg)
	if err != nil {
		return nil, fmt.Errorf("plugin: open the engine: %w", err)
	}
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	return &Host{engine: eng, contrib: contrib, log: log}, nil
}

// CacheNote is "" when compiled code is cached on disk as configured (or
// no cache directory was given); otherwise one line for the user saying
// why the cache directory cannot be used and what to do, while plugins
// compile in memory (every start then compiles them again).
func (h *Host) CacheNote() string { return h.engine.CacheNote() }

// Close releases the engine and every plugin compiled by it; close the
// generations first.
func (h *Host) Close(ctx context.Context) error {
	if err := h.engine.Close(ctx); err != nil {
		return fmt.Errorf("plugin: close the engine: %w", err)
	}
	return nil
}
