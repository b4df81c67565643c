//go:build !linux

package wasmhost

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator returns the allocator for a plugin whose memory budget is
// maxBytes: on this system, linear memory on the Go heap.
func memoryAllocator(maxBytes uint64) experimental.MemoryAllocator {
	return experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		return &heapMemory{limit: min(max, maxBytes)}
	})
}
