package zst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCompressOnlyWhenItSaves(t *testing.T) {
	text := []byte(strings.Repeat("the same line of tool output\n", 200))
	noise := make([]byte, 8192)
	r := rand.New(rand.NewPCG(7, 7))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	tests := []struct {
		name string
		in   []byte
		want bool
	}{
		{"below threshold", text[:Threshold-1], false},
		{"compressible", text, true},
		{"incompressible", noise, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := Compress([]byte("prefix"), tt.in)
			if ok != tt.want {
				t.Fatalf("compressed %v, want %v", ok, tt.want)
			}
			if !ok {
				if string(out) != "prefix" {
					t.Fatal("dst changed when not compressing")
				}
				return
			}
			if len(out)-6 >= len(tt.in) {
				t.Fatal("stored form does not save bytes")
			}
			again, _ := Compress(nil, tt.in)
			if !bytes.Equal(again, out[6:]) {
				t.Fatal("not deterministic")
			}
			got, err := Decompress(make([]byte, 0, len(tt.in)), out[6:], 1<<20)
			if err != nil || !bytes.Equal(got, tt.in) {
				t.Fatalf("round trip: %v", err)
			}
		})
	}
}

func TestDecompressRefusals(t *testing.T) {
	in := []byte(strings.Repeat("abc", 4000))
	stored, _ := Compress(nil, in)
	tests := []struct {
		name   string
		stored []byte
		dst    []byte
		bound  uint64
		want   string
	}{
		{"over the bound", stored, nil, 100, "over the bound of 100"},
		{"dst too small", stored, make([]byte, 0, 10), 1 << 20, "output buffer holds 10 bytes"},
		{"short prefix", stored[:3], nil, 1 << 20, "shorter than its 4-byte size prefix"},
		{"garbage", append(bytes.Clone(stored[:4]), "not zstd at all"...), make([]byte, 0, len(in)), 1 << 20, "zstd frame header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decompress(tt.dst, tt.stored, tt.bound)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
	var be *BoundError
	if _, err := Decompress(nil, stored, 100); !errors.As(err, &be) || be.Size != uint64(len(in)) || be.Bound != 100 {
		t.Fatalf("bound error %v", err)
	}
}

var toolOutput = []byte(strings.Repeat("line 5: func (s *Session) Fork(i int) *Session { return s }\n", 60))

// BenchmarkCompress measures one call on a 3.6 KB tool output, the size
// that dominates the encode benchmark's compressed entries.
func BenchmarkCompress(b *testing.B) {
	var dst []byte
	b.ReportAllocs()
	b.SetBytes(int64(len(toolOutput)))
	for b.Loop() {
		dst, _ = Compress(dst[:0], toolOutput)
	}
}

// BenchmarkDecompress decodes the same payload into an exact-size buffer.
func BenchmarkDecompress(b *testing.B) {
	stored, _ := Compress(nil, toolOutput)
	out := make([]byte, 0, len(toolOutput))
	b.ReportAllocs()
	b.SetBytes(int64(len(toolOutput)))
	for b.Loop() {
		if _, err := Decompress(out, stored, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLargeInputSameBytes: a payload over largeInput, compressed by an
// encoder of its own, gives the bytes the shared encoder gives.
func TestLargeInputSameBytes(t *testing.T) {
	p := bytes.Repeat([]byte("a long answer, repeated; "), 3*largeInput/25)
	got, ok := Compress(nil, p)
	if !ok {
		t.Fatal("a repetitive payload did not compress")
	}
	want := binary.LittleEndian.AppendUint32(nil, uint32(len(p)))
	want = encoder().EncodeAll(p, want)
	if !bytes.Equal(got, want) {
		t.Fatalf("large payload: %d bytes by its own encoder, %d by the shared one", len(got), len(want))
	}
	back, err := Decompress(make([]byte, 0, len(p)), got, uint64(len(p)))
	if err != nil || !bytes.Equal(back, p) {
		t.Fatalf("round trip: %v", err)
	}
}
