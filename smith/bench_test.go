package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks run the real binary built by TestMain and report, besides
// the wall time per run (ns/op), the CPU time per run (cpu-ms/op), and from
// three more runs under internal/spawnstat the largest peak RSS
// (peak-RSS-MiB) and the minor page faults per run (minflt/op). Run them
// with
//
//	cd smith && go test -run '^$' -bench . -benchtime 20x
//
// (BenchmarkEvalCold compiles the tools plugin on every iteration; give it
// -benchtime 3x.)

// invocation is one benchmarked command: a binary (smith unless set), its
// arguments and extra environment, run in e's directories after prepare
// (if set; untimed).
type invocation struct {
	e       *env
	bin     string
	env     []string
	args    []string
	prepare func()
	// exit is the exit status the command must end with (0 unless set).
	exit int
}

// check fails b unless err is the exit the invocation expects.
func (in invocation) check(b *testing.B, err error, out []byte) {
	var ee *exec.ExitError
	switch {
	case err == nil && in.exit == 0:
	case errors.As(err, &ee) && ee.ExitCode() == in.exit:
	default:
		b.Fatalf("%s %v: %v (want exit status %d)\n%s", in.bin, in.args, err, in.exit, out)
	}
}

// command is the invocation's command, started by launcher if it is not
// "".
func (in invocation) command(launcher string) *exec.Cmd {
	cmd := in.e.command("", in.args...)
	if in.bin != "" {
		cmd.Path, cmd.Args[0] = in.bin, in.bin
	}
	if launcher != "" {
		cmd.Args = append([]string{launcher, cmd.Path}, cmd.Args[1:]...)
		cmd.Path = launcher
	}
	cmd.Env = append(cmd.Env, in.env...)
	return cmd
}

// once runs the invocation and adds the child's CPU time (user + system)
// to *cpu, a figure that the load of a shared machine distorts less than
// wall time.
func (in invocation) once(b *testing.B, cpu *time.Duration) {
	if in.prepare != nil {
		b.StopTimer()
		in.prepare()
		b.StartTimer()
	}
	cmd := in.command("")
	out, err := cmd.CombinedOutput()
	in.check(b, err, out)
	if cpu != nil {
		*cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
}

// measure runs the invocation b.N times, timed, then reports.
func (in invocation) measure(b *testing.B) {
	var cpu time.Duration
	b.ResetTimer()
	for range b.N {
		in.once(b, &cpu)
	}
	b.StopTimer()
	in.report(b, cpu)
}

// report adds the mean CPU time per run, and the peak RSS and page faults
// of three runs under spawnstat, to b's results. (ru_maxrss of a child
// of this test binary would be the test binary's own peak: see
// internal/spawnstat.)
func (in invocation) report(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	launcher := spawnstatBin()
	var peak, faults int64
	const runs = 3
	for range runs {
		if in.prepare != nil {
			in.prepare()
		}
		cmd := in.command(launcher)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		in.check(b, err, append(out, stderr.Bytes()...))
		var st struct {
			MaxRSSKiB int64 `json:"maxrss_kib"`
			MinFlt    int64 `json:"minflt"`
		}
		if err := json.Unmarshal(stderr.Bytes(), &st); err != nil {
			b.Fatalf("spawnstat printed %q: %v", stderr.Bytes(), err)
		}
		peak = max(peak, st.MaxRSSKiB)
		faults += st.MinFlt
	}
	b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
	b.ReportMetric(float64(faults)/runs, "minflt/op")
}

// spawnstatBin builds internal/spawnstat once per test binary.
var spawnstatBin = sync.OnceValue(func() string {
	out := filepath.Join(filepath.Dir(smithBin), "spawnstat")
	build := exec.Command("go", "build", "-o", out, "./internal/spawnstat")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		panic(fmt.Sprintf("build spawnstat: %v\n%s", err, msg))
	}
	return out
})

// benchCommand measures `smith args...`, and the same arguments given to
// each peer binary named in SMITH_BENCH_PEERS (a list separated by the OS
// path list separator, e.g. the codex binary of `npm pack
// @openai/codex@0.171.0-linux-x64`), so that both are timed on the same
// machine by the same harness (shared/reference/peers.md measured its
// figures on another one).
func benchCommand(b *testing.B, args ...string) {
	b.Run("smith", func(b *testing.B) { invocation{e: newEnv(b), args: args}.measure(b) })
	for _, peer := range filepath.SplitList(os.Getenv("SMITH_BENCH_PEERS")) {
		if peer != "" {
			b.Run("peer="+filepath.Base(peer), func(b *testing.B) { invocation{e: newEnv(b), bin: peer, args: args}.measure(b) })
		}
	}
}

// BenchmarkHelp and BenchmarkVersion are `smith --help` and `smith
// --version` (answered before the command tree is built, quick.go).
func BenchmarkHelp(b *testing.B)    { benchCommand(b, "--help") }
func BenchmarkVersion(b *testing.B) { benchCommand(b, "--version") }

// BenchmarkEvalWarm is one tool-using eval turn (read, edit, bash through
// the wasm tools plugin, four model responses from the mock) with the
// plugin's compiled code already cached.
func BenchmarkEvalWarm(b *testing.B) {
	e := newEnv(b)
	in := invocation{e: e, args: []string{"eval", "--model", "mock", "--no-session", "fix the bug"}, prepare: e.demo}
	in.once(b, nil) // fill the cache
	in.measure(b)
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
	in := invocation{e: e, args: []string{"eval", "--model", m, "--no-session", "What does hello.txt say?"}}
	in.once(b, nil) // fill the cache
	in.measure(b)
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
	srv := loopbackMessages(b, nil)
	env := []string{"ANTHROPIC_API_KEY=sk-bench", "ANTHROPIC_BASE_URL=" + srv.URL}
	in := invocation{e: e, env: env, args: []string{"eval", "--model", "anthropic/claude-loopback", "--no-session", "What does hello.txt say?"}}
	in.once(b, nil) // fill the cache
	in.measure(b)
}

// loopbackMessages serves two recorded-format Messages API streams in
// turn (a read of hello.txt, then the answer) and reports, on first, when
// each run's first request arrived.
func loopbackMessages(b *testing.B, first chan<- time.Time) *httptest.Server {
	replies := []string{
		messagesStream("Reading it.", "toolu_1", "read", `{"path":"hello.txt"}`),
		messagesStream("It says: Hello from the benchmark!", "", "", ""),
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1) - 1
		if k%2 == 0 && first != nil {
			select {
			case first <- time.Now():
			default:
			}
		}
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, replies[k%2])
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkFirstRequestWarm times a process start to the arrival of its
// first provider request at a loopback server (BenchmarkEvalWarmProvider's
// turn), compiled code cached: configuration, catalog, routing,
// credentials, the plugin generation, the session, the system prompt and
// the codec's request template all happen in it. The turn then finishes
// untimed.
func BenchmarkFirstRequestWarm(b *testing.B) {
	e := newEnv(b)
	if err := os.WriteFile(filepath.Join(e.cwd, "hello.txt"), []byte("Hello from the benchmark!\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	first := make(chan time.Time, 1)
	srv := loopbackMessages(b, first)
	in := invocation{e: e, env: []string{"ANTHROPIC_API_KEY=sk-bench", "ANTHROPIC_BASE_URL=" + srv.URL},
		args: []string{"eval", "--model", "anthropic/claude-loopback", "--no-session", "What does hello.txt say?"}}
	in.once(b, nil) // fill the cache
	<-first
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := in.command("")
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", in.args, err, out)
		}
		total += (<-first).Sub(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-first-request")
}

// BenchmarkEvalColdProvider is the first-ever real-provider turn:
// BenchmarkEvalWarmProvider's turn with an empty compilation cache. The
// plugins run interpreted while their optimizing compile proceeds in the
// background; ms-to-answer is when the final answer reached stdout, ns/op
// when the process exited (after the compile filled the cache).
func BenchmarkEvalColdProvider(b *testing.B) {
	e := newEnv(b)
	if err := os.WriteFile(filepath.Join(e.cwd, "hello.txt"), []byte("Hello from the benchmark!\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	srv := loopbackMessages(b, nil)
	cache := filepath.Join(e.tmp, "cache")
	in := invocation{e: e, env: []string{"XDG_CACHE_HOME=" + cache, "ANTHROPIC_API_KEY=sk-bench", "ANTHROPIC_BASE_URL=" + srv.URL},
		args: []string{"eval", "--model", "anthropic/claude-loopback", "--no-session", "What does hello.txt say?"},
		prepare: func() {
			if err := os.RemoveAll(cache); err != nil {
				b.Fatal(err)
			}
		}}
	var answer, cpu time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		in.prepare()
		b.StartTimer()
		cmd := in.command("")
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var seen bytes.Buffer
		buf := make([]byte, 4096)
		at := time.Duration(0)
		for {
			n, err := out.Read(buf)
			seen.Write(buf[:n])
			if at == 0 && bytes.Contains(seen.Bytes(), []byte("It says: Hello from the benchmark!")) {
				at = time.Since(start)
			}
			if err != nil {
				break
			}
		}
		if err := cmd.Wait(); err != nil || at == 0 {
			b.Fatalf("%v: %v\n%s", in.args, err, seen.Bytes())
		}
		answer += at
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.StopTimer()
	b.ReportMetric(float64(answer.Microseconds())/1000/float64(b.N), "ms-to-answer")
	in.report(b, cpu)
}

// BenchmarkEvalCold is BenchmarkEvalWarm's turn with an empty compilation
// cache.
func BenchmarkEvalCold(b *testing.B) {
	e := newEnv(b)
	cache := filepath.Join(e.tmp, "cache")
	in := invocation{e: e, env: []string{"XDG_CACHE_HOME=" + cache}, args: []string{"eval", "--model", "mock", "--no-session", "fix the bug"},
		prepare: func() {
			e.demo()
			if err := os.RemoveAll(cache); err != nil {
				b.Fatal(err)
			}
		}}
	in.measure(b)
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
		invocation{e: e, args: []string{"eval", "--model", m, "--session", name, "hi"}}.once(b, nil)
		one := size(name)
		invocation{e: e, args: []string{"eval", "--model", m, "--session", name, "hi again"}}.once(b, nil)
		simple = size(name) - one
		e.demo()
		invocation{e: e, args: []string{"eval", "--model", "mock", "--session", name + "-t", "fix the bug"}}.once(b, nil)
		tools = size(name + "-t")
	}
	b.ReportMetric(float64(simple), "bytes/simple-turn")
	b.ReportMetric(float64(tools), "bytes/tool-turn")
}

// BenchmarkEvalHugeAnswer is one long answer: a loopback Messages API
// stream of text deltas of 4,000 bytes, printed and recorded in a session.
// 6MB is 1,500 deltas (6 MB of text in a 6.2 MB body, under the 8 MiB
// bound on one response); its peak RSS is what a long answer costs in
// copies: the decoded text, the recorded exchange in the effect journal,
// the session entry. 64MiB is 16,800 deltas, cut at the bound: the run
// ends with the truncated answer recorded (exit 1), and its peak is the
// most one response can cost.
func BenchmarkEvalHugeAnswer(b *testing.B) {
	for _, bc := range []struct {
		name   string
		deltas int
		exit   int
	}{{"6MB", 1500, 0}, {"64MiB", 16800, exitFailure}} {
		b.Run(bc.name, func(b *testing.B) { hugeAnswer(b, bc.deltas, bc.exit) })
	}
}

func hugeAnswer(b *testing.B, deltas, exit int) {
	e := newEnv(b)
	var body strings.Builder
	body.WriteString(sseEvent("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":5,"output_tokens":1}}}`))
	body.WriteString(sseEvent("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`))
	delta := sseEvent("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+strings.Repeat("long answer ", 333)+`long\n"}}`)
	for range deltas {
		body.WriteString(delta)
	}
	body.WriteString(sseEvent("content_block_stop", `{"type":"content_block_stop","index":0}`))
	body.WriteString(sseEvent("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1500000}}`))
	body.WriteString(sseEvent("message_stop", `{"type":"message_stop"}`))
	reply := body.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, reply)
	}))
	b.Cleanup(srv.Close)
	env := []string{"ANTHROPIC_API_KEY=sk-bench", "ANTHROPIC_BASE_URL=" + srv.URL}
	in := invocation{e: e, env: env, exit: exit, args: []string{"eval", "--model", "anthropic/claude-loopback", "Write at length."}}
	in.once(b, nil) // fill the cache
	in.measure(b)
}
