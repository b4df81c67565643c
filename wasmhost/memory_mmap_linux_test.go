//go:build linux

package wasmhost

import (
	"bytes"
	"testing"
)

func TestMappedMemory(t *testing.T) {
	tests := []struct {
		name     string
		limit    uint64
		fallback bool // the reservation cannot be made
	}{
		{name: "reserved", limit: 256 << 20},
		{name: "beyond-address-space", limit: 1 << 50, fallback: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &mappedMemory{limit: tt.limit}
			b := m.Reallocate(1 << 16)
			if len(b) != 1<<16 {
				t.Fatalf("len %d", len(b))
			}
			if (m.heap != nil) != tt.fallback {
				t.Fatalf("fell back to the Go heap: %v; want %v", m.heap != nil, tt.fallback)
			}
			copy(b, "kept")
			first := &b[0]
			for pages := uint64(2); pages <= 64; pages++ {
				b = m.Reallocate(pages << 16)
				if uint64(len(b)) != pages<<16 {
					t.Fatalf("len %d, want %d", len(b), pages<<16)
				}
				if !tt.fallback && &b[0] != first {
					t.Fatal("the mapped memory moved while growing")
				}
				if b[len(b)-1] != 0 {
					t.Fatal("grown memory is not zeroed")
				}
				b[len(b)-1] = 1
			}
			if !bytes.HasPrefix(b, []byte("kept")) {
				t.Fatal("contents lost while growing")
			}
			if m.Reallocate(tt.limit+1) != nil {
				t.Fatal("grew past the limit")
			}
			m.Free()
			if m.buf != nil {
				t.Fatal("Free kept the mapping")
			}
			m.Free() // idempotent
		})
	}
}

// TestMappedMemoryReuse: a freed mapping is zeroed and reused by the next
// memory with the same limit, never by one with another limit, and at most
// maxSpare are kept.
func TestMappedMemoryReuse(t *testing.T) {
	const limit = 64 << 20
	m := &mappedMemory{limit: limit}
	b := m.Reallocate(4 << 16)
	for i := range b {
		b[i] = 0xAA
	}
	addr := &b[0]
	m.Free()

	other := &mappedMemory{limit: limit / 2}
	if o := other.Reallocate(1 << 16); &o[0] == addr {
		t.Fatal("a memory with another limit reused the mapping")
	}
	other.Free()

	again := &mappedMemory{limit: limit}
	b = again.Reallocate(8 << 16)
	if &b[0] != addr {
		t.Fatal("the freed mapping was not reused")
	}
	for i, c := range b {
		if c != 0 {
			t.Fatalf("reused memory byte %d = %#x; want zero", i, c)
		}
	}
	again.Free()

	ms := make([]*mappedMemory, maxSpare+2)
	for i := range ms {
		ms[i] = &mappedMemory{limit: limit}
		ms[i].Reallocate(1 << 16)
	}
	for _, m := range ms {
		m.Free()
	}
	spare.mu.Lock()
	n := len(spare.list)
	spare.mu.Unlock()
	if n > maxSpare {
		t.Errorf("%d spare mappings kept; want at most %d", n, maxSpare)
	}
}

// TestMappedMemoryReuseLarge: a reused mapping whose last guest grew past
// keepResident comes back zeroed throughout (the part beyond is released to
// the system rather than cleared in place).
func TestMappedMemoryReuseLarge(t *testing.T) {
	const limit = 128 << 20
	m := &mappedMemory{limit: limit}
	b := m.Reallocate(keepResident + 3<<16)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 0x5A
	}
	b[len(b)-1] = 0x5A
	addr := &b[0]
	m.Free()
	again := &mappedMemory{limit: limit}
	b = again.Reallocate(keepResident + 3<<16)
	if &b[0] != addr {
		t.Fatal("the freed mapping was not reused")
	}
	for i, c := range b {
		if c != 0 {
			t.Fatalf("reused memory byte %d = %#x; want zero", i, c)
		}
	}
	again.Free()
}
