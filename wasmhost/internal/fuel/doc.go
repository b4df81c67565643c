// Package fuel instruments a decoded core WebAssembly module for
// deterministic, preemptible budgets.
//
// [Instrument] adds a mutable i64 global (exported as [GlobalExport]) and, at
// every function entry and every loop header, code equivalent to
//
//	if fuel == 0 { yield() }
//	fuel = fuel - 1
//
// where yield is a new function import ([Module].[YieldName]) through which
// the host refills the counter, checks deadlines and cancellation, or aborts
// the guest. Every memory.grow is replaced by a call to a second import
// ([Module].[GrowName], same signature as memory.grow) so the host decides
// and records every growth. Adding the imports shifts every defined function
// index by two; calls, ref.func, exports, the start function, element
// segments, global initializers and the name section are rewritten to match.
//
// Only the opcodes of WebAssembly 2.0 without SIMD are understood; anything
// else (SIMD, threads, exceptions, GC) is refused with the offset of the
// opcode.
package fuel
