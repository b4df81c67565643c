package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// tripwire is a loopback server standing in for the network: every
// proxy variable points at it, so a request Smith dials anywhere but
// loopback reaches it instead of leaving the machine.
func tripwire(t *testing.T) (vars []string, hits func() int64) {
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		http.Error(w, "tripwire", http.StatusBadGateway)
	}))
	t.Cleanup(s.Close)
	return []string{"HTTP_PROXY=" + s.URL, "HTTPS_PROXY=" + s.URL, "http_proxy=" + s.URL, "https_proxy=" + s.URL}, n.Load
}

// TestEvalProjectBaseURL: a trusted project's base-url does not receive
// the user's key unless the user's own smith.kdl trusts that URL; the
// refusal names the project's line, the line to add and the file to add it
// to, and the project's server sees no request. Trusted, the request goes
// there, and the first request says which file chose the endpoint.
func TestEvalProjectBaseURL(t *testing.T) {
	const key = "sk-user-PROJECTLEAK-4d5e6f"
	srv := newModelServer(t, nil, messagesAnswer)
	e := newEnv(t)
	e.demo()
	user := e.writeConfig("trusted-project \"" + e.cwd + "\"\n")
	project := e.writeProjectConfig("provider \"anthropic\" {\n    base-url \"" + srv.URL + "\"\n}\n")
	vars := []string{"ANTHROPIC_API_KEY=" + key}
	args := []string{"eval", "--no-session", "--model", "anthropic/claude-sonnet-4-5", "hi"}
	tests := []struct {
		name string
		vars []string
		code int
		also string // more the stderr says
	}{
		// No *_BASE_URL variable: configuration alone decides the URL,
		// so the run is refused before it starts.
		{name: "refused at bind", code: exitUsage},
		// Another codec's variable may be the one the codec reads, so
		// the codec is asked for the URL it would build when the model is
		// bound: still refused before the run starts, no prompt recorded.
		{name: "refused at bind, by the codec's URL", vars: []string{"OPENAI_BASE_URL=https://elsewhere.example"}, code: exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.runWith(append(vars, tt.vars...), "", args...)
			t.Logf("stderr:\n%s", r.stderr)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tt.code, r.stderr)
			}
			for _, want := range []string{
				`the project's provider.anthropic.base-url "` + srv.URL + `" (` + project + `:2:14) would receive your credential (env ANTHROPIC_API_KEY)`,
				`add trusted-base-url "` + srv.URL + `" to ` + user,
				"pass --base-url",
				tt.also,
			} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if got := srv.requests(); len(got) != 0 {
				t.Fatalf("the project's server received %d request(s): %q", len(got), got)
			}
		})
	}

	// --base-url is the user's own decision.
	r := e.runWith(vars, "", "eval", "--no-session", "--model", "anthropic/claude-sonnet-4-5", "--base-url", srv.URL, "hi")
	if r.code != 0 || !strings.Contains(r.stderr, "smith: warning: anthropic: sending to "+srv.URL+" (from --base-url)") {
		t.Fatalf("--base-url: exit %d\n%s", r.code, r.stderr)
	}

	e.writeConfig("trusted-project \"" + e.cwd + "\"\ntrusted-base-url \"" + srv.URL + "/\"\n")
	r = e.runWith(vars, "", args...)
	if r.code != 0 || !strings.Contains(r.stdout, "Answered by claude-sonnet-4-5.") {
		t.Fatalf("trusted: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	status := "smith: warning: anthropic: sending to " + srv.URL + " (base-url from " + project + ":2:14)\n"
	if strings.Count(r.stderr, status) != 1 {
		t.Errorf("stderr lacks the one status line %q:\n%s", status, r.stderr)
	}
	if got := srv.requests(); len(got) != 2 || got[1] != "claude-sonnet-4-5 "+key {
		t.Errorf("requests %q; want the --base-url run's, then the trusted run's", got)
	}

	show := regexp.MustCompile(`  +`).ReplaceAllString(e.runWith(vars, "", "config", "show").stdout, "  ")
	for _, want := range []string{
		"trusted-base-url  " + srv.URL + "/  " + user + ":2:18",
		"provider.anthropic.base-url  " + srv.URL + "  " + project + ":2:14  allowed",
	} {
		if !strings.Contains(show, want) {
			t.Errorf("config show lacks %q:\n%s", want, show)
		}
	}
}

// TestEvalPlainHTTPCredential: a credential never goes over plain http to
// another machine, whoever chose the URL; the run is refused before any
// connection (the tripwire proxy sees nothing), naming the URL, its
// source and the fix. A loopback http server still gets the key.
func TestEvalPlainHTTPCredential(t *testing.T) {
	const key = "sk-user-PLAINHTTP-7a8b9c"
	proxy, hits := tripwire(t)
	e := newEnv(t)
	e.demo()
	vars := append([]string{"ANTHROPIC_API_KEY=" + key}, proxy...)
	model := []string{"eval", "--no-session", "--model", "anthropic/claude-sonnet-4-5"}
	tests := []struct {
		name   string
		config string
		vars   []string
		flags  []string
		want   string
	}{
		{name: "user base-url", config: "provider \"anthropic\" {\n    base-url \"http://example.invalid/v1\"\n}\n",
			want: `provider.anthropic.base-url "http://example.invalid/v1" ($HOME/smith.kdl:2:14) is plain http to another machine, so your credential (env ANTHROPIC_API_KEY) would cross the network readable by anyone on the way; use https://`},
		{name: "flag", flags: []string{"--base-url", "http://example.invalid"},
			want: `--base-url "http://example.invalid" (flag --base-url) is plain http to another machine`},
		{name: "variable", vars: []string{"ANTHROPIC_BASE_URL=http://example.invalid"},
			want: `ANTHROPIC_BASE_URL "http://example.invalid" (env ANTHROPIC_BASE_URL) is plain http to another machine`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.writeConfig(tt.config)
			r := e.runWith(append(vars, tt.vars...), "", append(append(model, tt.flags...), "hi")...)
			t.Logf("stderr:\n%s", r.stderr)
			if r.code == 0 || !strings.Contains(e.placeholders(r.stderr), tt.want) {
				t.Errorf("exit %d; stderr lacks %q:\n%s", r.code, tt.want, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, key) {
				t.Fatal("the key is in the output")
			}
			if n := hits(); n != 0 {
				t.Fatalf("%d connection(s) went out", n)
			}
		})
	}

	// The same key over http to this machine is sent.
	srv := newModelServer(t, nil, messagesAnswer)
	e.writeConfig("provider \"anthropic\" {\n    base-url \"" + srv.URL + "\"\n}\n")
	r := e.runWith(vars, "", append(model, "hi")...)
	if r.code != 0 || len(srv.requests()) != 1 {
		t.Fatalf("loopback: exit %d, %d request(s)\n%s", r.code, len(srv.requests()), r.stderr)
	}
	if want := "smith: warning: anthropic: sending to " + srv.URL + " (base-url from " + filepath.Join(e.home, "smith.kdl") + ":2:14)"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
}

// TestEvalProjectAPI: a trusted project that changes only a provider's
// api (its wire format) would send the user's credential to that API's
// default endpoint, a vendor the user never sent it to; the run is
// refused before any connection (the tripwire proxy sees nothing),
// naming the project's api line and the fixes. When the endpoint is the
// user's own base-url the request goes there.
func TestEvalProjectAPI(t *testing.T) {
	const key = "sk-user-APILEAK-1a2b3c"
	proxy, hits := tripwire(t)
	e := newEnv(t)
	e.demo()
	project := e.writeProjectConfig("provider \"openai\" {\n    api \"anthropic\"\n}\n")
	userBlock := "provider \"openai\" {\n    credential env=\"MY_OAI_KEY\"\n}\n"
	user := e.writeConfig("trusted-project \"" + e.cwd + "\"\n" + userBlock)
	vars := append([]string{"MY_OAI_KEY=" + key}, proxy...)
	args := []string{"eval", "--no-session", "--model", "openai/claude-sonnet-4-5", "hi"}
	tests := []struct {
		name string
		vars []string
		code int
		want string
	}{
		{name: "refused at bind", code: exitUsage,
			want: `the project's provider.openai.api "anthropic" (` + project + `:2:9) changes provider openai's api from "openai" to "anthropic", so your credential (` +
				`config ` + user + `:3:5 (env MY_OAI_KEY)) would go to the default endpoint of "anthropic", and a project may not send your credentials to a server of its choosing; ` +
				`if you trust that server, add trusted-base-url with that endpoint's base URL to ` + user + `; otherwise set provider.openai.base-url in ` + user +
				` or pass --base-url with the endpoint you choose, or remove the api line from the project's file`},
		{name: "refused at bind, by the codec's URL", vars: []string{"OPENAI_BASE_URL=https://elsewhere.example"}, code: exitUsage,
			want: `would go to "https://api.anthropic.com/v1/messages", the default endpoint of "anthropic", and a project may not send your credentials to a server of its choosing; ` +
				`if you trust that server, add trusted-base-url "https://api.anthropic.com" to ` + user},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.runWith(append(vars, tt.vars...), "", args...)
			t.Logf("stderr:\n%s", r.stderr)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\n%s", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, key) {
				t.Fatal("the key is in the output")
			}
			if n := hits(); n != 0 {
				t.Fatalf("%d connection(s) went out", n)
			}
		})
	}

	// The user's own base-url receives the key in the project's format.
	srv := newModelServer(t, nil, messagesAnswer)
	e.writeConfig("trusted-project \"" + e.cwd + "\"\nprovider \"openai\" {\n    base-url \"" + srv.URL + "\"\n    credential env=\"MY_OAI_KEY\"\n}\n")
	r := e.runWith(vars, "", args...)
	if r.code != 0 || !strings.Contains(r.stdout, "Answered by claude-sonnet-4-5.") {
		t.Fatalf("the user's base-url: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := srv.requests(); len(got) != 1 || got[0] != "claude-sonnet-4-5 "+key {
		t.Errorf("requests %q; want one with the user's key", got)
	}
}
