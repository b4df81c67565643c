package httpengine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRequestBodyOverBoundIsNotSent(t *testing.T) {
	var conns, requests atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.Copy(io.Discard, r.Body)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	obs := &recorder{}
	e := newEngine(t, Config{MaxRequestBody: 1 << 10, Observer: obs})

	_, err := e.Exchange(context.Background(), Request{Method: "POST", URL: srv.URL, Body: make([]byte, 1<<10+1)})
	var xe *Error
	if !errors.As(err, &xe) || xe.Kind != KindRequest {
		t.Fatalf("over-bound body: err = %v, want KindRequest", err)
	}
	for _, want := range []string{"1025 bytes", "1024-byte bound", "MaxRequestBody", "nothing was sent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// A body exactly at the bound goes through; the server must then have
	// seen that one request on one connection and nothing before it.
	resp, err := e.Exchange(context.Background(), Request{Method: "POST", URL: srv.URL, Body: make([]byte, 1<<10)})
	if err != nil {
		t.Fatal(err)
	}
	drain(resp.Body)
	if c, r := conns.Load(), requests.Load(); c != 1 || r != 1 {
		t.Fatalf("server saw %d connections and %d requests, want 1 and 1 (the refused body must send nothing)", c, r)
	}
	if d := obs.dump(); !strings.Contains(d, "Outcome:failed") {
		t.Fatalf("observer did not see the refusal end:\n%s", d)
	}
}

func TestDefaultRequestBound(t *testing.T) {
	e := newEngine(t, Config{})
	_, err := e.Exchange(context.Background(), Request{Method: "POST", URL: "http://127.0.0.1:1/", Body: make([]byte, 16<<20+1)})
	if kindOf(t, err) != KindRequest || !strings.Contains(err.Error(), "16777216-byte bound") {
		t.Fatalf("16 MiB + 1 body: %v, want refusal naming the 16777216-byte bound", err)
	}
}

func TestResponseBodyBound(t *testing.T) {
	const bound = 1000
	tests := []struct {
		name    string
		size    int
		chunked bool
		want    Outcome
	}{
		{"under the bound", bound - 1, false, Complete},
		{"exactly the bound", bound, false, Complete},
		{"exactly the bound chunked", bound, true, Complete},
		{"one byte over", bound + 1, false, Truncated},
		{"far over, chunked", 50 * bound, true, Truncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := bytes.Repeat([]byte("0123456789"), tt.size/10+1)[:tt.size]
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !tt.chunked {
					w.Header().Set("Content-Length", fmt.Sprint(len(body)))
				}
				for i := 0; i < len(body); i += 300 {
					w.Write(body[i:min(i+300, len(body))])
					w.(http.Flusher).Flush()
				}
			}))
			defer srv.Close()
			e := newEngine(t, Config{MaxResponseBody: bound, ReadSize: 64})
			chunks, end := drain(get(t, e, srv.URL).Body)
			got := join(chunks)
			if end.Outcome != tt.want {
				t.Fatalf("outcome %v, want %v (end %+v)", end.Outcome, tt.want, end)
			}
			wantBytes := min(tt.size, bound)
			if got != string(body[:wantBytes]) || end.Delivered != int64(wantBytes) || end.Received != int64(wantBytes) {
				t.Fatalf("delivered %d bytes (end %+v), want exactly the first %d", len(got), end, wantBytes)
			}
		})
	}
}

func TestDefaultResponseBoundTruncatesAt64MiB(t *testing.T) {
	block := bytes.Repeat([]byte{'x'}, 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 65 {
			if _, err := w.Write(block); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	e := newEngine(t, Config{})
	resp := get(t, e, srv.URL)
	var n int64
	for c, ok := resp.Body.Next(); ok; c, ok = resp.Body.Next() {
		n += int64(len(c))
	}
	if end := resp.Body.End(); end.Outcome != Truncated || n != 64<<20 {
		t.Fatalf("65 MiB body: %d bytes, end %+v; want 67108864 bytes and truncated", n, end)
	}
}

func TestHeadTimeout(t *testing.T) {
	tests := []struct {
		name   string
		handle func(c net.Conn, r *bufio.Reader)
	}{
		{"silent server", func(c net.Conn, r *bufio.Reader) { io.Copy(io.Discard, c) }},
		{"half a head", func(c net.Conn, r *bufio.Reader) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")
			io.Copy(io.Discard, c)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, tt.handle)
			e := newEngine(t, Config{HeadTimeout: 50 * ms})
			_, err := e.Exchange(context.Background(), Request{URL: url})
			if kindOf(t, err) != KindTimeout || !strings.Contains(err.Error(), "no response head within 50ms (Config.HeadTimeout)") || errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want a timeout naming the 50ms head bound", err)
			}
		})
	}
}

func TestChunkGap(t *testing.T) {
	tests := []struct {
		name   string
		handle func(c net.Conn, r *bufio.Reader)
		bytes  int64
	}{
		{"stall after one chunk", func(c net.Conn, r *bufio.Reader) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
			io.Copy(io.Discard, c)
		}, 5},
		{"stall before the first byte", func(c net.Conn, r *bufio.Reader) {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
			io.Copy(io.Discard, c)
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, tt.handle)
			e := newEngine(t, Config{ChunkGap: 60 * ms})
			chunks, end := drain(get(t, e, url).Body)
			if end.Outcome != Failed || kindOf(t, end.Err) != KindTimeout || errors.Is(end.Err, context.Canceled) {
				t.Fatalf("end %+v, want failed with a timeout", end)
			}
			want := fmt.Sprintf("no body chunk for 60ms (Config.ChunkGap) after %d bytes", tt.bytes)
			if !strings.Contains(end.Err.Error(), want) {
				t.Fatalf("error %q does not name the gap (%q)", end.Err, want)
			}
			if int64(len(join(chunks))) != tt.bytes || end.Delivered != tt.bytes {
				t.Fatalf("delivered %q (end %+v), want %d bytes", join(chunks), end, tt.bytes)
			}
		})
	}
}

// A slow consumer is not a stalled server: time spent not calling Next does
// not count against the gap. The whole body is in the socket before the
// first Next, so every read returns at once; only the consumer is slow.
func TestChunkGapIgnoresSlowConsumer(t *testing.T) {
	url := rawServer(t, func(c net.Conn, r *bufio.Reader) {
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\nabcdabcdabcdabcd")
		io.Copy(io.Discard, c)
	})
	const gap = 300 * ms
	e := newEngine(t, Config{ChunkGap: gap, ChunkQueue: 1, ReadSize: 4})
	resp := get(t, e, url)
	var got []byte
	for c, ok := resp.Body.Next(); ok; c, ok = resp.Body.Next() {
		got = append(got, c...)
		time.Sleep(gap + 200*ms)
	}
	if end := resp.Body.End(); end.Outcome != Complete || string(got) != "abcdabcdabcdabcd" {
		t.Fatalf("slow consumer: got %q, end %+v; want all 16 bytes complete", got, end)
	}
}

func TestConfigRejectsNegativeBounds(t *testing.T) {
	tests := []struct {
		name  string
		c     Config
		field string
	}{
		{"request", Config{MaxRequestBody: -1}, "MaxRequestBody"},
		{"response", Config{MaxResponseBody: -1}, "MaxResponseBody"},
		{"head", Config{HeadTimeout: -1}, "HeadTimeout"},
		{"gap", Config{ChunkGap: -time.Second}, "ChunkGap"},
		{"queue", Config{ChunkQueue: -1}, "ChunkQueue"},
		{"read", Config{ReadSize: -1}, "ReadSize"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.c)
			if err == nil || !strings.Contains(err.Error(), "Config."+tt.field) {
				t.Fatalf("New(%+v) = %v, want an error naming Config.%s", tt.c, err, tt.field)
			}
		})
	}
}
