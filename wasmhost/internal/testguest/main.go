//go:build wasip1

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"time"
	"unsafe"
)

func main() {}

// pins keeps every buffer handed out by cabi_realloc alive until the export
// that received it has lifted it (see cabi_post_*).
var pins = map[uint32][]byte{}

// ret is the return area: (ptr, len) of a string result.
var ret [2]uint32

// result keeps the last string result alive until post-return.
var result []byte

//go:wasmexport cabi_realloc
func cabiRealloc(old, oldSize, align, newSize uint32) uint32 {
	if newSize == 0 {
		return align
	}
	buf := make([]byte, newSize+align)
	p := (uint32(uintptr(unsafe.Pointer(&buf[0]))) + align - 1) &^ (align - 1)
	if old != 0 {
		copy(bytesAt(p, min(oldSize, newSize)), bytesAt(old, oldSize))
	}
	pins[p] = buf
	return p
}

func bytesAt(p, n uint32) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), p)), n)
}

func stringAt(p, n uint32) string { return string(bytesAt(p, n)) }

// returnString stores s as the string result and returns the return area.
func returnString(s string) uint32 {
	result = []byte(s)
	ret[0] = 0
	if len(result) > 0 {
		ret[0] = uint32(uintptr(unsafe.Pointer(&result[0])))
	}
	ret[1] = uint32(len(result))
	return uint32(uintptr(unsafe.Pointer(&ret)))
}

func postReturn() {
	clear(pins)
	result = nil
}

//go:wasmexport test:echo/api@0.1.0#echo
func echo(p, n uint32) uint32 {
	s := stringAt(p, n)
	clear(pins)
	return returnString(s)
}

//go:wasmexport cabi_post_test:echo/api@0.1.0#echo
func echoPost(uint32) { postReturn() }

//go:wasmimport test:echo/host@0.1.0 greet
func hostGreet(p, n, ret uint32)

//go:wasmimport test:echo/host@0.1.0 tick
func hostTick()

var greetRet [2]uint32

//go:wasmexport test:echo/api@0.1.0#greet
func greet(p, n uint32) uint32 {
	hostGreet(p, n, uint32(uintptr(unsafe.Pointer(&greetRet))))
	s := stringAt(greetRet[0], greetRet[1])
	clear(pins)
	return returnString(s)
}

//go:wasmexport cabi_post_test:echo/api@0.1.0#greet
func greetPost(uint32) { postReturn() }

// spin is compute-heavy: a small hash over a buffer, n rounds, with calls.
//
//go:wasmexport test:echo/api@0.1.0#spin
func spin(n uint64) uint64 {
	var buf [256]byte
	for i := range buf {
		buf[i] = byte(i)
	}
	var h uint64 = 14695981039346656037
	for r := uint64(0); r < n; r++ {
		h = mix(h, buf[:])
		buf[r%256] ^= byte(h)
	}
	return h
}

//go:noinline
func mix(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

var counter uint64

//go:wasmexport test:echo/api@0.1.0#forever
func forever() {
	for {
		counter++
	}
}

//go:wasmexport test:echo/api@0.1.0#ticks
func ticks() {
	for {
		hostTick()
	}
}

var leak [][]byte

//go:wasmexport test:echo/api@0.1.0#bomb
func bomb() {
	for {
		leak = append(leak, make([]byte, 1<<20))
	}
}

//go:wasmexport test:echo/api@0.1.0#recurse
func recurse(n int32) int32 { return recurse(n+1) + 1 }

//go:wasmexport test:echo/api@0.1.0#flood
func flood() {
	for {
		fmt.Println("flood flood flood flood flood flood flood flood flood")
	}
}

var badRet = [2]uint32{}
var bad = []byte{0xff, 0xfe, ' ', 'b', 'a', 'd'}

//go:wasmexport test:echo/api@0.1.0#bad-utf8
func badUTF8() uint32 {
	badRet[0] = uint32(uintptr(unsafe.Pointer(&bad[0])))
	badRet[1] = uint32(len(bad))
	return uint32(uintptr(unsafe.Pointer(&badRet)))
}

//go:wasmexport test:echo/api@0.1.0#out-of-bounds
func outOfBounds() uint32 {
	badRet[0] = 0xfff00000
	badRet[1] = 1000
	return uint32(uintptr(unsafe.Pointer(&badRet)))
}

//go:wasmexport test:echo/api@0.1.0#trap
func trap() { panic("boom") }

// regexCount decodes a JSON array of strings and counts e-mail-like matches.
//
//go:wasmexport test:echo/api@0.1.0#regex-count
func regexCount(p, n uint32) uint32 {
	var items []string
	err := json.Unmarshal(bytesAt(p, n), &items)
	clear(pins)
	if err != nil {
		return returnString("error: " + err.Error())
	}
	re := regexp.MustCompile(`[a-z]+@[a-z]+\.com`)
	count := 0
	for _, s := range items {
		count += len(re.FindAllStringIndex(s, -1))
	}
	return returnString(fmt.Sprintf("%d matches in %d strings", count, len(items)))
}

//go:wasmexport cabi_post_test:echo/api@0.1.0#regex-count
func regexCountPost(uint32) { postReturn() }

// probe reports what the sandbox shows the guest.
//
//go:wasmexport test:echo/api@0.1.0#probe
func probe() uint32 {
	_, ferr := os.ReadFile("/etc/passwd")
	ents, derr := os.ReadDir("/")
	fmt.Fprintln(os.Stderr, "probe ran")
	return returnString(fmt.Sprintf("time=%d rand=%d home=%q args=%d file=%v dir=%d/%v",
		time.Now().UnixNano(), rand.Uint64(), os.Getenv("HOME"), len(os.Args), ferr, len(ents), derr))
}

//go:wasmexport cabi_post_test:echo/api@0.1.0#probe
func probePost(uint32) { postReturn() }

// sleep sleeps for an hour of the sandbox's fake time.
//
//go:wasmexport test:echo/api@0.1.0#sleep
func sleep() { time.Sleep(time.Hour) }
