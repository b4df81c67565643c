// Package tools documents Smith's built-in tools plugin, whose source is
// the Rust crate in this directory (src/lib.rs): read, write, edit, bash,
// find, grep and ls in one WebAssembly module of about 130 KB,
// which tools/pluginbuild builds with Debian's rustc 1.63 into
// smith/internal/sysplugins. The plugin declares each tool with its JSON
// Schema and description, decodes the host-validated arguments, calls the
// granted fs and process imports and formats bounded output for the
// model; every failure is a tool fault saying what was wrong and how to
// retry.
//
// The Go files here are tests only: they run the crate's Rust unit tests,
// check the Unicode table the crate quotes paths with against Go's
// strconv, and exercise the built module through the real plugin host:
//
//	cd plugins-src && go test ./tools
package tools
