package cabi

import (
	"encoding/binary"
	"unsafe"
)

var (
	pins [][]uint64 // host-written buffers, until Unpin
	// Guest buffers the host may still read, until Release; typed so that
	// keeping one does not allocate an interface.
	keepBufs  [][]uint64
	keepStrs  []string
	keepBytes [][]byte
)

// realloc is the canonical ABI's allocator, which the host calls to place
// arguments and results in guest memory. Buffers are 8-byte aligned (the
// largest alignment a WIT type has) and pinned until Unpin.
//
//lint:ignore U1000 the host calls it through the go:wasmexport
//go:wasmexport cabi_realloc
func realloc(old, oldSize, align, newSize uint32) uint32 {
	if newSize == 0 {
		return align
	}
	if align > 8 {
		panic("cabi: cabi_realloc alignment " + itoa(align) + " above 8")
	}
	buf := make([]uint64, (newSize+7)/8)
	p := uint32(uintptr(unsafe.Pointer(&buf[0])))
	if old != 0 && oldSize > 0 {
		copy(View(p, min(oldSize, newSize)), View(old, min(oldSize, newSize)))
	}
	pins = append(pins, buf)
	return p
}

// Unpin releases the buffers the host wrote through cabi_realloc; call it
// once their contents have been copied out.
func Unpin() {
	clear(pins)
	pins = pins[:0]
}

// View returns the n bytes of linear memory at ptr, without copying.
func View(ptr, n uint32) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(nil, ptr)), n)
}

// Addr returns the linear-memory address of b's first byte, 0 if b is empty.
func Addr(b []byte) uint32 {
	if len(b) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&b[0])))
}

// Alloc returns a zeroed buffer of size bytes, 8-byte aligned, kept alive
// until Release.
func Alloc(size, align int) []byte {
	if size == 0 {
		return nil
	}
	buf := make([]uint64, (size+7)/8)
	keepBufs = append(keepBufs, buf)
	return unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), size)
}

// Marker records the depth of the kept buffers, for Release.
type Marker struct{ bufs, strs, bytes int }

// Mark returns the current depth of the kept buffers.
func Mark() Marker { return Marker{len(keepBufs), len(keepStrs), len(keepBytes)} }

// Release drops the buffers kept since m; the zero Marker drops them all.
func Release(m Marker) {
	clear(keepBufs[m.bufs:])
	keepBufs = keepBufs[:m.bufs]
	clear(keepStrs[m.strs:])
	keepStrs = keepStrs[:m.strs]
	clear(keepBytes[m.bytes:])
	keepBytes = keepBytes[:m.bytes]
}

func ptrLen(b []byte) (uint32, uint32) {
	return binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
}

func putPtrLen(b []byte, ptr, n uint32) {
	binary.LittleEndian.PutUint32(b, ptr)
	binary.LittleEndian.PutUint32(b[4:], n)
}

// LoadString copies the string whose pointer and length are at b.
func LoadString(b []byte, dst *string) {
	ptr, n := ptrLen(b)
	*dst = string(View(ptr, n))
}

// LoadBytes copies the list<u8> whose pointer and length are at b.
func LoadBytes(b []byte, dst *[]byte) {
	ptr, n := ptrLen(b)
	*dst = append([]byte(nil), View(ptr, n)...)
}

// LoadList returns the elements of the list whose pointer and length are
// at b, as a view of size bytes per element.
func LoadList(b []byte, size int) []byte {
	ptr, n := ptrLen(b)
	return View(ptr, n*uint32(size))
}

// StoreString writes s's pointer and length to b; s is kept.
func StoreString(b []byte, s string) {
	keepStrs = append(keepStrs, s)
	putPtrLen(b, uint32(uintptr(unsafe.Pointer(unsafe.StringData(s)))), uint32(len(s)))
}

// StoreBytes writes p's pointer and length to b; p is kept.
func StoreBytes(b []byte, p []byte) {
	keepBytes = append(keepBytes, p)
	putPtrLen(b, Addr(p), uint32(len(p)))
}

// AllocList allocates n elements of size bytes, writes the list's pointer
// and length to b and returns the elements' buffer to fill.
func AllocList(b []byte, n, size, align int) []byte {
	raw := Alloc(n*size, align)
	ptr := Addr(raw)
	if n == 0 {
		ptr = uint32(align)
	}
	putPtrLen(b, ptr, uint32(n))
	return raw
}

// LiftString copies the string at flat pointer and length values.
func LiftString(ptr, n uint64, dst *string) {
	*dst = string(View(uint32(ptr), uint32(n)))
}

// LiftBytes copies the list<u8> at flat pointer and length values.
func LiftBytes(ptr, n uint64, dst *[]byte) {
	*dst = append([]byte(nil), View(uint32(ptr), uint32(n))...)
}

// LiftList returns the elements of the list at flat pointer and length
// values, as a view of size bytes per element.
func LiftList(ptr, n uint64, size int) []byte {
	return View(uint32(ptr), uint32(n)*uint32(size))
}

// LowerString writes s as flat pointer and length values; s is kept.
func LowerString(s string, f []uint64) {
	keepStrs = append(keepStrs, s)
	f[0] = uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))
	f[1] = uint64(len(s))
}

// LowerBytes writes p as flat pointer and length values; p is kept.
func LowerBytes(p []byte, f []uint64) {
	keepBytes = append(keepBytes, p)
	f[0] = uint64(Addr(p))
	f[1] = uint64(len(p))
}

// Char converts a char's scalar value.
func Char(u uint32, dst *rune) { *dst = rune(u) }

// BadCase reports a discriminant the host should never send; it traps.
func BadCase(what string, d uint32, n int) {
	panic("cabi: " + what + ": case " + itoa(d) + " not below " + itoa(uint32(n)))
}
