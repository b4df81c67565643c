// Package sessionfmt is Smith's session file format: an append-only,
// branching history of entries stored as length-prefixed, checksummed frames
// with deterministic CBOR payloads, transparent deterministic zstd
// compression, crash recovery and repair, and an in-memory index arena.
//
// # Getting Started
//
//	f, err := sessionfmt.Create("chat.session", nil) // published atomically
//	if err != nil { ... }
//	defer f.Close()
//	content, _ := sessionfmt.EncodeContent(map[string]string{"role": "user", "text": "hi"})
//	err = f.Append(sessionfmt.Entry{ID: sessionfmt.NewID(), Time: time.Now(),
//		Kind: sessionfmt.KindMessage, Content: content}, sessionfmt.Durable)
//
//	s, report, err := sessionfmt.Load("chat.session", nil) // readers never block
//	for _, i := range s.History(s.Selected(), nil) {
//		e := s.Entry(i) // Content stays canonical CBOR until its consumer decodes it
//		_ = e
//	}
//	_ = report.Damaged()
//
// # File format
//
// A file is a header frame followed by frames:
//
//	length u32le | type u8 | flags u8 | payload | crc32c u32le
//
// The CRC-32C covers length, type, flags and payload. Frame types: 0x01
// header (magic "smith.session" and format version), 0x02 entry, 0x03 select
// (the selected leaf changed). Frames of any other type are preserved byte
// for byte by [Repair], [Dump] and [Import], and skipped by [Load]. Payloads
// are CBOR in RFC 8949 core deterministic encoding; an entry payload holds the
// entry's record fields and its content as an opaque byte string. Entry
// payloads of at least 2 KiB are stored zstd-compressed (flag 0x01: a u32le
// uncompressed size, then one zstd frame) when that saves bytes, with pinned
// encoder options, so the same entries always give the same bytes.
//
// # Bounds and recovery
//
// Every size is checked against its bound before memory is allocated for it:
// a frame's length, a compressed frame's declared size (which must also equal
// the zstd frame's content size, and decoding is capped at it), and a
// session's total. Reading recovers every complete frame before a truncated
// tail, skips (up to [Options].MaxSkips) corrupt frames whose length is
// confirmed by the next frame boundary, and fails with an [*Error] on any
// other damage rather than guessing. [Report] lists every skipped region.
//
// # Writers and publication
//
// [Create], [Session.Publish], [File.Fork], [Repair] and [ImportFile] publish
// new files atomically (temporary file, fsync, rename, directory fsync).
// One [File] per session is open for writing at a time: an advisory lock on
// "<path>.lock" serialises writers across processes.
//
// # Memory
//
// A [Session] is a vector of fixed-size records (id, parent, time, kind,
// pairing ids, arena location) over one payload arena. Loading and forking
// allocate a constant number of times, independent of the number of entries.
package sessionfmt
