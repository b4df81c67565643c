//go:build linux

package wasmhost

import (
	"sync"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// mappedMemory is a guest's linear memory in an anonymous mapping that
// reserves the whole budget up front (address space only: MAP_NORESERVE,
// pages materialize when the guest touches them). Growing never moves or
// copies the memory, and the kernel hands out zeroed pages, so a Go guest,
// which grows its memory many times while it initializes, touches each
// page once. Free keeps the mapping for the next instance with the same
// limit (up to maxSpare of them), which clears the part that was used:
// faulting in fresh pages costs more than clearing resident ones, and a
// process that exits never pays for the clearing. Beyond maxSpare, Free
// unmaps. If the reservation fails (address space exhausted, a restrictive
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
		b := spare.take(m.limit)
		if b == nil {
			var err error
			b, err = syscall.Mmap(-1, 0, int(m.limit), syscall.PROT_READ|syscall.PROT_WRITE,
				syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
			if err != nil {
				m.heap = &heapMemory{limit: m.limit}
				return m.heap.Reallocate(size)
			}
		}
		m.buf = b[:0]
	}
	m.buf = m.buf[:size]
	return m.buf
}

func (m *mappedMemory) Free() {
	if m.buf != nil {
		if !spare.put(m.buf) {
			_ = syscall.Munmap(m.buf[:cap(m.buf)])
		}
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

// maxSpare bounds the zeroed mappings kept for reuse, process-wide.
const maxSpare = 4

// spare holds mappings for reuse: cap is the reservation, len the part
// that may be dirty.
var spare spareMappings

type spareMappings struct {
	mu   sync.Mutex
	list [][]byte
}

// keepResident is how much of a reused mapping is cleared in place; the
// rest of the part the last guest used is returned to the system
// (MADV_DONTNEED, which also zeroes it), so one instance that grew large
// does not keep its memory resident for the next.
const keepResident = 16 << 20

// take returns a spare mapping reserving exactly limit bytes, cleared and
// with length 0, or nil.
func (s *spareMappings) take(limit uint64) []byte {
	s.mu.Lock()
	var b []byte
	for i, c := range s.list {
		if uint64(cap(c)) == limit {
			b = c
			s.list = append(s.list[:i], s.list[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	if len(b) > keepResident {
		if syscall.Madvise(b[keepResident:], syscall.MADV_DONTNEED) != nil {
			clear(b[keepResident:])
		}
		b = b[:keepResident]
	}
	clear(b)
	return b[:0:cap(b)]
}

// put keeps b, whose length covers every byte the guest may have written,
// for reuse and reports whether it did.
func (s *spareMappings) put(b []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.list) >= maxSpare {
		return false
	}
	s.list = append(s.list, b)
	return true
}
