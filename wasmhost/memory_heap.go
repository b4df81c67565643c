package wasmhost

// heapMemory is a guest's linear memory on the Go heap that grows its
// capacity geometrically (up to the plugin's memory budget). Linux uses
// mappedMemory (memory_mmap_linux.go) and falls back to this. wazero's
// default allocator reallocates to the exact new size, so a Go guest, which
// grows its memory many times while it initializes, copies its whole heap
// at every memory.grow.
type heapMemory struct {
	buf   []byte
	limit uint64
}

func (m *heapMemory) Reallocate(size uint64) []byte {
	if size > m.limit {
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	nb := make([]byte, size, min(max(size, 2*uint64(cap(m.buf))), m.limit))
	copy(nb, m.buf)
	m.buf = nb
	return nb
}

func (m *heapMemory) Free() { m.buf = nil }
