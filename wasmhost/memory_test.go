package wasmhost

import (
	"bytes"
	"testing"
)

func TestHeapMemoryGrowsGeometrically(t *testing.T) {
	m := &heapMemory{limit: 10 << 16}
	b := m.Reallocate(1 << 16)
	copy(b, "kept")
	reallocs := 0
	prev := &b[0]
	for pages := uint64(2); pages <= 10; pages++ {
		b = m.Reallocate(pages << 16)
		if uint64(len(b)) != pages<<16 {
			t.Fatalf("len %d, want %d", len(b), pages<<16)
		}
		if &b[0] != prev {
			reallocs++
			prev = &b[0]
		}
	}
	if !bytes.HasPrefix(b, []byte("kept")) {
		t.Fatal("contents lost while growing")
	}
	if reallocs > 4 {
		t.Fatalf("%d reallocations growing one page at a time to 10 pages; capacity does not grow geometrically", reallocs)
	}
	if m.Reallocate(11<<16) != nil {
		t.Fatal("grew past the limit")
	}
	if cap(b) > 10<<16 {
		t.Fatalf("capacity %d past the limit", cap(b))
	}
}
