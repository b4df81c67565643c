package ulid

import (
	"encoding/binary"
	"fmt"
)

// Size is the length of a ULID in bytes.
const Size = 16

// EncodedSize is the length of a ULID's text form in characters.
const EncodedSize = 26

// MaxMs is the largest millisecond time a ULID holds (48 bits: year 10889).
const MaxMs = 1<<48 - 1

// alphabet is Crockford's base32 alphabet, one character per 5-bit digit.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// digit maps a byte to its base32 digit plus one, 0 meaning "not a digit".
// Lowercase letters are accepted like uppercase ones; I, L, O and U are not
// digits (no aliasing to 1, 1, 0).
var digit = [256]byte{
	'0': 1, '1': 2, '2': 3, '3': 4, '4': 5, '5': 6, '6': 7, '7': 8, '8': 9, '9': 10,
	'A': 11, 'a': 11, 'B': 12, 'b': 12, 'C': 13, 'c': 13, 'D': 14, 'd': 14,
	'E': 15, 'e': 15, 'F': 16, 'f': 16, 'G': 17, 'g': 17, 'H': 18, 'h': 18,
	'J': 19, 'j': 19, 'K': 20, 'k': 20, 'M': 21, 'm': 21, 'N': 22, 'n': 22,
	'P': 23, 'p': 23, 'Q': 24, 'q': 24, 'R': 25, 'r': 25, 'S': 26, 's': 26,
	'T': 27, 't': 27, 'V': 28, 'v': 28, 'W': 29, 'w': 29, 'X': 30, 'x': 30,
	'Y': 31, 'y': 31, 'Z': 32, 'z': 32,
}

// Encode writes the text form of id to dst: the 128 bits as a 130-bit
// big-endian base32 number, so the first character is at most '7'.
//
// The first byte gives two characters (3 and 5 bits); each following five
// bytes give eight.
func Encode(dst *[EncodedSize]byte, id *[Size]byte) {
	dst[0] = alphabet[id[0]>>5]
	dst[1] = alphabet[id[0]&31]
	encode40((*[8]byte)(dst[2:10]), id[1:6])
	encode40((*[8]byte)(dst[10:18]), id[6:11])
	encode40((*[8]byte)(dst[18:26]), id[11:16])
}

// encode40 writes five bytes as eight base32 characters.
func encode40(dst *[8]byte, b []byte) {
	v := uint64(b[0])<<32 | uint64(b[1])<<24 | uint64(b[2])<<16 | uint64(b[3])<<8 | uint64(b[4])
	dst[0] = alphabet[v>>35&31]
	dst[1] = alphabet[v>>30&31]
	dst[2] = alphabet[v>>25&31]
	dst[3] = alphabet[v>>20&31]
	dst[4] = alphabet[v>>15&31]
	dst[5] = alphabet[v>>10&31]
	dst[6] = alphabet[v>>5&31]
	dst[7] = alphabet[v&31]
}

// decode reads the base32 digits of s as one number. The returned bad is
// over 31 if any byte of s is not a digit.
func decode(s string) (v uint64, bad byte) {
	for i := range len(s) {
		d := digit[s[i]] - 1 // a non-digit becomes 0xFF
		bad |= d
		v = v<<5 | uint64(d)
	}
	return v, bad
}

// Reason classifies a parse failure.
type Reason uint8

// The reasons [Parse] fails, in the order it checks them.
const (
	// BadLength: the text is not 26 bytes long.
	BadLength Reason = iota + 1
	// BadCharacter: a byte is not a Crockford base32 digit.
	BadCharacter
	// Overflow: the first character is over '7', so the value needs more
	// than 128 bits.
	Overflow
)

// Error is a parse failure: what was wrong and where.
type Error struct {
	// Reason is the failed rule.
	Reason Reason
	// Length is the text's length in bytes.
	Length int
	// Offset is the byte offset of the offending byte (BadCharacter,
	// Overflow).
	Offset int
	// Byte is the offending byte (BadCharacter, Overflow).
	Byte byte
}

func (e *Error) Error() string {
	switch e.Reason {
	case BadLength:
		return fmt.Sprintf("ulid: length is %d bytes, want %d", e.Length, EncodedSize)
	case BadCharacter:
		return fmt.Sprintf("ulid: byte %q at offset %d is not a Crockford base32 digit (0-9, A-Z without I, L, O, U; either case)", []byte{e.Byte}, e.Offset)
	default:
		return fmt.Sprintf("ulid: first character %q is over \"7\", so the value does not fit 128 bits", []byte{e.Byte})
	}
}

// Parse decodes the 26-character text form of a ULID, in either case. It
// checks, in order: the length, that every byte is a base32 digit (the first
// offending byte is reported), and that the first character is at most '7'.
func Parse(s string) ([Size]byte, error) {
	var id [Size]byte
	if len(s) != EncodedSize {
		return id, &Error{Reason: BadLength, Length: len(s)}
	}
	// 10 characters hold the 48-bit time (and 2 overflow bits); two groups
	// of 8 hold 40 random bits each.
	ms, bad0 := decode(s[:10])
	r0, bad1 := decode(s[10:18])
	r1, bad2 := decode(s[18:])
	if bad0|bad1|bad2 > 31 {
		for i := range EncodedSize {
			if digit[s[i]] == 0 {
				return [Size]byte{}, &Error{Reason: BadCharacter, Length: EncodedSize, Offset: i, Byte: s[i]}
			}
		}
	}
	if s[0] > '7' {
		return [Size]byte{}, &Error{Reason: Overflow, Length: EncodedSize, Offset: 0, Byte: s[0]}
	}
	binary.BigEndian.PutUint64(id[:8], ms<<16|r0>>24)
	binary.BigEndian.PutUint64(id[8:], r0<<40|r1)
	return id, nil
}

// Ms returns the millisecond time in the first 48 bits of id.
func Ms(id *[Size]byte) uint64 {
	return uint64(id[0])<<40 | uint64(id[1])<<32 | uint64(id[2])<<24 |
		uint64(id[3])<<16 | uint64(id[4])<<8 | uint64(id[5])
}
