package httpengine

import (
	"bytes"
	"context"
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
	for range 2000 {
		if chunkEvents() >= queue+1 {
			break
		}
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
