// Package frame reads and writes the session file's frames:
//
//	length u32le | type u8 | flags u8 | payload (length bytes) | crc32c u32le
//
// The checksum (CRC-32C) covers length, type, flags and payload. [Scanner]
// walks a file with a fixed read window, verifies every checksum without
// holding a whole frame in memory, and applies the recovery rules: a truncated
// tail is recovered, a corrupt frame whose length is confirmed by the next
// frame boundary is skipped (bounded), and anything else fails as an explicit
// framing ambiguity.
package frame
