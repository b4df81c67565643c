// Package sysplugins embeds Smith's system plugins — the WebAssembly
// artifacts tools/pluginbuild builds from plugins-src — with their SHA-256
// hashes pinned in pins_gen.go, and hands them to core/plugin with the
// capabilities each is granted. An artifact whose size does not match its
// pin is refused here; one whose bytes do not match its pinned SHA-256 is
// refused by plugin.Host.Load, which hashes each artifact once.
//
// Regenerate with `go run ./tools/pluginbuild` from the repository root;
// scripts/gencheck.sh rebuilds and fails on any byte difference.
package sysplugins
