package httpengine

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawServer serves each loopback connection with handle, after reading the
// request head. It returns the base URL.
func rawServer(t *testing.T, handle func(c net.Conn, r *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				go func() { <-stop; c.Close() }()
				r := bufio.NewReader(c)
				if _, err := http.ReadRequest(r); err != nil {
					return
				}
				handle(c, r)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// recorder is an Observer that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) Observe(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) all() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

func (r *recorder) dump() string {
	var sb strings.Builder
	for _, e := range r.all() {
		fmt.Fprintf(&sb, "%T %+v\n", e, e)
	}
	return sb.String()
}

func newEngine(t testing.TB, c Config) *Engine {
	t.Helper()
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// drain reads a body to its end, copying each chunk (Next reuses them).
func drain(b *Body) ([][]byte, End) {
	var chunks [][]byte
	for c, ok := b.Next(); ok; c, ok = b.Next() {
		chunks = append(chunks, bytes.Clone(c))
	}
	return chunks, b.End()
}

func join(chunks [][]byte) string {
	var sb strings.Builder
	for _, c := range chunks {
		sb.Write(c)
	}
	return sb.String()
}

func get(t *testing.T, e *Engine, url string) *Response {
	t.Helper()
	resp, err := e.Exchange(context.Background(), Request{URL: url})
	if err != nil {
		t.Fatalf("Exchange(%s): %v", url, err)
	}
	return resp
}

// kindOf returns err's Kind, failing the test when err is not an *Error.
func kindOf(t *testing.T, err error) Kind {
	t.Helper()
	xe, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %v (%T) is not an *httpengine.Error", err, err)
	}
	return xe.Kind
}

const ms = time.Millisecond
