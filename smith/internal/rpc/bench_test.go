package rpc

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/protocol"
	"github.com/smith-agent/smith/core/rpcclient"
)

func roundTrip(b *testing.B, c *rpcclient.Client) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := c.Call(ctx, protocol.MethodAbort, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripInProcess: a trivial request (abort with no run) and
// its response through in-process pipes (io.Pipe).
func BenchmarkRoundTripInProcess(b *testing.B) {
	w := newWorld(b)
	srv, err := New(Options{Runtime: w.Open("mock", false)})
	if err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, outW); _ = outW.Close() }()
	c := rpcclient.New(outR, inW)
	roundTrip(b, c)
	b.StopTimer()
	_ = c.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRoundTripPipes: the same through operating-system pipes
// (os.Pipe), as a client of `smith rpc` sees it.
func BenchmarkRoundTripPipes(b *testing.B) {
	w := newWorld(b)
	p := servePipes(b, w.Open("mock", false), nil)
	c := p.client()
	roundTrip(b, c)
}

// BenchmarkEventThroughput: how many events per second a client reading
// through OS pipes receives while the mock model streams an answer of
// 2,000 deltas (events/s is the figure; ns/op is one whole run).
func BenchmarkEventThroughput(b *testing.B) {
	w := newWorld(b)
	mock := w.Script(textScript(words(2000)))
	events := 0
	var elapsed time.Duration
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		rt := w.Open(mock, false)
		inR, inW, _ := os.Pipe()
		outR, outW, _ := os.Pipe()
		srv, err := New(Options{Runtime: rt})
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- srv.Serve(context.Background(), inR, outW); _ = outW.Close() }()
		c := rpcclient.New(outR, inW)
		b.StartTimer()
		start := time.Now()
		if _, err := c.Prompt(context.Background(), protocol.PromptParams{Text: "stream"}); err != nil {
			b.Fatal(err)
		}
		for ev := range c.Events() {
			events++
			if _, ok := ev.(protocol.Settled); ok {
				break
			}
		}
		elapsed += time.Since(start)
		b.StopTimer()
		_ = c.Close()
		<-done
		_ = rt.Close(context.Background())
		for _, f := range []*os.File{inR, outR} {
			_ = f.Close()
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(events)/elapsed.Seconds(), "events/s")
}
