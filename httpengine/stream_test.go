package httpengine

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestChunksArriveBeforeTheBodyEnds proves streaming without timing: the
// server sends chunk i+1 only after the consumer has received chunk i.
func TestChunksArriveBeforeTheBodyEnds(t *testing.T) {
	release := make(chan struct{})
	url := chunkServer(t, 4, release)
	e := newEngine(t, Config{})
	go func() { release <- struct{}{} }()
	resp, err := e.Exchange(context.Background(), Request{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		c, ok := resp.Body.Next()
		if want := "chunk-" + string(rune('a'+i)) + ";"; !ok || string(c) != want {
			t.Fatalf("chunk %d = %q %v, want %q", i, c, ok, want)
		}
		if i < 3 {
			release <- struct{}{}
		}
	}
	if _, ok := resp.Body.Next(); ok || resp.Body.End().Outcome != Complete {
		t.Fatalf("end %+v", resp.Body.End())
	}
}

// TestQueueIsBounded stalls the consumer on a large body: the reader must
// stop after ChunkQueue queued chunks plus the one it holds.
func TestQueueIsBounded(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(big) }))
	defer srv.Close()
	obs := &recorder{}
	const queue, read = 3, 1024
	e := newEngine(t, Config{ChunkQueue: queue, ReadSize: read, Observer: obs})
	resp := get(t, e, srv.URL)
	chunkEvents := func() int {
		n := 0
		for _, ev := range obs.all() {
			if _, ok := ev.(ChunkEvent); ok {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(10 * time.Second); chunkEvents() < queue+1 && time.Now().Before(deadline); {
		time.Sleep(ms)
	}
	time.Sleep(50 * ms) // give an unbounded reader the chance to run ahead
	if n := chunkEvents(); n != queue+1 {
		t.Fatalf("with the consumer stalled the reader read %d chunks, want %d (queue %d + 1 in hand)", n, queue+1, queue)
	}
	resp.Body.Close()
	if end := resp.Body.End(); end.Outcome != Cancelled || end.Received > (queue+1)*read {
		t.Fatalf("end %+v", end)
	}
}

// TestChunkStaysValidUntilNextCall checks the buffer ring: with the reader
// running as far ahead as the queue allows, the chunk the consumer holds is
// never overwritten before its next call to Next.
func TestChunkStaysValidUntilNextCall(t *testing.T) {
	var body bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&body, "%04d", i)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body.Bytes()) }))
	defer srv.Close()
	const queue = 2
	e := newEngine(t, Config{ChunkQueue: queue, ReadSize: 4})
	resp := get(t, e, srv.URL)
	var got []byte
	for c, ok := resp.Body.Next(); ok; c, ok = resp.Body.Next() {
		held := string(c)
		// Let the reader fill the queue (or finish) before looking again.
		for range 1000 {
			if len(resp.Body.ch) == queue {
				break
			}
			select {
			case <-resp.Body.done:
			default:
				time.Sleep(100 * time.Microsecond)
				continue
			}
			break
		}
		if string(c) != held {
			t.Fatalf("chunk changed from %q to %q before the next call to Next", held, c)
		}
		got = append(got, c...)
	}
	if !bytes.Equal(got, body.Bytes()) || resp.Body.End().Outcome != Complete {
		t.Fatalf("body corrupted: %d bytes, end %+v", len(got), resp.Body.End())
	}
}

// TestStreamingAllocatesNothingPerChunk compares the allocations of a whole
// exchange for bodies of 1 MiB and 8 MiB: a per-chunk allocation would add
// hundreds.
func TestStreamingAllocatesNothingPerChunk(t *testing.T) {
	block := bytes.Repeat([]byte("a"), 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1
		if r.URL.Path == "/8" {
			n = 8
		}
		w.Header().Set("Content-Length", fmt.Sprint(n<<20))
		for range n {
			w.Write(block)
		}
	}))
	defer srv.Close()
	e := newEngine(t, Config{})
	allocs := func(path string) float64 {
		return testing.AllocsPerRun(5, func() {
			resp := get(t, e, srv.URL+path)
			for _, ok := resp.Body.Next(); ok; _, ok = resp.Body.Next() {
			}
			if resp.Body.End().Outcome != Complete {
				t.Fatal(resp.Body.End())
			}
		})
	}
	small, large := allocs("/1"), allocs("/8")
	// 7 MiB more is at least 224 more 32 KiB chunks.
	if large-small > 32 {
		t.Fatalf("8 MiB body: %.0f allocations, 1 MiB body: %.0f; streaming allocates per chunk", large, small)
	}
}

// TestNextWithin: a wait that ends before the next chunk returns waited
// and loses nothing: the chunk comes with a later call.
func TestNextWithin(t *testing.T) {
	release := make(chan struct{})
	url := chunkServer(t, 2, release)
	e := newEngine(t, Config{})
	go func() { release <- struct{}{} }()
	resp, err := e.Exchange(context.Background(), Request{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok, waited := resp.Body.NextWithin(nil); !ok || waited || string(c) != "chunk-a;" {
		t.Fatalf("first = %q %v %v", c, ok, waited)
	}
	expired := make(chan time.Time, 1)
	expired <- time.Now()
	if c, ok, waited := resp.Body.NextWithin(expired); !ok || !waited || c != nil {
		t.Fatalf("with the second chunk held back = %q %v %v; want waited", c, ok, waited)
	}
	release <- struct{}{}
	if c, ok, waited := resp.Body.NextWithin(nil); !ok || waited || string(c) != "chunk-b;" {
		t.Fatalf("second = %q %v %v", c, ok, waited)
	}
	if _, ok, _ := resp.Body.NextWithin(nil); ok {
		t.Fatal("the body goes on after its last chunk")
	}
	if end := resp.Body.End(); end.Outcome != Complete {
		t.Fatalf("end %+v", end)
	}
}
