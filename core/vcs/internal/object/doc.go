// Package object encodes and decodes git's loose objects in the default
// (SHA-1) object format, as gitformat-loose(5) and git-cat-file(1) describe
// them: an object is "<type> <size>\x00<content>", its id is the SHA-1 of
// exactly those bytes, and a loose object is that byte string compressed
// with zlib and stored at objects/<2 hex>/<38 hex>.
//
// Only the three kinds a working-tree snapshot needs are supported: blobs
// (file content or a symlink target), trees (sorted entries "<mode>
// <name>\x00<20-byte id>") and commits (header lines, a blank line, the
// message). Parsers never panic and reject anything git's fsck --strict
// would reject in what this package writes (zero-padded or unknown modes,
// unsorted or duplicate names, "." and ".." names); they are fuzzed.
//
// Functions are safe for concurrent use; [Dir.Write] writes each object to
// a temporary file renamed into place, so a concurrent reader sees either
// no object or the whole object.
package object
