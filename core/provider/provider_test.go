package provider_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

func TestStream(t *testing.T) {
	body := mustRead(t, "testdata/anthropic-text.sse")
	srv := newServer(t, sse(body))
	arts := &artifacts{}
	p := newBridge(t, "anthropic", arts, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
	evs := joined(collect(p.Stream(context.Background(), hello())))
	want := []model.StreamEvent{
		model.Start{Provider: "anthropic", Model: "claude-test-1", ResponseID: "msg_1"},
		model.TextDelta{Index: 0, Text: "Olá, mundo"},
		model.Done{Reason: model.StopEnd, Usage: model.Usage{Input: model.Known(12), Output: model.Known(7),
			CacheRead: model.Known(3), CacheWrite: model.Known(0)}, RawStop: "end_turn",
			RawUsage: `{"cache_creation_input_tokens":0,"cache_read_input_tokens":3,"input_tokens":12,"output_tokens":7}`},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Fatalf("events\n got %#v\nwant %#v", evs, want)
	}
	if u := evs[2].(model.Done).Usage; u.Reasoning.IsKnown() || u.CostNanoUSD.IsKnown() {
		t.Errorf("usage %+v: unreported reasoning and cost must stay unknown", u)
	}
	r, sent := srv.request(0)
	if r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != testKey || r.Header.Get("Anthropic-Version") == "" {
		t.Errorf("request %s %v; want /v1/messages with the credential substituted", r.URL.Path, r.Header)
	}
	var b struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if err := json.Unmarshal(sent, &b); err != nil || b.Model != "claude-test-1" || !b.Stream {
		t.Errorf("body %s (%v); want the model and stream:true", sent, err)
	}
	if len(arts.exchanges) != 1 {
		t.Fatalf("recorded %d exchanges; want 1", len(arts.exchanges))
	}
	x := arts.exchanges[0]
	if x.Header.Get("X-Api-Key") != "${ANTHROPIC_API_KEY}" || x.Status != 200 || x.Outcome != "complete" ||
		string(x.Body) != string(sent) || string(joinChunks(x.Chunks)) != string(body) {
		t.Errorf("recorded exchange %+v; want the template's reference, the body sent and every chunk received", x)
	}
}

func joinChunks(cs [][]byte) []byte {
	var out []byte
	for _, c := range cs {
		out = append(out, c...)
	}
	return out
}

// TestBaseURL checks the precedence default < config < the provider's
// environment variable < flag, with the variable's name known only to the
// codec.
func TestBaseURL(t *testing.T) {
	body := mustRead(t, "testdata/anthropic-text.sse")
	servers := map[string]*server{}
	for _, n := range []string{"config", "env", "flag"} {
		servers[n] = newServer(t, sse(body))
	}
	tests := []struct {
		name, config, env, flag, want string
	}{
		{name: "config", config: "config", want: "config"},
		{name: "env beats config", config: "config", env: "env", want: "env"},
		{name: "flag beats env", config: "config", env: "env", flag: "flag", want: "flag"},
		{name: "env alone", env: "env", want: "env"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := map[string]int{}
			for n, s := range servers {
				before[n] = s.count()
			}
			url := func(n string) string {
				if n == "" {
					return ""
				}
				return servers[n].URL
			}
			p := newBridge(t, "anthropic", nil, func(c *provider.Config) {
				c.BaseURL, c.BaseURLFlag = url(tt.config), url(tt.flag)
				c.Environ = []string{"OPENAI_BASE_URL=http://127.0.0.1:1", "PATH=/bin"}
				if tt.env != "" {
					c.Environ = append(c.Environ, "ANTHROPIC_BASE_URL="+url(tt.env))
				}
			})
			if _, ok := terminal(t, collect(p.Stream(context.Background(), hello()))).(model.Done); !ok {
				t.Fatal("the request did not complete")
			}
			for n, s := range servers {
				if got, want := s.count()-before[n], map[bool]int{true: 1}[n == tt.want]; got != want {
					t.Errorf("server %s got %d requests; want %d", n, got, want)
				}
			}
		})
	}
	t.Run("openai-compatible needs one", func(t *testing.T) {
		p := newBridge(t, "openai-compatible", nil, nil)
		e := streamError(t, collect(p.Stream(context.Background(), hello())))
		if e.Kind != model.ErrInvalidRequest || !strings.Contains(e.Message, "base URL") {
			t.Errorf("error %v; want invalid_request about the missing base URL", e)
		}
	})
}

func TestMissingCredential(t *testing.T) {
	srv := newServer(t, sse(nil))
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) {
		c.BaseURLFlag = srv.URL
		c.Secrets = provider.EnvSecrets(func(string) string { return "" })
	})
	e := streamError(t, collect(p.Stream(context.Background(), hello())))
	if e.Kind != model.ErrAuth || !strings.Contains(e.Message, "ANTHROPIC_API_KEY") {
		t.Errorf("error %v; want auth naming ANTHROPIC_API_KEY", e)
	}
	if srv.count() != 0 {
		t.Errorf("the server got %d requests; a missing credential must fail before dispatch", srv.count())
	}
}

// TestClassifiedErrors serves failed responses; the codec classifies them
// into model errors with retry hints.
func TestClassifiedErrors(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		headers      map[string]string
		body         string
		kind         model.ErrorKind
		retryable    bool
		waitMillis   int64
		providerType string
		requestID    string
	}{
		{name: "rate limit with retry-after", status: 429, headers: map[string]string{"Retry-After": "7"}, kind: model.ErrRateLimit,
			retryable: true, waitMillis: 7000, providerType: "rate_limit_error",
			body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`},
		{name: "retry-after-ms beats retry-after", status: 429, headers: map[string]string{"Retry-After": "7", "Retry-After-Ms": "1500"},
			kind: model.ErrRateLimit, retryable: true, waitMillis: 1500, providerType: "rate_limit_error",
			body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`},
		{name: "overloaded", status: 529, kind: model.ErrOverloaded, retryable: true, providerType: "overloaded_error",
			body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		{name: "x-should-retry false and the request id header", status: 529,
			headers: map[string]string{"X-Should-Retry": "false", "Request-Id": "req_011CHdr"}, kind: model.ErrOverloaded,
			providerType: "overloaded_error", requestID: "req_011CHdr",
			body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		{name: "x-should-retry true on a bad request", status: 400, headers: map[string]string{"X-Should-Retry": "true"},
			kind: model.ErrInvalidRequest, retryable: true, providerType: "invalid_request_error",
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"try again"}}`},
		{name: "server", status: 500, kind: model.ErrServer, retryable: true, providerType: "api_error",
			body: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`},
		{name: "invalid request", status: 400, kind: model.ErrInvalidRequest, providerType: "invalid_request_error",
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}`},
		{name: "auth", status: 401, kind: model.ErrAuth, providerType: "authentication_error",
			body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				for k, v := range tt.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
			evs := collect(p.Stream(context.Background(), hello()))
			if len(evs) != 1 {
				t.Fatalf("events %v; want only the error", evs)
			}
			e := streamError(t, evs)
			if e.Kind != tt.kind || e.Retryable != tt.retryable || e.RetryAfterMillis != tt.waitMillis || e.HTTPStatus != tt.status || e.Message == "" {
				t.Errorf("error %+v; want kind %s retryable %v wait %d ms http %d", e, tt.kind, tt.retryable, tt.waitMillis, tt.status)
			}
			if e.ProviderType != tt.providerType || e.RequestID != tt.requestID {
				t.Errorf("error %+v; want provider type %q, request id %q", e, tt.providerType, tt.requestID)
			}
		})
	}
}

// TestStreamsIncrementally holds the rest of the body until the first
// text delta has reached the caller.
func TestStreamsIncrementally(t *testing.T) {
	body := string(mustRead(t, "testdata/anthropic-text.sse"))
	cut := strings.Index(body, "event: content_block_stop")
	got := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(body[:cut]))
		w.(http.Flusher).Flush()
		select {
		case <-got:
		case <-r.Context().Done():
			return
		}
		w.Write([]byte(body[cut:]))
	})
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
	s := p.Stream(context.Background(), hello())
	defer s.Close()
	for {
		e, ok := s.Next()
		if !ok {
			t.Fatal("the stream ended before any text delta")
		}
		if _, ok := e.(model.TextDelta); ok {
			close(got)
			break
		}
	}
	var last model.StreamEvent
	for e, ok := s.Next(); ok; e, ok = s.Next() {
		last = e
	}
	if _, ok := last.(model.Done); !ok {
		t.Errorf("last event %#v; want done", last)
	}
}

func TestCancel(t *testing.T) {
	body := string(mustRead(t, "testdata/anthropic-text.sse"))
	cut := strings.Index(body, "event: content_block_stop")
	hang := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(body[:cut]))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	t.Run("context", func(t *testing.T) {
		srv := newServer(t, hang)
		p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
		ctx, cancel := context.WithCancel(context.Background())
		s := p.Stream(ctx, hello())
		defer s.Close()
		for e, ok := s.Next(); ok; e, ok = s.Next() {
			if _, ok := e.(model.TextDelta); ok {
				break
			}
		}
		cancel()
		var last model.StreamEvent
		for e, ok := s.Next(); ok; e, ok = s.Next() {
			last = e
		}
		if se, ok := last.(model.StreamError); !ok || se.Err.Kind != model.ErrAborted {
			t.Errorf("last event %#v; want an aborted error", last)
		}
	})
	t.Run("close from another goroutine", func(t *testing.T) {
		srv := newServer(t, hang)
		p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
		s := p.Stream(context.Background(), hello())
		done := make(chan struct{})
		go func() {
			defer close(done)
			for _, ok := s.Next(); ok; _, ok = s.Next() {
			}
		}()
		time.Sleep(20 * time.Millisecond)
		s.Close()
		<-done // a Next blocked on the network returns once Close cancels
		if _, ok := s.Next(); ok {
			t.Error("Next after Close returned an event")
		}
	})
}

// TestCutOff: a body that ends without the vendor's stop event is a
// truncated response, not a success.
func TestCutOff(t *testing.T) {
	body := string(mustRead(t, "testdata/anthropic-text.sse"))
	cut := strings.Index(body, "event: message_delta")
	srv := newServer(t, sse([]byte(body[:cut])))
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
	e := streamError(t, collect(p.Stream(context.Background(), hello())))
	if e.Kind != model.ErrTruncated || !e.Retryable {
		t.Errorf("error %+v; want a retryable truncated error", e)
	}
}

func TestUnknownProvider(t *testing.T) {
	p := newBridge(t, "nope", nil, nil)
	e := streamError(t, collect(p.Stream(context.Background(), hello())))
	if e.Kind != model.ErrInvalidRequest || !strings.Contains(e.Message, "nope") || !strings.Contains(e.Message, "anthropic") {
		t.Errorf("error %v; want invalid_request naming nope and the declared providers", e)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name string
		cfg  provider.Config
		want string
	}{
		{name: "empty", cfg: provider.Config{}, want: "lacks Name, Plugin, Instances, Engine"},
		{name: "bad quirks", cfg: provider.Config{Name: "x", Plugin: "p", Instances: instances(t), Engine: newEngine(t), Quirks: []byte("{")},
			want: "quirks for \"x\" are not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v; want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestDeclared(t *testing.T) {
	got := map[string][]string{}
	for _, d := range instances(t).Providers() {
		got[d.Name] = d.SecretNames
	}
	want := map[string][]string{"anthropic": {"ANTHROPIC_API_KEY"}, "openai": {"OPENAI_API_KEY"}, "openai-chat": {"OPENAI_API_KEY"},
		"google": {"GEMINI_API_KEY", "GOOGLE_API_KEY"}, "openai-compatible": {"api-key?"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("declared %v; want %v", got, want)
	}
}

// TestDecoderReplay feeds a recorded body to a Decoder, as replay does:
// the events equal the live stream's.
func TestDecoderReplay(t *testing.T) {
	body := mustRead(t, "testdata/anthropic-text.sse")
	srv := newServer(t, sse(body))
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) { c.BaseURLFlag = srv.URL })
	live := collect(p.Stream(context.Background(), hello()))
	ctx := context.Background()
	d, err := provider.NewDecoder(ctx, instances(t), codecOf(t, "anthropic"), provider.DecodeOptions{Provider: "anthropic", Model: "claude-test-1"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var evs []model.StreamEvent
	for i := 0; i < len(body); i += 13 {
		if evs, err = d.Decode(ctx, body[i:min(i+13, len(body))], evs); err != nil {
			t.Fatal(err)
		}
	}
	if evs, err = d.Finish(ctx, evs); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(joined(evs), joined(live)) {
		t.Errorf("replayed\n%#v\nlive\n%#v", evs, live)
	}
}

// TestDecoderJoinsChunkDeltas: the deltas one chunk completes for one
// block come as one event (one lowering, lifting and model event per
// block and chunk), and deltas of separate chunks stay separate.
func TestDecoderJoinsChunkDeltas(t *testing.T) {
	body := mustRead(t, "testdata/anthropic-text.sse")
	ctx := context.Background()
	texts := func(chunks [][]byte) []string {
		d, err := provider.NewDecoder(ctx, instances(t), codecOf(t, "anthropic"), provider.DecodeOptions{Provider: "anthropic", Model: "claude-test-1"})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var evs []model.StreamEvent
		for _, c := range chunks {
			if evs, err = d.Decode(ctx, c, evs); err != nil {
				t.Fatal(err)
			}
		}
		if evs, err = d.Finish(ctx, evs); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range evs {
			if td, ok := e.(model.TextDelta); ok {
				out = append(out, td.Text)
			}
		}
		return out
	}
	var events [][]byte
	for _, ev := range strings.SplitAfter(string(body), "\n\n") {
		events = append(events, []byte(ev))
	}
	tests := []struct {
		name   string
		chunks [][]byte
		want   []string
	}{
		{name: "one chunk", chunks: [][]byte{body}, want: []string{"Olá, mundo"}},
		{name: "one event per chunk", chunks: events, want: []string{"Olá", ", mundo"}},
	}
	for _, tt := range tests {
		if got := texts(tt.chunks); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: text deltas %q; want %q", tt.name, got, tt.want)
		}
	}
}

// TestCost: with a price the messages carry their cost; without one it
// stays unknown (checked in TestStream).
func TestCost(t *testing.T) {
	srv := newServer(t, sse(mustRead(t, "testdata/anthropic-text.sse")))
	var priced []string
	p := newBridge(t, "anthropic", nil, func(c *provider.Config) {
		c.BaseURLFlag = srv.URL
		c.Cost = func(m string, u model.Usage) model.Amount {
			priced = append(priced, m)
			in, _ := u.Input.Value()
			out, _ := u.Output.Value()
			return model.Known(in*3000 + out*15000)
		}
	})
	d, ok := terminal(t, collect(p.Stream(context.Background(), hello()))).(model.Done)
	if !ok {
		t.Fatal("the request did not complete")
	}
	if got, _ := d.Usage.CostNanoUSD.Value(); got != 12*3000+7*15000 || len(priced) != 1 || priced[0] != "claude-test-1" {
		t.Errorf("cost %v priced for %v; want %d for claude-test-1", d.Usage.CostNanoUSD, priced, 12*3000+7*15000)
	}
}

func TestNilRequest(t *testing.T) {
	p := newBridge(t, "anthropic", nil, nil)
	e := streamError(t, collect(p.Stream(context.Background(), nil)))
	if e.Kind != model.ErrInvalidRequest || !strings.Contains(e.Message, "nil request") {
		t.Errorf("error %v; want invalid_request about the nil request", e)
	}
}
