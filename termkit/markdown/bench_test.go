package markdown

import (
	"strings"
	"testing"
)

func BenchmarkRender200KB(b *testing.B) {
	doc := answer(200 << 10)
	th := DefaultTheme()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		Render(doc, 100, th)
	}
}

// BenchmarkStreamAppend measures one streamed delta: 20 bytes appended to
// a 20 KB answer, then Set.
func BenchmarkStreamAppend(b *testing.B) {
	const deltas = 200
	base := answer(20 << 10)
	var more strings.Builder
	for i := 0; more.Len() < 20*deltas; i++ {
		more.WriteString("streamed words here ")
		if i%10 == 9 {
			more.WriteString("\n\n")
		}
	}
	doc := base + more.String()
	th := DefaultTheme()
	var s *Stream
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%deltas == 0 {
			b.StopTimer()
			s = NewStream(th)
			s.Set(base, 80)
			b.StartTimer()
		}
		i++
		s.Set(doc[:len(base)+20*(i%deltas+1)], 80)
	}
}
