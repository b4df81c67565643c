// Package canon is the host-side runtime of the generated plugin bindings:
// it lifts canonical-ABI values out of a guest's linear memory and lowers
// them into it through a [wasmhost.Call], and keeps the per-instance
// resource handle tables.
//
// Everything a guest wrote is hostile: every pointer, length, alignment,
// discriminant and char is checked, and a bad one is an error naming the
// value and the bound, which destroys the guest instance. Sizes are
// computed in 64 bits so a huge length cannot wrap around, and nothing is
// allocated before the guest memory it describes has been bounds-checked by
// the Call (whose reads also count against the plugin's output budget).
package canon
