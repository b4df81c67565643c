//go:build linux

package wasmhost

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mappedMemory is a guest's linear memory in an anonymous mapping that
// reserves the whole budget up front (address space only: MAP_NORESERVE,
// pages materialize when the guest touches them). Growing never moves or
// copies the memory, and the kernel hands out zeroed pages, so a Go guest,
// which grows its memory many times while it initializes, touches each
// page once. Free unmaps it, returning the memory to the system at once.
// If the reservation fails (address space exhausted, a restrictive
// RLIMIT_AS) the memory falls back to the Go heap.
type mappedMemory struct {
	buf   []byte // len: the current size; cap: the reservation
	limit uint64
	heap  *heapMemory // the fallback, once used
}

func (m *mappedMemory) Reallocate(size uint64) []byte {
	if size > m.limit {
		return nil
	}
	if m.heap != nil {
		return m.heap.Reallocate(size)
	}
	if m.buf == nil {
		b, err := syscall.Mmap(-1, 0, int(m.limit), syscall.PROT_READ|syscall.PROT_WRITE,
			syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			m.heap = &heapMemory{limit: m.limit}
			return m.heap.Reallocate(size)
		}
		m.buf = b[:0]
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *mappedMemory) Free() {
	if m.buf != nil {
		_ = syscall.Munmap(m.buf[:cap(m.buf)])
		m.buf = nil
	}
	if m.heap != nil {
		m.heap.Free()
	}
}

// memoryAllocator returns the allocator for a plugin whose memory budget is
// maxBytes.
func memoryAllocator(maxBytes uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		limit := min(max, maxBytes)
		if limit == 0 {
			return &heapMemory{}
		}
		return &mappedMemory{limit: limit}
	})
}
