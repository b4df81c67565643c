// Package rustdriver lets Go tests drive Rust code natively: it builds a
// Rust crate root (a driver, usually testdata/driver.rs, that
// #[path]-includes the module under test) with Debian's rustc 1.63.0 and
// talks to the running binary over its stdin and stdout, so a Go fuzz
// target can hold a Rust port to the Go package it ports. [RunTests] runs a
// module's own #[cfg(test)] tests.
//
// The protocol is length-prefixed frames. A request is an operation byte,
// the payload's length as a little-endian u32, and the payload; the reply
// is the length of its payload as a little-endian u32 and the payload. The
// driver serves requests until its stdin ends.
//
// The compiler is $SMITH_RUSTC, else /usr/bin/rustc, and must report
// version 1.63.0 (the one tools/pluginbuild builds the plugins with; the
// rustup rustc first in PATH is not used). Without it every caller fails
// with a message that says to run scripts/deps.sh: the Rust tests are
// never skipped. Builds refuse warnings (-D warnings); a driver that uses
// only part of a module says #![allow(dead_code)] at its crate root.
//
// A driver is built and started once per test binary (per root and
// arguments) and stopped by [Stop], which the package's TestMain calls
// after m.Run. It runs from an already deleted file and, on Linux, dies
// with the test process, so a fuzz worker killed outright leaves nothing
// behind; each fuzz worker process builds its own.
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		rustdriver.Stop()
//		os.Exit(code)
//	}
//
//	func FuzzPort(f *testing.F) {
//		f.Fuzz(func(t *testing.T, in []byte) {
//			got := rustdriver.Start(t, "testdata/driver.rs").Ask(t, 'd', in)
//			...
//		})
//	}
package rustdriver
