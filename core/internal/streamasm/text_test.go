package streamasm

import (
	"runtime"
	"strings"
	"testing"
)

func TestTextBuffer(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
	}{
		{"empty", nil},
		{"empty pieces", []string{"", ""}},
		{"small", []string{"a", "bc", "", "d"}},
		{"crosses chunks", []string{strings.Repeat("x", 200), strings.Repeat("y", 100), strings.Repeat("z", 600)}},
		{"one huge piece", []string{"a", strings.Repeat("h", 3*maxChunk)}},
		{"many", strings.Split(strings.Repeat("word ", 100000), " ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b textBuffer
			for _, p := range tt.pieces {
				b.WriteString(p)
			}
			want := strings.Join(tt.pieces, "")
			if got := b.String(); got != want {
				t.Fatalf("String() = %d bytes, want %d", len(got), len(want))
			}
			if got := b.String(); got != want {
				t.Fatal("second String() differs")
			}
			b.WriteString("!")
			if got := b.String(); got != want+"!" {
				t.Fatal("write after String lost text")
			}
		})
	}
}

// TestTextBufferAllocations: a 6 MB text costs its chunks and one joined
// copy — about twice its size — not the quarter-at-a-time regrowth of a
// strings.Builder (five times).
func TestTextBufferAllocations(t *testing.T) {
	delta := strings.Repeat("long answer ", 333)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var b textBuffer
	for range 1500 {
		b.WriteString(delta)
	}
	n := len(b.String())
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(n)*23/10 {
		t.Fatalf("%d bytes of text allocated %d bytes", n, got)
	}
}
