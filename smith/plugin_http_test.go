package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fetchWasm builds core/plugin's netguest (a tool "fetch" that sends the
// request its arguments describe through the http capability).
func fetchWasm(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "fetch.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "../core/plugin/testdata/netguest")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the fetch plugin: %v\n%s", err, msg)
	}
	return out
}

// TestPluginHTTPSecret: a user plugin granted http and a registered secret
// sends the secret's plaintext in the request header where it wrote the
// reference, while the model, the session file and the output see only
// the reference; a plugin not granted the secret sends the reference as
// written.
func TestPluginHTTPSecret(t *testing.T) {
	const value = "tok-9f8e7d6c5b4a39281706"
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprintf(w, "echo %s", r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	wasm := fetchWasm(t)
	tests := []struct {
		name   string
		grant  []string
		server string
	}{
		{name: "granted", grant: []string{"--secret", "API_TOKEN"}, server: "Bearer " + value},
		{name: "not granted", server: "Bearer ${secret:API_TOKEN}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.mustRun(value+"\n", "secret", "add", "API_TOKEN")
			args := append([]string{"plugin", "install", "--name", "fetcher", "--capability", "http", "--capability", "log", "--allow", srv.URL + "/v1"}, tt.grant...)
			r := e.mustRun("", append(args, wasm)...)
			if len(tt.grant) > 0 && !strings.Contains(r.stdout, "secrets      API_TOKEN") {
				t.Errorf("install does not show the secret granted:\n%s", r.stdout)
			}
			model := e.script("f.mock.json", `{"mock_script":1,"responses":[{"tool_calls":[{"id":"c1","name":"fetch","arguments":{"url":"`+srv.URL+`/v1/x","headers":{"Authorization":"Bearer ${secret:API_TOKEN}"}}}]},{"text":"done"}]}`)
			r = e.mustRun("", "eval", "--model", model, "-s", "f", "fetch it")
			mu.Lock()
			got := seen[len(seen)-1]
			mu.Unlock()
			if got != tt.server {
				t.Fatalf("the server saw Authorization %q, want %q\n%s%s", got, tt.server, r.stdout, r.stderr)
			}
			sess, err := os.ReadFile(e.sessionInfo("f").Path)
			if err != nil {
				t.Fatal(err)
			}
			for where, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "session": string(sess)} {
				if strings.Contains(text, value) {
					t.Errorf("the %s holds the secret's plaintext", where)
				}
			}
			if !strings.Contains(r.stdout, "echo Bearer ${secret:API_TOKEN}") {
				t.Errorf("the tool's result does not show the echoed reference:\n%s", r.stdout)
			}
		})
	}
}
