package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/plugin"
	"github.com/smith-agent/smith/core/provider"
)

// declaredProviders are the providers the plugin declares.
var declaredProviders = []string{"anthropic", "openai", "openai-chat", "google", "openai-compatible"}

// decoded is everything one decode of a body through a plugin gives: the
// model events and the first error, as core/provider reports them.
type decoded struct {
	events []model.StreamEvent
	err    string
}

// decodeWith decodes chunks as one response of provider through the
// plugin gen serves, as replay and the bridge do.
func decodeWith(tb testing.TB, gen *plugin.Generation, name string, chunks [][]byte) decoded {
	tb.Helper()
	ctx := context.Background()
	d, err := provider.NewDecoder(ctx, gen, "providers", provider.DecodeOptions{Provider: name, Model: "oracle-model"})
	if err != nil {
		return decoded{err: err.Error()}
	}
	defer d.Close()
	var out decoded
	for _, c := range chunks {
		if out.events, err = d.Decode(ctx, c, out.events); err != nil {
			out.err = err.Error()
			return out
		}
	}
	if out.events, err = d.Finish(ctx, out.events); err != nil {
		out.err = err.Error()
	}
	return out
}

// sameAsOracle decodes chunks through the Rust plugin and the Go oracle
// and reports any difference.
func sameAsOracle(tb testing.TB, name string, chunks [][]byte) {
	tb.Helper()
	got := decodeWith(tb, codecInstances(tb), name, chunks)
	want := decodeWith(tb, oracleInstances(tb), name, chunks)
	if reflect.DeepEqual(got, want) {
		return
	}
	n := min(len(got.events), len(want.events))
	i := 0
	for i < n && reflect.DeepEqual(got.events[i], want.events[i]) {
		i++
	}
	show := func(d decoded) string {
		var b strings.Builder
		for j := i; j < len(d.events) && j < i+3; j++ {
			e := d.events[j]
			if se, ok := e.(model.StreamError); ok && se.Err != nil {
				fmt.Fprintf(&b, "\n  [%d] %#v\n      %#v", j, e, *se.Err)
				continue
			}
			fmt.Fprintf(&b, "\n  [%d] %#v", j, e)
		}
		if d.err != "" {
			fmt.Fprintf(&b, "\n  error: %s", d.err)
		}
		return b.String()
	}
	tb.Errorf("%s: the Rust plugin's events differ from the Go oracle's from event %d (of %d vs %d)\nRust:%s\nGo:%s",
		name, i, len(got.events), len(want.events), show(got), show(want))
}

// TestRealPathOracle decodes every recorded stream through the Rust
// plugin and through the Go plugin it was ported from, both loaded by the
// host as smith loads them, and requires the same model events and
// errors: with the fixture's own provider in every chunking, and with
// every other declared provider fed the whole body (a foreign format must
// fail the same way).
func TestRealPathOracle(t *testing.T) {
	root := fixtures.Root(t)
	bodies, err := filepath.Glob(filepath.Join(root, "*", "*.sse"))
	if err != nil || len(bodies) == 0 {
		t.Fatalf("conformance: no *.sse fixtures under %s (%v)", root, err)
	}
	for _, path := range bodies {
		vendor := filepath.Base(filepath.Dir(path))
		t.Run(vendor+"/"+filepath.Base(path), func(t *testing.T) {
			body := mustRead(t, path)
			own := vendorProvider(vendor)
			for _, ch := range chunkings {
				sameAsOracle(t, own, ch.split(body))
			}
			for _, name := range declaredProviders {
				if name != own {
					sameAsOracle(t, name, [][]byte{body})
				}
			}
		})
	}
	sameAsOracle(t, "no-such-provider", [][]byte{[]byte("data: {}\n\n")})
}

// FuzzRealPathOracle feeds arbitrary bodies, cut at arbitrary points, to
// a declared provider of both plugins.
func FuzzRealPathOracle(f *testing.F) {
	root := fixtures.Root(f)
	for i, fx := range []string{"anthropic/thinking-tool-call.sse", "openai-chat/tool-call.sse",
		"openai-responses/reasoning-summary-tool-call.sse", "google/thinking-tool-call.sse", "openai-compatible/deepseek-length.sse"} {
		f.Add(uint8(i), uint64(i), mustRead(f, filepath.Join(root, fx)))
	}
	f.Add(uint8(0), uint64(7), []byte("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"x\"}}\n\n"))
	// Build both plugins before fuzzing: a worker that built them inside
	// its first input would be reported as hung.
	codecInstances(f)
	oracleInstances(f)
	f.Fuzz(func(t *testing.T, which uint8, seed uint64, body []byte) {
		if len(body) > 1<<16 {
			return
		}
		r := rand.New(rand.NewPCG(seed, uint64(len(body))))
		var chunks [][]byte
		for rest := body; len(rest) > 0; {
			n := 1 + r.IntN(min(len(rest), 64))
			chunks, rest = append(chunks, rest[:n]), rest[n:]
		}
		sameAsOracle(t, declaredProviders[int(which)%len(declaredProviders)], chunks)
	})
}

// TestRealPathOracleClassify serves failed responses — every recorded
// error body, the classify cases, and bodies of the wrong shape — with
// their statuses and headers through the bridge on both plugins: the
// classified errors must be equal.
func TestRealPathOracleClassify(t *testing.T) {
	root := fixtures.Root(t)
	type response struct {
		name   string
		status int
		header map[string]string
		body   []byte
	}
	var cases []response
	paths, _ := filepath.Glob(filepath.Join(root, "*", "errors", "*.json"))
	for _, path := range paths {
		if strings.HasSuffix(path, ".expect.json") {
			continue
		}
		var fx errorFixture
		if err := json.Unmarshal(mustRead(t, strings.TrimSuffix(path, ".json")+".expect.json"), &fx); err != nil {
			t.Fatal(err)
		}
		hdr := map[string]string{"content-type": "application/json"}
		for k, v := range fx.ResponseHeaders {
			hdr[k] = v
		}
		cases = append(cases, response{filepath.Base(filepath.Dir(filepath.Dir(path))) + "/" + filepath.Base(path), fx.HTTPStatus, hdr, mustRead(t, path)})
	}
	for _, tt := range classifyCases {
		if strings.HasSuffix(tt.headers.Get("retry-after"), " GMT") {
			continue // resolved against each plugin's own clock
		}
		hdr := map[string]string{"content-type": "application/json"}
		for k, v := range tt.headers {
			hdr[k] = v
		}
		cases = append(cases, response{tt.name, tt.status, hdr, []byte(tt.body)})
	}
	for _, st := range []int{400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529} {
		for i, b := range []string{"", "not json", "{}", `{"error":null}`, `{"error":"plain"}`, `[1,2]`, "{\"error\":{\"message\":\"\xff\"}}"} {
			cases = append(cases, response{fmt.Sprintf("status%d/body%d", st, i), st,
				map[string]string{"content-type": "application/json", "x-request-id": "req_1", "retry-after": "2"}, []byte(b)})
		}
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			for _, name := range declaredProviders {
				got := classifyWith(t, codecInstances(t), name, tt.status, tt.header, tt.body)
				want := classifyWith(t, oracleInstances(t), name, tt.status, tt.header, tt.body)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: the Rust plugin classifies\n %#v\nthe Go oracle\n %#v", name, got, want)
				}
			}
		})
	}
}

// classifyWith serves one failed response to the bridge on gen and
// returns the events of the stream (one StreamError).
func classifyWith(t *testing.T, gen *plugin.Generation, name string, status int, header map[string]string, body []byte) []model.StreamEvent {
	t.Helper()
	srv := newLoopback(t)
	srv.respond(status, header, [][]byte{body})
	p := bridge(t, name, srv.URL, &artifacts{}, func(c *provider.Config) { c.Instances = gen })
	return pull(t, p, &model.Request{Model: "oracle-model", Messages: []model.Message{model.UserText("hi")}})
}

// TestRealPathOracleRequests sends every recorded request case (follow-ups
// with the history the recorded stream decodes to) and the hand-off
// histories through the bridge on both plugins: the loopback server must
// receive the same method, path, headers and body.
func TestRealPathOracleRequests(t *testing.T) {
	root := fixtures.Root(t)
	for rel, tc := range requestCases {
		t.Run(rel, func(t *testing.T) {
			send := func(gen *plugin.Generation) captured {
				name, quirks := bridgeTarget(t, tc.endpoint)
				srv := newLoopback(t)
				p := bridge(t, name, srv.URL, &artifacts{}, func(c *provider.Config) {
					c.Instances = gen
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
					req.Messages = append(req.Messages, msg)
					for i, c := range msg.ToolCalls() {
						req.Messages = append(req.Messages, model.ToolResultMessage{CallID: c.ID, Name: c.Name,
							Content: []model.Content{model.Text{Text: fmt.Sprint(i)}}, Mutation: model.MutationNotApplied})
					}
				}
				srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(root, "anthropic", "text.sse"))})
				pull(t, p, req)
				got := srv.last()
				got.Header = stable(got.Header)
				return got
			}
			got, want := send(codecInstances(t)), send(oracleInstances(t))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the Rust plugin sent\n %s %s %v\n %s\nthe Go oracle sent\n %s %s %v\n %s",
					got.Method, got.Path, got.Header, got.Body, want.Method, want.Path, want.Header, want.Body)
			}
		})
	}
}

// stable drops the headers the HTTP client sets per connection.
func stable(h http.Header) http.Header {
	h = h.Clone()
	for _, k := range []string{"Content-Length", "Accept-Encoding", "User-Agent", "Idempotency-Key", "X-Stainless-Retry-Count"} {
		h.Del(k)
	}
	return h
}
