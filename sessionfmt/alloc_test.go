package sessionfmt

import (
	"os"
	"path/filepath"
	"testing"
)

// Exact allocation counts. They do not depend on the number of entries; if
// a change moves them, check that the new count is still a constant before
// updating the numbers here (counts may only tighten).
const (
	// Load: opening and stating the file, the read window, two frame
	// scanners, the header decode, the report, the session with its records,
	// arena and id index, and the frame and decompression scratch buffers.
	loadAllocs = 17
	forkAllocs = 4 // session, records, arena, id index
)

// sink keeps results on the heap, as a caller keeping them would.
var sink *Session

func TestLoadAndForkAllocateConstantly(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation changes allocation counts")
	}
	dir := t.TempDir()
	for _, n := range []int{200, 2000} {
		p := filepath.Join(dir, "s.session")
		_ = os.Remove(p)
		writeSession(t, p, representative(t, n), true)
		var s *Session
		got := testing.AllocsPerRun(20, func() {
			var err error
			if s, _, err = Load(p, nil); err != nil {
				t.Fatal(err)
			}
		})
		if got != loadAllocs {
			t.Errorf("Load of %d entries: %v allocations, want %d", n, got, loadAllocs)
		}
		tip := s.Selected()
		got = testing.AllocsPerRun(5, func() { sink = s.Fork(tip) })
		if got != forkAllocs {
			t.Errorf("Fork of %d entries: %v allocations, want %d", s.Depth(tip), got, forkAllocs)
		}
		if got := testing.AllocsPerRun(5, func() { sink = s.Clone() }); got != forkAllocs {
			t.Errorf("Clone of %d entries: %v allocations, want %d", n, got, forkAllocs)
		}
		// Traversal and boundary lookup do not allocate at all.
		hist := make([]int, 0, n)
		got = testing.AllocsPerRun(5, func() {
			hist = s.History(tip, hist[:0])
			s.CompactionBoundary(tip)
			for _, i := range hist {
				_ = s.Entry(i)
			}
		})
		if got != 0 {
			t.Errorf("History, CompactionBoundary and Entry over %d entries: %v allocations, want 0", n, got)
		}
	}
}

func TestEncodeDoesNotAllocate(t *testing.T) {
	es := representative(t, 200)
	buf := make([]byte, 0, 1<<20)
	var enc entryEncoder
	got := testing.AllocsPerRun(10, func() {
		buf = buf[:0]
		for i := range es {
			buf, _ = enc.appendEntryFrame(buf, &es[i], DefaultMaxPayload)
		}
	})
	if got != 0 {
		t.Fatalf("encoding %d entries allocates %v times", len(es), got)
	}
}
