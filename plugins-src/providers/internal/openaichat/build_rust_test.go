package openaichat_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openairesp"
)

// The Rust builders (build.rs here, ../openairesp/build.rs) are held to
// BuildRequest of both packages by one harness: the Responses builder
// shares this package's anyjson.rs and driver.

// bldAPI names the builder a request goes to: 'c' Chat Completions, 'r'
// Responses.
type bldAPI byte

const (
	bldChat bldAPI = 'c'
	bldResp bldAPI = 'r'
)

// bldCase is one request to build.
type bldCase struct {
	api    bldAPI
	ref    string
	quirks openaichat.Quirks
	req    *norm.Request
}

// goBuild builds c with the Go builder and writes what the driver's op
// 'b' writes for the Rust one.
func goBuild(c bldCase) string {
	var h *norm.HTTPRequest
	var err error
	if c.api == bldResp {
		h, err = openairesp.BuildRequest(c.req, c.ref)
	} else {
		h, err = openaichat.BuildRequest(c.req, c.quirks, c.ref)
	}
	if err != nil {
		return "error " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", h.Method, h.Path)
	for _, hd := range h.Headers {
		fmt.Fprintf(&b, "header %s\x00%s\x00%s\n", hd.Name, hd.Value, hd.SecretRef)
	}
	b.WriteString("body ")
	b.Write(h.Body)
	return b.String()
}

// rustBuild asks the driver to build c.
func rustBuild(tb testing.TB, d *rustdriver.Driver, c bldCase) string {
	p := []byte{byte(c.api)}
	p = bldStr(p, c.ref)
	p = bldQuirks(p, c.quirks)
	p = bldRequest(p, c.req)
	return string(d.Ask(tb, 'b', p))
}

// rustBuildDoc asks the driver to build c from its request document, as
// the plugin does: normtrace.Document of the request with c's quirks.
func rustBuildDoc(tb testing.TB, d *rustdriver.Driver, c bldCase) string {
	p := bldStr(bldStr([]byte{byte(c.api)}, c.ref), c.req.Model)
	return string(d.Ask(tb, 'd', append(p, bldDocument(c)...)))
}

// bldDocument is the request document of c: normtrace.Document of its
// request with its quirks added.
func bldDocument(c bldCase) []byte {
	doc := normtrace.Document(c.req)
	q, err := json.Marshal(c.quirks)
	if err != nil {
		panic(err) // Quirks always marshal
	}
	return append(append(append(doc[:len(doc)-1:len(doc)-1], `,"quirks":`...), q...), '}')
}

// bldDocForm returns r as a request document can carry it (see
// normtrace.Document): no ArgumentsError, arguments as a JSON string
// carries them (each byte of invalid UTF-8 as U+FFFD), empty ones as
// "{}", a
// kept item's type non-empty and free of NUL, tool parameters without
// the space around them, or, when they are not JSON, a JSON string
// holding them.
func bldDocForm(r *norm.Request) *norm.Request {
	out := *r
	out.Messages = make([]norm.Message, len(r.Messages))
	form := func(cs []norm.Content) []norm.Content {
		cs = slices.Clone(cs)
		for i, c := range cs {
			switch c := c.(type) {
			case norm.ToolCall:
				c.ArgumentsError = ""
				c.Arguments = json.RawMessage(string([]rune(string(c.Arguments))))
				if len(c.Arguments) == 0 {
					c.Arguments = json.RawMessage("{}")
				}
				cs[i] = c
			case norm.Other:
				if c.Type == "" || strings.Contains(c.Type, "\x00") {
					c.Type = "kept"
				}
				cs[i] = c
			}
		}
		return cs
	}
	for i, m := range r.Messages {
		switch m := m.(type) {
		case norm.UserMessage:
			m.Content = form(m.Content)
			out.Messages[i] = m
		case norm.AssistantMessage:
			m.Content = form(m.Content)
			out.Messages[i] = m
		case norm.ToolResultMessage:
			m.Content = form(m.Content)
			out.Messages[i] = m
		}
	}
	out.Tools = slices.Clone(r.Tools)
	for i, t := range out.Tools {
		if len(t.Parameters) == 0 {
			continue
		}
		if p := bytes.TrimSpace(t.Parameters); json.Valid(p) {
			out.Tools[i].Parameters = p
		} else {
			q, _ := json.Marshal(string(t.Parameters))
			out.Tools[i].Parameters = q
		}
	}
	return &out
}

// bldCompare builds c with both builders twice: the request as it is (in
// the driver's encoding) and the request as its request document carries
// it (read by document.rs, as in the plugin).
func bldCompare(t *testing.T, d *rustdriver.Driver, what string, c bldCase) {
	t.Helper()
	want, got := goBuild(c), rustBuild(t, d, c)
	if got != want {
		t.Fatalf("%s (api %c, quirks %+v):\nGo   %q\nRust %q\nfirst difference at byte %d", what, c.api, c.quirks, want, got, bldDiffAt(want, got))
	}
	c.req = bldDocForm(c.req)
	want, got = goBuild(c), rustBuildDoc(t, d, c)
	if got != want {
		t.Fatalf("%s, from the request document (api %c):\n%s\nGo   %q\nRust %q\nfirst difference at byte %d", what, c.api, bldDocument(c), want, got, bldDiffAt(want, got))
	}
}

func bldDiffAt(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// The driver's request encoding (read_request in the driver): strings and
// byte fields are a u32le length and the bytes, lists a u32le count and
// the items, numbers i64le, booleans a byte, a message or block starts
// with its kind.

func bldU32(p []byte, n int) []byte    { return binary.LittleEndian.AppendUint32(p, uint32(n)) }
func bldI64(p []byte, n int) []byte    { return binary.LittleEndian.AppendUint64(p, uint64(int64(n))) }
func bldStr(p []byte, s string) []byte { return append(bldU32(p, len(s)), s...) }
func bldBytes(p, b []byte) []byte      { return append(bldU32(p, len(b)), b...) }

func bldBool(p []byte, v bool) []byte {
	if v {
		return append(p, 1)
	}
	return append(p, 0)
}

func bldQuirks(p []byte, q openaichat.Quirks) []byte {
	var flags byte
	for i, f := range []bool{q.DeveloperRole, q.NoStreamUsage, q.ReasoningDetails, q.UsageInclude, q.ToolResultName, q.NoStrict, q.NoPromptCacheKey} {
		if f {
			flags |= 1 << i
		}
	}
	p = append(p, flags)
	p = bldStr(p, q.MaxTokensField)
	p = bldStr(p, q.ThinkingFormat)
	p = bldStr(p, q.EchoReasoning)
	return bldI64(p, q.MaxToolCallIDLen)
}

func bldContent(p []byte, cs []norm.Content) []byte {
	p = bldU32(p, len(cs))
	for _, c := range cs {
		switch c := c.(type) {
		case norm.Text:
			p = bldStr(bldBytes(bldStr(append(p, 0), c.Text), c.Signature), c.Producer)
			p = bldStr(bldStr(p, c.ItemID), c.Phase)
		case norm.Thinking:
			p = bldBytes(bldBytes(bldStr(append(p, 1), c.Text), c.Signature), c.Encrypted)
			p = bldStr(bldStr(bldStr(bldBool(p, c.Redacted), c.Format), c.ItemID), c.Producer)
		case norm.Image:
			p = bldBytes(bldStr(append(p, 2), c.MediaType), c.Data)
		case norm.ToolCall:
			p = bldBytes(bldStr(bldStr(append(p, 3), c.ID), c.Name), c.Arguments)
			p = bldStr(bldStr(bldBytes(bldStr(p, c.ArgumentsError), c.Signature), c.ItemID), c.Producer)
		case norm.Other:
			p = bldStr(bldBytes(bldStr(append(p, 4), c.Type), c.Raw), c.Producer)
		default:
			panic(fmt.Sprintf("openaichat: no encoding for content %T", c))
		}
	}
	return p
}

func bldRequest(p []byte, r *norm.Request) []byte {
	p = bldStr(bldStr(p, r.Model), r.System)
	p = bldU32(p, len(r.Messages))
	for _, m := range r.Messages {
		switch m := m.(type) {
		case norm.UserMessage:
			p = bldContent(append(p, 0), m.Content)
		case norm.AssistantMessage:
			p = bldContent(append(p, 1), m.Content)
			p = bldStr(bldStr(bldStr(p, m.Provider), m.Model), m.ResponseID)
		case norm.ToolResultMessage:
			p = bldStr(bldStr(append(p, 2), m.CallID), m.Name)
			p = bldBool(bldContent(p, m.Content), m.IsError)
		default:
			panic(fmt.Sprintf("openaichat: no encoding for message %T", m))
		}
	}
	p = bldU32(p, len(r.Tools))
	for _, t := range r.Tools {
		p = bldBytes(bldStr(bldStr(p, t.Name), t.Description), t.Parameters)
	}
	p = bldStr(bldI64(p, r.MaxTokens), string(r.Thinking))
	return bldStr(bldI64(p, r.ThinkingBudget), r.CacheKey)
}

const (
	bldSysPlain     = "You are a helpful assistant"
	bldSysParallel  = "You are a helpful assistant. Always use both add and multiply at the same time."
	bldAskHi        = "Say hi in Portuguese"
	bldAskWeather   = "What's the weather in Florence, Italy?"
	bldAskWeatherNS = "What's the weather in Florence,Italy?"
	bldAskCalc      = "Add and multiply the number 2 and 3"
)

var (
	bldWeatherTools = []norm.Tool{{Name: "weather", Description: "Get weather information for a location",
		Parameters: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","description":"the city"}},"required":["location"]}`)}}
	bldCalcSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer","description":"first number"},"b":{"type":"integer","description":"second number"}},"required":["a","b"]}`)
	bldCalcTools  = []norm.Tool{{Name: "add", Description: "Add two numbers", Parameters: bldCalcSchema},
		{Name: "multiply", Description: "Multiply two numbers", Parameters: bldCalcSchema}}
)

// bldFixtureCase describes, as conformance's requestCases does, the
// request a recorded *.request.json fixture of the OpenAI wire formats
// holds; history names the recorded stream whose decoded message precedes
// the tool results.
type bldFixtureCase struct {
	endpoint, model, system, user string
	tools                         []norm.Tool
	maxTokens                     int
	thinking                      norm.ThinkingLevel
	history                       string
	results                       []string
}

var bldFixtureCases = map[string]bldFixtureCase{
	"openai-chat/text.request.json":                {"openai-chat", "gpt-5", bldSysPlain, bldAskHi, nil, 4000, "", "", nil},
	"openai-chat/tool-call.request.json":           {"openai-chat", "gpt-5", bldSysPlain, bldAskWeatherNS, bldWeatherTools, 4000, "", "", nil},
	"openai-chat/parallel-tool-calls.request.json": {"openai-chat", "gpt-5", bldSysParallel, bldAskCalc, bldCalcTools, 4000, "", "", nil},
	"openai-chat/tool-result-followup.request.json": {"openai-chat", "gpt-5", bldSysPlain, bldAskWeatherNS, bldWeatherTools, 4000, "",
		"openai-chat/tool-call.sse", []string{"40 C"}},
	"openai-compatible/kimi-reasoning-details-tool-call.request.json": {"openai-compatible", "moonshotai/kimi-k2.5", bldSysPlain,
		bldAskWeather, bldWeatherTools, 0, "", "", nil},
	"openai-compatible/llamacpp-reasoning-tool-call.request.json": {"llamacpp", "openai/gpt-oss-20b", bldSysPlain, bldAskWeather,
		bldWeatherTools, 0, norm.ThinkingHigh, "", nil},
	"openai-compatible/xai-reasoning-tool-call.request.json": {"xai", "grok-3-mini", bldSysPlain, bldAskWeather, bldWeatherTools, 0,
		norm.ThinkingHigh, "", nil},
	"openai-compatible/zai-reasoning-tool-call.request.json": {"zai", "glm-4.7-flash", bldSysPlain, bldAskWeather, bldWeatherTools, 0,
		norm.ThinkingHigh, "", nil},
	"openai-compatible/openrouter-anthropic-reasoning-tool-call.request.json": {"openrouter", "anthropic/claude-haiku-4.5", bldSysPlain,
		bldAskWeather, bldWeatherTools, 0, norm.ThinkingMedium, "", nil},
	"openai-compatible/openrouter-anthropic-reasoning-tool-call.followup.request.json": {"openrouter", "anthropic/claude-haiku-4.5",
		bldSysPlain, bldAskWeather, bldWeatherTools, 0, norm.ThinkingMedium, "openai-compatible/openrouter-anthropic-reasoning-tool-call.sse",
		[]string{"40 C"}},
	"openai-responses/text.request.json":                {"openai", "gpt-5", bldSysPlain, bldAskHi, nil, 4000, "", "", nil},
	"openai-responses/tool-call.request.json":           {"openai", "gpt-5", bldSysPlain, bldAskWeatherNS, bldWeatherTools, 4000, "", "", nil},
	"openai-responses/parallel-tool-calls.request.json": {"openai", "gpt-5", bldSysParallel, bldAskCalc, bldCalcTools, 4000, "", "", nil},
	"openai-responses/tool-call.followup.request.json": {"openai", "gpt-5", bldSysPlain, bldAskWeatherNS, bldWeatherTools, 4000, "",
		"openai-responses/tool-call.sse", []string{"40 C"}},
}

// bldFolders are the fixture folders of the two OpenAI wire formats.
var bldFolders = []string{"openai-chat", "openai-compatible", "openai-responses"}

// bldHistory decodes a recorded stream into the assistant message a
// follow-up sends back.
func bldHistory(t testing.TB, path string) norm.AssistantMessage {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var events []norm.Event
	if filepath.Base(filepath.Dir(path)) == "openai-responses" {
		d := openairesp.NewDecoder("openai")
		events = append(d.Feed(body), d.Close()...)
	} else {
		d := openaichat.NewDecoder("openai-compatible")
		events = append(d.Feed(body), d.Close()...)
	}
	var asm norm.Assembler
	for _, e := range events {
		if err := asm.Add(e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, done := e.(norm.Done); done {
			break // a stream some servers continue past its end
		}
		if _, failed := e.(norm.StreamError); failed {
			break
		}
	}
	return asm.Message()
}

// bldFollowUp returns the messages of a request that sends history back:
// the question, the history, and a result per tool call (text, or text
// and an image when withImages).
func bldFollowUp(ask string, history norm.AssistantMessage, results []string, withImages bool) []norm.Message {
	msgs := []norm.Message{norm.UserText(ask), history}
	for i, c := range history.ToolCalls() {
		text := fmt.Sprintf("result %d", i)
		if i < len(results) {
			text = results[i]
		}
		content := []norm.Content{norm.Text{Text: text}}
		if withImages {
			content = append(content, norm.Image{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G', byte(i)}})
		}
		msgs = append(msgs, norm.ToolResultMessage{CallID: c.ID, Name: c.Name, Content: content})
	}
	return msgs
}

// bldQuirkSets are the Quirks every chat request is built with: each
// endpoint's, and hand-made ones that turn on what no endpoint does.
func bldQuirkSets(t *testing.T) map[string]openaichat.Quirks {
	sets := map[string]openaichat.Quirks{
		"all flags": {DeveloperRole: true, MaxTokensField: "max_tokens", NoStreamUsage: true, ThinkingFormat: "enable_thinking",
			EchoReasoning: "reasoning_content", ReasoningDetails: true, UsageInclude: true, ToolResultName: true, NoStrict: true,
			NoPromptCacheKey: true, MaxToolCallIDLen: 9},
		"clipped ids":      {MaxToolCallIDLen: 5, ToolResultName: true},
		"colliding fields": {MaxTokensField: "messages", EchoReasoning: "tool_calls", ThinkingFormat: "openai"},
		"unknown format":   {ThinkingFormat: "qwen"},
	}
	chat := 0
	for _, name := range endpoints.Names() {
		e, err := endpoints.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if e.API == "openai-chat" {
			sets["endpoint "+name] = e.Quirks
			chat++
		}
	}
	if chat < 10 {
		t.Fatalf("openaichat: %d Chat Completions endpoints, want at least 10", chat)
	}
	return sets
}

// TestRustBuildFixtures builds, with both builders, requests shaped like
// every recorded request of the OpenAI wire formats (chat ones with their
// endpoint's Quirks and every other set) and follow-ups that send every
// recorded stream of them back (tool results as text and with images,
// every thinking level; a chat one under every set of Quirks), and
// compares method, path, headers and body bytes, or the error.
func TestRustBuildFixtures(t *testing.T) {
	d := buildDriver(t)
	root := fixtures.Root(t)
	quirkSets := bldQuirkSets(t)
	names := make([]string, 0, len(quirkSets))
	for n := range quirkSets {
		names = append(names, n)
	}
	sort.Strings(names)
	apiOf := func(folder string) bldAPI {
		if folder == "openai-responses" {
			return bldResp
		}
		return bldChat
	}
	both := func(what string, folder string, endpointQuirks openaichat.Quirks, ref string, r *norm.Request) {
		if apiOf(folder) == bldResp {
			bldCompare(t, d, what, bldCase{api: bldResp, ref: ref, req: r})
			return
		}
		bldCompare(t, d, what+" with its endpoint's quirks", bldCase{api: bldChat, ref: ref, quirks: endpointQuirks, req: r})
		for _, n := range names {
			bldCompare(t, d, what+" with quirks "+n, bldCase{api: bldChat, ref: ref, quirks: quirkSets[n], req: r})
		}
	}
	n := 0
	for _, folder := range bldFolders {
		paths, _ := filepath.Glob(filepath.Join(root, folder, "*.request.json"))
		for _, p := range paths {
			rel := folder + "/" + filepath.Base(p)
			tc, ok := bldFixtureCases[rel]
			if !ok {
				t.Fatalf("openaichat: no bldFixtureCase describes the new fixture %s; add one to bldFixtureCases", rel)
			}
			e, err := endpoints.Lookup(tc.endpoint)
			if err != nil {
				t.Fatal(err)
			}
			r := &norm.Request{Model: tc.model, System: tc.system, Tools: tc.tools, MaxTokens: tc.maxTokens, Thinking: tc.thinking,
				Messages: []norm.Message{norm.UserText(tc.user)}, CacheKey: "session-1"}
			if tc.history != "" {
				r.Messages = bldFollowUp(tc.user, bldHistory(t, filepath.Join(root, tc.history)), tc.results, false)
			}
			ref := ""
			if len(e.KeyEnv) > 0 {
				ref = e.KeyEnv[0]
			}
			both(rel, folder, e.Quirks, ref, r)
			n++
		}
		streams, _ := filepath.Glob(filepath.Join(root, folder, "*.sse"))
		levels := []norm.ThinkingLevel{"", norm.ThinkingOff, norm.ThinkingMinimal, norm.ThinkingLow, norm.ThinkingMedium,
			norm.ThinkingHigh, norm.ThinkingXHigh}
		followUp := func(history norm.AssistantMessage, level norm.ThinkingLevel, images bool) *norm.Request {
			return &norm.Request{Model: "m", System: bldSysPlain, Tools: bldCalcTools, MaxTokens: 1000, Thinking: level,
				CacheKey: "s", Messages: bldFollowUp(bldAskCalc, history, nil, images)}
		}
		for i, p := range streams {
			rel := folder + "/" + filepath.Base(p)
			history := bldHistory(t, p)
			if apiOf(folder) == bldResp {
				for _, level := range levels {
					for _, images := range []bool{false, true} {
						what := fmt.Sprintf("follow-up of %s, thinking %q, images %t", rel, level, images)
						bldCompare(t, d, what, bldCase{api: bldResp, ref: "KEY", req: followUp(history, level, images)})
						n++
					}
				}
				continue
			}
			// Each chat history under every set of Quirks, the thinking
			// levels and images taking turns.
			for j, name := range names {
				level, images := levels[(i+j)%len(levels)], (i+j)%2 == 1
				what := fmt.Sprintf("follow-up of %s, thinking %q, images %t, quirks %s", rel, level, images, name)
				bldCompare(t, d, what, bldCase{api: bldChat, ref: "KEY", quirks: quirkSets[name], req: followUp(history, level, images)})
				n++
			}
		}
	}
	if n < 30 {
		t.Fatalf("openaichat: built %d fixture-shaped requests, want at least 30", n)
	}
}

// bldPhases is a Responses history with what the recorded streams lack:
// phases, items split by phase, an output item kept verbatim, an image in
// a user message and reasoning without its encrypted content.
func bldPhases() *norm.Request {
	return &norm.Request{Model: "gpt-5.1", Thinking: norm.ThinkingHigh, Messages: []norm.Message{
		norm.UserMessage{Content: []norm.Content{norm.Text{Text: "look"}, norm.Image{MediaType: "image/jpeg", Data: []byte("\xff\xd8\xff")}}},
		norm.AssistantMessage{Content: []norm.Content{
			norm.Thinking{Text: "plan", Encrypted: []byte("gAAAA=="), ItemID: "rs_1"},
			norm.Text{Text: "Checking ", ItemID: "msg_1", Phase: "commentary"},
			norm.Text{Text: "now.", ItemID: "msg_1", Phase: "commentary"},
			norm.ToolCall{ID: "call_1", Name: "weather", Arguments: json.RawMessage(`{"location":"Florence"}`), ItemID: "fc_1"},
			norm.Other{Type: "web_search_call", Raw: json.RawMessage(`{"type":"web_search_call", "id":"ws_1"}`)},
			norm.Thinking{Text: "lost"},
			norm.Text{Text: "Done.", ItemID: "msg_2", Phase: "final_answer"},
		}},
		norm.ToolResultMessage{CallID: "call_1", Name: "weather", Content: []norm.Content{norm.Text{Text: "40 C"}}},
	}}
}

// TestRustBuildCases compares hand-made requests: Responses phases and
// kept items, and the errors of both builders.
func TestRustBuildCases(t *testing.T) {
	d := buildDriver(t)
	image := norm.AssistantMessage{Content: []norm.Content{norm.Text{Text: "x"}, norm.Image{MediaType: "image/png"}}}
	cases := []struct {
		name string
		c    bldCase
	}{
		{"responses phases", bldCase{api: bldResp, ref: "OPENAI_API_KEY", req: bldPhases()}},
		{"responses phases as chat", bldCase{api: bldChat, quirks: openaichat.Quirks{ReasoningDetails: true, EchoReasoning: "reasoning"}, req: bldPhases()}},
		{"chat image in an assistant message", bldCase{api: bldChat, req: &norm.Request{Messages: []norm.Message{norm.UserText("a"), image}}}},
		{"responses image in an assistant message", bldCase{api: bldResp, req: &norm.Request{Messages: []norm.Message{image}}}},
		{"chat invalid parameters", bldCase{api: bldChat, req: &norm.Request{Tools: []norm.Tool{{Name: "t", Parameters: json.RawMessage(`{"a":tru}`)}}}}},
		{"responses invalid kept item", bldCase{api: bldResp, req: &norm.Request{Messages: []norm.Message{norm.AssistantMessage{
			Content: []norm.Content{norm.Other{Type: "x", Raw: json.RawMessage(`{"a" 1}`)}}}}}}},
		{"chat unknown thinking format", bldCase{api: bldChat, quirks: openaichat.Quirks{ThinkingFormat: "\u00e9\x01"}, req: &norm.Request{Thinking: norm.ThinkingLow}}},
		{"chat unknown thinking format at the default level", bldCase{api: bldChat, quirks: openaichat.Quirks{ThinkingFormat: "x"}, req: &norm.Request{}}},
		{"empty requests", bldCase{api: bldChat, req: &norm.Request{}}},
		{"empty responses request", bldCase{api: bldResp, req: &norm.Request{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { bldCompare(t, d, tc.name, tc.c) })
	}
}

// bldGen draws a request from fuzz bytes. Each draw takes bytes from the
// front; an exhausted input draws zeros, so every input is a request.
type bldGen struct{ b []byte }

func (g *bldGen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *bldGen) n(max int) int { return int(g.byte()) % max }

// raw takes up to 255 bytes.
func (g *bldGen) raw() []byte {
	n := min(int(g.byte()), len(g.b))
	out := g.b[:n:n]
	g.b = g.b[n:]
	return out
}

// str is one of words (chosen by a byte) or, past them, raw text made
// valid UTF-8 (the Rust request's strings are Rust Strings).
func (g *bldGen) str(words ...string) string {
	i := int(g.byte())
	if i < len(words) {
		return words[i]
	}
	if i%2 == 0 {
		return ""
	}
	return string([]rune(string(g.raw())))
}

// json is a raw JSON value: nil, one of some valid values, or raw bytes.
func (g *bldGen) json() json.RawMessage {
	switch g.n(6) {
	case 0:
		return nil
	case 1:
		return json.RawMessage(`{"type":"object"}`)
	case 2:
		return json.RawMessage(" [1, {\"a\" : \"<b>\"}, null, true, -0.5e3] ")
	}
	if b := g.raw(); len(b) > 0 {
		return b
	}
	return nil
}

var (
	bldIDs    = []string{"call_1", "call_abcdefghijklmnop", "fc_1", "msg_1", "rs_1", "call_é\u00e9x", ""}
	bldPhaseW = []string{"", "commentary", "final_answer"}
	bldLevels = []string{"", "off", "minimal", "low", "medium", "high", "xhigh"}
	bldFields = []string{"", "max_tokens", "max_completion_tokens", "messages", "model", "tools", "reasoning_effort", "stream_options", "usage"}
	bldFormat = []string{"", "openai", "openrouter", "enable_thinking", "none"}
	bldEchoes = []string{"", "reasoning_content", "reasoning", "role", "content", "tool_calls", "reasoning_details"}
)

func (g *bldGen) content() norm.Content {
	switch g.n(5) {
	case 0:
		return norm.Text{Text: g.str("hi", "<&>\u2028"), Signature: g.raw(), ItemID: g.str(bldIDs...), Phase: g.str(bldPhaseW...)}
	case 1:
		return norm.Thinking{Text: g.str("think"), Signature: g.raw(), Encrypted: g.raw(), Redacted: g.byte()%2 == 1,
			Format: g.str("anthropic-claude-v1", "openai-responses-v1"), ItemID: g.str(bldIDs...)}
	case 2:
		return norm.Image{MediaType: g.str("image/png"), Data: g.raw()}
	case 3:
		return norm.ToolCall{ID: g.str(bldIDs...), Name: g.str("weather"), Arguments: g.raw(),
			ArgumentsError: g.str("", "arguments are not valid JSON"), ItemID: g.str(bldIDs...)}
	}
	return norm.Other{Type: g.str("web_search_call"), Raw: g.json()}
}

func (g *bldGen) contents() []norm.Content {
	cs := make([]norm.Content, g.n(5))
	for i := range cs {
		cs[i] = g.content()
	}
	return cs
}

func (g *bldGen) request() *norm.Request {
	r := &norm.Request{Model: g.str("gpt-5"), System: g.str(bldSysPlain), MaxTokens: []int{0, 1, 4000, -5, 1 << 40}[g.n(5)],
		Thinking: norm.ThinkingLevel(g.str(bldLevels...)), CacheKey: g.str("s1")}
	for range g.n(6) {
		switch g.n(3) {
		case 0:
			r.Messages = append(r.Messages, norm.UserMessage{Content: g.contents()})
		case 1:
			r.Messages = append(r.Messages, norm.AssistantMessage{Content: g.contents(), Provider: g.str("openai")})
		default:
			r.Messages = append(r.Messages, norm.ToolResultMessage{CallID: g.str(bldIDs...), Name: g.str("weather"), Content: g.contents()})
		}
	}
	for range g.n(3) {
		r.Tools = append(r.Tools, norm.Tool{Name: g.str("weather"), Description: g.str("d"), Parameters: g.json()})
	}
	return r
}

func (g *bldGen) quirks() openaichat.Quirks {
	f := g.byte()
	return openaichat.Quirks{DeveloperRole: f&1 != 0, NoStreamUsage: f&2 != 0, ReasoningDetails: f&4 != 0, UsageInclude: f&8 != 0,
		ToolResultName: f&16 != 0, NoStrict: f&32 != 0, NoPromptCacheKey: f&64 != 0, MaxTokensField: g.str(bldFields...),
		ThinkingFormat: g.str(bldFormat...), EchoReasoning: g.str(bldEchoes...), MaxToolCallIDLen: g.n(12) - 1}
}

// FuzzRustBuild builds a request and Quirks drawn from the input with
// both builders of both APIs.
func FuzzRustBuild(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x01\x01\x05\x02\x01\x04\x03\x02\x03\x01\x00\x01\x03\x03\x00\x05\x02\x02\x01\x00\x04\x01\x01"))
	f.Add(bytes.Repeat([]byte{3, 1, 4, 1, 5, 9, 2, 6}, 16))
	d := buildDriver(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		g := &bldGen{b: in}
		q := g.quirks()
		r := g.request()
		ref := g.str("OPENAI_API_KEY", endpoints.OptionalKey)
		bldCompare(t, d, "chat", bldCase{api: bldChat, ref: ref, quirks: q, req: r})
		bldCompare(t, d, "responses", bldCase{api: bldResp, ref: ref, req: r})
	})
}

// FuzzRustRawValue compares the builders on a raw JSON value that is the
// fuzzer's bytes: a chat tool's parameters and a Responses item kept
// verbatim (which a request document carries exactly) — the compacted
// value, or json.Marshal's error in the scanner's words.
func FuzzRustRawValue(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2]}`, "tru", `{"a" 1}`, `"\u12`, "[1,]", "\xff", "\x00", `{"a":"<\u2028>"}`, "1e+", "  null  ",
		"-", "0.", `{"a":1}}`, "[" + strings.Repeat("[", 10000) + "]", `"\x"`, "fals", "nulL", `{"a":"b" "c"}`} {
		f.Add([]byte(s))
	}
	d := buildDriver(f)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) == 0 {
			raw = nil // Go's empty non-nil RawMessage, which Marshal refuses, is Rust's nil one
		}
		tools := &norm.Request{Model: "m", Tools: []norm.Tool{{Name: "t", Parameters: raw}}}
		bldCompare(t, d, "chat tool parameters", bldCase{api: bldChat, req: tools})
		kept := &norm.Request{Model: "m", Messages: []norm.Message{norm.AssistantMessage{Content: []norm.Content{
			norm.Text{Text: "a"}, norm.Other{Type: "web_search_call", Raw: raw}}}}}
		bldCompare(t, d, "responses kept item", bldCase{api: bldResp, req: kept})
	})
}
