package httpengine

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// chunkServer sends n chunks of "chunk-i;" flushed one by one, the i-th only
// after release has been signalled i times (nil release: all at once).
func chunkServer(t *testing.T, n int, release <-chan struct{}) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range n {
			if release != nil {
				select {
				case <-release:
				case <-r.Context().Done():
					return
				}
			}
			io.WriteString(w, "chunk-"+string(rune('a'+i))+";")
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestCancelStopsDeliveryAtChunkBoundary(t *testing.T) {
	url := chunkServer(t, 20, nil)
	obs := &recorder{}
	e := newEngine(t, Config{ReadSize: 8, ChunkQueue: 4, Observer: obs})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := e.Exchange(ctx, Request{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	first, ok := resp.Body.Next()
	if !ok {
		t.Fatalf("no first chunk: %+v", resp.Body.End())
	}
	// Wait until the reader has queued more chunks, so cancellation races
	// with chunks already read from the wire.
	for deadline := time.Now().Add(10 * time.Second); len(resp.Body.ch) < cap(resp.Body.ch) && time.Now().Before(deadline); {
		time.Sleep(ms)
	}
	cancel()
	if c, ok := resp.Body.Next(); ok {
		t.Fatalf("chunk %q delivered after cancellation", c)
	}
	end := resp.Body.End()
	if end.Outcome != Cancelled || !errors.Is(end.Err, context.Canceled) {
		t.Fatalf("end %+v, want cancelled with context.Canceled", end)
	}
	if end.Delivered != int64(len(first)) || end.Chunks != 1 {
		t.Fatalf("end %+v: delivered must count only the one chunk returned", end)
	}
	if end.Received <= end.Delivered {
		t.Fatalf("end %+v: the test meant chunks to be queued when cancelling", end)
	}
	if _, ok := resp.Body.Next(); ok {
		t.Fatal("Next returned a chunk after the body ended")
	}
	ends := 0
	for _, ev := range obs.all() {
		if ee, ok := ev.(EndEvent); ok {
			ends++
			if ee.Outcome != Cancelled {
				t.Fatalf("observed end %+v, want cancelled", ee)
			}
		}
	}
	if ends != 1 {
		t.Fatalf("observed %d end events, want exactly 1", ends)
	}
}

func TestCancelWhileWaitingForChunk(t *testing.T) {
	release := make(chan struct{})
	url := chunkServer(t, 3, release)
	e := newEngine(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { release <- struct{}{} }()
	resp, err := e.Exchange(ctx, Request{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := resp.Body.Next(); !ok || string(c) != "chunk-a;" {
		t.Fatalf("first chunk %q %v", c, ok)
	}
	go func() { time.Sleep(20 * ms); cancel() }()
	if c, ok := resp.Body.Next(); ok { // blocks: the server holds chunk b
		t.Fatalf("chunk %q delivered after cancellation", c)
	}
	if end := resp.Body.End(); end.Outcome != Cancelled {
		t.Fatalf("end %+v, want cancelled", end)
	}
}

func TestCancelBeforeHead(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	e := newEngine(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * ms); cancel() }()
	_, err := e.Exchange(ctx, Request{URL: srv.URL})
	if kindOf(t, err) != KindCancelled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want KindCancelled wrapping context.Canceled", err)
	}
}

func TestClose(t *testing.T) {
	tests := []struct {
		name    string
		reads   int // chunks taken before Close
		settle  bool
		want    Outcome
		wantLen int64
	}{
		{"close before reading", 0, false, Cancelled, 0},
		{"close mid-body", 2, false, Cancelled, 16},
		{"close after every chunk, before Next said false", 3, true, Complete, 24},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := chunkServer(t, 3, nil)
			obs := &recorder{}
			e := newEngine(t, Config{Observer: obs, ReadSize: 8})
			resp := get(t, e, url)
			for range tt.reads {
				if _, ok := resp.Body.Next(); !ok {
					t.Fatalf("body ended early: %+v", resp.Body.End())
				}
			}
			if tt.settle { // let the reader see EOF and close the queue
				<-resp.Body.done
			}
			resp.Body.Close()
			resp.Body.Close()
			end := resp.Body.End()
			if end.Outcome != tt.want || end.Delivered != tt.wantLen {
				t.Fatalf("end %+v, want %v after %d bytes", end, tt.want, tt.wantLen)
			}
			if _, ok := resp.Body.Next(); ok {
				t.Fatal("Next delivered after Close")
			}
			if n := strings.Count(obs.dump(), "EndEvent"); n != 1 {
				t.Fatalf("observed %d end events, want 1", n)
			}
		})
	}
}
