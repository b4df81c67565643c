package ulid

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"strings"
	"testing"
)

// random splits a ULID into its millisecond and 80-bit random part.
func random(id [Size]byte) (ms uint64, hi uint16, lo uint64) {
	return Ms(&id), binary.BigEndian.Uint16(id[6:8]), binary.BigEndian.Uint64(id[8:])
}

// counting returns a generator whose random reads are counted.
func counting(reads *int) *Generator {
	return &Generator{fill: func(b []byte) { *reads++; rand.Read(b) }}
}

func TestGeneratorSteps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		state    *Generator // the last ULID made
		ms       uint64     // the time asked for
		wantMs   uint64
		wantNext bool // the random part must be the last one plus one
	}{
		{name: "same millisecond increments", state: &Generator{used: true, ms: 1000, hi: 7, lo: 41}, ms: 1000, wantMs: 1000, wantNext: true},
		{name: "low 64 bits carry into the top 16", state: &Generator{used: true, ms: 1000, hi: 7, lo: 1<<64 - 1}, ms: 1000, wantMs: 1000, wantNext: true},
		{name: "earlier time is raised to the last", state: &Generator{used: true, ms: 1000, hi: 7, lo: 41}, ms: 999, wantMs: 1000, wantNext: true},
		{name: "time 0 after a later ULID is raised", state: &Generator{used: true, ms: 5, hi: 0, lo: 0}, ms: 0, wantMs: 5, wantNext: true},
		{name: "later millisecond is fresh", state: &Generator{used: true, ms: 1000, hi: 7, lo: 41}, ms: 1001, wantMs: 1001},
		{name: "80-bit overflow borrows the next millisecond", state: &Generator{used: true, ms: 1000, hi: 1<<16 - 1, lo: 1<<64 - 1}, ms: 1000, wantMs: 1001},
		{name: "80-bit overflow after a raised time", state: &Generator{used: true, ms: 1000, hi: 1<<16 - 1, lo: 1<<64 - 1}, ms: 3, wantMs: 1001},
		{name: "first ULID at ms 0 is fresh", state: &Generator{}, ms: 0, wantMs: 0},
		{name: "time over 48 bits is capped", state: &Generator{}, ms: 1 << 60, wantMs: MaxMs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := tc.state
			hi0, lo0 := g.hi, g.lo
			id := g.New(tc.ms)
			ms, hi, lo := random(id)
			if ms != tc.wantMs {
				t.Fatalf("ms = %d, want %d", ms, tc.wantMs)
			}
			wantLo, wantHi := lo0+1, hi0
			if wantLo == 0 {
				wantHi++
			}
			if next := hi == wantHi && lo == wantLo; next != tc.wantNext {
				t.Fatalf("random part %04x%016x after %04x%016x: plus one = %v, want %v", hi, lo, hi0, lo0, next, tc.wantNext)
			}
			if g.ms != ms || g.hi != hi || g.lo != lo || !g.used {
				t.Fatalf("generator state %d %04x%016x does not describe the ULID it made", g.ms, g.hi, g.lo)
			}
		})
	}
}

func TestGeneratorStrictlyIncreasesAcrossOverflow(t *testing.T) {
	g := &Generator{used: true, ms: 77, hi: 1<<16 - 1, lo: 1<<64 - 3}
	prev := [Size]byte{0, 0, 0, 0, 0, 77, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFC}
	for i := range 10 {
		id := g.New(77)
		if bytes.Compare(id[:], prev[:]) <= 0 {
			t.Fatalf("ULID %d %x is not greater than %x", i, id, prev)
		}
		prev = id
	}
	if ms, _, _ := random(prev); ms != 78 {
		t.Fatalf("after the overflow the time is %d ms, want the borrowed 78", ms)
	}
}

// TestGeneratorLastULIDPanics: after the largest ULID no greater one
// exists, so New panics, and keeps panicking (it never wraps around to a
// smaller ULID) if the panic is recovered.
func TestGeneratorLastULIDPanics(t *testing.T) {
	g := &Generator{used: true, ms: MaxMs, hi: 1<<16 - 1, lo: 1<<64 - 1}
	for i := range 2 {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, "no ULID is greater") {
					t.Fatalf("call %d: recovered %v, want the no-greater-ULID panic", i, r)
				}
			}()
			id := g.New(MaxMs)
			t.Fatalf("call %d: New after the largest ULID returned %x", i, id)
		}()
	}
}

// TestGeneratorReadsRandomInBatches: fresh random parts come from one read per
// batch, not one syscall per ULID, and increments read nothing.
func TestGeneratorReadsRandomInBatches(t *testing.T) {
	var reads int
	g := counting(&reads)
	for ms := range uint64(batch) {
		g.New(ms + 1)
	}
	if reads != 1 {
		t.Fatalf("%d fresh ULIDs made %d reads, want 1", batch, reads)
	}
	for range 1000 {
		g.New(1) // raised to the last millisecond: increments only
	}
	if reads != 1 {
		t.Fatalf("increments made %d reads in all, want still 1", reads)
	}
	g.New(batch + 1)
	if reads != 2 {
		t.Fatalf("fresh ULID %d made %d reads in all, want 2", batch+1, reads)
	}
}

// TestGeneratorFreshPartsDiffer: every fresh random part is new (the pool is
// consumed, never reused).
func TestGeneratorFreshPartsDiffer(t *testing.T) {
	var g Generator
	seen := make(map[[10]byte]bool)
	for ms := range uint64(10 * batch) {
		id := g.New(ms + 1)
		if seen[[10]byte(id[6:])] {
			t.Fatalf("random part %x repeated at ms %d", id[6:], ms+1)
		}
		seen[[10]byte(id[6:])] = true
	}
}
