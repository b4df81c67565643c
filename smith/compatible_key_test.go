package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// authServer is a loopback OpenAI-compatible server that records, per
// request, "model" and its Authorization header ("-" when none was sent).
// Model "reject" is refused with a body echoing the header it got, as a
// careless server might.
type authServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newAuthServer(t *testing.T) *authServer {
	s := &authServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(b, &req)
		got := "-"
		if v := r.Header.Values("Authorization"); len(v) > 0 {
			got = strings.Join(v, ",")
		}
		s.mu.Lock()
		s.seen = append(s.seen, req.Model+" "+got)
		s.mu.Unlock()
		if req.Model == "reject" {
			w.Header().Set("content-type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error","code":"invalid_api_key"}}`, got)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, chatAnswer(req.Model))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *authServer) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.seen) == 0 {
		return ""
	}
	return s.seen[len(s.seen)-1]
}

func (s *authServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

// TestEvalOpenAICompatibleKey: an OpenAI-compatible server's key is
// optional. A key configured for the server (a variable its smith.kdl
// block names, or a literal) is sent as "Authorization: Bearer <key>";
// a server with none gets no Authorization header, even when vendors'
// variables are set; auth status says where each key comes from, or that
// none is needed. Neither key appears in any output, error, session
// record, dump or other file of the run, even when the server echoes it.
func TestEvalOpenAICompatibleKey(t *testing.T) {
	const varKey, litKey = "sk-compat-env-LEAK-44dd", "sk-compat-literal-LEAK-55ee"
	srv := newAuthServer(t)
	e := newEnv(t)
	e.demo()
	cfgPath := e.writeConfig(`provider "keyed" {
    api "openai-compatible"
    base-url "` + srv.URL + `/v1"
    credential env="KEYED_SERVER_KEY"
}
provider "literal" {
    api "openai-compatible"
    base-url "` + srv.URL + `/v1"
    credential key="` + litKey + `"
}
provider "open" {
    api "openai-compatible"
    base-url "` + srv.URL + `/v1"
}
`)
	vars := []string{"KEYED_SERVER_KEY=" + varKey, "OPENAI_API_KEY=sk-openai-not-for-local", "ANTHROPIC_API_KEY=sk-ant-not-for-local"}
	var artifacts []string
	keep := func(r result) result { artifacts = append(artifacts, r.stdout, r.stderr); return r }

	tests := []struct {
		name, model, session string
		want                 string // what the server saw
	}{
		{name: "key from the variable smith.kdl names", model: "keyed/qwen3", session: "keyed", want: "qwen3 Bearer " + varKey},
		{name: "literal key", model: "literal/qwen3", session: "literal", want: "qwen3 Bearer " + litKey},
		{name: "no key configured", model: "open/qwen3", session: "open", want: "qwen3 -"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := keep(e.runWith(vars, "", "eval", "--model", tt.model, "--output", "json", "--session", tt.session, "hi"))
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if got := answered(t, r.stdout); len(got) != 1 || got[0] != "openai-compatible/qwen3: Answered by qwen3." {
				t.Errorf("answered %q", got)
			}
			if got := srv.last(); got != tt.want {
				t.Errorf("the server saw %q; want %q", got, tt.want)
			}
		})
	}

	// A server echoing the rejected key: the error and the session do
	// not carry it.
	r := keep(e.runWith(vars, "", "eval", "--model", "keyed/reject", "--output", "json", "--session", "rejected", "hi"))
	if r.code == 0 || srv.last() != "reject Bearer "+varKey {
		t.Errorf("rejected key: exit %d, server saw %q\n%s\n%s", r.code, srv.last(), r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout+r.stderr, "Incorrect API key provided") {
		t.Errorf("the server's message is not reported:\n%s\n%s", r.stdout, r.stderr)
	}

	// The variable smith.kdl names is unset: refused before dispatch.
	n := srv.count()
	r = keep(e.run("", "eval", "--model", "keyed/qwen3", "--no-session", "hi"))
	if r.code == 0 || !strings.Contains(r.stderr, "KEYED_SERVER_KEY, which is not set") || srv.count() != n {
		t.Errorf("unset KEYED_SERVER_KEY: exit %d, %d requests\n%s", r.code, srv.count()-n, r.stderr)
	}

	r = keep(e.runWith(vars, "", "auth", "status", "--output", "json"))
	st := parseAuthStatus(t, r.stdout)
	got := map[string]string{}
	for _, s := range st {
		got[s.Provider] = fmt.Sprintf("%v %s %s", s.OK, s.Source, strings.ReplaceAll(s.Origin, cfgPath, "FILE"))
	}
	for p, w := range map[string]string{
		"keyed":             "true config FILE:4:5 (env KEYED_SERVER_KEY)",
		"literal":           "true config FILE:9:5",
		"open":              "true none ",
		"openai-compatible": "true none ",
	} {
		if got[p] != w {
			t.Errorf("auth status %s = %q, want %q", p, got[p], w)
		}
	}
	r = keep(e.runWith(vars, "", "auth", "status"))
	open := ""
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "open ") {
			open = strings.Join(strings.Fields(line), " ")
		}
	}
	if open != "open ok none needed" {
		t.Errorf("auth status line for open: %q\n%s", open, r.stdout)
	}
	for _, s := range []string{"keyed", "literal", "open", "rejected"} {
		d := keep(e.runWith(vars, "", "session", "dump", s)).stdout
		// The journaled exchange shows the reference, not the key.
		if recorded := strings.Contains(d, `\"Authorization\":[\"Bearer ${api-key?}\"]`); recorded != (s != "open") {
			t.Errorf("session %s: the dump shows the redacted key reference: %v\n%s", s, recorded, d)
		}
		keep(e.runWith(vars, "", "session", "show", s))
	}
	keep(e.runWith(vars, "", "config", "show"))
	_ = filepath.WalkDir(e.home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != cfgPath {
			b, _ := os.ReadFile(p)
			artifacts = append(artifacts, string(b))
		}
		return nil
	})
	if len(artifacts) < 20 {
		t.Fatalf("only %d artifacts to check", len(artifacts))
	}
	for _, a := range artifacts {
		for _, k := range []string{varKey, litKey} {
			if strings.Contains(a, k) {
				t.Fatalf("credential %s leaked into an artifact:\n%s", k, a)
			}
		}
	}
}
