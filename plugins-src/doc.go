// Package pluginssrc holds Smith's system plugins: Rust crates (tools,
// product, providers and the library crates under lib/) built into the
// WebAssembly modules smith embeds, and the Go tests that hold them to
// their contracts. See README.md for the layout and how to add a wire
// format.
package pluginssrc
