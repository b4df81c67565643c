package plugin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/hostops"
	"github.com/smith-agent/smith/core/internal/pluginabi"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
)

// netGuestDir is the test tool plugin using the log and http capabilities.
const netGuestDir = "./testdata/netguest"

// The secret the tests register, and one the plugin may not receive.
const (
	tokenName  = "API_TOKEN"
	tokenValue = "tok-5up3r-s3cr3t-value"
	otherName  = "OTHER_KEY"
	otherValue = "other-k3y-never-sent"
)

var (
	netOnce   sync.Once
	netWasm   []byte
	netErr    error
	netShared struct {
		once sync.Once
		srv  *server
		log  *lockedBuffer
		host *Host
		gen  *Generation
		err  error
	}
)

// netGuest builds the netguest plugin once per test binary.
func netGuest(tb testing.TB) []byte {
	tb.Helper()
	netOnce.Do(func() {
		dir, err := os.MkdirTemp("", "plugin-netguest-")
		if err != nil {
			netErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "netguest.wasm")
		cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, netGuestDir)
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			netErr = errors.New("go build " + netGuestDir + ": " + err.Error() + "\n" + string(msg))
			return
		}
		netWasm, netErr = os.ReadFile(out)
	})
	if netErr != nil {
		tb.Fatal(netErr)
	}
	return netWasm
}

// netArtifact is the netguest plugin named "net" with grants and network.
func netArtifact(tb testing.TB, network []string, grants ...string) Artifact {
	b := netGuest(tb)
	sum := sha256.Sum256(b)
	return Artifact{Name: "net", Wasm: b, SHA256: hex.EncodeToString(sum[:]), Grants: grants, Network: network}
}

// lockedBuffer is a log safe to read while plugins write it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// server is the loopback server of the http tests; it counts every
// request it receives.
type server struct {
	*httptest.Server
	hits atomic.Int64
	mu   sync.Mutex
	auth []string // the Authorization values received
}

func newServer() *server {
	s := &server{}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/echo", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.mu.Unlock()
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		fmt.Fprintf(w, "%s %s auth=%s", r.Method, r.URL.Path, r.Header.Get("Authorization"))
	})
	mux.HandleFunc("/v1/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	mux.HandleFunc("/v1/big", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(bytes.Repeat([]byte("x"), 1000))
	})
	mux.HandleFunc("/v1/chunked", func(w http.ResponseWriter, r *http.Request) {
		for range 10 {
			_, _ = w.Write(bytes.Repeat([]byte("y"), 100))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/v1/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/echo", http.StatusFound)
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		mux.ServeHTTP(w, r)
	}))
	return s
}

// netSetup is one Host and Generation with the netguest plugin granted
// log and http over the server's /v1, shared by the tests; the server
// stops when the test binary's other resources do.
func netSetup(tb testing.TB) (*server, *lockedBuffer, *Generation) {
	tb.Helper()
	a := netArtifact(tb, nil, "log", "http")
	n := &netShared
	n.once.Do(func() {
		n.srv = newServer()
		n.log = &lockedBuffer{}
		a.Network = []string{n.srv.URL + "/v1"}
		dir, err := os.MkdirTemp("", "plugin-net-cache-")
		if err != nil {
			n.err = err
			return
		}
		a.Secrets = []string{tokenName}
		n.host, n.err = Open(context.Background(), Config{CacheDir: dir, Log: n.log})
		if n.err != nil {
			return
		}
		n.gen, n.err = n.host.Load(context.Background(), []Artifact{a})
	})
	if n.err != nil {
		tb.Fatal(n.err)
	}
	return n.srv, n.log, n.gen
}

// secrets is a set with the two test secrets.
func secrets(tb testing.TB) *secret.Set {
	tb.Helper()
	s := &secret.Set{}
	for _, sec := range []secret.Secret{{Name: tokenName, Source: "test", Value: tokenValue}, {Name: otherName, Source: "test", Value: otherValue}} {
		if err := s.Add(sec); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// fetchResult is the netguest tool's output.
type fetchResult struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Fault   string            `json:"fault"`
	Detail  string            `json:"detail"`
}

// fetch calls the netguest's tool with args and decodes its output.
func fetch(tb testing.TB, w *bench, args any) (fetchResult, model.Mutation) {
	tb.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		tb.Fatal(err)
	}
	res, text, err := w.call(context.Background(), tb, "fetch", string(b))
	if err != nil || res.IsError {
		tb.Fatalf("fetch %s: %v %q", b, err, text)
	}
	var r fetchResult
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		tb.Fatalf("fetch output %q: %v", text, err)
	}
	return r, res.Mutation
}

// httpEffects returns the journal's http.request effects.
func httpEffects(tb testing.TB, w *bench) []effect.Done {
	tb.Helper()
	j, _, err := effect.Open(context.Background(), w.store, effect.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	done, err := j.Completed(context.Background(), "http.request")
	if err != nil {
		tb.Fatal(err)
	}
	return done
}

// TestHTTPInScope: a request inside the scope reaches the server, its
// response comes back, and the exchange is one journaled effect attributed
// to the tool call with the method, URL, header names and sizes.
func TestHTTPInScope(t *testing.T) {
	srv, _, g := netSetup(t)
	w := newBench(t, g, Effects{})
	before := srv.hits.Load()
	tests := []struct {
		name, method, path string
		body               string
		wantStatus         int
		wantBody           string
	}{
		{name: "get", method: "GET", path: "/v1/echo", wantStatus: 200, wantBody: "GET /v1/echo auth="},
		{name: "post", method: "POST", path: "/v1/echo", body: "payload", wantStatus: 200, wantBody: "POST /v1/echo auth="},
		{name: "redirect-not-followed", method: "GET", path: "/v1/redirect", wantStatus: 302},
		{name: "chunked", method: "GET", path: "/v1/chunked", wantStatus: 200, wantBody: strings.Repeat("y", 1000)},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := fetch(t, w, map[string]any{"method": tt.method, "url": srv.URL + tt.path, "body": tt.body,
				"headers": map[string]string{"X-Trace": "trace-value"}})
			if r.Fault != "" || r.Status != tt.wantStatus || !strings.HasPrefix(r.Body, tt.wantBody) {
				t.Fatalf("result %+v; want status %d and body %q", r, tt.wantStatus, tt.wantBody)
			}
			if tt.wantStatus == 302 && r.Headers["location"] != "/v1/echo" {
				t.Errorf("redirect Location = %q", r.Headers["location"])
			}
			done := httpEffects(t, w)
			if len(done) != i+1 {
				t.Fatalf("journal holds %d http.request effects; want %d", len(done), i+1)
			}
			d := done[i]
			var in httpInput
			if err := json.Unmarshal(d.Intent.Input, &in); err != nil {
				t.Fatal(err)
			}
			if in.Method != tt.method || in.URL != srv.URL+tt.path || in.BodyBytes != len(tt.body) || len(in.HeaderNames) != 1 || in.HeaderNames[0] != "X-Trace" {
				t.Errorf("intent input %+v", in)
			}
			if strings.Contains(string(d.Intent.Input), "trace-value") {
				t.Errorf("intent input %s records a header value", d.Intent.Input)
			}
			if !strings.HasPrefix(d.Intent.Parent, "call_") || d.Intent.Generation != g.ID() {
				t.Errorf("intent parent %q generation %d; want the tool call and generation %d", d.Intent.Parent, d.Intent.Generation, g.ID())
			}
			var out httpOutput
			if err := json.Unmarshal(d.Completion.Output, &out); err != nil || out.Status != tt.wantStatus || out.BodyBytes != int64(len(r.Body)) {
				t.Errorf("completion %+v (%v); want status %d and %d body bytes", d.Completion, err, tt.wantStatus, len(r.Body))
			}
			if d.Completion.Mutation != model.MutationApplied {
				t.Errorf("completion mutation %q; want applied", d.Completion.Mutation)
			}
		})
	}
	if got := srv.hits.Load() - before; got != int64(len(tests)) {
		t.Errorf("server saw %d requests; want %d (a redirect is not followed)", got, len(tests))
	}
}

// TestHTTPScopeDenied: a URL outside the scope, however it is disguised,
// is scope-denied before any connection: the server sees nothing and
// nothing is journaled.
func TestHTTPScopeDenied(t *testing.T) {
	srv, _, g := netSetup(t)
	w := newBench(t, g, Effects{})
	u, _ := url.Parse(srv.URL)
	port := u.Port()
	before := srv.hits.Load()
	tests := []struct{ name, url string }{
		{name: "sibling-prefix", url: srv.URL + "/v10/echo"},
		{name: "outside-path", url: srv.URL + "/admin"},
		{name: "root", url: srv.URL},
		{name: "dot-dot", url: srv.URL + "/v1/../admin"},
		{name: "encoded-dot-dot", url: srv.URL + "/v1/%2e%2e/admin"},
		{name: "encoded-slash-dot-dot", url: srv.URL + "/v1%2F..%2Fadmin"},
		{name: "backslash", url: srv.URL + `/v1\..\admin`},
		{name: "other-port", url: "http://127.0.0.1:1/v1/echo"},
		{name: "other-host-name", url: "http://localhost:" + port + "/v1/echo"},
		{name: "other-scheme", url: "https://127.0.0.1:" + port + "/v1/echo"},
		{name: "user-info", url: "http://evil@127.0.0.1:" + port + "/v1/echo"},
		{name: "host-suffix", url: "http://127.0.0.1.evil:" + port + "/v1/echo"},
		{name: "remote-plain-http", url: "http://example.com/v1/echo"},
		{name: "not-http", url: "ftp://127.0.0.1:" + port + "/v1/echo"},
		{name: "relative", url: "/v1/echo"},
		{name: "empty", url: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"url": tt.url}
			if tt.url == "" {
				args["url"] = " " // the guest sends only a non-empty URL
			}
			r, _ := fetch(t, w, args)
			if r.Fault != "scope-denied" {
				t.Errorf("result %+v; want a scope-denied fault", r)
			}
		})
	}
	if got := srv.hits.Load() - before; got != 0 {
		t.Errorf("server saw %d requests; want none", got)
	}
	if done := httpEffects(t, w); len(done) != 0 {
		t.Errorf("journal holds %d http.request effects; want none", len(done))
	}
}

// TestHTTPBounds: the timeout and the body limit are enforced as faults,
// and each exchange is still journaled.
func TestHTTPBounds(t *testing.T) {
	srv, _, g := netSetup(t)
	w := newBench(t, g, Effects{})
	tests := []struct {
		name      string
		args      map[string]any
		fault     string
		wantError string
	}{
		{name: "timeout", args: map[string]any{"url": srv.URL + "/v1/slow", "timeout_ms": 100}, fault: "timeout", wantError: "timeout: 100"},
		{name: "too-large-content-length", args: map[string]any{"url": srv.URL + "/v1/big", "body_limit": 100}, fault: "too-large", wantError: "too-large: 100"},
		{name: "too-large-chunked", args: map[string]any{"url": srv.URL + "/v1/chunked", "body_limit": 150}, fault: "too-large", wantError: "too-large: 150"},
		{name: "transport", args: map[string]any{"url": srv.URL + "/v1/echo", "headers": map[string]string{"Bad Name": "x"}}, fault: "transport"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r, _ := fetch(t, w, tt.args)
			if r.Fault != tt.fault || !strings.Contains(r.Detail, tt.wantError) {
				t.Fatalf("result %+v; want a %s fault saying %q", r, tt.fault, tt.wantError)
			}
			if tt.fault == "timeout" && time.Since(start) > 3*time.Second {
				t.Errorf("the timeout took %v", time.Since(start))
			}
			done := httpEffects(t, w)
			if len(done) != i+1 || done[i].Completion.Error == "" {
				t.Errorf("journal holds %+v; want %d effects, the last failed", done, i+1)
			}
		})
	}
}

// TestHTTPCallDeadline: the default timeout is cut to the call's
// deadline, and a read-only scope (prompts) may not send requests.
func TestHTTPCallDeadline(t *testing.T) {
	srv, _, g := netSetup(t)
	w := newBench(t, g, Effects{})
	n, err := newNetHost(g.host, g.plugins[0].art)
	if err != nil {
		t.Fatal(err)
	}
	inv := hostops.Invocation{Cwd: w.root, CallID: "call_deadline", Generation: g.ID()}
	tests := []struct {
		name     string
		readOnly bool
		want     pluginabi.HTTPFaultCase
	}{
		{name: "deadline", want: pluginabi.HTTPFaultTimeout},
		{name: "read-only", readOnly: true, want: pluginabi.HTTPFaultUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			ctx = context.WithValue(hostops.WithInvocation(ctx, inv), callKey{}, &callState{ops: w.b.ops, readOnly: tt.readOnly})
			start := time.Now()
			_, err := n.SendRequest(ctx, pluginabi.Request{Method: "GET", URL: srv.URL + "/v1/slow"}, pluginabi.SendOptions{})
			var f pluginabi.HTTPFault
			if !errors.As(err, &f) || f.Case != tt.want {
				t.Fatalf("SendRequest = %v; want a %s fault", err, tt.want)
			}
			if f.Case == pluginabi.HTTPFaultTimeout && (f.Timeout > 200 || time.Since(start) > 3*time.Second) {
				t.Errorf("timeout fault %d ms after %v; want at most the call's 200 ms", f.Timeout, time.Since(start))
			}
		})
	}
}

// TestHTTPSecrets: an allowed secret reference in a header reaches the
// server as plaintext, while the response the guest gets, the tool's
// result and the journal carry only the reference; a reference the
// plugin may not receive is sent as written.
func TestHTTPSecrets(t *testing.T) {
	srv, _, g := netSetup(t)
	w := newBench(t, g, Effects{Secrets: secrets(t)})
	tests := []struct {
		name, header, wantServer, wantEcho string
	}{
		{name: "allowed", header: "Bearer ${secret:" + tokenName + "}", wantServer: "Bearer " + tokenValue, wantEcho: "Bearer ${secret:" + tokenName + "}"},
		{name: "not-allowed", header: "Bearer ${secret:" + otherName + "}", wantServer: "Bearer ${secret:" + otherName + "}", wantEcho: "Bearer ${secret:" + otherName + "}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := fetch(t, w, map[string]any{"url": srv.URL + "/v1/echo", "headers": map[string]string{"Authorization": tt.header}})
			srv.mu.Lock()
			got := srv.auth[len(srv.auth)-1]
			srv.mu.Unlock()
			if got != tt.wantServer {
				t.Errorf("server saw Authorization %q; want %q", got, tt.wantServer)
			}
			if r.Body != "GET /v1/echo auth="+tt.wantEcho || r.Headers["x-echo"] != tt.wantEcho {
				t.Errorf("guest got body %q and X-Echo %q; want the reference %q", r.Body, r.Headers["x-echo"], tt.wantEcho)
			}
		})
	}
	recs, _ := w.store.Records(context.Background())
	b, _ := json.Marshal(recs)
	if bytes.Contains(b, []byte(tokenValue)) || bytes.Contains(b, []byte(otherValue)) {
		t.Errorf("the journal holds a secret's plaintext: %s", b)
	}
	done := httpEffects(t, w)
	var in httpInput
	if len(done) != 2 || json.Unmarshal(done[0].Intent.Input, &in) != nil || len(in.Secrets) != 1 || in.Secrets[0] != tokenName {
		t.Errorf("journal %+v; want the first exchange to name the restored secret %s", done, tokenName)
	}
}

// TestLogCapability: records reach the log one line each, with the
// plugin's name and level, escapes neutralised, secrets redacted, long
// messages cut, and at most LogRecordsPerCall records per call.
func TestLogCapability(t *testing.T) {
	_, log, g := netSetup(t)
	w := newBench(t, g, Effects{Secrets: secrets(t)})
	tests := []struct {
		name    string
		logs    []map[string]any
		want    []string
		notWant []string
		lines   int
	}{
		{name: "levels", logs: []map[string]any{{"level": "debug", "message": "m-debug"}, {"level": "warning", "message": "m-warn"}, {"level": "unknown", "message": "m-unknown"}},
			want: []string{"plugin net: debug: m-debug\n", "plugin net: warning: m-warn\n", "plugin net: info: m-unknown\n"}, lines: 3},
		{name: "escapes", logs: []map[string]any{{"level": "error", "message": "m-esc \x1b[31mred\x1b[0m\nplugin other: error: forged\r\u202e\u0085\x7f"}},
			want:    []string{`plugin net: error: m-esc \x1b[31mred\x1b[0m\nplugin other: error: forged\r\u202e\x85\x7f` + "\n"},
			notWant: []string{"\x1b", "\nplugin other", "\u202e"}, lines: 1},
		{name: "secret", logs: []map[string]any{{"level": "info", "message": "m-secret " + tokenValue}},
			want: []string{"plugin net: info: m-secret ${secret:" + tokenName + "}\n"}, notWant: []string{tokenValue}, lines: 1},
		{name: "long", logs: []map[string]any{{"level": "info", "message": "m-long " + strings.Repeat("z", 10000)}},
			want: []string{fmt.Sprintf(" [%d more bytes cut]\n", 10007-LogMessageBytes)}, lines: 1},
		{name: "budget", logs: []map[string]any{{"level": "info", "message": "m-many", "repeat": 300}},
			want: []string{"plugin net: warning: log budget exhausted"}, lines: LogRecordsPerCall + 1},
		{name: "budget-bytes", logs: []map[string]any{{"level": "info", "message": "m-big " + strings.Repeat("b", 4000), "repeat": 100}},
			want: []string{"plugin net: warning: log budget exhausted"}, lines: LogBytesPerCall/len("plugin net: info: m-big \n"+strings.Repeat("b", 4000)) + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := len(log.String())
			fetch(t, w, map[string]any{"logs": tt.logs})
			got := log.String()[start:]
			for _, s := range tt.want {
				if !strings.Contains(got, s) {
					t.Errorf("log %q lacks %q", got, s)
				}
			}
			for _, s := range tt.notWant {
				if strings.Contains(got, s) {
					t.Errorf("log %q holds %q", got, s)
				}
			}
			if n := strings.Count(got, "\n"); n != tt.lines {
				t.Errorf("log has %d lines; want %d", n, tt.lines)
			}
			for line := range strings.SplitSeq(strings.TrimSuffix(got, "\n"), "\n") {
				if len(line) > LogMessageBytes+100 {
					t.Errorf("log line of %d bytes", len(line))
				}
			}
		})
	}
}

// TestUngrantedCapabilityRefused: the netguest imports http; granted only
// log it is refused before any of its code runs.
func TestUngrantedCapabilityRefused(t *testing.T) {
	h, err := Open(context.Background(), Config{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	tests := []struct {
		name    string
		art     Artifact
		want    []string
		success bool
	}{
		{name: "http-ungranted", art: netArtifact(t, nil, "log"), want: []string{`"smith:plugin/http@0.0.0"`, "not granted"}},
		{name: "log-ungranted", art: netArtifact(t, []string{"https://api.example.com"}, "http"), want: []string{`"smith:plugin/log@0.0.0"`, "not granted"}},
		{name: "bad-scope", art: netArtifact(t, []string{"http://example.com/v1"}, "log", "http"), want: []string{`network scope "http://example.com/v1"`, "plain http"}},
		{name: "scope-with-query", art: netArtifact(t, []string{"https://api.example.com/v1?key=x"}, "log", "http"), want: []string{"query"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := h.Load(context.Background(), []Artifact{tt.art})
			if err == nil {
				g.Close()
				t.Fatal("Load succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestScopeAdmits checks the scope comparison on its own.
func TestScopeAdmits(t *testing.T) {
	tests := []struct {
		name, scope, url string
		want             bool
	}{
		{name: "exact", scope: "https://api.example.com/v1", url: "https://api.example.com/v1", want: true},
		{name: "trailing-slash", scope: "https://api.example.com/v1", url: "https://api.example.com/v1/", want: true},
		{name: "beneath", scope: "https://api.example.com/v1", url: "https://api.example.com/v1/models?x=1", want: true},
		{name: "scope-trailing-slash", scope: "https://api.example.com/v1/", url: "https://api.example.com/v1/models", want: true},
		{name: "default-port", scope: "https://api.example.com/v1", url: "https://api.example.com:443/v1/x", want: true},
		{name: "host-case", scope: "https://API.example.com/v1", url: "https://api.EXAMPLE.com/v1/x", want: true},
		{name: "origin-scope", scope: "https://api.example.com", url: "https://api.example.com/anything", want: true},
		{name: "loopback-http", scope: "http://127.0.0.1:8080/", url: "http://127.0.0.1:8080/x", want: true},
		{name: "sibling", scope: "https://api.example.com/v1", url: "https://api.example.com/v10"},
		{name: "host-suffix", scope: "https://api.example.com/v1", url: "https://api.example.com.evil/v1"},
		{name: "host-trailing-dot", scope: "https://api.example.com/v1", url: "https://api.example.com./v1"},
		{name: "user-info-trick", scope: "https://api.example.com/v1", url: "https://api.example.com@evil.example/v1"},
		{name: "other-port", scope: "https://api.example.com/v1", url: "https://api.example.com:8443/v1"},
		{name: "downgrade", scope: "https://api.example.com/v1", url: "http://api.example.com/v1"},
		{name: "dot-dot", scope: "https://api.example.com/v1", url: "https://api.example.com/v1/../admin"},
		{name: "path-case", scope: "https://api.example.com/v1", url: "https://api.example.com/V1"},
		{name: "fragment-trick", scope: "https://api.example.com/v1", url: "https://evil.example#api.example.com/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, why := parseScope(tt.scope)
			if why != "" {
				t.Fatalf("scope %q: %s", tt.scope, why)
			}
			n := &netHost{scopes: []netScope{s}}
			if _, got := n.admit(tt.url); got != tt.want {
				t.Errorf("scope %q admits %q = %v; want %v", tt.scope, tt.url, got, tt.want)
			}
		})
	}
}

// TestSanitize checks the log's escaping and cutting.
func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in string
		limit    int
		want     string
		cut      int
	}{
		{name: "plain", in: "hello", limit: 10, want: "hello"},
		{name: "controls", in: "a\x1b[2Jb\x00\t", limit: 100, want: `a\x1b[2Jb\x00\t`},
		{name: "c1-and-bidi", in: "\u009b\u202e\u2028x", limit: 100, want: `\x9b\u202e\u2028x`},
		{name: "invalid-utf8", in: "a\xffb", limit: 100, want: "a\uFFFDb"},
		{name: "cut-on-rune", in: "ééé", limit: 5, want: "éé", cut: 2},
		{name: "cut-inside-escape", in: "ab\x1b", limit: 4, want: "ab", cut: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := sanitize(tt.in, tt.limit)
			if got != tt.want || cut != tt.cut {
				t.Errorf("sanitize(%q, %d) = %q, %d; want %q, %d", tt.in, tt.limit, got, cut, tt.want, tt.cut)
			}
		})
	}
}

// BenchmarkHTTPSendRequest is one in-scope GET on loopback: through the
// plugin (a tool call whose guest sends it) and through the host import
// alone (journal, scope check, engine, redaction).
func BenchmarkHTTPSendRequest(b *testing.B) {
	srv, _, g := netSetup(b)
	w := newBench(b, g, Effects{Secrets: secrets(b)})
	args, _ := json.Marshal(map[string]any{"url": srv.URL + "/v1/echo"})
	b.Run("tool-call", func(b *testing.B) {
		for b.Loop() {
			res, text, err := w.call(context.Background(), b, "fetch", string(args))
			if err != nil || res.IsError || !strings.Contains(text, `"status":200`) {
				b.Fatalf("%v %q", err, text)
			}
		}
	})
	b.Run("host-import", func(b *testing.B) {
		n, err := newNetHost(g.host, g.plugins[0].art)
		if err != nil {
			b.Fatal(err)
		}
		st := &callState{ops: w.b.ops}
		ctx := context.WithValue(hostops.WithInvocation(context.Background(), hostops.Invocation{Cwd: w.root, CallID: "call_bench", Generation: g.ID()}), callKey{}, st)
		req := pluginabi.Request{Method: "GET", URL: srv.URL + "/v1/echo"}
		for b.Loop() {
			r, err := n.SendRequest(ctx, req, pluginabi.SendOptions{})
			if err != nil || r.Status != 200 {
				b.Fatal(err)
			}
		}
	})
}
