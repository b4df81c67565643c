package jsonscan_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
)

// streamFixture is a recorded provider stream: 400 chat chunks of an
// OpenAI-compatible API, one JSON text per data line.
const streamFixture = "../../providers/internal/sse/testdata/deepseek-length.sse"

// streamLines returns the fixture's JSON texts, one a line.
func streamLines(tb testing.TB) [][]byte {
	data, err := os.ReadFile(streamFixture)
	if err != nil {
		tb.Fatal(err)
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if j, ok := bytes.CutPrefix(l, []byte("data: ")); ok && !bytes.Equal(j, []byte("[DONE]")) {
			lines = append(lines, j)
		}
	}
	if len(lines) < 100 {
		tb.Fatalf("%s holds %d data lines; want its 400 chunks", streamFixture, len(lines))
	}
	return lines
}

// scan reads the next value whole as a codec would, strings unquoted, and
// returns the length of what it read; testdata/driver.rs's scan is the
// same in Rust.
func scan(d *jsonscan.Decoder) uint64 {
	switch d.Peek() {
	case jsonscan.Object:
		var n uint64
		d.Object(func(key []byte) { n += uint64(len(key)) + scan(d) })
		return n
	case jsonscan.Array:
		var n uint64
		d.Array(func() { n += scan(d) })
		return n
	case jsonscan.Str:
		return uint64(len(d.Str().String()))
	case jsonscan.Number:
		return uint64(len(d.Raw()))
	case jsonscan.Bool:
		if d.Bool() {
			return 1
		}
		return 0
	case jsonscan.Null:
		d.Null()
		return 0
	}
	d.Skip()
	return 0
}

// goScan scans every line once and returns the checksum.
func goScan(d *jsonscan.Decoder, lines [][]byte) uint64 {
	var sum uint64
	for _, l := range lines {
		d.Reset(l)
		sum += scan(d)
		if d.Finish() != nil {
			sum += 1 << 32
		}
	}
	return sum
}

// rustScan has the driver built with args scan every line count times
// and returns the nanoseconds that took and the checksum.
func rustScan(tb testing.TB, lines [][]byte, count int, args ...string) (ns, sum uint64) {
	payload := binary.LittleEndian.AppendUint32(nil, uint32(count))
	payload = append(payload, bytes.Join(lines, []byte("\n"))...)
	a := rustdriver.Start(tb, driver, args...).Ask(tb, 'b', payload)
	if len(a) != 16 {
		tb.Fatalf("the driver answered the benchmark with %d bytes, want 16", len(a))
	}
	return binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(a[8:])
}

// TestScanChecksum: the benchmark's Go and Rust scans read the same.
func TestScanChecksum(t *testing.T) {
	lines := streamLines(t)
	var d jsonscan.Decoder
	want := goScan(&d, lines)
	if _, got := rustScan(t, lines, 1, checked...); got != want {
		t.Fatalf("the Rust scan's checksum is %d, the Go one's %d", got, want)
	}
}

// BenchmarkScan reads a recorded provider stream with the Go Decoder and
// with the Rust one, both native; an op is one pass over its 400 chunks
// (the Rust time is measured inside the driver, without the pipe; the
// driver is built without overflow checks, as a plugin is).
func BenchmarkScan(b *testing.B) {
	lines := streamLines(b)
	size := int64(0)
	for _, l := range lines {
		size += int64(len(l))
	}
	b.Run("go", func(b *testing.B) {
		var d jsonscan.Decoder
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			goScan(&d, lines)
		}
	})
	b.Run("rust", func(b *testing.B) {
		rustScan(b, lines, 1) // build and start the driver first
		b.SetBytes(size)
		b.ResetTimer()
		ns, _ := rustScan(b, lines, b.N)
		b.StopTimer()
		b.ReportMetric(float64(ns)/float64(b.N), "rust-ns/op")
	})
}
