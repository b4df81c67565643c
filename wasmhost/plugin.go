package wasmhost

import (
	"io"
	"sync"
	"time"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// DefaultRecycleBytes is PluginConfig.RecycleBytes when zero: 64 MiB.
const DefaultRecycleBytes = 64 << 20

// DefaultMaxBytes bounds an artifact's size when Artifact.MaxBytes is zero:
// 64 MiB.
const DefaultMaxBytes = 64 << 20

// Artifact is a plugin's core WebAssembly module as it arrives.
type Artifact struct {
	// Name identifies the plugin in errors and logs.
	Name string
	// Reader yields the module bytes. It is read at most MaxBytes+1 bytes
	// far; a longer artifact is refused without being materialized.
	Reader io.Reader
	// Bytes, when non-nil, is the module already in memory, used in place
	// of Reader without being copied; it must not be modified while the
	// plugin is alive. The size, bound and pin checks apply as to Reader.
	Bytes []byte
	// Size, when positive, is the size the caller declares (a file's stat, a
	// manifest entry). A declared size over MaxBytes is refused before
	// reading, and the read must yield exactly Size bytes.
	Size int64
	// MaxBytes bounds the artifact. Zero means DefaultMaxBytes.
	MaxBytes int64
	// SHA256, when non-empty, pins the artifact: the lowercase hex SHA-256
	// of its bytes must equal it.
	SHA256 string
	// Verified, when true, says the caller has itself checked that SHA256 is
	// the SHA-256 of exactly the bytes Reader yields (core/plugin does, once
	// per loaded artifact), so Compile takes SHA256 as the artifact's content
	// key instead of hashing the bytes again. It requires SHA256. Default
	// false: Compile hashes the bytes and checks any pin itself.
	Verified bool
	// Instrumented, when non-empty, says the bytes are already the output of
	// Instrument, made by a build whose InstrumentationVersion is this
	// value, so Compile neither rewrites them nor reads the instrumented
	// form from its cache. A build tool instruments system plugins ahead of
	// time this way (tools/pluginbuild); every start then skips reading and
	// checking a second copy of the module. It requires Verified (the
	// caller pinned these exact bytes) and must equal this build's
	// InstrumentationVersion; otherwise Compile refuses the artifact.
	// Default "": Compile instruments the module itself.
	Instrumented string
}

// Budgets are the per-invocation limits of a plugin. Every call of an export
// (and the instantiation that runs _initialize) gets a fresh set. The zero
// value of a field means the default stated on it.
type Budgets struct {
	// Fuel is the instruction budget in units: one unit is charged at every
	// function entry and every loop iteration. Default 1<<32 units.
	Fuel uint64
	// Timeout bounds the wall time of one invocation; the context deadline
	// applies too, whichever is earlier. Default 30s. It is checked each
	// time a fuel slice (FuelSlice units; InterpretedFuelSlice on the
	// interpreter) runs out, so a runaway guest overshoots by about one
	// slice (a few milliseconds).
	Timeout time.Duration
	// MemoryPages caps the guest's linear memory in 64 KiB pages; growth
	// beyond it fails inside the guest and the invocation fails with
	// BudgetMemory. Default (and maximum) Config.MemoryLimitPages.
	MemoryPages uint32
	// LogBytes caps what the guest writes to stdout and stderr per
	// invocation. Default 1 MiB.
	LogBytes int64
	// OutputBytes caps what the host reads out of guest memory per
	// invocation (Call.Read*). Default 64 MiB.
	OutputBytes int64
	// CallDepth caps nested guest function calls, so deep recursion fails
	// cleanly instead of growing the host's native stack. Default 1<<16.
	// An instance on the interpreter (on a compile-cache miss, until the
	// optimizing compile is done) allows at most 1990, below the
	// interpreter's own limit.
	CallDepth uint32
}

// The Budgets defaults.
const (
	DefaultFuel        = 1 << 32
	DefaultTimeout     = 30 * time.Second
	DefaultLogBytes    = 1 << 20
	DefaultOutputBytes = 64 << 20
	DefaultCallDepth   = 1 << 16
	// FuelSlice is how many fuel units the guest runs between two host
	// checks of the deadline, cancellation and the log budget.
	FuelSlice = 1 << 20
	// InterpretedFuelSlice is FuelSlice for an instance on the
	// interpreter, which runs a unit about 64 times slower, so that both
	// check about as often in wall time.
	InterpretedFuelSlice = FuelSlice >> 6
)

// PluginConfig says how a plugin is checked, linked and run.
type PluginConfig struct {
	// World is checked against every import and export of the artifact.
	World WorldSpec
	// Hosts implement the imports the plugin is granted.
	Hosts []HostModule
	// Budgets limit each invocation.
	Budgets Budgets
	// Seed seeds the guest's random_get. Every instance starts from the same
	// seed, so identical call sequences give identical results.
	Seed uint64
	// Log receives what the guest writes to stdout and stderr. Writes from
	// different instances are serialized. Default io.Discard.
	Log io.Writer
	// MaxInstances bounds the instances alive at once in a Generation's
	// pool for this plugin; Acquire waits when all are busy. Default 4.
	MaxInstances int
	// RecycleBytes: linear memory never shrinks, so an instance whose memory
	// has grown past this many bytes is destroyed on Release instead of
	// going back to the pool. Default 64 MiB.
	RecycleBytes int64
	// Passive, on a compile-cache miss, leaves the optimizing compile
	// unstarted: instances run interpreted until Plugin.Optimize, or a
	// Compile of the same artifact without Passive, starts it. For a
	// plugin compiled only to ask what it contributes, which this process
	// may never call. Default false: the compile starts at once.
	Passive bool

	// noFuel compiles the artifact without instrumentation; only the
	// benchmarks that measure fuel overhead set it.
	noFuel bool
}

// Plugin is a validated, instrumented and compiled artifact, ready to be
// instantiated by a Generation. A Plugin is safe for concurrent use and may
// be shared by several generations.
type Plugin struct {
	name     string
	engine   *Engine
	cfg      PluginConfig
	budgets  Budgets
	entry    *moduleEntry
	opt      linked // on the optimizing compiler
	interp   linked // on the interpreter, if entry had no compiled code yet
	exports  map[string]exportInfo
	hasInit  bool
	stackLen int // the longest export signature, for Instance.stack
	memory   experimental.MemoryAllocator
	logMu    sync.Mutex
	closed   sync.Once
}

// Name returns Artifact.Name.
func (p *Plugin) Name() string { return p.name }

// HasExport reports whether the artifact exports the world function name;
// an Optional export of the WorldSpec may be absent.
func (p *Plugin) HasExport(name string) bool {
	_, ok := p.exports[name]
	return ok
}

// Optimize starts, in the background, the optimizing compile a Passive
// plugin's Compile left unstarted; it does nothing when the code is
// compiled or its compile has started. Safe for concurrent use.
func (p *Plugin) Optimize() {
	p.engine.modMu.Lock()
	defer p.engine.modMu.Unlock()
	p.engine.optimizeLocked(p.entry)
}

// linked is what a plugin's instances on one backend link to.
type linked struct {
	be      *backend
	hosts   map[string]api.Module
	resolve func(name string) api.Module
}
