package sessionfmt

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/sessionfmt/internal/frame"
)

// boundedReader records the largest single read.
type boundedReader struct {
	r       io.ReaderAt
	maxRead int
	reads   int
}

func (b *boundedReader) ReadAt(p []byte, off int64) (int, error) {
	b.maxRead = max(b.maxRead, len(p))
	b.reads++
	return b.r.ReadAt(p, off)
}

// TestLoadStreams checks that loading and dumping a multi-megabyte session
// read it through the fixed window, never as one file-sized buffer.
func TestLoadStreams(t *testing.T) {
	// 300 entries of 10 KB incompressible content: a 3 MB file.
	p := filepath.Join(t.TempDir(), "big.session")
	w, err := Create(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	noise := make([]byte, 10_000)
	for i := range 300 {
		for j := range noise {
			noise[j] = byte(r.Uint32())
		}
		if err := w.Append(Entry{ID: testID(i + 1), Time: testEpoch, Kind: KindToolActivity, Key: "call", Content: mustContent(t, noise)}, Buffered); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	if st.Size() < 2<<20 {
		t.Fatalf("session is only %d bytes", st.Size())
	}
	br := &boundedReader{r: f}
	s, _, err := LoadFrom(br, st.Size(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if br.maxRead > frame.WindowSize || br.reads < int(st.Size()/frame.WindowSize) {
		t.Fatalf("largest read %d bytes (window %d), %d reads for %d bytes", br.maxRead, frame.WindowSize, br.reads, st.Size())
	}
	if s.Len() != 300 {
		t.Fatalf("%d entries", s.Len())
	}
	br2 := &boundedReader{r: f}
	if err := dumpFrom(io.Discard, br2, st.Size(), (*Options)(nil).norm(), &Report{}); err != nil {
		t.Fatal(err)
	}
	if br2.maxRead > frame.WindowSize {
		t.Fatalf("dump read %d bytes at once", br2.maxRead)
	}
}

func TestAppendOverPayloadBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "b.session")
	w, err := Create(p, &Options{MaxPayload: 1024})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	big := mustContent(t, strings.Repeat("x", 2000))
	err = w.Append(Entry{ID: testID(1), Time: testEpoch, Kind: KindMessage, Content: big}, Durable)
	if err == nil || !strings.Contains(err.Error(), "over the payload bound") || !strings.Contains(err.Error(), "bound 1024 bytes") {
		t.Fatalf("err %v", err)
	}
	if w.Session().Len() != 0 {
		t.Fatal("refused entry reached the session")
	}
	if err := w.Append(Entry{ID: testID(2), Time: testEpoch, Kind: KindMessage, Content: mustContent(t, "ok")}, Durable); err != nil {
		t.Fatalf("append after a refused one: %v", err)
	}
	b, _ := os.ReadFile(p)
	if !bytes.HasPrefix(b, headerFrame()) || len(b) > 200 {
		t.Fatalf("file has %d bytes", len(b))
	}
}
