// Package wasmhost is Smith's world-agnostic WebAssembly plugin engine:
// artifact validation, canonical-ABI calls, a deterministic WASI subset,
// budgets and instance pools.
package wasmhost
