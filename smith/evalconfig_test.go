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

// modelServer is a loopback provider server whose answer depends on the
// requested model (and the key presented): a status and body to refuse
// with, or a stream naming the model that answered. It records who asked.
type modelServer struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []string // "model key" per request
	bodyOf []string
}

// refusal is a failure a modelServer answers with.
type refusal struct {
	status int
	body   string
}

var rateLimited = refusal{429, `{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}`}

func newModelServer(t *testing.T, refuse map[string]refusal, answer func(model string) string) *modelServer {
	s := &modelServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(b, &req)
		key := r.Header.Get("x-api-key")
		if key == "" {
			key = strings.TrimPrefix(r.Header.Get("authorization"), "Bearer ")
		}
		s.mu.Lock()
		s.seen = append(s.seen, req.Model+" "+key)
		s.bodyOf = append(s.bodyOf, string(b))
		s.mu.Unlock()
		for _, k := range []string{req.Model + " " + key, req.Model, key} {
			if f, ok := refuse[k]; ok {
				w.Header().Set("content-type", "application/json")
				// Retries come quickly: the policy honours the hint.
				w.Header().Set("retry-after-ms", "5")
				w.WriteHeader(f.status)
				_, _ = io.WriteString(w, f.body)
				return
			}
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, answer(req.Model))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *modelServer) bodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodyOf...)
}

func (s *modelServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// messagesAnswer is a Messages API stream whose message_start names the
// model that answered.
func messagesAnswer(model string) string {
	return strings.Replace(messagesStream("Answered by "+model+".", "", "", ""), `"model":"m"`, fmt.Sprintf(`"model":%q`, model), 1)
}

// chatAnswer is a Chat Completions stream (the documented chunk format)
// naming the model that answered.
func chatAnswer(model string) string {
	chunk := func(delta, finish, usage string) string {
		return fmt.Sprintf(`data: {"id":"c1","object":"chat.completion.chunk","model":%q,"choices":[{"index":0,"delta":%s,"finish_reason":%s}]%s}`+"\n\n", model, delta, finish, usage)
	}
	return chunk(`{"role":"assistant","content":"Answered by `+model+`."}`, "null", "") +
		chunk(`{}`, `"stop"`, `,"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}`) + "data: [DONE]\n\n"
}

// answered returns "provider/model: text" of each assistant message_end
// event of eval's JSON output.
func answered(t *testing.T, stdout string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Role     string `json:"role"`
				Provider string `json:"provider"`
				Model    string `json:"model"`
				Content  []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if ev.Type == "message_end" && ev.Message.Role == "assistant" {
			text := ""
			for _, c := range ev.Message.Content {
				text += c.Text
			}
			out = append(out, ev.Message.Provider+"/"+ev.Message.Model+": "+text)
		}
	}
	return out
}

// TestEvalGroupFailover: --model names a group of smith.kdl; the first
// target's server answers 429 (rate limited), so the request fails over at
// once to the next target, which answers, and the JSON events name the
// model that answered. Both exchanges are journaled.
func TestEvalGroupFailover(t *testing.T) {
	anthropic := newModelServer(t, map[string]refusal{"claude-sonnet-4-5": rateLimited, "claude-sonnet-4-5-20250929": rateLimited}, messagesAnswer)
	local := newModelServer(t, nil, chatAnswer)
	tests := []struct {
		name     string
		group    string
		answer   string
		requests []string // at the anthropic server, then the local one
		body     string   // in the answered request's body
		notBody  string   // not in it
	}{
		{name: "same provider", group: `"anthropic/claude-sonnet-4-5" "anthropic/claude-haiku-4-5"`,
			answer:   "anthropic/claude-haiku-4-5: Answered by claude-haiku-4-5.",
			requests: []string{"claude-sonnet-4-5 sk-group-key", "claude-haiku-4-5 sk-group-key"}, body: `"max_tokens":1000`},
		{name: "to an openai-compatible server", group: `"claude-sonnet-4-5" "local/qwen3"`,
			answer:   "openai-compatible/qwen3: Answered by qwen3.",
			requests: []string{"claude-sonnet-4-5-20250929 sk-group-key", "qwen3 "},
			// The configured quirks reach the codec: no stream usage
			// option (sent by default).
			body: `"max_tokens":1000`, notBody: "include_usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.demo()
			e.writeConfig(`group "steady" ` + tt.group + `
max-output-tokens 1000
provider "anthropic" {
    base-url "` + anthropic.URL + `"
}
provider "local" {
    api "openai-compatible"
    base-url "` + local.URL + `/v1"
    quirks {
        max-tokens-field "max_tokens"
        no-stream-usage #true
    }
}
`)
			before := len(anthropic.requests()) + len(local.requests())
			r := e.runWith([]string{"ANTHROPIC_API_KEY=sk-group-key"}, "", "eval", "--model", "steady", "--output", "json", "--session", "failover", "hi")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if got := answered(t, r.stdout); len(got) != 1 || got[0] != tt.answer {
				t.Errorf("answered %q, want %q", got, tt.answer)
			}
			seen := append(anthropic.requests(), local.requests()...)
			all := strings.Join(seen, "\n")
			for _, w := range tt.requests {
				if !strings.Contains(all, w) {
					t.Errorf("requests %q lack %q", seen, w)
				}
			}
			srv := anthropic
			if strings.HasPrefix(tt.answer, "openai-compatible/") {
				srv = local
			}
			if b := srv.bodies(); len(b) == 0 || !strings.Contains(b[len(b)-1], tt.body) || tt.notBody != "" && strings.Contains(b[len(b)-1], tt.notBody) {
				t.Errorf("the answered request lacks %s or has %q: %q", tt.body, tt.notBody, b)
			}
			if n := len(seen) - before; n != 2 {
				t.Errorf("%d requests, want 2 (the refused one and the answered one)", n)
			}
			dump := e.mustRun("", "session", "dump", "failover").stdout
			if c := strings.Count(dump, "provider.exchange"); c != 2 {
				t.Errorf("the dump shows %d exchanges, want 2", c)
			}
		})
	}
}

// TestEvalBaseURLPrecedence: a provider's base URL comes from the flag,
// else its conventional variable, else the trusted project's smith.kdl,
// else the user's smith.kdl, else the codec's default.
func TestEvalBaseURLPrecedence(t *testing.T) {
	servers := map[string]*recorder{}
	for _, n := range []string{"user", "project", "env", "flag"} {
		servers[n] = newRecorder(t, messagesStream("From "+n+".", "", "", ""))
	}
	tests := []struct {
		name    string
		project bool
		env     bool
		flag    bool
		want    string
	}{
		{name: "user file", want: "user"},
		{name: "project file over user", project: true, want: "project"},
		{name: "variable over files", project: true, env: true, want: "env"},
		{name: "flag over everything", project: true, env: true, flag: true, want: "flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.demo()
			// The user trusts the project's server with the key
			// (TestEvalProjectBaseURL: without it the run is refused).
			e.writeConfig("provider \"anthropic\" {\n    base-url \"" + servers["user"].URL + "\"\n}\ntrusted-project \"" + e.cwd + "\"\n" +
				"trusted-base-url \"" + servers["project"].URL + "\"\n")
			if tt.project {
				e.writeProjectConfig("provider \"anthropic\" {\n    base-url \"" + servers["project"].URL + "\"\n}\n")
			}
			vars := []string{"ANTHROPIC_API_KEY=k"}
			if tt.env {
				vars = append(vars, "ANTHROPIC_BASE_URL="+servers["env"].URL)
			}
			args := []string{"eval", "--no-session", "--model", "anthropic/claude-sonnet-4-5"}
			if tt.flag {
				args = append(args, "--base-url", servers["flag"].URL)
			}
			counts := map[string]int{}
			for n, s := range servers {
				counts[n] = len(s.requests())
			}
			r := e.runWith(vars, "", append(args, "hi")...)
			if r.code != 0 || !strings.Contains(r.stdout, "From "+tt.want+".") {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			for n, s := range servers {
				want := counts[n]
				if n == tt.want {
					want++
				}
				if got := len(s.requests()); got != want {
					t.Errorf("server %s saw %d requests, want %d", n, got-counts[n], want-counts[n])
				}
			}
		})
	}
	// --base-url is refused when the model spans several providers.
	e := newEnv(t)
	e.demo()
	e.writeConfig(`group "mixed" "anthropic/claude-sonnet-4-5" "openai/gpt-5"` + "\n")
	r := e.run("", "eval", "--no-session", "--model", "mixed", "--base-url", "http://127.0.0.1:1", "hi")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--base-url applies to one provider") || !strings.Contains(r.stderr, "anthropic, openai") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
}

// TestEvalConfigCredentials: a credential of smith.kdl — an environment
// variable it names, or a literal key — beats the provider's own variable,
// is resolved before dispatch, is what the server receives, and appears in
// no output, session record or dump; auth status shows where it comes from
// without its value. Account buckets fail over from one key to the next.
func TestEvalConfigCredentials(t *testing.T) {
	const workKey, homeKey, envKey = "sk-work-LEAK-11aa", "sk-home-LEAK-22bb", "sk-env-LEAK-33cc"
	srv := newModelServer(t, map[string]refusal{workKey: rateLimited}, messagesAnswer)
	e := newEnv(t)
	e.demo()
	cfgPath := e.writeConfig(`provider "anthropic" {
    base-url "` + srv.URL + `"
    accounts "work" "home"
    credential account="work" env="WORK_KEY"
    credential account="home" key="` + homeKey + `"
}
provider "other" {
    api "anthropic"
    base-url "` + srv.URL + `"
    credential key="` + homeKey + `"
}
`)
	vars := []string{"WORK_KEY=" + workKey, "ANTHROPIC_API_KEY=" + envKey}
	var artifacts []string
	keep := func(r result) result { artifacts = append(artifacts, r.stdout, r.stderr); return r }

	r := keep(e.runWith(vars, "", "eval", "--model", "anthropic/claude-sonnet-4-5", "--output", "json", "--session", "buckets", "hi"))
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := answered(t, r.stdout); len(got) != 1 || got[0] != "anthropic/claude-sonnet-4-5: Answered by claude-sonnet-4-5." {
		t.Errorf("answered %q", got)
	}
	want := []string{"claude-sonnet-4-5 " + workKey, "claude-sonnet-4-5 " + homeKey}
	if got := srv.requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests %q, want the work bucket (rate limited) then the home bucket", got)
	}
	// A named provider served by the anthropic codec, with a literal key.
	r = keep(e.runWith(vars, "", "eval", "--model", "other/claude-x", "--no-session", "hi"))
	if r.code != 0 || !strings.Contains(r.stdout, "Answered by claude-x.") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := srv.requests(); got[len(got)-1] != "claude-x "+homeKey {
		t.Errorf("last request %q", got[len(got)-1])
	}
	// An unset configured variable fails before dispatch, naming it.
	n := len(srv.requests())
	r = keep(e.runWith([]string{"ANTHROPIC_API_KEY=" + envKey}, "", "eval", "--model", "anthropic/claude-sonnet-4-5", "--no-session", "hi"))
	if r.code == 0 || !strings.Contains(r.stderr, "WORK_KEY, which is not set") || len(srv.requests()) != n {
		t.Errorf("unset WORK_KEY: exit %d, %d requests\n%s", r.code, len(srv.requests())-n, r.stderr)
	}

	r = keep(e.runWith(vars, "", "auth", "status", "--output", "json"))
	st := parseAuthStatus(t, r.stdout)
	got := map[string]string{}
	for _, s := range st {
		got[s.Provider] = fmt.Sprintf("%v %s %s", s.OK, s.Source, strings.ReplaceAll(s.Origin, cfgPath, "FILE"))
	}
	for p, w := range map[string]string{
		"anthropic@work": "true config FILE:4:5 (env WORK_KEY)",
		"anthropic@home": "true config FILE:5:5",
		"anthropic":      "true env ANTHROPIC_API_KEY",
		"other":          "true config FILE:10:5",
	} {
		if got[p] != w {
			t.Errorf("auth status %s = %q, want %q", p, got[p], w)
		}
	}
	keep(e.runWith(vars, "", "auth", "status"))
	keep(e.runWith(vars, "", "config", "show"))
	keep(e.runWith(vars, "", "session", "dump", "buckets"))
	_ = filepath.WalkDir(e.home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != cfgPath {
			b, _ := os.ReadFile(p)
			artifacts = append(artifacts, string(b))
		}
		return nil
	})
	for _, a := range artifacts {
		for _, k := range []string{workKey, homeKey, envKey} {
			if strings.Contains(a, k) {
				t.Fatalf("credential %s leaked into an artifact:\n%s", k, a)
			}
		}
	}
}

// TestEvalConfigOptions: the default model (through an alias), the
// thinking level and the output bound of smith.kdl reach the request, and
// the environment and flags beat the file.
func TestEvalConfigOptions(t *testing.T) {
	tests := []struct {
		name   string
		vars   []string
		args   []string
		sent   []string
		absent []string
	}{
		{name: "from the file", sent: []string{`"model":"claude-sonnet-4-5"`, `"budget_tokens":16384`, `"max_tokens":30000`}},
		{name: "environment over file", vars: []string{"SMITH_THINKING=low", "SMITH_MAX_OUTPUT_TOKENS=5000"},
			sent: []string{`"budget_tokens":2048`, `"max_tokens":5000`}},
		{name: "flags over environment", vars: []string{"SMITH_THINKING=low", "SMITH_MODEL=anthropic/claude-opus-4-1"},
			args: []string{"--thinking", "off", "--model", "anthropic/claude-haiku-4-5"},
			sent: []string{`"model":"claude-haiku-4-5"`, `"max_tokens":30000`}, absent: []string{"budget_tokens"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newRecorder(t, messagesStream("Done.", "", "", ""))
			e := newEnv(t)
			e.demo()
			e.writeConfig("model \"fast\"\nalias \"fast\" \"anthropic/claude-sonnet-4-5\"\nthinking \"high\"\nmax-output-tokens 30000\n")
			r := e.runWith(append(srv.vars(), tt.vars...), "", append(append([]string{"eval", "--no-session"}, tt.args...), "hi")...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			reqs := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			for _, w := range tt.sent {
				if !strings.Contains(reqs[0], w) {
					t.Errorf("request lacks %s", w)
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(reqs[0], w) {
					t.Errorf("request has %s", w)
				}
			}
		})
	}
}

// TestEvalGroupStopsOnInvalidRequest: an invalid request is not failed
// over (no target would accept it): the run fails naming the refusal and
// the group's next target is never asked.
func TestEvalGroupStopsOnInvalidRequest(t *testing.T) {
	invalid := refusal{400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is malformed"}}`}
	srv := newModelServer(t, map[string]refusal{"claude-sonnet-4-5": invalid}, messagesAnswer)
	e := newEnv(t)
	e.demo()
	e.writeConfig(`group "steady" "anthropic/claude-sonnet-4-5" "anthropic/claude-haiku-4-5"
provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	r := e.runWith([]string{"ANTHROPIC_API_KEY=k"}, "", "eval", "--model", "steady", "--no-session", "hi")
	if r.code != exitFailure || !strings.Contains(r.stdout+r.stderr, "prompt is malformed") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := srv.requests(); len(got) != 1 || got[0] != "claude-sonnet-4-5 k" {
		t.Errorf("requests %q: want only the first target", got)
	}
}

// TestEvalGroupRetriesThenFailsOver: a server error is retried on the
// same target with bounded backoff (four retries), then the group fails
// over to the next target, which answers.
func TestEvalGroupRetriesThenFailsOver(t *testing.T) {
	broken := refusal{500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`}
	srv := newModelServer(t, map[string]refusal{"claude-sonnet-4-5": broken}, messagesAnswer)
	e := newEnv(t)
	e.demo()
	e.writeConfig(`group "steady" "anthropic/claude-sonnet-4-5" "anthropic/claude-haiku-4-5"
provider "anthropic" {
    base-url "` + srv.URL + `"
}
`)
	r := e.runWith([]string{"ANTHROPIC_API_KEY=k"}, "", "eval", "--model", "steady", "--output", "json", "--no-session", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := answered(t, r.stdout); len(got) != 1 || got[0] != "anthropic/claude-haiku-4-5: Answered by claude-haiku-4-5." {
		t.Errorf("answered %q", got)
	}
	want := "claude-sonnet-4-5 k|claude-sonnet-4-5 k|claude-sonnet-4-5 k|claude-sonnet-4-5 k|claude-sonnet-4-5 k|claude-haiku-4-5 k"
	if got := strings.Join(srv.requests(), "|"); got != want {
		t.Errorf("requests %s, want %s", got, want)
	}
}

// TestEvalModelInfo: a model-info block describes a self-hosted model the
// catalog lacks: smith models lists it as configuration, eval sends its
// output limit and clamps a thinking level it lacks, and its price makes
// the cost known.
func TestEvalModelInfo(t *testing.T) {
	local := newModelServer(t, nil, chatAnswer)
	e := newEnv(t)
	e.demo()
	p := e.writeConfig(`provider "local" {
    api "openai-compatible"
    base-url "` + local.URL + `/v1"
}
model-info "local/qwen3" {
    alias "qwen"
    context 32768
    max-output 8192
    thinking "off" "high"
    price input=1 output=2 cache-read=0 cache-write=0
}
`)
	out := strings.ReplaceAll(e.mustRun("", "models", "--provider", "local").stdout, p, "FILE")
	if !strings.Contains(out, "catalog: configuration (model-info in smith.kdl)") || !strings.Contains(out, "local/qwen3") || !strings.Contains(out, "8192") {
		t.Errorf("models:\n%s", out)
	}
	r := e.run("", "eval", "--model", "qwen", "--thinking", "low", "--output", "json", "--no-session", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// In JSON mode the warning is a notice event, like everything else.
	if !strings.Contains(r.stdout, `{"type":"notice","seq":1,"level":"warning","text":"local/qwen3 has no thinking level low (it supports off, high); using off`) {
		t.Errorf("stdout lacks the clamp warning:\n%s", r.stdout)
	}
	b := local.bodies()
	if len(b) != 1 || !strings.Contains(b[0], `"max_tokens":8192`) || !strings.Contains(b[0], `"model":"qwen3"`) {
		t.Errorf("request %q: want the configured output limit", b)
	}
	// 5 input tokens × $1/M + 3 output × $2/M = 11 µ$ = 11000 nano-USD.
	if !strings.Contains(r.stdout, `"cost_nano_usd":11000`) {
		t.Errorf("no cost from the configured price:\n%s", r.stdout)
	}
}

// TestEvalOutputLimitBelowThinkingBudgetPlusDefault: with no output bound
// asked for, eval sends the model's output limit, so a model whose limit
// lies between the thinking budget and budget + 4096 (the codec's own
// default) is not refused by a server that enforces the limit. The limit
// here comes from a model-info correction of the bundled entry.
func TestEvalOutputLimitBelowThinkingBudgetPlusDefault(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req struct {
			MaxTokens int `json:"max_tokens"`
		}
		_ = json.Unmarshal(b, &req)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if req.MaxTokens > 18000 {
			w.Header().Set("content-type", "application/json")
			w.WriteHeader(400)
			_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: %d > 18000, which is the maximum allowed"}}`, req.MaxTokens)
			return
		}
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, messagesStream("Within the limit.", "", "", ""))
	}))
	defer srv.Close()
	e := newEnv(t)
	e.demo()
	e.writeConfig(`model-info "anthropic/claude-sonnet-4-5-20250929" {
    alias "claude-sonnet-4-5"
    context 200000
    max-output 18000
    thinking "off" "low" "medium" "high"
}
`)
	r := e.runWith([]string{"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.URL}, "", "eval", "--no-session", "--model", "claude-sonnet-4-5", "--thinking", "high", "hi")
	if r.code != 0 || !strings.Contains(r.stdout, "Within the limit.") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 1 || !strings.Contains(bodies[0], `"max_tokens":18000`) || !strings.Contains(bodies[0], `"budget_tokens":13500`) {
		t.Errorf("requests %q", bodies)
	}
}
