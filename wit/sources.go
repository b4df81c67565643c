package wit

import "embed"

// Sources holds what a plugin author builds against, so that `smith plugin
// new` can vendor it into a fresh package with no network: the module's
// go.mod, the WIT files and their reference (docs/reference.md), the Go bindings (one package per interface, and
// internal/cabi; test files included, which a scaffold leaves out) and the
// Rust bindings rust/smith_plugin.rs. It is read-only and safe for
// concurrent use.
//
//go:embed go.mod doc.go *.wit deprecations.kdl docs/reference.md */*.go internal/cabi/*.go rust/smith_plugin.rs
var Sources embed.FS
