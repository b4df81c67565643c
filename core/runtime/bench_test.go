package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/protocol"
)

// BenchmarkOpen is runtime.Open alone: the configuration read and the
// background plugin load started (a warm cache: registrations read from
// disk), then Close, which waits for the load and the tools' compile from
// the cache.
func BenchmarkOpen(b *testing.B) {
	w := newWorld(&testing.T{})
	arts := systemPlugins(b)
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: arts, LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	warm, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	_ = warm.Close(context.Background())
	b.Run("open", func(b *testing.B) {
		for range b.N {
			rt, err := Open(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			_ = rt.Close(context.Background())
			b.StartTimer()
		}
	})
	b.Run("open-and-close", func(b *testing.B) {
		for range b.N {
			rt, err := Open(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			_ = rt.Close(context.Background())
		}
	})
}

// BenchmarkMockTurn is a whole tool-using turn in process: Open, a new
// ephemeral session, the mock's read of a file through the tools plugin,
// its answer, Close.
func BenchmarkMockTurn(b *testing.B) {
	t := &testing.T{}
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: systemPlugins(b), Ephemeral: true, Flags: map[string]string{"model": "mock/read.mock.json"},
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	turn := func() { benchTurn(b, cfg, "What does hello.txt say?", nil) }
	turn()
	b.ResetTimer()
	for range b.N {
		turn()
	}
}

// BenchmarkHandlerTurn is BenchmarkMockTurn with one event-handler
// plugin deciding the turn's tool call: the permission policy in mode ask
// with --yes, so the permissions plugin is called for the read and lets
// it run. Its ratio to BenchmarkMockTurn is a handler plugin's cost per
// turn.
func BenchmarkHandlerTurn(b *testing.B) {
	t := &testing.T{}
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: systemPlugins(b), Ephemeral: true,
		Flags:     map[string]string{"model": "mock/read.mock.json", "permission-mode": "ask", "yes": "true"},
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	turn := func() { benchTurn(b, cfg, "What does hello.txt say?", nil) }
	turn()
	b.ResetTimer()
	for range b.N {
		turn()
	}
}

// BenchmarkBashTurn is BenchmarkMockTurn with a bash call instead of a
// read, in the default sandbox (workspace-write) and without one: the
// difference is the sandbox's cost per command.
func BenchmarkBashTurn(b *testing.B) {
	for _, mode := range []string{"workspace-write", "off"} {
		b.Run(mode, func(b *testing.B) {
			t := &testing.T{}
			w := newWorld(t)
			w.write("bash.mock.json", `{"mock_script":1,"responses":[
				{"tool_calls":[{"id":"call_1","name":"bash","arguments":{"command":"echo hi > out.txt"}}]},
				{"text":"Done."}]}`)
			cfg := Config{Cwd: w.project, Home: w.home, Plugins: systemPlugins(b), Ephemeral: true,
				Flags:     map[string]string{"model": "mock/bash.mock.json", "sandbox": mode},
				LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
			turn := func() { benchTurn(b, cfg, "Write out.txt", nil) }
			turn()
			b.ResetTimer()
			for range b.N {
				turn()
			}
		})
	}
}

// BenchmarkFirstRequest is Open to the arrival of the first provider
// request at a loopback server speaking the Anthropic Messages API, in
// process, compiled code and registrations cached: configuration, catalog,
// routing, credentials, the generation, a new ephemeral session, the
// system prompt and the instruction reads, the codec's request template.
func BenchmarkFirstRequest(b *testing.B) {
	t := &testing.T{}
	srv := newMessagesServer(t, 0)
	defer srv.Close()
	arrived := make(chan time.Time, 1)
	inner := srv.Config.Handler
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- time.Now():
		default:
		}
		inner.ServeHTTP(w, r)
	})
	w := newWorld(t)
	w.env["ANTHROPIC_API_KEY"] = "sk-bench"
	w.config(`provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: systemPlugins(b), Ephemeral: true, Flags: map[string]string{"model": "anthropic/claude-sonnet-4-5"},
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
	turn := func() time.Duration {
		start := time.Now()
		var at time.Time
		benchTurn(b, cfg, "hi", func() { at = <-arrived })
		return at.Sub(start)
	}
	turn()
	var total time.Duration
	b.ResetTimer()
	for range b.N {
		total += turn()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-first-request")
}

// benchTurn opens a runtime on cfg, submits text to a new session, calls
// during (when not nil) while the run goes on, waits for the run to settle
// and closes the runtime.
func benchTurn(b *testing.B, cfg Config, text string, during func()) {
	rt, err := Open(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	s, err := rt.NewSession(context.Background(), NewSessionOptions{})
	if err != nil {
		b.Fatal(err)
	}
	sub := s.Subscribe()
	if err := s.Submit(context.Background(), promptText(text)); err != nil {
		b.Fatal(err)
	}
	if during != nil {
		during()
	}
	for ev := range sub.Events() {
		if _, ok := ev.(protocol.Settled); ok {
			break
		}
	}
	if err := rt.Close(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReload is Runtime.Reload of a generation of three plugins
// (tools, product, the Anthropic codec) with an idle session bound to
// it: discovery, the load of the new generation (registrations cached,
// as at a warm start), the publication, the session's release of the old
// one and its close.
func BenchmarkReload(b *testing.B) {
	t := &testing.T{}
	w := newWorld(t)
	var three []plugin.Artifact
	for _, a := range systemPlugins(b) {
		if a.Name == "tools" || a.Name == "product" || a.Name == "providers-anthropic" {
			three = append(three, a)
		}
	}
	cfg := Config{Cwd: w.project, Home: w.home, Plugins: three, Ephemeral: true, Flags: map[string]string{"model": "mock"},
		LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok },
		Discover:  func(context.Context) ([]plugin.Artifact, []string, error) { return three, nil, nil }}
	ctx := context.Background()
	rt, err := Open(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close(ctx)
	s, err := rt.NewSession(ctx, NewSessionOptions{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.RunCommand(ctx, protocol.RunCommandParams{Name: "init"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := rt.Reload(ctx); err != nil {
			b.Fatal(err)
		}
		// The session binds the new generation, as its next run would.
		if _, err := s.RunCommand(ctx, protocol.RunCommandParams{Name: "init"}); err != nil {
			b.Fatal(err)
		}
	}
}

// shoutScript calls the user plugin's tool, then answers.
const shoutScript = `{"mock_script":1,"responses":[
	{"tool_calls":[{"id":"call_1","name":"shout","arguments":{"text":"hi"}}]},
	{"text":"It says HI."}]}`

// BenchmarkUserToolTurn is BenchmarkMockTurn's whole turn with one user
// plugin loaded beside the system plugins (core/pluginpkg's Go test
// plugin, shout, built with the standard toolchain): "builtin" calls the
// tools plugin's read, "user" the user plugin's shout. Their ratio is what
// one user tool costs a turn (a Go module instantiates in milliseconds,
// the Rust tools plugin in microseconds).
func BenchmarkUserToolTurn(b *testing.B) {
	t := &testing.T{}
	w := newWorld(t)
	w.write("hello.txt", "hi\n")
	w.write("read.mock.json", readScript)
	w.write("shout.mock.json", shoutScript)
	wasm := filepath.Join(b.TempDir(), "shout.wasm")
	build := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", wasm, "../pluginpkg/testdata/shout")
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the shout plugin: %v\n%s", err, out)
	}
	bytes, err := os.ReadFile(wasm)
	if err != nil {
		b.Fatal(err)
	}
	sum := sha256.Sum256(bytes)
	arts := append(systemPlugins(b), plugin.Artifact{Name: "shout", Wasm: bytes, SHA256: hex.EncodeToString(sum[:])})
	for _, tc := range []struct{ name, script string }{{"builtin", "read.mock.json"}, {"user", "shout.mock.json"}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := Config{Cwd: w.project, Home: w.home, Plugins: arts, Ephemeral: true, Flags: map[string]string{"model": "mock/" + tc.script},
				LookupEnv: func(k string) (string, bool) { v, ok := w.env[k]; return v, ok }}
			turn := func() { benchTurn(b, cfg, "Go.", nil) }
			turn()
			b.ResetTimer()
			for range b.N {
				turn()
			}
		})
	}
}
