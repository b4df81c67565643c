package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
	"github.com/smith-agent/smith/httpengine"
	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// testKey is the credential every real-path test sends; no artifact of a
// run may contain it.
const testKey = "sk-test-9f3c1e7a-NEVER-LOGGED-4b2d"

// vendorProvider maps a fixture folder to the provider the plugin declares.
func vendorProvider(vendor string) string {
	if vendor == "openai-responses" {
		return "openai"
	}
	return vendor
}

// artifacts collects everything a run leaves behind: observed engine
// events and recorded exchanges.
type artifacts struct {
	mu        sync.Mutex
	observed  []string
	exchanges []provider.Exchange
}

func (a *artifacts) Observe(e httpengine.Event) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.observed = append(a.observed, fmt.Sprintf("%#v", e))
}

func (a *artifacts) Record(x provider.Exchange) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.exchanges = append(a.exchanges, x)
}

func (a *artifacts) dump() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, _ := json.Marshal(a.exchanges)
	return strings.Join(a.observed, "\n") + "\n" + string(b) + "\n" + fmt.Sprintf("%#v", a.exchanges)
}

// bridge returns the provider bridge for name against the loopback server.
// mod, when not nil, adjusts the configuration.
func bridge(t *testing.T, name, baseURL string, arts *artifacts, mod func(*provider.Config)) *provider.Provider {
	t.Helper()
	eng, err := httpengine.New(httpengine.Config{Observer: arts})
	if err != nil {
		t.Fatal(err)
	}
	cfg := provider.Config{Name: name, Plugin: "providers", Instances: codecInstances(t), Engine: eng,
		Secrets: func(string) (string, error) { return testKey, nil }, BaseURLFlag: baseURL, Environ: []string{},
		Recorder: arts}
	if mod != nil {
		mod(&cfg)
	}
	p, err := provider.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// pull runs one request to its end and returns every event.
func pull(t *testing.T, p *provider.Provider, req *model.Request) []model.StreamEvent {
	t.Helper()
	s := p.Stream(context.Background(), req)
	defer s.Close()
	var out []model.StreamEvent
	for {
		e, ok := s.Next()
		if !ok {
			return out
		}
		out = append(out, e)
	}
}

// toNorm turns model events back into the codecs' events so the native
// conformance result builder can compare them with the expectations. A
// block's signature may frame vendor metadata (norm.PackMeta): Responses
// item ids and phases go back on the block's first event, and an empty
// text block whose signature frames a server-side block becomes that
// OtherBlock again.
func toNorm(evs []model.StreamEvent) []norm.Event {
	var out []norm.Event
	usage := func(u model.Usage) norm.Usage {
		a := func(x model.Amount) norm.Amount {
			if v, ok := x.Value(); ok {
				return norm.Known(v)
			}
			return norm.Amount{}
		}
		return norm.Usage{Input: a(u.Input), Output: a(u.Output), CacheRead: a(u.CacheRead), CacheWrite: a(u.CacheWrite), Reasoning: a(u.Reasoning)}
	}
	type framed struct {
		meta    norm.Meta
		payload []byte
	}
	frames := map[int]framed{} // by block index, from the block's signature
	unpack := func(index int, sig []byte) []byte {
		if sig == nil {
			return nil
		}
		m, p := norm.UnpackMeta(sig)
		frames[index] = framed{m, p}
		if len(p) == 0 {
			return nil
		}
		return p
	}
	for _, e := range evs {
		switch e := e.(type) {
		case model.TextDelta:
			unpack(e.Index, e.Signature)
		case model.ToolCallEnd:
			unpack(e.Index, e.Signature)
		}
	}
	opened := map[int]bool{}
	for _, e := range evs {
		switch e := e.(type) {
		case model.Start:
			out = append(out, norm.Start{Provider: e.Provider, Model: e.Model, ResponseID: e.ResponseID})
		case model.TextDelta:
			f := frames[e.Index]
			if f.meta.Other != "" {
				if !opened[e.Index] {
					out = append(out, norm.OtherBlock{Index: e.Index, Type: f.meta.Other, Raw: f.payload})
				}
				opened[e.Index] = true
				continue
			}
			sig := unpack(e.Index, e.Signature)
			if e.Signature != nil && sig == nil && e.Text == "" {
				continue // metadata only
			}
			td := norm.TextDelta{Index: e.Index, Text: e.Text, Signature: sig}
			if !opened[e.Index] {
				td.ItemID, td.Phase, opened[e.Index] = f.meta.Item, f.meta.Phase, true
			}
			out = append(out, td)
		case model.ThinkingDelta:
			sig := unpack(e.Index, e.Signature)
			out = append(out, norm.ThinkingDelta{Index: e.Index, Text: e.Text, Signature: sig, Encrypted: e.Encrypted, Redacted: e.Redacted,
				ItemID: frames[e.Index].meta.Item})
		case model.ToolCallStart:
			out = append(out, norm.ToolCallStart{Index: e.Index, ID: e.ID, Name: e.Name, ItemID: frames[e.Index].meta.Item})
		case model.ToolCallDelta:
			out = append(out, norm.ToolCallDelta{Index: e.Index, Arguments: e.Arguments})
		case model.ToolCallEnd:
			out = append(out, norm.ToolCallEnd{Index: e.Index, Signature: unpack(e.Index, e.Signature)})
		case model.Done:
			out = append(out, norm.Done{Reason: norm.StopReason(e.Reason), Raw: e.RawStop, Usage: usage(e.Usage), UsageRaw: []byte(e.RawUsage)})
		case model.StreamError:
			out = append(out, norm.StreamError{Err: &norm.Error{Kind: norm.ErrorKind(e.Err.Kind), Message: e.Err.Message,
				Retryable: e.Err.Retryable, ProviderType: e.Err.ProviderType, Code: e.Err.Code, RequestID: e.Err.RequestID,
				HTTPStatus: e.Err.HTTPStatus, RetryAfter: time.Duration(e.Err.RetryAfterMillis) * time.Millisecond},
				Raw: e.RawStop, Usage: usage(e.Usage), UsageRaw: []byte(e.RawUsage)})
		}
	}
	return out
}

// notCarried removes from an expectation (or a result) what the
// smith:plugin world and the model events do not carry: body framing and
// per-event delta counts (the bridge merges payload-only deltas). The
// result's error_kind and retry_after_ms are removed too: they are
// carried, but the stream expectations do not state them.
func notCarried(v any) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, k := range []string{"framing", "delta_counts", "error_kind", "retry_after_ms"} {
		delete(m, k)
	}
}

// TestRealPathFixtures serves every NAME.sse from a loopback server, in
// several chunkings with a flush after each chunk, and runs the real path
// (core/provider → httpengine → the wasm codec); the model events must give
// the fixture's expectation.
func TestRealPathFixtures(t *testing.T) {
	root := fixtures.Root(t)
	bodies, err := filepath.Glob(filepath.Join(root, "*", "*.sse"))
	if err != nil || len(bodies) == 0 {
		t.Fatalf("conformance: no *.sse fixtures under %s (%v)", root, err)
	}
	for _, path := range bodies {
		vendor := filepath.Base(filepath.Dir(path))
		name := vendor + "/" + strings.TrimSuffix(filepath.Base(path), ".sse")
		t.Run(name, func(t *testing.T) {
			body := mustRead(t, path)
			var fx streamFixture
			if err := json.Unmarshal(mustRead(t, strings.TrimSuffix(path, ".sse")+".expect.json"), &fx); err != nil {
				t.Fatalf("conformance: parse %s.expect.json: %v", name, err)
			}
			want := decodeNumbers(t, fx.Expect)
			api, _ := want.(map[string]any)["api"].(string)
			notCarried(want)
			srv := newLoopback(t)
			arts := &artifacts{}
			p := bridge(t, vendorProvider(vendor), srv.URL, arts, nil)
			for _, ch := range chunkings {
				srv.respond(200, nil, ch.split(body))
				evs := pull(t, p, &model.Request{Model: "fixture-model", Messages: []model.Message{model.UserText("hi")}})
				got, err := result(api, norm.Framing{}, toNorm(evs))
				if err != nil {
					t.Fatalf("%s chunking: events break the protocol: %v", ch.name, err)
				}
				notCarried(got)
				c := comparer{synth: map[string]string{}, compactRaw: api == "gemini"}
				c.compare("expect", want, normalizeJSON(got))
				if len(c.diffs) > 0 {
					t.Errorf("%s chunking (%s)\n%s", ch.name, fx.Tests, strings.Join(c.diffs, "\n"))
				}
			}
			if strings.Contains(arts.dump(), testKey) {
				t.Errorf("the credential appears in the observed or recorded exchanges")
			}
		})
	}
}

// TestRealPathErrors serves every errors/NAME.json with its status and
// headers; the bridge's classified error must match the expectation's
// kind, retry hint, wait, vendor error type and request id.
func TestRealPathErrors(t *testing.T) {
	root := fixtures.Root(t)
	bodies, _ := filepath.Glob(filepath.Join(root, "*", "errors", "*.json"))
	n := 0
	for _, path := range bodies {
		if strings.HasSuffix(path, ".expect.json") {
			continue
		}
		n++
		vendor := filepath.Base(filepath.Dir(filepath.Dir(path)))
		name := vendor + "/errors/" + strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			var fx errorFixture
			if err := json.Unmarshal(mustRead(t, strings.TrimSuffix(path, ".json")+".expect.json"), &fx); err != nil {
				t.Fatal(err)
			}
			srv := newLoopback(t)
			hdr := map[string]string{"content-type": "application/json"}
			for k, v := range fx.ResponseHeaders {
				hdr[k] = v
			}
			srv.respond(fx.HTTPStatus, hdr, [][]byte{mustRead(t, path)})
			p := bridge(t, vendorProvider(vendor), srv.URL, &artifacts{}, nil)
			evs := pull(t, p, &model.Request{Model: "fixture-model", Messages: []model.Message{model.UserText("hi")}})
			if len(evs) != 1 {
				t.Fatalf("events = %v; want one error event", evs)
			}
			se, ok := evs[0].(model.StreamError)
			if !ok {
				t.Fatalf("event = %#v; want a model.StreamError", evs[0])
			}
			e := se.Err
			if string(e.Kind) != fx.Expect.Kind || e.Retryable != fx.Expect.Retryable || e.HTTPStatus != fx.HTTPStatus {
				t.Errorf("error = %+v; want kind %s, retryable %v, http %d", e, fx.Expect.Kind, fx.Expect.Retryable, fx.HTTPStatus)
			}
			if w := fx.Expect.RetryAfterSeconds; w != nil && e.RetryAfterMillis != int64(*w*1000) {
				t.Errorf("retry after %d ms; want %v s", e.RetryAfterMillis, *w)
			}
			if w := fx.Expect.RetryAfterSeconds; w == nil && e.RetryAfterMillis != 0 {
				t.Errorf("retry after %d ms; the fixture gives no wait", e.RetryAfterMillis)
			}
			if e.Message == "" {
				t.Error("the classified error has no message")
			}
			if w := fx.Expect.ProviderType; w != nil && e.ProviderType != *w || w == nil && e.ProviderType != "" {
				t.Errorf("provider type %q; want %v", e.ProviderType, show(w))
			}
			if w := fx.Expect.RequestID; w != nil && e.RequestID != *w || w == nil && e.RequestID != "" {
				t.Errorf("request id %q; want %v", e.RequestID, show(w))
			}
		})
	}
	if n == 0 {
		t.Fatalf("conformance: no errors/*.json fixtures under %s", root)
	}
}

// apiProvider maps a codec API to a provider the plugin declares.
var apiProvider = map[codec.API]string{codec.Anthropic: "anthropic", codec.OpenAIChat: "openai-chat",
	codec.OpenAIResponses: "openai", codec.Gemini: "google"}

// TestRealPathClassify serves every classifyCases response, headers
// included, through the real path: the headers reach the codec
// (x-should-retry, request ids, retry-after-ms, x-ratelimit-*) and the
// bridge's error carries everything the native classification gives —
// kind, retry hint, wait, status, vendor type and code, request id.
// Cases whose wait is an HTTP date are native only: the guest resolves it
// against the wall clock.
func TestRealPathClassify(t *testing.T) {
	n := 0
	for _, tt := range classifyCases {
		if strings.HasSuffix(tt.headers.Get("retry-after"), " GMT") {
			continue
		}
		n++
		t.Run(tt.name, func(t *testing.T) {
			name, ok := apiProvider[tt.api]
			if !ok {
				t.Fatalf("conformance: no provider declared for API %q; add it to apiProvider", tt.api)
			}
			want, err := codec.ClassifyResponse(tt.api, tt.status, tt.headers, []byte(tt.body), classifyNow)
			if err != nil {
				t.Fatal(err)
			}
			if want.Message == "" {
				want.Message = "the provider gave no message"
			}
			srv := newLoopback(t)
			hdr := map[string]string{"content-type": "application/json"}
			for k, v := range tt.headers {
				hdr[k] = v
			}
			srv.respond(tt.status, hdr, [][]byte{[]byte(tt.body)})
			p := bridge(t, name, srv.URL, &artifacts{}, nil)
			evs := pull(t, p, &model.Request{Model: "fixture-model", Messages: []model.Message{model.UserText("hi")}})
			if len(evs) != 1 {
				t.Fatalf("events = %v; want one error event", evs)
			}
			se, ok := evs[0].(model.StreamError)
			if !ok {
				t.Fatalf("event = %#v; want a model.StreamError", evs[0])
			}
			e := se.Err
			got := norm.Error{Kind: norm.ErrorKind(e.Kind), Message: e.Message, Retryable: e.Retryable,
				RetryAfter: time.Duration(e.RetryAfterMillis) * time.Millisecond, HTTPStatus: e.HTTPStatus,
				ProviderType: e.ProviderType, Code: e.Code, RequestID: e.RequestID}
			if got != *want {
				t.Errorf("real path error\n got %+v\nwant %+v (native)", got, *want)
			}
			if got.Kind != tt.kind || got.Retryable != tt.retry || got.RequestID != tt.reqID {
				t.Errorf("kind %s retryable %v request %q; want %s %v %q", got.Kind, got.Retryable, got.RequestID, tt.kind, tt.retry, tt.reqID)
			}
		})
	}
	if n == 0 {
		t.Fatal("conformance: no classifyCases run through the real path")
	}
}

// TestRealPathFollowups replays every recorded request through the
// bridge: for a follow-up, the recorded stream is decoded through the real
// path into the assistant message, the tool results are appended, and the
// request the loopback server receives must match the recording.
func TestRealPathFollowups(t *testing.T) {
	root := fixtures.Root(t)
	paths, _ := filepath.Glob(filepath.Join(root, "*", "*.request.json"))
	if len(paths) == 0 {
		t.Fatalf("conformance: no *.request.json fixtures under %s", root)
	}
	for _, path := range paths {
		rel := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(rel, func(t *testing.T) {
			tc, ok := requestCases[rel]
			if !ok {
				t.Fatalf("conformance: no requestCase describes the new fixture %s; add one to requestCases", rel)
			}
			name, quirks := bridgeTarget(t, tc.endpoint)
			srv := newLoopback(t)
			arts := &artifacts{}
			p := bridge(t, name, srv.URL, arts, func(c *provider.Config) {
				c.Quirks, c.Thinking, c.ThinkingBudget = quirks, string(tc.thinking), tc.budget
			})
			req := &model.Request{Model: tc.model, System: tc.system, MaxOutputTokens: tc.maxTokens,
				Messages: []model.Message{model.UserText(tc.user)}}
			for _, tool := range tc.tools {
				req.Tools = append(req.Tools, model.ToolDefinition{Name: tool.Name, Description: tool.Description, Parameters: tool.Parameters})
			}
			if tc.history != "" {
				srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(root, tc.history))})
				msg := assemble(t, pull(t, p, req))
				calls := msg.ToolCalls()
				if len(calls) != len(tc.results) {
					t.Fatalf("history %s has %d tool calls through the real path, the case gives %d results", tc.history, len(calls), len(tc.results))
				}
				req.Messages = append(req.Messages, msg)
				for i, c := range calls {
					req.Messages = append(req.Messages, model.ToolResultMessage{CallID: c.ID, Name: c.Name,
						Content: []model.Content{model.Text{Text: tc.results[i]}}, Mutation: model.MutationNotApplied})
				}
			}
			srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(root, "anthropic", "text.sse"))})
			pull(t, p, req)
			sent := srv.last()
			want := decodeNumbers(t, mustRead(t, path))
			got := decodeNumbers(t, sent.Body)
			if name == "google" {
				renameSynthesized(t, got, want)
			}
			c := comparer{synth: map[string]string{}}
			c.compare("body", want, got)
			if len(c.diffs) > 0 {
				t.Errorf("%s\n%s", rel, strings.Join(c.diffs, "\n"))
			}
			if strings.Contains(arts.dump(), testKey) {
				t.Errorf("the credential appears in the observed or recorded exchanges")
			}
		})
	}
}
