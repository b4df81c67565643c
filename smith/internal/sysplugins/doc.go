// Package sysplugins embeds Smith's system plugins — the WebAssembly
// artifacts tools/pluginbuild builds from plugins-src — with their SHA-256
// hashes pinned in pins_gen.go, and hands them to core/plugin with the
// capabilities each is granted. An artifact whose bytes do not match its
// pin is refused.
//
// Regenerate with `go run ./tools/pluginbuild` from the repository root;
// scripts/gencheck.sh rebuilds and fails on any byte difference.
package sysplugins
