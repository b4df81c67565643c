// Package conformance holds the generated host bindings of the test-only
// world smith:conformance@0.0.0 (wit/internal/conformance/wit), and the
// conformance suite that runs the same checks against a Go guest built with
// the standard toolchain and a hand-written WAT guest. The world exercises
// strings, lists, records, variants, enums, options, results and resources
// in both directions, through the same generator as the real plugin world.
package conformance
