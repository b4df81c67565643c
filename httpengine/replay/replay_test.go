package replay

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
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/httpengine"
)

const secret = "Bearer replay-secret-5e5e"

func engine(t *testing.T, rt http.RoundTripper, obs httpengine.Observer) *httpengine.Engine {
	e, err := httpengine.New(httpengine.Config{Transport: rt, Observer: obs, ReadSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

type result struct {
	status int
	header http.Header
	chunks [][]byte
	end    httpengine.End
	err    error
}

func run(t *testing.T, e *httpengine.Engine, req httpengine.Request) result {
	resp, err := e.Exchange(context.Background(), req)
	if err != nil {
		return result{err: err}
	}
	r := result{status: resp.StatusCode, header: resp.Header}
	for c, ok := resp.Body.Next(); ok; c, ok = resp.Body.Next() {
		r.chunks = append(r.chunks, bytes.Clone(c))
	}
	r.end = resp.Body.End()
	return r
}

// servers returns a streaming server and one that dies inside chunked framing.
func servers(t *testing.T) (stream, broken string) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != secret {
			http.Error(w, "no auth", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Set-Cookie", "sid=cookie-secret-7a7a")
		for i, part := range []string{"data: " + string(body) + "\n\n", "data: \x00\x01\xfe\xff binary\n\n", strings.Repeat("x", 150), "data: [DONE]\n\n"} {
			io.WriteString(w, part)
			w.(http.Flusher).Flush()
			time.Sleep(time.Duration(i+1) * 5 * time.Millisecond)
		}
	}))
	t.Cleanup(s.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			http.ReadRequest(bufio.NewReader(c))
			io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\npart\r\n9\r\ncut")
			c.Close()
		}
	}()
	return s.URL + "/v1/stream", "http://" + ln.Addr().String() + "/broken"
}

func TestRecordThenReplayByteForByte(t *testing.T) {
	stream, broken := servers(t)
	real, err := httpengine.NewTransport(httpengine.TransportConfig{})
	if err != nil {
		t.Fatal(err)
	}
	reqs := []httpengine.Request{
		{Method: "POST", URL: stream, Body: []byte(`{"prompt":"hi"}`), Header: http.Header{"Authorization": {secret}, "X-Key": {"k-secret-3c3c"}}},
		{URL: broken},
		{URL: "http://no-such-host.invalid/"},
	}
	rec := NewRecorder(real, "x-key")
	e := engine(t, rec, nil)
	var live []result
	for _, r := range reqs {
		live = append(live, run(t, e, r))
	}
	if live[0].end.Outcome != httpengine.Complete || len(live[0].chunks) < 4 || live[1].end.Outcome != httpengine.Failed || live[2].err == nil {
		t.Fatalf("live exchanges did not go as planned: %+v", live)
	}

	var file bytes.Buffer
	if err := Encode(&file, rec.Exchanges()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"replay-secret-5e5e", "cookie-secret-7a7a", "k-secret-3c3c"} {
		if bytes.Contains(file.Bytes(), []byte(s)) {
			t.Fatalf("recording contains secret %q:\n%s", s, file.Bytes())
		}
	}
	recorded, err := Decode(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}

	// Replay through a fresh engine, recording the replay too.
	again := NewRecorder(NewTransport(recorded), "x-key")
	e2 := engine(t, again, nil)
	for i, r := range reqs {
		got := run(t, e2, r)
		want := live[i]
		if (got.err == nil) != (want.err == nil) {
			t.Fatalf("exchange %d: replay error %v, live error %v", i, got.err, want.err)
		}
		if got.err != nil {
			if !strings.Contains(got.err.Error(), "no such host") {
				t.Fatalf("replayed failure %q does not carry the recorded error", got.err)
			}
			continue
		}
		if got.status != want.status || got.header.Get("Content-Type") != want.header.Get("Content-Type") {
			t.Fatalf("exchange %d head: %d %v, live %d %v", i, got.status, got.header, want.status, want.header)
		}
		if len(got.chunks) != len(want.chunks) {
			t.Fatalf("exchange %d: %d chunks replayed, %d live", i, len(got.chunks), len(want.chunks))
		}
		for j := range got.chunks {
			if !bytes.Equal(got.chunks[j], want.chunks[j]) {
				t.Fatalf("exchange %d chunk %d: replay %q, live %q", i, j, got.chunks[j], want.chunks[j])
			}
		}
		if got.end.Outcome != want.end.Outcome || got.end.Delivered != want.end.Delivered {
			t.Fatalf("exchange %d end: replay %+v, live %+v", i, got.end, want.end)
		}
	}

	// The replay's own recording equals the original, timings aside.
	var a, b bytes.Buffer
	Encode(&a, withoutTiming(recorded))
	Encode(&b, withoutTiming(again.Exchanges()))
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("re-recorded replay differs:\n--- original\n%s\n--- replay\n%s", a.Bytes(), b.Bytes())
	}
}

func withoutTiming(xs []Exchange) []Exchange {
	out := append([]Exchange(nil), xs...)
	for i := range out {
		out[i].HeadAfter = 0
		out[i].Chunks = append([]Chunk(nil), out[i].Chunks...)
		for j := range out[i].Chunks {
			out[i].Chunks[j].After = 0
		}
		// A replayed error's text wraps the recorded one.
		out[i].End = strings.TrimPrefix(out[i].End, "replay: recorded error: ")
		out[i].Failed = strings.TrimPrefix(out[i].Failed, "replay: recorded error: ")
	}
	return out
}

type gaps struct{ gaps []time.Duration }

func (g *gaps) Observe(e httpengine.Event) {
	if c, ok := e.(httpengine.ChunkEvent); ok {
		g.gaps = append(g.gaps, c.Gap)
	}
}

func TestReplayTiming(t *testing.T) {
	xs := []Exchange{{Method: "GET", URL: "http://timed.invalid/", StatusCode: 200, Proto: "HTTP/1.1", End: EndEOF,
		HeadAfter: 20 * time.Millisecond,
		Chunks:    []Chunk{{After: 30 * time.Millisecond, Data: []byte("a")}, {After: 40 * time.Millisecond, Data: []byte("b")}}}}
	obs := &gaps{}
	tr := NewTransport(xs)
	tr.Timing = true
	e := engine(t, tr, obs)
	resp, err := e.Exchange(context.Background(), httpengine.Request{URL: "http://timed.invalid/"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.HeadAfter < 20*time.Millisecond {
		t.Fatalf("head after %v, recorded 20ms", resp.HeadAfter)
	}
	for _, ok := resp.Body.Next(); ok; _, ok = resp.Body.Next() {
	}
	if len(obs.gaps) != 2 || obs.gaps[0] < 30*time.Millisecond || obs.gaps[1] < 40*time.Millisecond {
		t.Fatalf("replayed gaps %v, recorded [30ms 40ms]", obs.gaps)
	}
}

func TestReplayTimingHonoursCancellation(t *testing.T) {
	xs := []Exchange{{Method: "GET", URL: "http://slow.invalid/", StatusCode: 200, End: EndEOF,
		Chunks: []Chunk{{Data: []byte("a")}, {After: time.Hour, Data: []byte("b")}}}}
	tr := NewTransport(xs)
	tr.Timing = true
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := engine(t, tr, nil).Exchange(ctx, httpengine.Request{URL: "http://slow.invalid/"})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := resp.Body.Next(); !ok || string(c) != "a" {
		t.Fatalf("first chunk %q", c)
	}
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, ok := resp.Body.Next(); ok || resp.Body.End().Outcome != httpengine.Cancelled {
		t.Fatalf("end %+v, want cancelled without waiting an hour", resp.Body.End())
	}
}

func TestReplayRefusesMismatches(t *testing.T) {
	xs := []Exchange{{Method: "GET", URL: "http://one.invalid/", StatusCode: 204, End: EndEOF}}
	tests := []struct {
		name string
		reqs []httpengine.Request
		msg  string
	}{
		{"wrong url", []httpengine.Request{{URL: "http://two.invalid/"}}, "request 1 is GET http://two.invalid/ but the recording's exchange 1 is GET http://one.invalid/"},
		{"wrong method", []httpengine.Request{{Method: "POST", URL: "http://one.invalid/"}}, "request 1 is POST"},
		{"exhausted", []httpengine.Request{{URL: "http://one.invalid/"}, {URL: "http://one.invalid/"}}, "request 2 (GET http://one.invalid/) has no recorded exchange; the recording holds 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := engine(t, NewTransport(xs), nil)
			var err error
			for _, r := range tt.reqs {
				if res := run(t, e, r); res.err != nil {
					err = res.err
				}
			}
			var xe *httpengine.Error
			if !errors.As(err, &xe) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want an *httpengine.Error containing %q", err, tt.msg)
			}
		})
	}
}

func TestReplayedClosedBodyIsNotComplete(t *testing.T) {
	xs := []Exchange{{Method: "GET", URL: "http://big.invalid/", StatusCode: 200, End: EndClosed,
		Chunks: []Chunk{{Data: []byte("partial")}}}}
	res := run(t, engine(t, NewTransport(xs), nil), httpengine.Request{URL: "http://big.invalid/"})
	if res.end.Outcome != httpengine.Failed || !strings.Contains(res.end.Err.Error(), "closed the body before its end") {
		t.Fatalf("end %+v, want failed: a recording cut by its reader must not replay as complete", res.end)
	}
}

// TestRecorderConcurrent hammers one Recorder (run with -race): every
// exchange is kept whole.
func TestRecorderConcurrent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.URL.Path)
	}))
	defer srv.Close()
	real, err := httpengine.NewTransport(httpengine.TransportConfig{})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(real)
	e := engine(t, rec, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 10 {
				path := fmt.Sprintf("/g%d/i%d", g, i)
				if res := run(t, e, httpengine.Request{URL: srv.URL + path}); res.err != nil || res.end.Outcome != httpengine.Complete {
					t.Errorf("%s: %+v", path, res)
				}
				rec.Exchanges() // snapshots race with recording
			}
		})
	}
	wg.Wait()
	xs := rec.Exchanges()
	if len(xs) != 80 {
		t.Fatalf("%d exchanges recorded, want 80", len(xs))
	}
	for _, x := range xs {
		var body []byte
		for _, c := range x.Chunks {
			body = append(body, c.Data...)
		}
		if x.End != EndEOF || !strings.HasSuffix(x.URL, string(body)) {
			t.Fatalf("exchange %s recorded body %q end %q", x.URL, body, x.End)
		}
	}
}
