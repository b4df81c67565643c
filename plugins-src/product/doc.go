// Package product documents Smith's product plugin, whose source is the
// Rust crate in this directory (src/lib.rs): the system prompt, the
// project-instructions context transform (AGENTS.md and CLAUDE.md, read
// through the granted fs import) and the init command, in one WebAssembly
// module that tools/pluginbuild builds with Debian's rustc 1.63 into
// smith/internal/sysplugins.
//
// The Go files here are tests only: they run the crate's Rust unit tests
// and hold its JSON reader (a command's arguments) to encoding/json:
//
//	cd plugins-src && go test ./product
//
// core/plugin's tests exercise the built module through the real plugin
// host, with real files and the effect journal.
package product
