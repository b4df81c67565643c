// Package sessionfmt is Smith's session file format: length-prefixed,
// checksummed frames with deterministic CBOR payloads, transparent zstd
// compression, crash recovery and repair, and the in-memory index arena.
package sessionfmt
