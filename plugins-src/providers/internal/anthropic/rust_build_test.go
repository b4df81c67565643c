package anthropic_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/anthropic"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// secretRef is the credential reference the builders are given.
const secretRef = "ANTHROPIC_API_KEY"

// goBuild is the Go builder's result for r in the driver's reply format
// (see testdata/driver_build_anthropic.rs, op 'r').
func goBuild(r *norm.Request) string {
	hr, err := anthropic.BuildRequest(r, secretRef)
	if err != nil {
		return "error: " + err.Error()
	}
	return httpText(hr)
}

// httpText shows a request template, one field per line.
func httpText(hr *norm.HTTPRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", hr.Method, hr.Path)
	for _, h := range hr.Headers {
		fmt.Fprintf(&b, "header %q %q %q\n", h.Name, h.Value, h.SecretRef)
	}
	fmt.Fprintf(&b, "body %s\n", hr.Body)
	return b.String()
}

// rustBuild sends r to the driver as the request document the host
// writes (normtrace.Document) and returns the Rust builder's result in
// httpText's format.
func rustBuild(tb testing.TB, d *rustdriver.Driver, r *norm.Request) string {
	tb.Helper()
	p := binary.LittleEndian.AppendUint32(nil, uint32(len(r.Model)))
	p = append(p, r.Model...)
	p = binary.LittleEndian.AppendUint32(p, uint32(len(secretRef)))
	p = append(p, secretRef...)
	reply := d.Ask(tb, 'r', append(p, normtrace.Document(r)...))
	if len(reply) == 0 {
		tb.Fatalf("anthropic: empty reply from the build driver")
	}
	switch reply[0] {
	case 'D':
		tb.Fatalf("anthropic: the Rust document parser refused the request document: %s\n%s", reply[1:], normtrace.Document(r))
	case 'E':
		return "error: " + string(reply[1:])
	}
	rest := reply[1:]
	field := func() []byte {
		if len(rest) < 4 {
			tb.Fatalf("anthropic: build driver reply cut short: %q", reply)
		}
		n := binary.LittleEndian.Uint32(rest)
		if uint32(len(rest)-4) < n {
			tb.Fatalf("anthropic: build driver reply cut short: %q", reply)
		}
		f := rest[4 : 4+n]
		rest = rest[4+n:]
		return f
	}
	hr := &norm.HTTPRequest{Method: string(field()), Path: string(field())}
	if len(rest) < 4 {
		tb.Fatalf("anthropic: build driver reply cut short: %q", reply)
	}
	n := binary.LittleEndian.Uint32(rest)
	rest = rest[4:]
	for range n {
		hr.Headers = append(hr.Headers, norm.Header{Name: string(field()), Value: string(field()), SecretRef: string(field())})
	}
	hr.Body = field()
	return httpText(hr)
}

func compareBuild(t *testing.T, d *rustdriver.Driver, r *norm.Request) {
	t.Helper()
	want, got := goBuild(r), rustBuild(t, d, r)
	if got != want {
		t.Fatalf("the Rust builder differs from the Go one for the request\n%s\n%s", normtrace.RequestTrace(r), diff(got, want))
	}
}

const (
	sysPlain    = "You are a helpful assistant"
	sysParallel = "You are a helpful assistant. Always use both add and multiply at the same time."
)

var (
	weatherTools = []norm.Tool{{Name: "weather", Description: "Get weather information for a location",
		Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"the city"}},"required":["location"]}`)}}
	calcSchema = json.RawMessage(`{"type": "object", "properties": {"a": {"type": "integer", "description": "first number"},
		"b": {"type": "integer", "description": "second <number> & more"}}, "required": ["a", "b"]}`)
	calcTools = []norm.Tool{{Name: "add", Description: "Add two numbers", Parameters: calcSchema},
		{Name: "multiply", Description: "Multiply two numbers", Parameters: calcSchema}}
)

// history decodes a recorded stream into its assistant message.
func history(t *testing.T, path string) norm.AssistantMessage {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := anthropic.NewDecoder("anthropic")
	var asm norm.Assembler
	for _, e := range append(d.Feed(body), d.Close()...) {
		if err := asm.Add(e); err != nil {
			t.Fatalf("anthropic: assemble %s: %v", path, err)
		}
	}
	return asm.Message()
}

// fixtureRequests are requests shaped like the recorded Anthropic request
// fixtures (conformance's requestCases: a system prompt, a question, the
// weather or calculator tools, 4000 or 4096 output tokens, thinking at
// medium with a budget of 4000) and like their follow-ups: the two
// recorded ones (the recorded answer and the results the recording sent),
// and every recorded Messages API stream decoded into the assistant
// message of the history,
// followed by a result for each of its tool calls (one an error, one with
// an image) and a next question, with and without a cache key, at every
// thinking level.
func fixtureRequests(t *testing.T) map[string]*norm.Request {
	out := map[string]*norm.Request{
		"text":                {Model: "claude-sonnet-4-20250514", System: sysPlain, MaxTokens: 4000, Messages: []norm.Message{norm.UserText("Say hi in Portuguese")}},
		"tool-call":           {Model: "claude-sonnet-4-20250514", System: sysPlain, MaxTokens: 4000, Tools: weatherTools, Messages: []norm.Message{norm.UserText("What's the weather in Florence,Italy?")}},
		"parallel-tool-calls": {Model: "claude-sonnet-4-20250514", System: sysParallel, MaxTokens: 4000, Tools: calcTools, Messages: []norm.Message{norm.UserText("Add and multiply the number 2 and 3")}},
		"thinking-tool-call": {Model: "claude-sonnet-4-20250514", System: sysPlain, MaxTokens: 4096, Thinking: norm.ThinkingMedium, ThinkingBudget: 4000,
			Tools: weatherTools, Messages: []norm.Message{norm.UserText("What's the weather in Florence, Italy?")}},
	}
	// The recorded follow-ups: the first request, the recorded answer and
	// the results the recording client sent.
	for name, results := range map[string][]string{"parallel-tool-calls": {"5", "6"}, "thinking-tool-call": {"40 C"}} {
		first := out[name]
		msg := history(t, filepath.Join(fixtures.Root(t), "anthropic", name+".sse"))
		calls := msg.ToolCalls()
		if len(calls) != len(results) {
			t.Fatalf("anthropic: %s.sse has %d tool calls, the follow-up %d results", name, len(calls), len(results))
		}
		next := *first
		next.Messages = append(append([]norm.Message{}, first.Messages...), msg)
		for i, c := range calls {
			next.Messages = append(next.Messages, norm.ToolResultMessage{CallID: c.ID, Name: c.Name, Content: []norm.Content{norm.Text{Text: results[i]}}})
		}
		out[name+".followup"] = &next
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, path := range anthropicFixtures(t) {
		name := filepath.Base(filepath.Dir(path)) + "/" + strings.TrimSuffix(filepath.Base(path), ".sse")
		msg := history(t, path)
		msgs := []norm.Message{norm.UserText("What's the weather in Florence, Italy?"), msg}
		for i, c := range msg.ToolCalls() {
			res := norm.ToolResultMessage{CallID: c.ID, Name: c.Name, Content: []norm.Content{norm.Text{Text: "40 C"}}}
			switch i % 3 {
			case 1:
				res.IsError, res.Content = true, []norm.Content{norm.Text{Text: "no such city"}}
			case 2:
				res.Content = append(res.Content, norm.Image{MediaType: "image/png", Data: png})
			}
			msgs = append(msgs, res)
		}
		for _, level := range []norm.ThinkingLevel{norm.ThinkingDefault, norm.ThinkingOff, norm.ThinkingMinimal, norm.ThinkingLow,
			norm.ThinkingMedium, norm.ThinkingHigh, norm.ThinkingXHigh} {
			for _, cache := range []string{"", "session-1"} {
				r := &norm.Request{Model: "claude-sonnet-4-5", System: sysPlain, Tools: weatherTools, MaxTokens: 4096,
					Thinking: level, CacheKey: cache, Messages: msgs}
				out[fmt.Sprintf("%s/%s/cache=%t", name, level, cache != "")] = r
				next := *r
				next.Messages = append(append([]norm.Message{}, msgs...), norm.UserText("And in Rome?"))
				next.MaxTokens = 0
				out[fmt.Sprintf("%s/%s/cache=%t/next", name, level, cache != "")] = &next
			}
		}
	}
	return out
}

// edgeRequests reach what the fixture-shaped requests do not: output
// bounds and budgets at every edge, unknown levels, thinking blocks of
// every kind, images, empty and skipped messages, tool results without a
// following user message, server blocks, arguments that are not JSON,
// and strings JSON must escape.
func edgeRequests() map[string]*norm.Request {
	user := norm.UserText("hi")
	out := map[string]*norm.Request{
		"empty":                  {Model: "m"},
		"only an empty user":     {Model: "m", Messages: []norm.Message{norm.UserMessage{}}, CacheKey: "k"},
		"empty assistant":        {Model: "m", Messages: []norm.Message{user, norm.AssistantMessage{}, user}, CacheKey: "k"},
		"results without a user": {Model: "m", Messages: []norm.Message{norm.ToolResultMessage{CallID: "a"}, norm.ToolResultMessage{CallID: "b", IsError: true}}, CacheKey: "k"},
		"results then assistant": {Model: "m", Messages: []norm.Message{norm.ToolResultMessage{CallID: "a", Content: []norm.Content{norm.Text{Text: "r"}}},
			norm.AssistantMessage{Content: []norm.Content{norm.Text{Text: "ok"}}}}},
		"thinking kinds": {Model: "m", CacheKey: "k", Messages: []norm.Message{user, norm.AssistantMessage{Content: []norm.Content{
			norm.Thinking{Text: "signed", Signature: []byte("EqQBCkgIARABGAIiQL")},
			norm.Thinking{Redacted: true, Encrypted: []byte("EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP")},
			norm.Thinking{Text: "unsigned, cut off"},
			norm.Thinking{},
			norm.Text{Text: "answer"},
			norm.Text{},
		}}}},
		"images": {Model: "m", CacheKey: "k", Messages: []norm.Message{norm.UserMessage{Content: []norm.Content{
			norm.Image{MediaType: "image/jpeg", Data: []byte{0xff, 0xd8, 0xff}}, norm.Image{}, norm.Text{Text: "what is this?"},
			norm.Image{MediaType: "image/png", Data: bytes.Repeat([]byte{1, 2, 3, 250}, 100)}}}}},
		"assistant image": {Model: "m", Thinking: "extreme", Messages: []norm.Message{user,
			norm.AssistantMessage{Content: []norm.Content{norm.Text{Text: "x"}, norm.Image{MediaType: "image/png"}}}}},
		"server blocks": {Model: "m", CacheKey: "k", Messages: []norm.Message{user, norm.AssistantMessage{Content: []norm.Content{
			norm.Other{Type: "server_tool_use", Raw: json.RawMessage(`{"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "<a>"}}`)},
			norm.Other{Type: "web_search_tool_result", Raw: json.RawMessage(`{"type":"web_search_tool_result","content":[]}`)}}}}},
		"invalid server block": {Model: "m", Messages: []norm.Message{user, norm.AssistantMessage{Content: []norm.Content{
			norm.Other{Type: "x", Raw: json.RawMessage(`{"type": tru}`)}}}}},
		"arguments": {Model: "m", CacheKey: "k", Messages: []norm.Message{user, norm.AssistantMessage{Content: []norm.Content{
			norm.ToolCall{ID: "toolu_1", Name: "weather", Arguments: json.RawMessage(` { "location" : "Florence\u2028" } `)},
			norm.ToolCall{ID: "toolu_2", Name: "weather", Arguments: json.RawMessage(`{}`)}}}}},
		"arguments not JSON": {Model: "m", Messages: []norm.Message{user, norm.AssistantMessage{Content: []norm.Content{
			norm.ToolCall{ID: "toolu_1", Name: "weather", Arguments: json.RawMessage(`{"location": "Flor`)}}}}},
		"escapes": {Model: "m<&>", System: "a\u2028b\x00\"\\</script>", CacheKey: "k", Tools: []norm.Tool{{Name: "t\u2029", Description: "<d>"}},
			Messages: []norm.Message{norm.UserText("é😀\t\r\n\x7f")}},
		"tool without parameters": {Model: "m", Tools: []norm.Tool{{Name: "t"}}},
	}
	for _, max := range []int{-5, 0, 1, 1023, 1024, 1025, 2048, 2049, 4000, 4096, 16384, 16385, 21845, 32000, 64000, 1 << 40} {
		for _, level := range []norm.ThinkingLevel{"", "off", "minimal", "low", "medium", "high", "xhigh", "extreme", "High"} {
			for _, budget := range []int{-1, 0, 500, 1023, 1024, 1025, 4000, 4096, 40000, 1 << 62} {
				out[fmt.Sprintf("max=%d/level=%s/budget=%d", max, level, budget)] = &norm.Request{Model: "claude-opus-4-1",
					MaxTokens: max, Thinking: level, ThinkingBudget: budget, Messages: []norm.Message{user}}
			}
		}
	}
	return out
}

// TestRustBuildRequest holds the Rust build_request, given the request
// document, to Go's BuildRequest on the fixture-shaped and edge requests:
// method, path, headers and body bytes, or the error text.
func TestRustBuildRequest(t *testing.T) {
	d := buildDriver(t)
	n := 0
	for _, set := range []map[string]*norm.Request{fixtureRequests(t), edgeRequests()} {
		for name, r := range set {
			t.Run(name, func(t *testing.T) { compareBuild(t, d, r) })
			n++
		}
	}
	t.Logf("%d requests built alike", n)
}

// FuzzRustBuildRequest compares the builders on requests generated from
// the fuzzer's bytes (see genRequest).
func FuzzRustBuildRequest(f *testing.F) {
	f.Add([]byte("\x00"))
	f.Add([]byte("\x05\x03\x02\x04\x01\x00\x03\x02\x01hello\x02\x06\x01\x02\x03\x04\x05\x06"))
	f.Add([]byte("\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0"))
	f.Add(bytes.Repeat([]byte{7, 1, 2, 3, 4, 5, 6, 0}, 30))
	f.Add([]byte("\x00\x00\x00\x00\x01\x01\x01\x01\x01\x03\x03\x00\x0a{\"a\": [1, tru\x04\x00\x0c[1, {\"b\":nul]"))
	d := buildDriver(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		compareBuild(t, d, genRequest(data))
	})
}

// gen hands out the fuzzer's bytes as choices; it gives zeros once they
// run out.
type gen struct{ b []byte }

func (g *gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

// pick returns one of the choices.
func pick[T any](g *gen, choices ...T) T { return choices[int(g.byte())%len(choices)] }

// bytes returns up to 31 of the next bytes.
func (g *gen) bytes() []byte {
	n := min(int(g.byte()%32), len(g.b))
	b := g.b[:n]
	g.b = g.b[n:]
	return bytes.Clone(b)
}

// str returns a string a request document can carry: one of a few
// strings JSON must escape, or fuzzed bytes as valid UTF-8 (a document's
// strings are JSON strings, so invalid bytes could not survive it).
func (g *gen) str() string {
	if c := g.byte(); c < 64 {
		return pick(g, "", "hi", "<&>", "\u2028\u2029", "\x00\x1f\"\\", "é😀", "prompt", strings.Repeat("x", 300))
	}
	return string([]rune(string(g.bytes())))
}

// raw returns a raw JSON text: valid with spaces and characters to
// escape, not valid at all, or fuzzed text (valid UTF-8, never empty: a
// document carries a tool call's arguments as a JSON string and empty
// ones as "{}", and Go's empty non-nil RawMessage, which Marshal refuses,
// is Rust's nil one).
func (g *gen) raw() json.RawMessage {
	if g.byte() < 48 {
		if b := string([]rune(string(g.bytes()))); b != "" {
			return json.RawMessage(b)
		}
	}
	return json.RawMessage(pick(g, `{}`, `{"a": [1, 2.5e3, true, null]}`, ` {"q": "<b>&\u2028"} `, `[1]`, `"s"`, `{"a":`,
		`{"a" 1}`, `nul`, `[1 2]`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}", `1.`, `-`, `{"type":"server_tool_use","id":"x"}`))
}

func (g *gen) content(assistant bool) norm.Content {
	switch g.byte() % 6 {
	case 0:
		return norm.Text{Text: g.str()}
	case 1:
		if assistant && g.byte()%4 != 0 {
			return norm.Text{Text: g.str()}
		}
		return norm.Image{MediaType: g.str(), Data: g.bytes()}
	case 2:
		th := norm.Thinking{Text: g.str(), Redacted: g.byte()%3 == 0}
		if g.byte()%2 == 0 {
			th.Signature = g.bytes()
		}
		if th.Redacted {
			th.Encrypted = g.bytes()
		}
		return th
	case 3:
		return norm.ToolCall{ID: g.str(), Name: g.str(), Arguments: g.raw()}
	case 4:
		return norm.Other{Type: "server_tool_use", Raw: g.raw()}
	}
	return norm.Text{}
}

// genRequest builds a request from fuzz bytes: any mix of messages and
// blocks, output bounds, levels, budgets, tools and cache keys. It keeps
// to what a request document carries: valid UTF-8 strings, tool
// parameters that are JSON, arguments that are not empty, no
// ArgumentsError (the document has no such field).
func genRequest(data []byte) *norm.Request {
	g := &gen{b: data}
	r := &norm.Request{
		Model:          pick(g, "claude-sonnet-4-5", "claude-opus-4-1", "m<&>", ""),
		MaxTokens:      pick(g, 0, 0, -1, 1, 1024, 1025, 2048, 4096, 16385, 32000, 1<<40),
		Thinking:       pick[norm.ThinkingLevel](g, "", "", "off", "minimal", "low", "medium", "high", "xhigh", "max", "\"x\"\x01"),
		ThinkingBudget: pick(g, 0, 0, 0, -3, 1, 1023, 1024, 4000, 40000, 1<<62),
	}
	if g.byte()%2 == 0 {
		r.System = g.str()
	}
	if g.byte()%2 == 0 {
		r.CacheKey = pick(g, "k", "session")
	}
	for range g.byte() % 3 {
		r.Tools = append(r.Tools, norm.Tool{Name: g.str(), Description: g.str(),
			Parameters: pick(g, json.RawMessage(nil), json.RawMessage(`{"type": "object"}`), json.RawMessage(` {"a":"<\u2028>"} `))})
	}
	for range g.byte() % 8 {
		n := int(g.byte() % 4)
		var content []norm.Content
		switch g.byte() % 3 {
		case 0:
			for range n {
				content = append(content, g.content(false))
			}
			r.Messages = append(r.Messages, norm.UserMessage{Content: content})
		case 1:
			for range n {
				content = append(content, g.content(true))
			}
			r.Messages = append(r.Messages, norm.AssistantMessage{Content: content, Provider: "anthropic"})
		case 2:
			for range n {
				content = append(content, g.content(false))
			}
			r.Messages = append(r.Messages, norm.ToolResultMessage{CallID: g.str(), Content: content, IsError: g.byte()%2 == 0})
		}
	}
	return r
}

// FuzzRustRawValue compares the builders on one server block whose raw
// JSON is the fuzzer's bytes (a document carries them exactly, framed in
// a signature): the body, or json.Marshal's error for a value that is not
// valid JSON, in the scanner's words.
func FuzzRustRawValue(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2]}`, "tru", `{"a" 1}`, `"\u12`, "[1,]", "\xff", "\x00", `{"a":"<\u2028>"}`, "1e+", "  null  ",
		strings.Repeat("[", 10001)} {
		f.Add([]byte(s))
	}
	d := buildDriver(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) == 0 {
			return // Go's empty non-nil RawMessage is Rust's nil one (see build.rs)
		}
		compareBuild(t, d, &norm.Request{Model: "m", Messages: []norm.Message{norm.UserText("hi"),
			norm.AssistantMessage{Content: []norm.Content{norm.Other{Type: "server_tool_use", Raw: raw}}}}})
	})
}
