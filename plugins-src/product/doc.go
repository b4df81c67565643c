// Package product documents Smith's product plugin, whose source is the
// Rust crate in this directory (src/lib.rs): the system prompt, the
// project-instructions context transform (AGENTS.md and CLAUDE.md, read
// through the granted fs import) and the init command, in one WebAssembly
// module that tools/pluginbuild builds with Debian's rustc 1.63 into
// smith/internal/sysplugins.
//
// The Go file here is a test only: it runs the crate's Rust unit tests
// (the arguments a command reads go through smith_json's reader, which
// the tools' and providers' fuzz targets exercise):
//
//	cd plugins-src && go test ./product
//
// core/plugin's tests exercise the built module through the real plugin
// host, with real files and the effect journal.
package product
