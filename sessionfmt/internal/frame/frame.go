package frame

import (
	"encoding/binary"
	"hash/crc32"
)

// Frame layout sizes.
const (
	HeaderSize  = 6  // length u32le, type u8, flags u8
	TrailerSize = 4  // crc32c u32le
	Overhead    = 10 // HeaderSize + TrailerSize
)

// Type is a frame type. Types this package does not know are preserved byte
// for byte by every reader and writer.
type Type uint8

// Known frame types.
const (
	TypeHeader Type = 0x01 // first frame of every file: magic and format version
	TypeEntry  Type = 0x02 // one history entry
	TypeSelect Type = 0x03 // selected leaf changed
)

// Known reports whether t is a frame type of this format version.
func (t Type) Known() bool { return t >= TypeHeader && t <= TypeSelect }

// FlagZstd marks a payload stored as a u32le uncompressed size followed by one
// zstd frame. It is the only flag bit defined for known types.
const FlagZstd uint8 = 0x01

// ValidFlags reports whether flags are legal for a known type t: only entry
// frames may be compressed. Unknown types may carry any flags.
func ValidFlags(t Type, flags uint8) bool {
	switch t {
	case TypeEntry:
		return flags&^FlagZstd == 0
	case TypeHeader, TypeSelect:
		return flags == 0
	}
	return true
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of b.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// update continues a CRC-32C.
func update(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }

// Append appends one complete frame holding payload to dst and returns the
// extended slice.
func Append(dst []byte, t Type, flags uint8, payload []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	dst = append(dst, byte(t), flags)
	dst = append(dst, payload...)
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}

// Split checks that b is exactly one complete frame with a valid checksum and
// returns its parts. It returns ok=false otherwise.
func Split(b []byte) (t Type, flags uint8, payload []byte, ok bool) {
	if len(b) < Overhead {
		return 0, 0, nil, false
	}
	n := binary.LittleEndian.Uint32(b)
	if uint64(len(b)) != uint64(n)+Overhead {
		return 0, 0, nil, false
	}
	end := HeaderSize + int(n)
	if Checksum(b[:end]) != binary.LittleEndian.Uint32(b[end:]) {
		return 0, 0, nil, false
	}
	return Type(b[4]), b[5], b[HeaderSize:end], true
}

// Begin reserves room for a frame header at the end of dst; append the
// payload after it and call [Finish] with the returned start.
func Begin(dst []byte) (out []byte, start int) {
	return append(dst, 0, 0, 0, 0, 0, 0), len(dst)
}

// Finish completes the frame begun at start, whose payload is
// dst[start+HeaderSize:], and returns dst with the checksum appended.
func Finish(dst []byte, start int, t Type, flags uint8) []byte {
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-HeaderSize))
	dst[start+4], dst[start+5] = byte(t), flags
	return binary.LittleEndian.AppendUint32(dst, Checksum(dst[start:]))
}
