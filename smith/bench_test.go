package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The benchmarks run the real binary built by TestMain and report, besides
// the wall time per run (ns/op), the largest peak RSS of the child
// processes (peak-RSS-MiB, from getrusage's ru_maxrss). Run them with
//
//	cd smith && go test -run '^$' -bench . -benchtime 20x
//
// (BenchmarkEvalCold compiles the tools plugin on every iteration; give it
// -benchtime 3x.)

// benchRun runs smith once in e and returns its peak RSS in KiB. It adds
// the child's CPU time (user + system) to *cpu, a figure that the load of
// a shared machine distorts less than wall time.
func benchRun(b *testing.B, e *env, cpu *time.Duration, env []string, args ...string) int64 {
	cmd := e.command("", args...)
	cmd.Env = append(cmd.Env, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("smith %v: %v\n%s", args, err, out)
	}
	if cpu != nil {
		*cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

// report adds the peak RSS and the mean CPU time per run to b's results.
func report(b *testing.B, peakKiB int64, cpu time.Duration) {
	b.ReportMetric(float64(peakKiB)/1024, "peak-RSS-MiB")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func benchCommand(b *testing.B, args ...string) {
	e := newEnv(b)
	var peak int64
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		peak = max(peak, benchRun(b, e, &cpu, nil, args...))
	}
	report(b, peak, cpu)
}

func BenchmarkHelp(b *testing.B)    { benchCommand(b, "--help") }
func BenchmarkVersion(b *testing.B) { benchCommand(b, "--version") }

// BenchmarkEvalWarm is one tool-using eval turn (read, edit, bash through
// the wasm tools plugin, four model responses from the mock) with the
// plugin's compiled code already cached.
func BenchmarkEvalWarm(b *testing.B) {
	e := newEnv(b)
	e.demo()
	benchRun(b, e, nil, nil, "eval", "--model", "mock", "--no-session", "fix the bug") // fill the cache
	var peak int64
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		e.demo()
		b.StartTimer()
		peak = max(peak, benchRun(b, e, &cpu, nil, "eval", "--model", "mock", "--no-session", "fix the bug"))
	}
	report(b, peak, cpu)
}

// BenchmarkEvalWarmRead is the turn the peers were measured on
// (shared/reference/peers.md: "What does hello.txt say?" → the agent reads
// the file → the final answer): one read through the wasm tools plugin,
// two model responses from the mock, compiled code cached.
func BenchmarkEvalWarmRead(b *testing.B) {
	e := newEnv(b)
	if err := os.WriteFile(filepath.Join(e.cwd, "hello.txt"), []byte("Hello from the benchmark!\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	m := e.script("hello.json", `{"mock_script":1,"responses":[
		{"text":"Reading it.","tool_calls":[{"id":"call_read","name":"read","arguments":{"path":"hello.txt"}}]},
		{"text":"It says: Hello from the benchmark!"}]}`)
	benchRun(b, e, nil, nil, "eval", "--model", m, "--no-session", "What does hello.txt say?") // fill the cache
	var peak int64
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		peak = max(peak, benchRun(b, e, &cpu, nil, "eval", "--model", m, "--no-session", "What does hello.txt say?"))
	}
	report(b, peak, cpu)
}

// BenchmarkEvalWarmProvider is BenchmarkEvalWarmRead's turn against a
// real provider codec, as the peers were measured ("a zero-latency
// loopback model"): anthropic/… through the embedded providers plugin,
// the HTTP engine and a loopback server answering two recorded-format
// Messages API streams (a read of hello.txt, then the answer; each
// exchange a journaled effect), compiled code cached.
func BenchmarkEvalWarmProvider(b *testing.B) {
	e := newEnv(b)
	if err := os.WriteFile(filepath.Join(e.cwd, "hello.txt"), []byte("Hello from the benchmark!\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	replies := []string{
		messagesStream("Reading it.", "toolu_1", "read", `{"path":"hello.txt"}`),
		messagesStream("It says: Hello from the benchmark!", "", "", ""),
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "text/event-stream")
		// A turn asks twice: the first request of a run has no tool result.
		_, _ = io.WriteString(w, replies[(n.Add(1)-1)%2])
	}))
	defer srv.Close()
	env := []string{"ANTHROPIC_API_KEY=sk-bench", "ANTHROPIC_BASE_URL=" + srv.URL}
	args := []string{"eval", "--model", "anthropic/claude-loopback", "--no-session", "What does hello.txt say?"}
	benchRun(b, e, nil, env, args...) // fill the cache
	var peak int64
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		peak = max(peak, benchRun(b, e, &cpu, env, args...))
	}
	report(b, peak, cpu)
}

// BenchmarkEvalCold is BenchmarkEvalWarm's turn with an empty compilation
// cache.
func BenchmarkEvalCold(b *testing.B) {
	e := newEnv(b)
	var peak int64
	var cpu time.Duration
	for i := range b.N {
		b.StopTimer()
		e.demo()
		cache := filepath.Join(e.tmp, "cache", string(rune('a'+i%26)))
		_ = os.RemoveAll(cache)
		b.StartTimer()
		peak = max(peak, benchRun(b, e, &cpu, []string{"XDG_CACHE_HOME=" + cache}, "eval", "--model", "mock", "--no-session", "fix the bug"))
	}
	report(b, peak, cpu)
}

// BenchmarkSessionBytes reports the bytes a turn adds to a session: a
// simple turn (prompt, text answer) and the demo's tool-using turn (seven
// messages, three effects with intents and completions).
func BenchmarkSessionBytes(b *testing.B) {
	e := newEnv(b)
	m := e.script("hi.json", `{"mock_script":1,"responses":[{"text":"Hello! What should I work on?"}]}`)
	size := func(name string) int64 {
		d := filepath.Join(e.home, "sessions")
		ms, _ := filepath.Glob(filepath.Join(d, "*--"+name+".session"))
		if len(ms) != 1 {
			b.Fatalf("session %s: %v", name, ms)
		}
		st, err := os.Stat(ms[0])
		if err != nil {
			b.Fatal(err)
		}
		return st.Size()
	}
	var simple, tools int64
	for i := range b.N {
		name := "s" + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
		benchRun(b, e, nil, nil, "eval", "--model", m, "--session", name, "hi")
		one := size(name)
		benchRun(b, e, nil, nil, "eval", "--model", m, "--session", name, "hi again")
		simple = size(name) - one
		e.demo()
		benchRun(b, e, nil, nil, "eval", "--model", "mock", "--session", name+"-t", "fix the bug")
		tools = size(name + "-t")
	}
	b.ReportMetric(float64(simple), "bytes/simple-turn")
	b.ReportMetric(float64(tools), "bytes/tool-turn")
}
