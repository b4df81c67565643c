package sessionfmt

import (
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkEncode1000 encodes 1,000 representative entries into frames
// (CBOR envelope, compression where it pays, checksum). Spec target 5 ms;
// ours under 1 ms per 1,000. "messages" is the mix the dependency study
// measured (messages, tool calls, effects; all under the 2 KiB compression
// threshold); "with-tool-output" adds the representative session's 3.6 KB
// tool outputs (7% of entries), which are zstd-compressed.
func BenchmarkEncode1000(b *testing.B) {
	all := representative(b, 1200)
	var small []Entry
	for _, e := range all {
		if len(e.Content) < 1024 {
			small = append(small, e)
		}
	}
	for _, bc := range []struct {
		name string
		es   []Entry
	}{{"messages", small[:1000]}, {"with-tool-output", all[:1000]}} {
		b.Run(bc.name, func(b *testing.B) {
			var buf []byte
			var enc entryEncoder
			b.ReportAllocs()
			for b.Loop() {
				buf = buf[:0]
				for i := range bc.es {
					var err error
					if buf, err = enc.appendEntryFrame(buf, &bc.es[i], DefaultMaxPayload); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/1000entries")
			b.ReportMetric(float64(len(buf))/1000, "bytes/entry")
		})
	}
}

// BenchmarkAppend measures appends to a session file, without and with an
// fsync per append.
func BenchmarkAppend(b *testing.B) {
	es := representative(b, 4000)
	for _, bc := range []struct {
		name string
		d    Durability
	}{{"buffered", Buffered}, {"fsync", Durable}} {
		b.Run(bc.name, func(b *testing.B) {
			f, err := Create(filepath.Join(b.TempDir(), "a.session"), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			var prev ID
			n, bytes := 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				e := es[n%len(es)]
				e.ID, e.Parent = testID(1_000_000+n), prev
				prev = e.ID
				if err := f.Append(e, bc.d); err != nil {
					b.Fatal(err)
				}
				bytes += len(e.Content)
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "appends/s")
			b.SetBytes(int64(bytes / max(n, 1)))
		})
	}
}

func bigSession(b *testing.B, n int) string {
	p := filepath.Join(b.TempDir(), "big.session")
	writeSession(b, p, representative(b, n), true)
	return p
}

// BenchmarkLoad100k loads a 100,000-entry session and reports the heap it
// allocates and keeps.
func BenchmarkLoad100k(b *testing.B) {
	p := bigSession(b, 100_000)
	var keep *Session
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, _, err := Load(p, nil)
		if err != nil {
			b.Fatal(err)
		}
		keep = s
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	allocPerOp := float64(ms1.TotalAlloc-ms0.TotalAlloc) / float64(b.N)
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(allocPerOp/(1<<20), "MiB-allocated/op")
	b.ReportMetric(float64(ms1.HeapAlloc-ms0.HeapAlloc)/(1<<20), "MiB-live")
	b.ReportMetric(float64(keep.Len()), "entries")
	runtime.KeepAlive(keep)
}

// BenchmarkFork100k forks a 100,000-entry session at its selected leaf.
func BenchmarkFork100k(b *testing.B) {
	s, _, err := Load(bigSession(b, 100_000), nil)
	if err != nil {
		b.Fatal(err)
	}
	tip := s.Selected()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.Fork(tip)
	}
	b.ReportMetric(float64(s.Depth(tip)), "entries-forked")
}
