// Package wit holds the smith:plugin WIT package, the whole plugin API, and
// the Go guest bindings generated from it.
package wit
