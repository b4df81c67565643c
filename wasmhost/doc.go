// Package wasmhost is Smith's world-agnostic WebAssembly plugin engine. It
// runs core WebAssembly modules that follow the component model's canonical
// ABI (what wit-bindgen, or `go build -buildmode=c-shared` with
// //go:wasmexport, produces before componentization) on wazero, safely
// against hostile guests and deterministically.
//
// wasmhost knows core wasm and the canonical ABI's memory conventions, not
// Smith's world: the expected imports and exports arrive as a [WorldSpec]
// generated from WIT, and the host functions as [HostModule]s.
//
// # Getting Started
//
//	eng, err := wasmhost.NewEngine(ctx, wasmhost.Config{CacheDir: dir}) // "" caches in memory only
//	if err != nil { ... }
//	if note := eng.CacheNote(); note != "" { ... } // dir unusable: compiling in memory
//	defer eng.Close(ctx) // lets a background compile finish, until ctx ends
//	f, _ := os.Open("tools.wasm")
//	st, _ := f.Stat()
//	p, err := eng.Compile(ctx, wasmhost.Artifact{Name: "tools", Reader: f, Size: st.Size()},
//		wasmhost.PluginConfig{World: world, Hosts: hosts})
//	if err != nil { ... } // a *ValidationError says what to fix
//	gen, _ := wasmhost.NewGeneration(p)
//	defer gen.Close()
//	in, err := gen.Acquire(ctx, "tools")
//	if err != nil { ... }
//	defer in.Release()
//	err = in.Invoke(ctx, "smith:plugin/tool@0.0.0#invoke-tool",
//		func(c *wasmhost.Call, params []uint64) error { ... lower with c.Alloc, c.WriteString ... },
//		func(c *wasmhost.Call, results []uint64) error { ... lift with c.ReadU32, c.ReadString ... })
//
// # Validation
//
// [Engine.Compile] refuses an artifact before any of its code runs: a
// declared size over the bound, more bytes than the bound (never read
// further), a SHA-256 other than the pinned one (unless Artifact.Verified
// says the caller checked the pin already), an import that is neither in
// the world (with a granted host function) nor in the WASI subset, an import
// or export whose core signature differs from the world's, a missing required
// export, an unknown export, a missing memory or cabi_realloc, a malformed
// _initialize or cabi_post_*, initial memory over the budget, or relaxed SIMD,
// threads and exception opcodes. The [ValidationError] lists every problem
// with what was found, what was expected and the fix.
//
// # World version
//
// The world version is read from the component-model names themselves, not
// from a custom section: every import module and export of the world's
// package is named "<package>/<interface>@<version>" (exports add
// "#<function>"), so an artifact built against another version of the WIT
// has names the WorldSpec does not list. Such names are reported as
// "targets smith:plugin@0.1.0; expected smith:plugin@0.0.0", and an artifact
// exporting no function of the package at all is refused as not a plugin of
// the world. Reading names needs no parser for the binary component-type
// section and works for every toolchain, including a Go build with no
// post-processing step.
//
// # Sandbox
//
// Guests get a deterministic WASI preview 1 subset: clocks that advance by
// one millisecond per read from a fixed epoch (a constant monotonic clock
// hangs the Go runtime) and by the whole duration of a sleep, which returns
// at once; random bytes from a ChaCha8 stream seeded by
// PluginConfig.Seed, stdout and stderr to PluginConfig.Log, and no files,
// environment, arguments or sockets. _initialize runs before any export.
//
// # Budgets
//
// Each invocation gets fresh [Budgets]. Fuel is injected at load time: a
// counter charged one unit at every function entry and loop header; when a
// slice of [FuelSlice] units ([InterpretedFuelSlice] on the interpreter)
// runs out the guest calls the host, which refills
// it from the invocation's budget and checks the deadline, cancellation and
// the log budget there. That call is also where the Go scheduler can preempt
// the goroutine, so a guest spinning in a loop never wedges the process.
// Memory growth goes through the host too and is capped by
// Budgets.MemoryPages under the engine's Config.MemoryLimitPages. A guest
// that traps or exceeds a budget is destroyed and the *Error names the
// plugin, the export and the budget. A build tool can apply the same
// instrumentation ahead of time with [Instrument] and ship the result with
// Artifact.Instrumented set to [InstrumentationVersion]; for a verified pin
// of this build's version Compile then skips the rewrite and its cache.
//
// # Compilation
//
// Plugins run on wazero's optimizing compiler, whose code is cached in
// Config.CacheDir (the caller's choice; empty means memory only), so a
// later start only loads it. Compiling takes that compiler about a second
// of CPU per megabyte of module, so on a cache miss Compile compiles the
// module with wazero's interpreter instead, which takes a fifth to a
// tenth of that (and runs calls 30–50 times slower), and starts the
// optimizing compile in the background (a Passive plugin's waits for
// [Plugin.Optimize]). Instances created before it is done run interpreted;
// once it is done, new instances run compiled code, and an interpreted
// instance is destroyed rather than pooled when released or taken from
// the pool (the interpreter's code, ~30 bytes of heap per byte of function
// bodies, is dropped with the last of them). Whether the cache holds a module's code
// is known from a marker the engine writes next to wazero's files once
// the optimizing compile succeeded; if it fails (wazero fails a compile
// whose code it cannot write, so a directory that stopped being writable
// does it), the plugin stays on the interpreter. [Engine.Settle] waits for
// the background compiles; Close waits for them until its context ends, so
// their code reaches the cache. A process that exits earlier leaves those
// modules uncached (wazero writes each entry to a temporary file and
// renames it), and the next start interprets again.
//
// Both tiers run the same instrumented module, so fuel counts, memory
// budgets, cancellation and yield preemption are identical, and deadlines
// are overshot by about as much (the interpreter yields every
// InterpretedFuelSlice units); only the call depth differs: the
// interpreter traps beyond 2000 frames, so an interpreted instance allows
// at most 1990 nested calls, refused as BudgetStack with a message saying
// so.
//
// # Instances
//
// A [Generation] owns one pool per published plugin; instances are
// interchangeable, serve one call at a time, cache their exported function
// handles when created, and are destroyed rather than reused after any
// failure. On Linux an instance's linear memory is an anonymous mapping
// reserving its whole budget, so growth never copies; freed mappings are
// kept (up to four) and cleared for the next instance.
package wasmhost
