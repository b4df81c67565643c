// Package fuel instruments a decoded core WebAssembly module for
// deterministic, preemptible budgets.
//
// [Instrument] adds a mutable i64 global (exported as [GlobalExport]) and, at
// every function entry and every loop header, code equivalent to
//
//	fuel = fuel - 1
//	if fuel < 0 { yield() }
//
// where yield is a new function import ([Module].[YieldName]) through which
// the host refills the counter (minus the unit the yielding charge spends),
// checks deadlines and cancellation, or aborts the guest. A second i32 global (exported as [DepthExport]) holds the call
// depth still allowed: each function entry decrements it and calls the
// import [Module].[DepthName] when it reaches zero, and each body is wrapped
// in a block so every exit (end, return, a branch to the function's label, a
// tail call) gives the level back. Leaf functions (no call of any kind)
// cannot recurse and run a bounded number of instructions between two
// charges of their loop headers; their entries are not charged and they
// take no depth, which keeps the cost of small helpers and of scanning
// loops (Go's and Rust's, memcpy) down. The host sets both globals per call, so
// the instrumented code does not depend on any budget. This bounds recursion long before
// wazero's own 400 MB native stack ceiling. Every memory.grow is replaced by a call to a second import
// ([Module].[GrowName], same signature as memory.grow) so the host decides
// and records every growth. Adding the imports shifts every defined function
// index by three; calls, ref.func, exports, the start function, element
// segments, global initializers and the name section are rewritten to match.
//
// The opcodes of WebAssembly 2.0 are understood, fixed-width SIMD
// included; anything else (relaxed SIMD, threads, exceptions, GC) is
// refused with the offset of the opcode.
package fuel
