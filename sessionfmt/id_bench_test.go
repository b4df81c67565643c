package sessionfmt

import "testing"

var (
	benchID  ID
	benchStr string
	benchErr error
)

// BenchmarkNewID makes IDs on one goroutine (mostly same-millisecond
// increments, a crypto/rand batch every 16 new milliseconds) and on all.
func BenchmarkNewID(b *testing.B) {
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchID = NewID()
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var id ID
			for pb.Next() {
				id = NewID()
			}
			_ = id
		})
	})
}

func BenchmarkParseID(b *testing.B) {
	s := NewID().String()
	b.ReportAllocs()
	for b.Loop() {
		benchID, benchErr = ParseID(s)
	}
}

// BenchmarkIDString allocates once per call, for the string; encoding into a
// fixed buffer alone is internal/ulid's BenchmarkEncode (no allocation).
func BenchmarkIDString(b *testing.B) {
	id := NewID()
	b.ReportAllocs()
	for b.Loop() {
		benchStr = id.String()
	}
}
