package httpengine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// bodyServer serves /?n=BYTES from one reused 1 MiB block, so the server
// itself allocates nothing per byte.
func bodyServer(b *testing.B) *httptest.Server {
	block := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.ParseInt(r.URL.Query().Get("n"), 10, 64)
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		for n > 0 {
			k, err := w.Write(block[:min(n, int64(len(block)))])
			if err != nil {
				return
			}
			n -= int64(k)
		}
	}))
	b.Cleanup(srv.Close)
	return srv
}

func engineStream(b *testing.B, e *Engine, url string, size int64) End {
	resp, err := e.Exchange(context.Background(), Request{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for c, ok := resp.Body.Next(); ok; c, ok = resp.Body.Next() {
		n += int64(len(c))
	}
	end := resp.Body.End()
	if end.Outcome != Complete || n != size {
		b.Fatalf("engine read %d of %d bytes: %+v", n, size, end)
	}
	return end
}

func plainStream(b *testing.B, c *http.Client, url string, size int64, buf []byte) {
	resp, err := c.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var n int64
	for {
		k, err := resp.Body.Read(buf)
		n += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if n != size {
		b.Fatalf("net/http read %d of %d bytes", n, size)
	}
}

// BenchmarkStream64MiB streams a 64 MiB body over loopback through the
// engine and through plain net/http (same 32 KiB reads) in the same run.
func BenchmarkStream64MiB(b *testing.B) {
	const size = 64 << 20
	srv := bodyServer(b)
	url := srv.URL + "/?n=" + strconv.Itoa(size)
	b.Run("engine", func(b *testing.B) {
		e := newEngine(b, Config{})
		b.SetBytes(size)
		chunks := 0
		for b.Loop() {
			chunks += engineStream(b, e, url, size).Chunks
		}
		b.ReportMetric(float64(size)*float64(b.N)/float64(chunks)/1024, "KiB/chunk")
	})
	b.Run("nethttp", func(b *testing.B) {
		c := &http.Client{Transport: &http.Transport{}}
		buf := make([]byte, DefaultReadSize)
		b.SetBytes(size)
		for b.Loop() {
			plainStream(b, c, url, size, buf)
		}
	})
}

// BenchmarkStreamRatio alternates the two in every iteration and reports
// engine throughput divided by net/http throughput (goal >= 0.9).
func BenchmarkStreamRatio(b *testing.B) {
	const size = 64 << 20
	srv := bodyServer(b)
	url := srv.URL + "/?n=" + strconv.Itoa(size)
	e := newEngine(b, Config{})
	c := &http.Client{Transport: &http.Transport{}}
	buf := make([]byte, DefaultReadSize)
	var te, tp, ce, cp time.Duration
	// timed returns wall time and process CPU time (server included, which
	// does the same work for both): CPU time is steadier on a shared machine.
	timed := func(f func(), wall, cpu *time.Duration) {
		c0, t0 := cpuTime(), time.Now()
		f()
		*wall += time.Since(t0)
		*cpu += cpuTime() - c0
	}
	engine := func() { engineStream(b, e, url, size) }
	plain := func() { plainStream(b, c, url, size, buf) }
	i := 0
	for b.Loop() {
		if i++; i%2 == 0 { // alternate which goes first
			timed(engine, &te, &ce)
			timed(plain, &tp, &cp)
		} else {
			timed(plain, &tp, &cp)
			timed(engine, &te, &ce)
		}
	}
	mib := float64(size) / (1 << 20) * float64(b.N)
	b.ReportMetric(mib/te.Seconds(), "engine-MiB/s")
	b.ReportMetric(mib/tp.Seconds(), "nethttp-MiB/s")
	b.ReportMetric(tp.Seconds()/te.Seconds(), "ratio")
	b.ReportMetric(cp.Seconds()/ce.Seconds(), "cpu-ratio")
}

// BenchmarkFirstChunk measures the time from calling Exchange to holding
// the first body chunk, against the time from net/http's Get to its first
// Read, alternating the two in every iteration so load affects both alike.
func BenchmarkFirstChunk(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data: first\n\n")
		w.(http.Flusher).Flush()
	}))
	defer srv.Close()
	e := newEngine(b, Config{})
	c := &http.Client{Transport: &http.Transport{}}
	buf := make([]byte, DefaultReadSize)
	engine := func() time.Duration {
		t0 := time.Now()
		resp, err := e.Exchange(context.Background(), Request{URL: srv.URL})
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := resp.Body.Next(); !ok {
			b.Fatal(resp.Body.End())
		}
		d := time.Since(t0)
		drain(resp.Body)
		return d
	}
	plain := func() time.Duration {
		t0 := time.Now()
		resp, err := c.Get(srv.URL)
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := resp.Body.Read(buf); n == 0 {
			b.Fatal("empty first read")
		}
		d := time.Since(t0)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return d
	}
	var te, tp time.Duration
	i := 0
	for b.Loop() {
		if i++; i%2 == 0 {
			te += engine()
			tp += plain()
		} else {
			tp += plain()
			te += engine()
		}
	}
	b.ReportMetric(float64(te.Microseconds())/float64(b.N), "engine-µs/first-chunk")
	b.ReportMetric(float64(tp.Microseconds())/float64(b.N), "nethttp-µs/first-chunk")
}

// BenchmarkPeakHeap streams bodies of two sizes and reports the largest
// live heap (runtime/metrics heap objects) seen while consuming them. It
// must not grow with the body size.
func BenchmarkPeakHeap(b *testing.B) {
	srv := bodyServer(b)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	for _, size := range []int64{64 << 20, 512 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			e := newEngine(b, Config{MaxResponseBody: size})
			url := srv.URL + "/?n=" + strconv.FormatInt(size, 10)
			var peak uint64
			for b.Loop() {
				runtime.GC()
				base := heap()
				resp, err := e.Exchange(context.Background(), Request{URL: url})
				if err != nil {
					b.Fatal(err)
				}
				i := 0
				for _, ok := resp.Body.Next(); ok; _, ok = resp.Body.Next() {
					if i++; i%16 == 0 {
						if h := heap(); h > base && h-base > peak {
							peak = h - base
						}
					}
				}
				if end := resp.Body.End(); end.Outcome != Complete {
					b.Fatal(end)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
