package sessionfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

const bombPath = "testdata/bomb-256MiB.session"

// TestBombFixture (re)creates the fixture with -update: a session whose one
// entry frame is about 28 KB of zstd declaring 256 MiB of zeros.
func TestBombFixture(t *testing.T) {
	if *update {
		zeros := make([]byte, 256<<20)
		enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false))
		p := binary.LittleEndian.AppendUint32(nil, uint32(len(zeros)))
		p = enc.EncodeAll(zeros, p)
		b := append(bytes.Clone(headerFrame()), frame.Append(nil, frame.TypeEntry, frame.FlagZstd, p)...)
		if err := os.WriteFile(bombPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := os.Stat(bombPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 40<<10 {
		t.Fatalf("fixture is %d bytes, want about 28 KB", st.Size())
	}
}

// heapDuring returns the bytes allocated while f runs.
func heapDuring(f func()) uint64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestBombRefusedWithoutAllocating: a 28 KB frame claiming 256 MiB is
// refused by Load, Dump and Repair, with an error naming the offset, the
// size and the bound, and without allocating anything near its claim.
func TestBombRefusedWithoutAllocating(t *testing.T) {
	off := int64(len(headerFrame()))
	out := filepath.Join(t.TempDir(), "out.session")
	tests := []struct {
		name string
		run  func() error
	}{
		{"load", func() error { _, _, err := Load(bombPath, nil); return err }},
		{"dump", func() error { _, err := Dump(io.Discard, bombPath, nil); return err }},
		{"open", func() error { _, err := Open(copyTo(t, bombPath), nil); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			heap := heapDuring(func() { err = tt.run() })
			var fe *Error
			if !errors.As(err, &fe) || fe.Off != off || fe.Size != 256<<20 || fe.Bound != DefaultMaxPayload {
				t.Fatalf("err %v (%#v), want offset %d size %d bound %d", err, fe, off, 256<<20, DefaultMaxPayload)
			}
			for _, s := range []string{fmt.Sprintf("offset %d", off), "268435456", "16777216", "damaged or not a session"} {
				if !strings.Contains(err.Error(), s) {
					t.Fatalf("error %q does not mention %q", err, s)
				}
			}
			if heap > 2<<20 {
				t.Fatalf("allocated %d bytes while refusing", heap)
			}
		})
	}
	t.Run("repair drops it", func(t *testing.T) {
		var rep *Report
		var err error
		heap := heapDuring(func() { rep, err = Repair(bombPath, out, nil) })
		if err != nil || len(rep.Dropped) != 1 || rep.Dropped[0].Off != off || !strings.Contains(rep.Dropped[0].Reason, "268435456") {
			t.Fatalf("repair: %v %+v", err, rep)
		}
		if heap > 2<<20 {
			t.Fatalf("allocated %d bytes while repairing", heap)
		}
	})
}

func copyTo(t *testing.T, src string) string {
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// compressedFrame builds a session holding one compressed entry frame whose
// stored payload is prefix(declared) + zstd data.
func compressedSession(declared uint32, z []byte) []byte {
	p := binary.LittleEndian.AppendUint32(nil, declared)
	p = append(p, z...)
	return append(bytes.Clone(headerFrame()), frame.Append(nil, frame.TypeEntry, frame.FlagZstd, p)...)
}

func TestDecompressionBounds(t *testing.T) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	big := bytes.Repeat([]byte("a"), 1<<20)
	zBig := enc.EncodeAll(big, nil)
	small := bytes.Repeat([]byte("b"), 4096)
	zSmall := enc.EncodeAll(small, nil)
	var stream bytes.Buffer
	sw, _ := zstd.NewWriter(&stream, zstd.WithEncoderConcurrency(1))
	sw.Write(big)
	sw.Close()
	// maxHeap: refusals over a bound allocate nothing sized by the claim;
	// a declared size within the bound is allocated once for the arena and
	// once for the decompression buffer, and decoding stops at it.
	const none = 256 << 10
	tests := []struct {
		name    string
		file    []byte
		opts    *Options
		want    string
		maxHeap uint64
	}{
		{"declared over the bound", compressedSession(1<<20, zBig), &Options{MaxPayload: 64 << 10}, "declares an uncompressed size over the bound", none},
		{"zstd content size larger than declared", compressedSession(4096, zBig), nil, "exceeds the declared size", none},
		{"no content size in the zstd header", compressedSession(1<<20, stream.Bytes()), nil, "differs from the declared", 2<<20 + none},
		{"a second zstd frame beyond the declared size", compressedSession(4096, append(bytes.Clone(zSmall), zSmall...)), nil, "capped at the declared", none},
		{"session total over its bound", compressedSession(1<<20, zBig), &Options{MaxSession: 512 << 10}, "exceed the session bound", none},
		{"frame length over its bound", compressedSession(1<<20, zBig), &Options{MaxFrame: 32}, "frame length exceeds the bound", none},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			heap := heapDuring(func() { _, _, err = loadBytes(tt.file, tt.opts) })
			var fe *Error
			if !errors.As(err, &fe) || fe.Off != int64(len(headerFrame())) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q at offset %d", err, tt.want, len(headerFrame()))
			}
			if heap > tt.maxHeap {
				t.Fatalf("allocated %d bytes while refusing, bound %d", heap, tt.maxHeap)
			}
		})
	}
}
