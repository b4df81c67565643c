// Package cabi is the guest-side runtime of the generated Go bindings: the
// canonical ABI's cabi_realloc export, the buffers the host may still read,
// and the memory views the generated code lifts from and lowers into.
//
// Go on wasip1 has 64-bit pointers and 16-byte strings, so the canonical
// ABI's 32-bit layouts cannot be Go structs; the generated code reads and
// writes them byte by byte through the functions here. Linear memory
// addresses fit in 32 bits and Go's collector does not move objects, so an
// address taken here stays valid while the object is referenced.
//
// Lifetimes:
//   - buffers the host fills through cabi_realloc are pinned until the
//     bindings have copied them out ([Unpin]);
//   - buffers the guest hands to the host are kept until the host is done:
//     until an import returns ([Mark], [Release]) or until the host calls
//     the export's cabi_post_ function.
//
// Nothing here is safe for concurrent use; a wasm instance runs one call at
// a time.
package cabi
