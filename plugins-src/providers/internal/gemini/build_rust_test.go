package gemini_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/gemini"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// rustBuild builds r with the Rust builder: the driver's op 'b' parses
// the request document normtrace.Document writes for r (document.rs) and
// builds it (build.rs).
func rustBuild(tb testing.TB, r *norm.Request, secretRef string) string {
	p := appendField(nil, []byte(secretRef))
	p = appendField(p, []byte(r.Model))
	p = append(p, normtrace.Document(r)...)
	return string(buildDriver(tb).Ask(tb, 'b', p))
}

func compareBuild(t *testing.T, name string, r *norm.Request) {
	t.Helper()
	want := goBuild(r, "GEMINI_API_KEY")
	if got := rustBuild(t, r, "GEMINI_API_KEY"); got != want {
		t.Fatalf("gemini: %s: the Rust request differs from the Go one\n--- go\n%s\n--- rust\n%s", name, want, got)
	}
}

const (
	sysPlain    = "You are a helpful assistant"
	sysParallel = "You are a helpful assistant. Always use both add and multiply at the same time."
	askHi       = "Say hi in Portuguese"
	askWeather  = "What's the weather in Florence, Italy?"
	askWeathNS  = "What's the weather in Florence,Italy?"
	askCalc     = "Add and multiply the number 2 and 3"
)

var (
	weatherTools = []norm.Tool{{Name: "weather", Description: "Get weather information for a location",
		Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"the city"}},"required":["location"]}`)}}
	calcSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer","description":"first number"},"b":{"type":"integer","description":"second number"}},"required":["a","b"]}`)
	calcTools  = []norm.Tool{{Name: "add", Description: "Add two numbers", Parameters: calcSchema},
		{Name: "multiply", Description: "Multiply two numbers", Parameters: calcSchema}}
)

// fixtureCase describes the request of a recorded google/*.request.json
// fixture as conformance's requestCases does: history names the recorded
// stream whose assistant message precedes the tool results.
type fixtureCase struct {
	model     string
	system    string
	user      string
	tools     []norm.Tool
	maxTokens int
	thinking  norm.ThinkingLevel
	budget    int
	history   string
	results   []string
}

// fixtureCases are the google request fixtures (conformance's
// requestCases for google); TestRustFixtureRequests fails on a fixture
// without one.
var fixtureCases = map[string]fixtureCase{
	"text.request.json":      {model: "gemini-2.5-flash", system: sysPlain, user: askHi, maxTokens: 4000},
	"tool-call.request.json": {model: "gemini-2.5-flash", system: sysPlain, user: askWeathNS, tools: weatherTools, maxTokens: 4000},
	"parallel-tool-calls.request.json": {model: "gemini-2.5-flash", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"parallel-tool-calls.followup.request.json": {model: "gemini-2.5-flash", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000, history: "parallel-tool-calls.sse", results: []string{"5", "6"}},
	"thinking-tool-call.request.json": {model: "gemini-2.5-flash", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingMinimal, budget: 128},
	"thinking-tool-call.followup.request.json": {model: "gemini-2.5-flash", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingMinimal, budget: 128, history: "thinking-tool-call.sse", results: []string{"40 C"}},
	"gemini3-tool-call-with-id.request.json": {model: "gemini-3-pro-preview", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingHigh},
	"gemini3-text-trailing-signature.request.json": {model: "gemini-3-pro-preview", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingHigh, history: "gemini3-tool-call-with-id.sse", results: []string{"40 C"}},
}

// history decodes a recorded stream with the Go decoder into its
// assistant message.
func history(tb testing.TB, path string) norm.AssistantMessage {
	tb.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	d := gemini.NewDecoder("google")
	var asm norm.Assembler
	// Feed's events live until the next call: keep a copy.
	events := slices.Clone(d.Feed(body))
	for _, e := range append(events, d.Close()...) {
		if err := asm.Add(e); err != nil {
			tb.Fatalf("gemini: assemble %s: %v", path, err)
		}
	}
	return asm.Message()
}

// fixtureRequests returns the request of every google request fixture,
// by fixture name.
func fixtureRequests(tb testing.TB) map[string]*norm.Request {
	tb.Helper()
	root := filepath.Join(fixtures.Root(tb), "google")
	paths, err := filepath.Glob(filepath.Join(root, "*.request.json"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("gemini: no google request fixtures under %s (%v)", root, err)
	}
	out := map[string]*norm.Request{}
	for _, p := range paths {
		name := filepath.Base(p)
		tc, ok := fixtureCases[name]
		if !ok {
			tb.Fatalf("gemini: no fixtureCase describes the new fixture google/%s; add one to fixtureCases", name)
		}
		r := &norm.Request{Model: tc.model, System: tc.system, Tools: tc.tools, MaxTokens: tc.maxTokens,
			Thinking: tc.thinking, ThinkingBudget: tc.budget, Messages: []norm.Message{norm.UserText(tc.user)}}
		if tc.history != "" {
			msg := history(tb, filepath.Join(root, tc.history))
			calls := msg.ToolCalls()
			if len(calls) != len(tc.results) {
				tb.Fatalf("gemini: history %s has %d tool calls, the case gives %d results", tc.history, len(calls), len(tc.results))
			}
			r.Messages = append(r.Messages, msg)
			for i, c := range calls {
				r.Messages = append(r.Messages, norm.ToolResultMessage{CallID: c.ID, Name: c.Name,
					Content: []norm.Content{norm.Text{Text: tc.results[i]}}})
			}
		}
		out[name] = r
	}
	return out
}

// TestRustFixtureRequests holds the Rust builder to the Go one on the
// request of every google request fixture (follow-ups with the recorded
// thought signatures and call ids included), and on each of them for
// both model generations, every thinking level (and an unknown one),
// with and without a budget and an output limit.
func TestRustFixtureRequests(t *testing.T) {
	levels := []norm.ThinkingLevel{norm.ThinkingDefault, norm.ThinkingOff, norm.ThinkingMinimal, norm.ThinkingLow,
		norm.ThinkingMedium, norm.ThinkingHigh, norm.ThinkingXHigh, "max"}
	for name, r := range fixtureRequests(t) {
		t.Run(name, func(t *testing.T) {
			compareBuild(t, name, r)
			for _, model := range []string{"gemini-2.5-flash", "gemini-3-pro-preview", "models/gemini 3?"} {
				for _, level := range levels {
					for _, budget := range []int{0, 4000} {
						for _, maxTokens := range []int{0, 4000} {
							v := *r
							v.Model, v.Thinking, v.ThinkingBudget, v.MaxTokens = model, level, budget, maxTokens
							compareBuild(t, fmt.Sprintf("%s as %s thinking %q budget %d max %d", name, model, level, budget, maxTokens), &v)
						}
					}
				}
			}
		})
	}
}

// handMadeRequests are requests for the paths the fixtures do not take.
func handMadeRequests() map[string]*norm.Request {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	return map[string]*norm.Request{
		"images": {Model: "gemini-2.5-flash", Messages: []norm.Message{
			norm.UserMessage{Content: []norm.Content{norm.Text{Text: "what is this?"}, norm.Image{MediaType: "image/png", Data: png}, norm.Image{MediaType: "image/jpeg", Data: []byte{0xff}}}},
			norm.AssistantMessage{Content: []norm.Content{norm.ToolCall{ID: "c1", Name: "shot", Arguments: json.RawMessage(`{}`)}}},
			norm.ToolResultMessage{CallID: "c1", Name: "shot", Content: []norm.Content{norm.Image{MediaType: "image/webp", Data: []byte("ab")}, norm.Text{Text: "a "}, norm.Text{Text: "shot"}}},
		}},
		"image in an assistant message": {Model: "gemini-2.5-flash", Messages: []norm.Message{
			norm.UserText("x"), norm.AssistantMessage{Content: []norm.Content{norm.Text{Text: "a"}, norm.Image{MediaType: "image/png", Data: png}}}}},
		"empty conversation": {Model: "gemini-2.5-flash"},
		"only empty model turns": {Model: "gemini-2.5-flash", Messages: []norm.Message{
			norm.AssistantMessage{Content: []norm.Content{norm.Thinking{Text: "summary only"}, norm.Text{}}}}},
		"tool results without a user turn after": {Model: "gemini-3-pro-preview", Messages: []norm.Message{
			norm.ToolResultMessage{Name: "a", IsError: true, Content: []norm.Content{norm.Text{Text: "boom <&>"}}},
			norm.ToolResultMessage{CallID: "x", Name: "b"},
			norm.UserText("next"),
			norm.ToolResultMessage{CallID: "y", Name: "c", Content: []norm.Content{norm.Text{Text: "\u2028"}}},
		}},
		"signatures of every kind": {Model: "gemini-3-flash", Messages: []norm.Message{
			norm.UserText("q"),
			norm.AssistantMessage{Provider: "google", Content: []norm.Content{
				norm.Thinking{Text: "t", Signature: []byte("sig\x00\xff\"<")},
				norm.Text{Text: "", Signature: []byte("trailing")},
				norm.Text{Text: "answer", Signature: []byte("s2")},
				norm.ToolCall{Name: "f", Arguments: json.RawMessage(` { "a" : [1, 2.50, "<x>"] } `), Signature: []byte("cs")},
				norm.ToolCall{ID: "i", Name: "g", Arguments: json.RawMessage(`{"bad"`)},
			}},
		}},
		"unknown level with a budget":    {Model: "gemini-2.5-pro", Thinking: "ultra", ThinkingBudget: 1, Messages: []norm.Message{norm.UserText("x")}},
		"unknown level without a budget": {Model: "gemini-2.5-pro", Thinking: "ultra", Messages: []norm.Message{norm.UserText("x")}},
		"unknown level on gemini 3":      {Model: "gemini-3-pro", Thinking: "ultra", Messages: []norm.Message{norm.UserText("x")}},
		"bad tool schema": {Model: "gemini-2.5-flash", Tools: []norm.Tool{{Name: "ok", Parameters: json.RawMessage(`{}`)},
			{Name: "bad\n", Description: "d", Parameters: json.RawMessage(`{"type":"object","default":[1e400]}`)}}},
		"system only": {Model: "gemini-2.5-flash", System: "be <brief> & \"exact\""},
	}
}

// TestRustHandMadeRequests holds the Rust builder to the Go one on
// hand-made requests.
func TestRustHandMadeRequests(t *testing.T) {
	for name, r := range handMadeRequests() {
		t.Run(name, func(t *testing.T) {
			compareBuild(t, name, r)
		})
	}
}

// byteSource hands out the bytes of a fuzz input, then zeros.
type byteSource struct{ b []byte }

func (s *byteSource) next() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *byteSource) n(max int) int { return int(s.next()) % max }

func (s *byteSource) take(max int) []byte {
	n := min(s.n(max+1), len(s.b))
	b := s.b[:n]
	s.b = s.b[n:]
	return b
}

// pick returns one of the interesting values or fuzzed bytes.
func (s *byteSource) pick(values []string) string {
	if i := s.n(len(values) + 1); i < len(values) {
		return values[i]
	}
	return string(s.take(24))
}

// text returns a string as the request document can carry it: valid
// UTF-8 (a Rust String holds nothing else; the document's JSON turns a
// Go string's invalid bytes into U+FFFD).
func (s *byteSource) text(values []string) string {
	return strings.ToValidUTF8(s.pick(values), "\uFFFD")
}

var (
	fuzzTexts  = []string{"", "hi", "<&>", "\u2028\u2029", "é\U0001F600", "\x00\x1f\"\\", "a\ufffdb"}
	fuzzModels = []string{"gemini-2.5-flash", "gemini-3-pro-preview", "gemini-2.0-flash-lite", "x/y z", ""}
	fuzzLevels = []string{"", "off", "minimal", "low", "medium", "high", "xhigh", "max"}
	fuzzArgs   = []string{`{}`, `{"a":1}`, ` [ 1 , "<" ] `, `null`, `{"a":`, `tru`, `"\u2028"`, "{\"x\":\"\u00e9\"}", `1e400`, `{"a" 1}`}
	// fuzzSchemas are valid JSON or empty (the document carries other
	// parameters as a JSON string; FuzzRustSchema covers them).
	fuzzSchemas = []string{`{"type":"object","properties":{"a":{"type":["string","null"]}}}`, `{}`, `[]`, `{"type":1}`,
		`{"anyOf":[{"type":"integer","minimum":1.0}]}`, ` { "enum" : [ "<" ] } `, ``, `{"default":1e999}`, `"s"`}
)

// fuzzSchema returns tool parameters: one of fuzzSchemas, or fuzzed
// bytes when they are valid JSON in valid UTF-8.
func fuzzSchema(s *byteSource) json.RawMessage {
	if i := s.n(len(fuzzSchemas) + 1); i < len(fuzzSchemas) {
		return json.RawMessage(fuzzSchemas[i])
	}
	if b := s.take(24); json.Valid(b) && utf8.Valid(b) {
		return json.RawMessage(b)
	}
	return json.RawMessage(`{"type":"object"}`)
}

// fuzzContent returns a content block of any kind.
func fuzzContent(s *byteSource) norm.Content {
	switch s.n(7) {
	case 0:
		return norm.Text{Text: s.text(fuzzTexts), Signature: s.take(6), Producer: "google"}
	case 1:
		return norm.Thinking{Text: s.text(fuzzTexts), Signature: s.take(6), Producer: "google"}
	case 2:
		return norm.Image{MediaType: s.text([]string{"image/png", "image/jpeg"}), Data: s.take(8)}
	case 3:
		// The document carries arguments as a JSON string: valid UTF-8.
		args := json.RawMessage(s.text(fuzzArgs))
		if len(args) == 0 {
			args = json.RawMessage("{}") // the document's tool call has arguments
		}
		return norm.ToolCall{ID: s.text([]string{"", "call_1", "gemini_0"}), Name: s.text([]string{"f", "weather"}),
			Arguments: args, Signature: s.take(6), Producer: "google"}
	case 4:
		return norm.Text{Text: s.text(fuzzTexts)}
	case 5:
		raw := json.RawMessage(s.pick(fuzzArgs))
		if len(raw) == 0 {
			raw = nil // what the document gives back for an empty one
		}
		return norm.Other{Type: []string{"executableCode", "codeExecutionResult"}[s.n(2)], Raw: raw, Producer: "google"}
	}
	return norm.Thinking{Text: s.text(fuzzTexts), Signature: []byte("sig"), Producer: "google"}
}

// fuzzRequest builds a request from fuzz bytes: any model, level, budget
// and limits, tools with fuzzed schemas, and up to eight messages of
// every role holding any content.
func fuzzRequest(b []byte) *norm.Request {
	s := &byteSource{b: b}
	r := &norm.Request{Model: s.text(fuzzModels), System: s.text(fuzzTexts), Thinking: norm.ThinkingLevel(s.text(fuzzLevels)),
		ThinkingBudget: s.n(5) * 1000, MaxTokens: s.n(3) * 2048}
	for range s.n(3) {
		r.Tools = append(r.Tools, norm.Tool{Name: s.text([]string{"f", "g"}), Description: s.text(fuzzTexts),
			Parameters: fuzzSchema(s)})
	}
	for range s.n(9) {
		var content []norm.Content
		for range s.n(4) {
			content = append(content, fuzzContent(s))
		}
		switch s.n(3) {
		case 0:
			r.Messages = append(r.Messages, norm.UserMessage{Content: content})
		case 1:
			r.Messages = append(r.Messages, norm.AssistantMessage{Content: content, Provider: "google"})
		default:
			r.Messages = append(r.Messages, norm.ToolResultMessage{CallID: s.text([]string{"", "call_1"}),
				Name: s.text([]string{"f", "g"}), Content: content, IsError: s.n(2) == 1})
		}
	}
	return r
}

// TestRustRandomRequests holds the Rust builder to the Go one on 2000
// requests generated from random bytes.
func TestRustRandomRequests(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	for i := range 2000 {
		b := make([]byte, 40+rng.IntN(200))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		compareBuild(t, fmt.Sprintf("random request %d from %x", i, b), fuzzRequest(b))
	}
}

// FuzzRustBuild builds requests generated from fuzz bytes in Go and in
// Rust and requires the same request or error.
func FuzzRustBuild(f *testing.F) {
	for _, seed := range []string{
		"\x00\x00\x00\x01\x00\x02\x03\x00\x01\x02\x00\x03\x02\x00",
		"\x01\x03\x02\x03\x01\x02\x05\x01\x00\x03\x03\x00\x00\x01\x01\x02\x02\x03\x01\x03\x00\x00\x00\x00\x04\x05\x01",
		"\x02\x01\x06\x04\x02\x02\x00\x04\x02\x08\x03\x04\x03\x01\x01\x04\x01\x00",
	} {
		f.Add([]byte(seed))
	}
	buildDriver(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		r := fuzzRequest(b)
		compareBuild(t, fmt.Sprintf("request from %q", b), r)
	})
}
