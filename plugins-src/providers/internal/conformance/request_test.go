package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

const (
	sysPlain     = "You are a helpful assistant"
	sysParallel  = "You are a helpful assistant. Always use both add and multiply at the same time."
	askHi        = "Say hi in Portuguese"
	askWeather   = "What's the weather in Florence, Italy?"
	askWeatherNS = "What's the weather in Florence,Italy?"
	askCalc      = "Add and multiply the number 2 and 3"
)

var (
	weatherTools = []norm.Tool{{Name: "weather", Description: "Get weather information for a location",
		Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"the city"}},"required":["location"]}`)}}
	calcSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer","description":"first number"},"b":{"type":"integer","description":"second number"}},"required":["a","b"]}`)
	calcTools  = []norm.Tool{{Name: "add", Description: "Add two numbers", Parameters: calcSchema},
		{Name: "multiply", Description: "Multiply two numbers", Parameters: calcSchema}}
)

// requestCase describes, provider-neutrally, the request a recorded
// *.request.json fixture holds. history names the recorded stream whose
// decoded assistant message precedes the tool results, for follow-ups.
type requestCase struct {
	endpoint  string
	model     string
	system    string
	user      string
	tools     []norm.Tool
	maxTokens int
	thinking  norm.ThinkingLevel
	budget    int
	history   string
	results   []string // tool result text per call of the history message
}

// requestCases has one entry per *.request.json fixture; a new fixture
// without an entry fails the test until it is described here.
var requestCases = map[string]requestCase{
	"anthropic/text.request.json":      {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain, user: askHi, maxTokens: 4000},
	"anthropic/tool-call.request.json": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"anthropic/parallel-tool-calls.request.json": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysParallel,
		user: askCalc, tools: calcTools, maxTokens: 4000},
	"anthropic/parallel-tool-calls.followup.request.json": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysParallel,
		user: askCalc, tools: calcTools, maxTokens: 4000, history: "anthropic/parallel-tool-calls.sse", results: []string{"5", "6"}},
	"anthropic/thinking-tool-call.request.json": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain,
		user: askWeather, tools: weatherTools, maxTokens: 4096, thinking: norm.ThinkingMedium, budget: 4000},
	"anthropic/thinking-tool-call.followup.request.json": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain,
		user: askWeather, tools: weatherTools, maxTokens: 4096, thinking: norm.ThinkingMedium, budget: 4000,
		history: "anthropic/thinking-tool-call.sse", results: []string{"40 C"}},

	"google/text.request.json":      {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askHi, maxTokens: 4000},
	"google/tool-call.request.json": {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"google/parallel-tool-calls.request.json": {endpoint: "google", model: "gemini-2.5-flash", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"google/parallel-tool-calls.followup.request.json": {endpoint: "google", model: "gemini-2.5-flash", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000, history: "google/parallel-tool-calls.sse", results: []string{"5", "6"}},
	"google/thinking-tool-call.request.json": {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingMinimal, budget: 128},
	"google/thinking-tool-call.followup.request.json": {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingMinimal, budget: 128, history: "google/thinking-tool-call.sse", results: []string{"40 C"}},
	"google/gemini3-tool-call-with-id.request.json": {endpoint: "google", model: "gemini-3-pro-preview", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingHigh},
	"google/gemini3-text-trailing-signature.request.json": {endpoint: "google", model: "gemini-3-pro-preview", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: norm.ThinkingHigh, history: "google/gemini3-tool-call-with-id.sse", results: []string{"40 C"}},

	"openai-chat/text.request.json":      {endpoint: "openai-chat", model: "gpt-5", system: sysPlain, user: askHi, maxTokens: 4000},
	"openai-chat/tool-call.request.json": {endpoint: "openai-chat", model: "gpt-5", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"openai-chat/parallel-tool-calls.request.json": {endpoint: "openai-chat", model: "gpt-5", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"openai-chat/tool-result-followup.request.json": {endpoint: "openai-chat", model: "gpt-5", system: sysPlain, user: askWeatherNS,
		tools: weatherTools, maxTokens: 4000, history: "openai-chat/tool-call.sse", results: []string{"40 C"}},

	"openai-compatible/kimi-reasoning-details-tool-call.request.json": {endpoint: "openai-compatible", model: "moonshotai/kimi-k2.5",
		system: sysPlain, user: askWeather, tools: weatherTools},
	"openai-compatible/llamacpp-reasoning-tool-call.request.json": {endpoint: "llamacpp", model: "openai/gpt-oss-20b",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: norm.ThinkingHigh},
	"openai-compatible/xai-reasoning-tool-call.request.json": {endpoint: "xai", model: "grok-3-mini",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: norm.ThinkingHigh},
	"openai-compatible/zai-reasoning-tool-call.request.json": {endpoint: "zai", model: "glm-4.7-flash",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: norm.ThinkingHigh},
	"openai-compatible/openrouter-anthropic-reasoning-tool-call.request.json": {endpoint: "openrouter", model: "anthropic/claude-haiku-4.5",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: norm.ThinkingMedium},
	"openai-compatible/openrouter-anthropic-reasoning-tool-call.followup.request.json": {endpoint: "openrouter", model: "anthropic/claude-haiku-4.5",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: norm.ThinkingMedium,
		history: "openai-compatible/openrouter-anthropic-reasoning-tool-call.sse", results: []string{"40 C"}},

	"openai-responses/text.request.json":      {endpoint: "openai", model: "gpt-5", system: sysPlain, user: askHi, maxTokens: 4000},
	"openai-responses/tool-call.request.json": {endpoint: "openai", model: "gpt-5", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"openai-responses/parallel-tool-calls.request.json": {endpoint: "openai", model: "gpt-5", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"openai-responses/tool-call.followup.request.json": {endpoint: "openai", model: "gpt-5", system: sysPlain, user: askWeatherNS,
		tools: weatherTools, maxTokens: 4000, history: "openai-responses/tool-call.sse", results: []string{"40 C"}},
}

// TestFixturesRequests rebuilds every recorded request (and every
// follow-up, from the decoded recorded stream plus the tool results) and
// compares the JSON bodies field by field. Deliberate differences, applied
// to the built body before comparing:
//   - Gemini functionCall/functionResponse ids the decoder synthesized (the
//     model gave none) are compared by pairing, not by value: the recording
//     client made up its own ("1", "2").
//   - the request headers are not recorded; they are checked in
//     TestRequestHeaders.
func TestFixturesRequests(t *testing.T) {
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
			ep, err := endpoints.Lookup(tc.endpoint)
			if err != nil {
				t.Fatal(err)
			}
			req := &norm.Request{Model: tc.model, System: tc.system, Tools: tc.tools, MaxTokens: tc.maxTokens,
				Thinking: tc.thinking, ThinkingBudget: tc.budget, Messages: []norm.Message{norm.UserText(tc.user)}}
			if tc.history != "" {
				msg := decodeMessage(t, filepath.Join(root, tc.history), codec.API(ep.API))
				calls := msg.ToolCalls()
				if len(calls) != len(tc.results) {
					t.Fatalf("history %s has %d tool calls, the case gives %d results", tc.history, len(calls), len(tc.results))
				}
				req.Messages = append(req.Messages, msg)
				for i, c := range calls {
					req.Messages = append(req.Messages, norm.ToolResultMessage{CallID: c.ID, Name: c.Name,
						Content: []norm.Content{norm.Text{Text: tc.results[i]}}})
				}
			}
			key := ""
			if len(ep.KeyEnv) > 0 {
				key = ep.KeyEnv[0]
			}
			hr, err := codec.BuildRequest(codec.API(ep.API), req, ep.Quirks, key)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := decodeNumbers(t, raw)
			got := decodeNumbers(t, hr.Body)
			if ep.API == "gemini" {
				renameSynthesized(t, got, want)
			}
			c := comparer{synth: map[string]string{}}
			c.compare("body", want, got)
			if len(c.diffs) > 0 {
				t.Errorf("%s\n%s", rel, strings.Join(c.diffs, "\n"))
			}
		})
	}
}

// decodeMessage decodes a recorded stream into its assistant message.
func decodeMessage(t *testing.T, path string, api codec.API) norm.AssistantMessage {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := codec.NewDecoder(api, providerOf(api))
	if err != nil {
		t.Fatal(err)
	}
	var asm norm.Assembler
	for _, e := range decodeChunks(d, [][]byte{body}) {
		if err := asm.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	return asm.Message()
}

func providerOf(api codec.API) string {
	switch api {
	case codec.Gemini:
		return "google"
	case codec.OpenAIChat, codec.OpenAIResponses:
		return "openai"
	}
	return string(api)
}

// renameSynthesized replaces, in got, each Gemini call id the decoder
// synthesized by the id the recording used at the same position, after
// checking that functionCall and functionResponse ids pair up the same way
// in both bodies.
func renameSynthesized(t *testing.T, got, want any) {
	t.Helper()
	gIDs, wIDs := callIDs(got), callIDs(want)
	if len(gIDs) != len(wIDs) {
		return // the comparison reports the structural difference
	}
	rename := map[string]string{}
	for i, g := range gIDs {
		if !strings.HasPrefix(g, "gemini_") {
			continue
		}
		if prev, ok := rename[g]; ok && prev != wIDs[i] {
			t.Errorf("synthesized id %s pairs with both %s and %s in the recording", g, prev, wIDs[i])
		}
		rename[g] = wIDs[i]
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "id" {
					if r, ok := rename[s]; ok {
						v[k] = r
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(got)
}

// callIDs lists the ids of functionCall and functionResponse parts in
// document order.
func callIDs(body any) []string {
	var ids []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if k == "functionCall" || k == "functionResponse" {
					if m, ok := v[k].(map[string]any); ok {
						id, _ := m["id"].(string)
						ids = append(ids, id)
					}
				}
				walk(v[k])
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(body)
	return ids
}
