package providers

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/model"
)

// chatStream is a Chat Completions stream in the documented chunk format.
const chatStream = `data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi."},"finish_reason":null}]}` + "\n\n" +
	`data: {"id":"c1","object":"chat.completion.chunk","model":"qwen3","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" +
	"data: [DONE]\n\n"

// TestOpenAICompatibleKey: a configured OpenAI-compatible server's key is
// optional. From smith.kdl (literal or a variable it names) or the auth
// file, under the server's own name, it is sent as "Authorization: Bearer";
// with none, no Authorization header is sent. No variable is read by a
// conventional name, and a configured variable that is unset fails before
// dispatch.
func TestOpenAICompatibleKey(t *testing.T) {
	wasm, err := codecWasm()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var auths [][]string // the Authorization values of each request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		auths = append(auths, r.Header.Values("Authorization"))
		mu.Unlock()
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, chatStream)
	}))
	defer srv.Close()
	file := auth.OpenFile(filepath.Join(t.TempDir(), "auth.json"))
	if err := file.Set("stored", auth.Entry{Key: auth.NewSecret("sk-from-file")}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		server   string
		account  string
		creds    map[string]auth.Explicit
		env      map[string]string
		wantAuth string   // "" means no Authorization header
		wantErr  []string // non-nil: Open fails with these
	}{
		{name: "none configured", server: "local",
			env: map[string]string{"OPENAI_API_KEY": "sk-other", "api-key?": "sk-odd", "LOCAL_API_KEY": "sk-guess"}},
		{name: "literal in smith.kdl", server: "local", wantAuth: "Bearer sk-literal",
			creds: map[string]auth.Explicit{"local": {Value: auth.NewSecret("sk-literal"), Origin: "smith.kdl:3:5"}}},
		{name: "variable named in smith.kdl", server: "local", wantAuth: "Bearer sk-from-env",
			creds: map[string]auth.Explicit{"local": {Env: "DEEPSEEK_KEY", Origin: "smith.kdl:3:5"}},
			env:   map[string]string{"DEEPSEEK_KEY": "sk-from-env"}},
		{name: "another server's key is not sent", server: "local",
			creds: map[string]auth.Explicit{"other": {Value: auth.NewSecret("sk-other-server")}}},
		{name: "auth file", server: "stored", wantAuth: "Bearer sk-from-file"},
		{name: "named variable unset", server: "local",
			creds:   map[string]auth.Explicit{"local": {Env: "DEEPSEEK_KEY", Origin: "smith.kdl:3:5"}},
			wantErr: []string{`"local"`, "DEEPSEEK_KEY, which is not set"}},
		{name: "account bucket without a key", server: "local", account: "work",
			wantErr: []string{`"local@work"`, "smith auth set local@work"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			o, err := open(ctx, wasm, tt.server, "qwen3", Options{Codec: "openai-compatible", BaseURL: srv.URL + "/v1",
				Credentials: tt.creds, AuthFile: file, Account: tt.account, LookupEnv: env(tt.env),
				Environ: []string{}, CacheDir: filepath.Join(testDir, "cache")})
			if tt.wantErr != nil {
				if err == nil {
					_ = o.Close(ctx)
					t.Fatal("opened; want an error")
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = o.Close(ctx) }()
			p, err := o.Provider(nil)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			before := len(auths)
			mu.Unlock()
			s := p.Stream(ctx, &model.Request{Model: o.Model, Messages: []model.Message{model.UserText("hi")}})
			for ev, ok := s.Next(); ok; ev, ok = s.Next() {
				if e, isErr := ev.(model.StreamError); isErr {
					t.Fatalf("stream error: %v", e.Err)
				}
			}
			s.Close()
			mu.Lock()
			defer mu.Unlock()
			if len(auths) != before+1 {
				t.Fatalf("%d requests; want 1", len(auths)-before)
			}
			got := auths[before]
			switch {
			case tt.wantAuth == "" && len(got) != 0:
				t.Errorf("Authorization %q sent; want none", got)
			case tt.wantAuth != "" && (len(got) != 1 || got[0] != tt.wantAuth):
				t.Errorf("Authorization %q; want %q", got, tt.wantAuth)
			}
		})
	}
}
