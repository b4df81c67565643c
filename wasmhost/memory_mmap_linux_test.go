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
