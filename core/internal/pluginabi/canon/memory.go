package canon

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/smith-agent/smith/wasmhost"
)

// Wrap prefixes err with the path of the value being converted, such as
// "bundle.points[]".
func Wrap(path string, err error) error {
	return fmt.Errorf("%s: %w", path, err)
}

// BadCase is the error for a discriminant d of a value with n cases.
func BadCase(what string, d uint32, n int) error {
	return fmt.Errorf("canon: %s: discriminant %d is not below its %d cases; the guest wrote a value its world does not define", what, d, n)
}

// Char checks a char's Unicode scalar value.
func Char(u uint32, dst *rune) error {
	if u >= 0x110000 || (u >= 0xD800 && u < 0xE000) {
		return fmt.Errorf("canon: char %#x is not a Unicode scalar value (surrogate or above 0x10FFFF)", u)
	}
	*dst = rune(u)
	return nil
}

func ptrLen(b []byte) (uint32, uint32) {
	return binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
}

func putPtrLen(b []byte, ptr, n uint32) {
	binary.LittleEndian.PutUint32(b, ptr)
	binary.LittleEndian.PutUint32(b[4:], n)
}

// LoadString lifts the string whose pointer and length are at b.
func LoadString(c *wasmhost.Call, b []byte, dst *string) error {
	ptr, n := ptrLen(b)
	return LiftString(c, uint64(ptr), uint64(n), dst)
}

// LoadBytes lifts the list<u8> whose pointer and length are at b.
func LoadBytes(c *wasmhost.Call, b []byte, dst *[]byte) error {
	ptr, n := ptrLen(b)
	return LiftBytes(c, uint64(ptr), uint64(n), dst)
}

// LoadList returns the elements of the list whose pointer and length are
// at b: n elements of size bytes aligned to align, in place in guest
// memory (see wasmhost.Call.View: decode them before the guest runs
// again; never keep the slice).
func LoadList(c *wasmhost.Call, b []byte, size, align int) ([]byte, error) {
	ptr, n := ptrLen(b)
	return LiftList(c, uint64(ptr), uint64(n), size, align)
}

// LiftString lifts a string from flat pointer and length values.
func LiftString(c *wasmhost.Call, ptr, n uint64, dst *string) error {
	s, err := c.ReadString(uint32(ptr), uint32(n))
	if err != nil {
		return err
	}
	*dst = s
	return nil
}

// LiftBytes lifts a list<u8> from flat pointer and length values.
func LiftBytes(c *wasmhost.Call, ptr, n uint64, dst *[]byte) error {
	if uint32(n) == 0 {
		*dst = nil
		return nil
	}
	b, err := c.ReadBytes(uint32(ptr), uint32(n))
	if err != nil {
		return err
	}
	*dst = b
	return nil
}

// LiftList returns the elements of a list from flat pointer and length
// values: n elements of size bytes aligned to align, in place in guest
// memory (see LoadList).
func LiftList(c *wasmhost.Call, ptr, n uint64, size, align int) ([]byte, error) {
	p, count := uint32(ptr), uint32(n)
	if p%uint32(align) != 0 {
		return nil, fmt.Errorf("canon: list pointer %#x is not aligned to %d bytes; the guest wrote a bad pointer", p, align)
	}
	total := uint64(count) * uint64(size)
	if total > math.MaxUint32 {
		return nil, fmt.Errorf("canon: list of %d elements of %d bytes is %d bytes, beyond the 4 GiB a 32-bit memory holds; the guest wrote a bad length", count, size, total)
	}
	if total == 0 {
		return nil, nil
	}
	return c.View(p, uint32(total))
}

// ReadRecord returns the size bytes at ptr, aligned to align, in place in
// guest memory: a record, a spilled parameter list or a return area (see
// LoadList).
func ReadRecord(c *wasmhost.Call, ptr uint32, size, align int) ([]byte, error) {
	if ptr%uint32(align) != 0 {
		return nil, fmt.Errorf("canon: pointer %#x is not aligned to %d bytes; the guest wrote a bad pointer", ptr, align)
	}
	return c.View(ptr, uint32(size))
}

// StoreString lowers s into guest memory and writes its pointer and length
// to b.
func StoreString(c *wasmhost.Call, b []byte, s string) error {
	var f [2]uint64
	if err := LowerString(c, s, f[:]); err != nil {
		return err
	}
	putPtrLen(b, uint32(f[0]), uint32(f[1]))
	return nil
}

// StoreBytes lowers p into guest memory and writes its pointer and length
// to b.
func StoreBytes(c *wasmhost.Call, b []byte, p []byte) error {
	var f [2]uint64
	if err := LowerBytes(c, p, f[:]); err != nil {
		return err
	}
	putPtrLen(b, uint32(f[0]), uint32(f[1]))
	return nil
}

// AllocList allocates n elements of size bytes in guest memory, writes the
// list's pointer and length to b, and returns the pointer and a zeroed
// local buffer for the elements, to be written there with WriteBytes.
func AllocList(c *wasmhost.Call, b []byte, n, size, align int) (uint32, []byte, error) {
	total := uint64(n) * uint64(size)
	if total > math.MaxUint32 {
		return 0, nil, fmt.Errorf("canon: list of %d elements of %d bytes does not fit a 32-bit memory", n, size)
	}
	if n == 0 {
		putPtrLen(b, uint32(align), 0)
		return uint32(align), nil, nil
	}
	ptr, err := c.Alloc(uint32(total), uint32(align))
	if err != nil {
		return 0, nil, err
	}
	putPtrLen(b, ptr, uint32(n))
	return ptr, make([]byte, total), nil
}

// LowerString lowers s into guest memory as flat pointer and length values.
//
// A WIT string is UTF-8 by definition and a guest may trap on anything
// else (Rust's bindings do), so invalid bytes — a file name, a line grep
// found, a process's output, arguments the schema let through — reach the
// guest as U+FFFD, each byte on its own, as encoding/json would show them.
func LowerString(c *wasmhost.Call, s string, f []uint64) error {
	if len(s) == 0 {
		f[0], f[1] = 1, 0
		return nil
	}
	if !utf8.ValidString(s) {
		s = ValidUTF8(s)
	}
	if uint64(len(s)) > math.MaxUint32 {
		return fmt.Errorf("canon: string of %d bytes does not fit a 32-bit memory", len(s))
	}
	ptr, err := c.Alloc(uint32(len(s)), 1)
	if err != nil {
		return err
	}
	if err := c.WriteString(ptr, s); err != nil {
		return err
	}
	f[0], f[1] = uint64(ptr), uint64(len(s))
	return nil
}

// ValidUTF8 returns s with each byte that is not part of a valid UTF-8
// sequence replaced by U+FFFD.
func ValidUTF8(s string) string {
	b := make([]byte, 0, len(s)+len(s)/4)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// LowerBytes lowers p into guest memory as flat pointer and length values.
func LowerBytes(c *wasmhost.Call, p []byte, f []uint64) error {
	if len(p) == 0 {
		f[0], f[1] = 1, 0
		return nil
	}
	if uint64(len(p)) > math.MaxUint32 {
		return fmt.Errorf("canon: list<u8> of %d bytes does not fit a 32-bit memory", len(p))
	}
	ptr, err := c.Alloc(uint32(len(p)), 1)
	if err != nil {
		return err
	}
	if err := c.WriteBytes(ptr, p); err != nil {
		return err
	}
	f[0], f[1] = uint64(ptr), uint64(len(p))
	return nil
}

// WriteRecord writes b at ptr, which must be aligned to align: a result
// stored into the return area an importing guest passed.
func WriteRecord(c *wasmhost.Call, ptr uint32, align int, b []byte) error {
	if ptr%uint32(align) != 0 {
		return fmt.Errorf("canon: return area %#x is not aligned to %d bytes; the guest passed a bad pointer", ptr, align)
	}
	return c.WriteBytes(ptr, b)
}
