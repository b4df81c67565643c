package providers

import (
	"context"
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

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/model"
)

// testDir holds the built codec plugin and the compilation cache every test
// shares, so the plugin is compiled once per test binary.
var testDir string

func TestMain(m *testing.M) {
	var err error
	if testDir, err = os.MkdirTemp("", "smith-providers-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(testDir)
	os.Exit(code)
}

// codecWasm builds the provider codec plugin from plugins-src once.
var codecWasm = sync.OnceValues(func() ([]byte, error) {
	out := filepath.Join(testDir, "providers.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "github.com/smith-agent/smith/plugins-src/providers")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build the providers plugin: %v\n%s", err, msg)
	}
	return os.ReadFile(out)
})

// sse is a minimal Messages API stream composed from the documented event
// format: one text block "Hello from the loopback model.", then the stop.
const sse = "event: message_start\n" +
	`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":1}}}` + "\n\n" +
	"event: content_block_start\n" +
	`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello from "}}` + "\n\n" +
	"event: content_block_delta\n" +
	`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the loopback model."}}` + "\n\n" +
	"event: content_block_stop\n" +
	`data: {"type":"content_block_stop","index":0}` + "\n\n" +
	"event: message_delta\n" +
	`data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":6}}` + "\n\n" +
	"event: message_stop\n" +
	`data: {"type":"message_stop"}` + "\n\n"

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// TestOpenStreams: a provider opened from the codec plugin sends the request
// to the configured base URL with the credential from the environment, and
// decodes the streamed answer.
func TestOpenStreams(t *testing.T) {
	wasm, err := codecWasm()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var gotKey, gotPath, gotBody string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		gotKey, gotPath, gotBody = r.Header.Get("x-api-key"), r.URL.Path, string(b)
		mu.Unlock()
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, sse)
	}))
	defer srv.Close()
	ctx := context.Background()
	o, err := open(ctx, wasm, "anthropic", "claude-test", Options{
		LookupEnv: env(map[string]string{"ANTHROPIC_API_KEY": "sk-loopback-secret"}),
		Environ:   []string{"ANTHROPIC_BASE_URL=" + srv.URL},
		CacheDir:  filepath.Join(testDir, "cache"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := o.Close(ctx); err != nil {
			t.Error(err)
		}
	}()
	p, err := o.Provider(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stream(ctx, &model.Request{Model: o.Model, Messages: []model.Message{model.UserText("hi")}})
	defer s.Close()
	var text strings.Builder
	var done bool
	for ev, ok := s.Next(); ok; ev, ok = s.Next() {
		switch ev := ev.(type) {
		case model.TextDelta:
			text.WriteString(ev.Text)
		case model.Done:
			done = true
		case model.StreamError:
			t.Fatalf("stream error: %+v", ev)
		}
	}
	if !done || text.String() != "Hello from the loopback model." {
		t.Fatalf("streamed %q (done %v)", text.String(), done)
	}
	mu.Lock()
	defer mu.Unlock()
	if gotKey != "sk-loopback-secret" || !strings.HasSuffix(gotPath, "/messages") || !strings.Contains(gotBody, `"claude-test"`) {
		t.Fatalf("request: key %q, path %q, body %s", gotKey, gotPath, gotBody)
	}
}

// TestOpenErrors: a bad --model value, an undeclared provider and a missing
// credential fail before any request, naming what to fix.
func TestOpenErrors(t *testing.T) {
	wasm, err := codecWasm()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, provider string
		env            map[string]string
		want           []string
	}{
		{name: "undeclared provider", provider: "acme", want: []string{`"acme"`, "anthropic", "openai"}},
		{name: "missing credential", provider: "anthropic", env: map[string]string{}, want: []string{"anthropic", "ANTHROPIC_API_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := open(context.Background(), wasm, tt.provider, "m", Options{LookupEnv: env(tt.env), CacheDir: filepath.Join(testDir, "cache")})
			if err == nil {
				t.Fatal("opened")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
	if _, err := Open(context.Background(), "no-slash", Options{}); err == nil || !strings.Contains(err.Error(), "PROVIDER/MODEL") {
		t.Fatalf("Open(no-slash) = %v", err)
	}
}

// TestLoadEmbedded: the embedded codec plugin (instrumented at build time
// and verified against its pin) loads once, and several providers open
// from it: a declared one, a configured name served by a declared codec,
// and not a name served by a codec the plugin lacks.
func TestLoadEmbedded(t *testing.T) {
	ctx := context.Background()
	set, err := Load(ctx, filepath.Join(testDir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := set.Close(ctx); err != nil {
			t.Error(err)
		}
	}()
	d := set.Declared()
	if len(d["anthropic"]) == 0 || d["openai-compatible"] == nil || len(d["openai-compatible"]) != 0 {
		t.Fatalf("declared %v; want the openai-compatible key (optional) to be no credential variable", d)
	}
	a, err := set.Open(ctx, "anthropic", "m", Options{LookupEnv: env(map[string]string{"ANTHROPIC_API_KEY": "k"})})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := set.Open(ctx, "local", "qwen", Options{Codec: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1",
		Quirks: []byte(`{"no_strict":true}`), LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "local" || l.cfg.Name != "openai-compatible" || string(l.cfg.Quirks) != `{"no_strict":true}` {
		t.Errorf("opened %s served by %s with quirks %s", l.Name, l.cfg.Name, l.cfg.Quirks)
	}
	// The server's key is optional: a configured one is its value.
	k, err := set.Open(ctx, "local", "qwen", Options{Codec: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1", LookupEnv: env(nil),
		Credentials: map[string]auth.Explicit{"local": {Value: auth.NewSecret("sk-sendable"), Origin: "smith.kdl:3:5"}}})
	if err != nil {
		t.Fatalf("a key configured for an openai-compatible server: %v", err)
	}
	if v, err := k.cfg.Secrets("api-key?"); v != "sk-sendable" || err != nil {
		t.Errorf("the optional key resolves to %q, %v", v, err)
	}
	_, err = set.Open(ctx, "local", "qwen", Options{Codec: "nope", LookupEnv: env(nil)})
	if err == nil || !strings.Contains(err.Error(), `provider "local" is served by "nope"`) || !strings.Contains(err.Error(), "openai-compatible") {
		t.Errorf("unknown codec: %v", err)
	}
}
