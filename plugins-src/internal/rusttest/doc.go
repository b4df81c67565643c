// Package rusttest runs a Rust crate's own #[cfg(test)] tests from Go
// tests: [RunTests] builds the crate root natively with Debian's rustc
// 1.63.0 (the one tools/pluginbuild builds the plugins with; $SMITH_RUSTC
// overrides /usr/bin/rustc), -D warnings, linked with the library crates
// under plugins-src/lib, and runs the test binary.
//
// The library crates are built for the host by tools/pluginbuild
// -host-libs, which knows them, into a temporary directory named after a
// hash of their sources, and reused by every test process until a source
// changes. Without the pinned rustc every caller fails with a message
// that says to run scripts/deps.sh: the Rust tests are never skipped.
//
//	func TestRustUnitTests(t *testing.T) {
//		rusttest.RunTests(t, filepath.Join("src", "lib.rs"))
//	}
//
// Safe for concurrent use.
package rusttest
