package wasmhost

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/tetratelabs/wazero/api"
)

// Call is the guest state visible to a host function while it runs and to
// the lower and lift functions of Instance.Invoke: bounds-checked access to
// the guest's linear memory and its allocator. A Call is valid only during
// that host function or Invoke, on the invocation's goroutine.
//
// Every error names the pointer, the length and the memory size, and
// destroys the instance once returned from a host function, lower or lift.
// Bytes read out of the guest count against Budgets.OutputBytes.
type Call struct {
	in      *Instance
	mem     api.Memory
	realloc api.Function
	stack   [4]uint64
}

// Plugin returns the name of the plugin being called.
func (c *Call) Plugin() string { return c.in.plugin.name }

func (c *Call) oob(what string, ptr, n uint32) error {
	return &Error{Plugin: c.in.plugin.name, Export: c.in.inv.export, Err: fmt.Errorf(
		"guest %s at pointer %#x, length %d is outside linear memory (%d bytes); the guest returned a bad pointer or length", what, ptr, n, c.mem.Size())}
}

// view returns the guest bytes [ptr, ptr+n) without copying, charging them
// to the output budget.
func (c *Call) view(what string, ptr, n uint32) ([]byte, error) {
	b, ok := c.mem.Read(ptr, n)
	if !ok {
		return nil, c.oob(what, ptr, n)
	}
	if err := c.charge(int64(n)); err != nil {
		return nil, err
	}
	return b, nil
}

func errOutput(n, limit int64) error {
	return fmt.Errorf("read %d bytes out of the guest, over its output budget of %d bytes; return less or raise the budget", n, limit)
}

// View returns the n bytes at ptr in guest memory without copying them,
// for decoding in place: a record, a return area or the elements of a
// list being lifted. The slice aliases the guest's memory, so it is valid
// only until the guest runs again (Alloc, a call back into the guest, the
// end of the host function or lift) and must not be kept or modified;
// copy what outlives that (ReadBytes, ReadString). The bytes count
// against Budgets.OutputBytes as a copy would.
func (c *Call) View(ptr, n uint32) ([]byte, error) {
	return c.view("bytes", ptr, n)
}

// ReadBytes copies n bytes at ptr out of guest memory.
func (c *Call) ReadBytes(ptr, n uint32) ([]byte, error) {
	b, err := c.view("bytes", ptr, n)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), b...), nil
}

// ReadString copies the n-byte string at ptr out of guest memory. Strings
// must be valid UTF-8 (the canonical ABI's utf8 encoding); anything else is
// an error naming the offset of the first bad byte.
func (c *Call) ReadString(ptr, n uint32) (string, error) {
	b, err := c.view("string", ptr, n)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		bad := 0
		for bad < len(b) {
			r, size := utf8.DecodeRune(b[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		return "", &Error{Plugin: c.in.plugin.name, Export: c.in.inv.export, Err: fmt.Errorf(
			"guest string at pointer %#x, length %d is not valid UTF-8 (first bad byte at offset %d)", ptr, n, bad)}
	}
	return string(b), nil
}

// WriteBytes copies b into guest memory at ptr.
func (c *Call) WriteBytes(ptr uint32, b []byte) error {
	if uint64(len(b)) > math.MaxUint32 || !c.mem.Write(ptr, b) {
		return c.oob("write", ptr, uint32(min(uint64(len(b)), math.MaxUint32)))
	}
	return nil
}

// WriteString copies s into guest memory at ptr.
func (c *Call) WriteString(ptr uint32, s string) error {
	if uint64(len(s)) > math.MaxUint32 || !c.mem.WriteString(ptr, s) {
		return c.oob("write", ptr, uint32(min(uint64(len(s)), math.MaxUint32)))
	}
	return nil
}

// Alloc allocates size bytes aligned to align in guest memory by calling the
// guest's cabi_realloc(0, 0, align, size), as the canonical ABI does before
// lowering a string or list. It may be called re-entrantly from a host
// function. It runs under the invocation's budgets and context. A pointer outside memory or misaligned is an error.
func (c *Call) Alloc(size, align uint32) (uint32, error) {
	if align == 0 || align&(align-1) != 0 {
		return 0, fmt.Errorf("wasmhost: Alloc alignment %d is not a power of two", align)
	}
	c.stack = [4]uint64{0, 0, uint64(align), uint64(size)}
	if err := c.realloc.CallWithStack(&c.in.ctx, c.stack[:]); err != nil {
		return 0, err
	}
	ptr := uint32(c.stack[0])
	if uint64(ptr)+uint64(size) > uint64(c.mem.Size()) || ptr&(align-1) != 0 {
		return 0, &Error{Plugin: c.in.plugin.name, Export: c.in.inv.export, Err: fmt.Errorf(
			"guest cabi_realloc(0, 0, %d, %d) returned %#x, which is misaligned or outside linear memory (%d bytes)", align, size, ptr, c.mem.Size())}
	}
	return ptr, nil
}
