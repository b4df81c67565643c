// Package ulid encodes, parses and generates ULIDs
// (https://github.com/ulid/spec): 16 bytes, a 48-bit big-endian Unix
// millisecond time followed by 80 random bits, written as 26 Crockford base32
// characters (0-9 and A-Z without I, L, O and U).
//
// [Encode] and [Parse] are pure functions. [Generator] makes strictly
// increasing ULIDs from crypto/rand, read in batches. The package computes
// nothing at init: its tables are constants.
package ulid
