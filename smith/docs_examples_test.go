package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The examples of docs/plugins.md are built and run here, as a reader
// would: built with their own toolchain, loaded with --plugin.

// examplePackage copies the example docs/examples/name into a temp
// package directory and builds its artifact there with build (run in the
// example's own directory, writing to the path it is given).
func examplePackage(t *testing.T, name string, build func(src, out string) *exec.Cmd) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "docs", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(filepath.Join(src, "plugin.kdl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin.kdl"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	var artifact string
	for _, line := range strings.Split(string(m), "\n") {
		if a, ok := strings.CutPrefix(line, "artifact "); ok {
			artifact = strings.Trim(a, `"`)
		}
	}
	cmd := build(src, filepath.Join(dir, artifact))
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the example %s: %v\n%s", name, err, out)
	}
	return dir
}

// TestExampleWAT: the hand-written WAT plugin's tool and command.
func TestExampleWAT(t *testing.T) {
	e := newEnv(t)
	dir := examplePackage(t, "tool-wat", func(src, out string) *exec.Cmd {
		return exec.Command("wat2wasm", "tool.wat", "-o", out)
	})
	r := e.mustRun("", "--plugin", dir, "eval", "--no-session", "/wat-hello")
	if !strings.Contains(r.stdout, "/wat-hello: Hello from a plugin written in WebAssembly text.") {
		t.Fatalf("the command:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if r := e.mustRun("", "plugin", "log", "tool-wat"); !strings.HasSuffix(r.stdout, " plugin tool-wat: info: said hello\n") {
		t.Fatalf("plugin log:\n%s", r.stdout)
	}
	if r := e.mustRun("", "plugin", "log", "other"); !strings.Contains(r.stdout, "has no lines of other") {
		t.Fatalf("plugin log of another plugin:\n%s", r.stdout)
	}
	m := e.script("echo.json", `{"mock_script":1,"responses":[
 {"tool_calls":[{"id":"call_1","name":"wat_echo","arguments":{"b":"héllo","a":[1,2]}}]},
 {"text":"done"}]}`)
	for i := range 2 { // the second call reuses the instance and its freed heap
		r = e.mustRun("", "--plugin", dir, "eval", "--model", m, "--no-session", "-o", "json", "echo "+fmt.Sprint(i))
		if !strings.Contains(r.stdout, `{\"b\":\"héllo\",\"a\":[1,2]}`) {
			t.Fatalf("the tool's result:\n%s\nstderr:\n%s", r.stdout, r.stderr)
		}
	}
	if r := e.mustRun("", "plugin", "install", dir); !strings.Contains(r.stdout, "tools: wat_echo") || !strings.Contains(r.stdout, "commands: wat-hello") {
		t.Fatalf("install:\n%s", r.stdout)
	}
}

// toyServer is a loopback server of the provider example's made-up wire
// format: a tool call when the conversation has no tool result yet, then
// an answer. It records each request's body and authorization.
type toyServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	auth   []string
}

func newToyServer(t *testing.T) *toyServer {
	s := &toyServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if r.URL.Path != "/chat" || json.Unmarshal(b, &body) != nil {
			http.Error(w, "bad request "+r.URL.Path, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.bodies, s.auth = append(s.bodies, body), append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		if strings.Contains(string(b), "make it fail") {
			http.Error(w, "the toy does not know you", http.StatusUnauthorized)
			return
		}
		if !strings.Contains(string(b), `"tool_result"`) {
			fmt.Fprintln(w, `{"text":"Looking."}`)
			fmt.Fprintln(w, `{"call":{"id":"c1","name":"ls","arguments":"{}"}}`)
			fmt.Fprintln(w, `{"done":"tool_use","input":20,"output":5}`)
			return
		}
		fmt.Fprint(w, `{"text":"Hello `) // a line split across chunks
		w.(http.Flusher).Flush()
		fmt.Fprintln(w, `"}`)
		fmt.Fprintln(w, `{"text":"from toy."}`)
		fmt.Fprintln(w, `{"done":"end","input":30,"output":4}`)
	}))
	t.Cleanup(s.Close)
	return s
}

// TestExampleProvider: the Go provider example, built with the standard
// toolchain, does what checkToyProvider asks.
func TestExampleProvider(t *testing.T) {
	checkToyProvider(t, examplePackage(t, "provider-go", func(src, out string) *exec.Cmd {
		return exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	}))
}

// rustc is the Rust compiler the Rust example is built with: rustc alone,
// no cargo and no crates (Debian's, 1.63, with the wasm32-wasi target).
const rustc = "/usr/bin/rustc"

// TestExampleProviderRust: the Rust port of the provider example passes
// its own tests natively without a warning, is formatted, and does what
// checkToyProvider asks.
func TestExampleProviderRust(t *testing.T) {
	t.Run("native", func(t *testing.T) {
		tests := filepath.Join(t.TempDir(), "toy-provider-rust-tests")
		for _, args := range [][]string{
			{rustc, "--edition", "2021", "--test", "-D", "warnings", "-o", tests, "src/lib.rs"},
			{tests},
			{"/usr/bin/rustfmt", "--edition", "2021", "--check", "src/lib.rs"},
		} {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = filepath.Join("..", "docs", "examples", "provider-rust")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
			}
			if args[0] == tests && !strings.Contains(string(out), "test result: ok") {
				t.Fatalf("the example's tests:\n%s", out)
			}
		}
	})
	checkToyProvider(t, examplePackage(t, "provider-rust", func(_, out string) *exec.Cmd {
		return exec.Command(rustc, "--edition", "2021", "--crate-type", "cdylib", "--crate-name", "toy_provider_rust",
			"--target", "wasm32-wasi", "-C", "opt-level=s", "-C", "panic=abort", "-C", "strip=symbols", "-D", "warnings",
			"-o", out, "src/lib.rs")
	}))
}

// checkToyProvider runs the toy provider package dir against a loopback
// toy server: its model is in the catalog, the stored key goes as a
// bearer token, the conversation and the tools (with their schemas) go
// in the vendor's format, text and a tool call are decoded, and a 401 is
// classified as an authentication failure, not retried.
func checkToyProvider(t *testing.T, dir string) {
	e := newEnv(t)
	srv := newToyServer(t)
	e.writeConfig(`provider "toy" { base-url "` + srv.URL + `" }` + "\n")
	if r := e.mustRun("", "--plugin", dir, "models", "--provider", "toy"); !strings.Contains(r.stdout, "toy/echo-1") || !strings.Contains(r.stdout, "8192") {
		t.Fatalf("models:\n%s", r.stdout)
	}
	e.mustRun("sk-toy-test\n", "--plugin", dir, "auth", "set", "toy")
	if err := os.WriteFile(filepath.Join(e.cwd, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.mustRun("", "--plugin", dir, "eval", "--model", "toy/echo-1", "--no-session", "what is here?")
	for _, w := range []string{"Looking.", "→ ls", "notes.txt", "Hello from toy."} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("eval output lacks %q:\n%s\nstderr:\n%s", w, r.stdout, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "50 tokens in") || strings.Contains(r.stderr, "not in Smith's catalog") {
		t.Errorf("usage or catalog:\n%s", r.stderr)
	}
	srv.mu.Lock()
	if len(srv.bodies) != 2 || srv.auth[0] != "Bearer sk-toy-test" {
		t.Fatalf("requests: %d, authorization %q", len(srv.bodies), srv.auth)
	}
	second, _ := json.Marshal(srv.bodies[1])
	srv.mu.Unlock()
	for _, w := range []string{`"model":"echo-1"`, `"name":"ls"`, `"schema":{"`, `"calls":[{"arguments":"{}","id":"c1","name":"ls"}]`, `"role":"tool_result"`, `notes.txt`} {
		if !strings.Contains(string(second), w) {
			t.Errorf("the second request lacks %s:\n%s", w, second)
		}
	}
	r = e.run("", "--plugin", dir, "eval", "--model", "toy/echo-1", "--no-session", "make it fail")
	if r.code == 0 || !strings.Contains(r.stderr, "(auth)") || !strings.Contains(r.stderr, "the toy does not know you") || !strings.Contains(r.stderr, "1 attempt") {
		t.Fatalf("a 401: exit %d\n%s", r.code, r.stderr)
	}
}
