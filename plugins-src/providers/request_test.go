package providers

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
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
	weatherTools = []model.ToolDefinition{{Name: "weather", Description: "Get weather information for a location",
		Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"the city"}},"required":["location"]}`)}}
	calcSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer","description":"first number"},"b":{"type":"integer","description":"second number"}},"required":["a","b"]}`)
	calcTools  = []model.ToolDefinition{{Name: "add", Description: "Add two numbers", Parameters: calcSchema},
		{Name: "multiply", Description: "Multiply two numbers", Parameters: calcSchema}}
)

// requestCase describes, provider-neutrally, a request the recorded
// *.request.json fixtures hold. endpoint is a declared provider or a named
// OpenAI-compatible server (testdata/quirks.json); history names the
// recorded stream whose decoded assistant message precedes the tool
// results, for follow-ups.
type requestCase struct {
	endpoint  string
	model     string
	system    string
	user      string
	tools     []model.ToolDefinition
	maxTokens int
	thinking  string
	budget    int
	history   string
	results   []string // tool result text per call of the history message
}

// requestCases has one entry per recorded request fixture.
var requestCases = map[string]requestCase{
	"anthropic/text":      {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain, user: askHi, maxTokens: 4000},
	"anthropic/tool-call": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"anthropic/parallel-tool-calls": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysParallel,
		user: askCalc, tools: calcTools, maxTokens: 4000},
	"anthropic/parallel-tool-calls.followup": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysParallel,
		user: askCalc, tools: calcTools, maxTokens: 4000, history: "anthropic/parallel-tool-calls.sse", results: []string{"5", "6"}},
	"anthropic/thinking-tool-call": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain,
		user: askWeather, tools: weatherTools, maxTokens: 4096, thinking: "medium", budget: 4000},
	"anthropic/thinking-tool-call.followup": {endpoint: "anthropic", model: "claude-sonnet-4-20250514", system: sysPlain,
		user: askWeather, tools: weatherTools, maxTokens: 4096, thinking: "medium", budget: 4000,
		history: "anthropic/thinking-tool-call.sse", results: []string{"40 C"}},

	"google/text":      {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askHi, maxTokens: 4000},
	"google/tool-call": {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"google/parallel-tool-calls": {endpoint: "google", model: "gemini-2.5-flash", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"google/parallel-tool-calls.followup": {endpoint: "google", model: "gemini-2.5-flash", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000, history: "google/parallel-tool-calls.sse", results: []string{"5", "6"}},
	"google/thinking-tool-call": {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: "minimal", budget: 128},
	"google/thinking-tool-call.followup": {endpoint: "google", model: "gemini-2.5-flash", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: "minimal", budget: 128, history: "google/thinking-tool-call.sse", results: []string{"40 C"}},
	"google/gemini3-tool-call-with-id": {endpoint: "google", model: "gemini-3-pro-preview", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: "high"},
	"google/gemini3-text-trailing-signature": {endpoint: "google", model: "gemini-3-pro-preview", system: sysPlain, user: askWeather,
		tools: weatherTools, thinking: "high", history: "google/gemini3-tool-call-with-id.sse", results: []string{"40 C"}},

	"openai-chat/text":      {endpoint: "openai-chat", model: "gpt-5", system: sysPlain, user: askHi, maxTokens: 4000},
	"openai-chat/tool-call": {endpoint: "openai-chat", model: "gpt-5", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"openai-chat/parallel-tool-calls": {endpoint: "openai-chat", model: "gpt-5", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"openai-chat/tool-result-followup": {endpoint: "openai-chat", model: "gpt-5", system: sysPlain, user: askWeatherNS,
		tools: weatherTools, maxTokens: 4000, history: "openai-chat/tool-call.sse", results: []string{"40 C"}},

	"openai-compatible/kimi-reasoning-details-tool-call": {endpoint: "openai-compatible", model: "moonshotai/kimi-k2.5",
		system: sysPlain, user: askWeather, tools: weatherTools},
	"openai-compatible/llamacpp-reasoning-tool-call": {endpoint: "llamacpp", model: "openai/gpt-oss-20b",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: "high"},
	"openai-compatible/xai-reasoning-tool-call": {endpoint: "xai", model: "grok-3-mini",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: "high"},
	"openai-compatible/zai-reasoning-tool-call": {endpoint: "zai", model: "glm-4.7-flash",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: "high"},
	"openai-compatible/openrouter-anthropic-reasoning-tool-call": {endpoint: "openrouter", model: "anthropic/claude-haiku-4.5",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: "medium"},
	"openai-compatible/openrouter-anthropic-reasoning-tool-call.followup": {endpoint: "openrouter", model: "anthropic/claude-haiku-4.5",
		system: sysPlain, user: askWeather, tools: weatherTools, thinking: "medium",
		history: "openai-compatible/openrouter-anthropic-reasoning-tool-call.sse", results: []string{"40 C"}},

	"openai-responses/text":      {endpoint: "openai", model: "gpt-5", system: sysPlain, user: askHi, maxTokens: 4000},
	"openai-responses/tool-call": {endpoint: "openai", model: "gpt-5", system: sysPlain, user: askWeatherNS, tools: weatherTools, maxTokens: 4000},
	"openai-responses/parallel-tool-calls": {endpoint: "openai", model: "gpt-5", system: sysParallel, user: askCalc,
		tools: calcTools, maxTokens: 4000},
	"openai-responses/tool-call.followup": {endpoint: "openai", model: "gpt-5", system: sysPlain, user: askWeatherNS,
		tools: weatherTools, maxTokens: 4000, history: "openai-responses/tool-call.sse", results: []string{"40 C"}},
}

// target maps an endpoint to the provider the plugin declares and, for a
// named OpenAI-compatible server, its quirk flags as a user's
// configuration would hold them (testdata/quirks.json).
func target(t testing.TB, endpoint string) (string, json.RawMessage) {
	t.Helper()
	for _, p := range declaredProviders {
		if p == endpoint {
			return p, nil
		}
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(mustRead(t, "testdata/quirks.json"), &all); err != nil {
		t.Fatal(err)
	}
	q, ok := all[endpoint]
	if !ok {
		t.Fatalf("no quirks for %q in testdata/quirks.json", endpoint)
	}
	return "openai-compatible", q
}

// TestRequestGolden sends every request case (follow-ups with the history
// their recorded stream decodes to) through the bridge on the shipped
// plugin; the method, path, headers and body the loopback server receives
// are the ones in testdata/golden/request/NAME.json.
func TestRequestGolden(t *testing.T) {
	for name, tc := range requestCases {
		t.Run(name, func(t *testing.T) {
			provName, quirks := target(t, tc.endpoint)
			srv := newLoopback(t)
			p := bridge(t, provName, srv.URL, func(c *provider.Config) {
				c.Quirks, c.Thinking, c.ThinkingBudget = quirks, tc.thinking, tc.budget
			})
			req := &model.Request{Model: tc.model, System: tc.system, MaxOutputTokens: tc.maxTokens, Tools: tc.tools,
				Messages: []model.Message{model.UserText(tc.user)}}
			if tc.history != "" {
				srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(fixtureRoot, tc.history))})
				msg := assemble(t, pull(t, p, req))
				req.Messages = append(req.Messages, msg)
				calls := msg.ToolCalls()
				if len(calls) != len(tc.results) {
					t.Fatalf("%s decodes to %d tool calls, the case has %d results", tc.history, len(calls), len(tc.results))
				}
				for i, c := range calls {
					req.Messages = append(req.Messages, model.ToolResultMessage{CallID: c.ID, Name: c.Name,
						Content: []model.Content{model.Text{Text: tc.results[i]}}, Mutation: model.MutationNotApplied})
				}
			}
			srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(fixtureRoot, "anthropic", "text.sse"))})
			pull(t, p, req)
			goldenRequest(t, filepath.Join("request", name+".json"), srv)
		})
	}
}

// richConversation exercises what the recorded requests do not: images in
// user turns and tool results, an error result, several results merged
// into one turn, text after results, signed thinking from producer.
func richConversation(producer string) []model.Message {
	png := []byte{0x89, 'P', 'N', 'G', 0x0d, 0x0a}
	return []model.Message{
		model.UserMessage{Content: []model.Content{model.Text{Text: "What is in this picture, and list the files."}, model.Image{MediaType: "image/png", Data: png}}},
		model.AssistantMessage{Provider: producer, Model: "m", Stop: model.StopToolUse, Content: []model.Content{
			model.Thinking{Text: "I should look.", Signature: []byte("sig-" + producer), Producer: producer},
			model.Text{Text: "Let me check.", Producer: producer},
			model.ToolCall{ID: "call_1", Name: "ls", Arguments: json.RawMessage(`{"path":"."}`), Producer: producer},
			model.ToolCall{ID: "call_2", Name: "read", Arguments: json.RawMessage(`{"path":"a.png"}`), Producer: producer},
		}},
		model.ToolResultMessage{CallID: "call_1", Name: "ls", Content: []model.Content{model.Text{Text: "a.png\nb.go"}}, Mutation: model.MutationNotApplied},
		model.ToolResultMessage{CallID: "call_2", Name: "read", IsError: true, Mutation: model.MutationNotApplied,
			Content: []model.Content{model.Text{Text: "binary file"}, model.Image{MediaType: "image/png", Data: png}}},
		model.UserText("Thanks. Summarize."),
	}
}

// TestRichRequestGolden sends the rich conversation to every provider and
// named server, from the producer itself and handed off from another
// vendor, at a thinking level each, with a cache key; the requests are
// the ones in testdata/golden/rich/NAME.json.
func TestRichRequestGolden(t *testing.T) {
	for _, tc := range []struct{ endpoint, model, thinking string }{
		{"anthropic", "claude-sonnet-4-5", "low"},
		{"openai", "gpt-5", "high"},
		{"openai-chat", "gpt-5", "minimal"},
		{"google", "gemini-2.5-flash", "medium"},
		{"google", "gemini-3-pro-preview", "low"},
		{"openrouter", "anthropic/claude-haiku-4.5", "medium"},
		{"deepseek", "deepseek-reasoner", ""},
		{"mistral", "magistral-medium-2507", "high"},
	} {
		provName, quirks := target(t, tc.endpoint)
		for _, from := range []string{provName, "elsewhere"} {
			name := fmt.Sprintf("%s-%s-from-%s", tc.endpoint, strings.ReplaceAll(tc.model, "/", "_"), from)
			t.Run(name, func(t *testing.T) {
				srv := newLoopback(t)
				srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(fixtureRoot, "anthropic", "text.sse"))})
				p := bridge(t, provName, srv.URL, func(c *provider.Config) {
					c.Quirks, c.Thinking, c.CacheKey = quirks, tc.thinking, "session-1"
				})
				pull(t, p, &model.Request{Model: tc.model, System: "Be brief.", Messages: richConversation(from), Tools: weatherTools, MaxOutputTokens: 32000})
				goldenRequest(t, filepath.Join("rich", name+".json"), srv)
			})
		}
	}
}

// goldenRequest compares the last request srv received with the golden
// file at path, its server address replaced by http://loopback.
func goldenRequest(t testing.TB, path string, srv *loopback) {
	t.Helper()
	last := srv.last()
	if strings.Contains(string(last.raw), testKey) {
		t.Errorf("the request body carries the credential:\n%s", last.raw)
	}
	got, err := json.MarshalIndent(last, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(strings.ReplaceAll(string(got), srv.URL, "http://loopback"), testKey, "<credential>")
	golden(t, path, append([]byte(text), '\n'))
}
