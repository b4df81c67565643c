package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smith-agent/smith/httpengine"
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
	// Log receives what plugins write to stdout and stderr and the records
	// of the "log" capability (one line each, "plugin NAME: LEVEL:
	// MESSAGE"); default io.Discard. The Host serializes its writes, so it
	// need not be safe for concurrent use.
	Log io.Writer
	// HTTP runs the exchanges of plugins granted "http"; nil means an
	// engine with httpengine's default bounds, created on the first
	// request. Pass the runtime's engine to share its transport.
	HTTP *httpengine.Engine
	// Secrets keeps what plugins granted "secrets" store; nil refuses
	// every store-secret and check-secret with a storage failure.
	Secrets SecretStore
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
	// Each prefix is checked when the plugin is compiled: no user info,
	// query or fragment, no "." or ".." segment, and plain http only to
	// this machine (localhost, 127.0.0.0/8, ::1).
	Network []string
	// Secrets are the registered secrets (by name, among the binding's
	// Effects.Secrets) whose references ${secret:NAME} the plugin's http
	// requests may carry in header values: each is replaced by the
	// plaintext just before the request is sent. Nothing else of a request
	// (URL, body) is restored; any other reference, or a name not
	// registered, is sent as written. Empty allows none.
	Secrets []string
	// Stores are the secrets (by name) a plugin granted "secrets" may
	// store ([SecretStore]) and check; any other name is a name-denied
	// fault. Empty allows none.
	Stores []string
	// Timeout bounds the wall time of one call, host effects included;
	// zero means wasmhost.DefaultTimeout (30s). A tool plugin running
	// processes needs at least its longest process timeout.
	Timeout time.Duration
	// Fuel is the instruction budget of one call; zero means
	// wasmhost.DefaultFuel.
	Fuel uint64
	// MemoryPages caps the plugin's linear memory in 64 KiB pages; zero
	// means the engine's ceiling (256 MiB), which is also the most.
	MemoryPages uint32
	// OutputBytes bounds the text one tool call or command of the plugin
	// returns; zero means the binding's (Effects.OutputLimit, by default
	// DefaultOutputLimit). The guest is told it, and the host cuts text
	// past it with a note.
	OutputBytes int
	// LogBytes bounds the log bytes one call writes; zero means
	// LogBytesPerCall.
	LogBytes int
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
	// Configuration is the plugin's configuration, a JSON object its
	// declare-contributions export receives and its handle-event export
	// with every event (the runtime sets the permissions plugin's permission
	// policy here); "" means "{}". A registration is cached per
	// configuration: a plugin may declare what it contributes from it
	// (the permissions plugin subscribes to tool calls only when a policy is
	// set), and an artifact's ahead-of-time Registration holds only for "".
	Configuration string
}

// Host loads plugins into generations. It is safe for concurrent use.
type Host struct {
	engine   *wasmhost.Engine
	contrib  string    // registration cache directory, or ""
	log      io.Writer // serialized (syncWriter)
	nextGen  atomic.Uint64
	dispatch dispatcher
	secrets  SecretStore // Config.Secrets
	// net is the engine of the "http" capability (Config.HTTP, or one
	// made on first use).
	net struct {
		once   sync.Once
		engine *httpengine.Engine
		err    error
	}
}

// syncWriter serializes the writes of the plugins' log: wasmhost writes
// stdout and stderr to it, the log capability its records.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// httpEngine returns the engine of the "http" capability.
func (h *Host) httpEngine() (*httpengine.Engine, error) {
	h.net.once.Do(func() {
		if h.net.engine == nil {
			h.net.engine, h.net.err = httpengine.New(httpengine.Config{})
		}
	})
	return h.net.engine, h.net.err
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
	h := &Host{engine: eng, contrib: contrib, log: &syncWriter{w: log}, secrets: cfg.Secrets}
	h.net.engine = cfg.HTTP
	return h, nil
}

// CacheNote is "" when compiled code is cached on disk as configured (or
// no cache directory was given); otherwise one line for the user saying
// why the cache directory cannot be used and what to do, while plugins
// compile in memory (every start then compiles them again).
func (h *Host) CacheNote() string { return h.engine.CacheNote() }

// Settle waits until no plugin compiles in the background: the instances
// made from then on run optimized code (wasmhost.Engine.Settle). It
// returns ctx's error if ctx ends first. For benchmarks and tests that
// measure compiled code; safe for concurrent use.
func (h *Host) Settle(ctx context.Context) error { return h.engine.Settle(ctx) }

// Close releases the engine and every plugin compiled by it; close the
// generations first.
func (h *Host) Close(ctx context.Context) error {
	if err := h.engine.Close(ctx); err != nil {
		return fmt.Errorf("plugin: close the engine: %w", err)
	}
	return nil
}
