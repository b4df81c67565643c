//go:build !wasip1

// Command providers is the Go implementation of Smith's provider codec
// plugin, kept as the oracle of the plugin smith embeds: the Rust crate in
// src/ (src/lib.rs), which tools/pluginbuild builds. Each Rust module is
// the port of the Go package beside it under internal/; the Go tests hold
// the two equal module by module, and internal/conformance loads both
// plugins through the host and requires the same events, errors and
// requests (realpath_oracle_test.go). Built for wasip1 (main.go) this
// package is the Go plugin; on other platforms it is empty and its codecs
// are tested natively under internal/.
package main
