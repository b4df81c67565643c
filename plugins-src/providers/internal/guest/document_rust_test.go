package guest

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

// parseDocument is what BuildRequest does with a snapshot's document
// before the hand-off: json.Unmarshal into a Document, then request.
func parseDocument(doc []byte, model string) (*Document, *norm.Request, error) {
	var d Document
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, nil, fmt.Errorf("guest: request document is not valid JSON: %w", err)
	}
	r, err := d.request(model)
	if err != nil {
		return nil, nil, err
	}
	return &d, r, nil
}

// fixtureAPIs maps each fixture folder to its wire API.
var fixtureAPIs = map[string]codec.API{
	"anthropic": codec.Anthropic, "google": codec.Gemini, "openai-chat": codec.OpenAIChat,
	"openai-compatible": codec.OpenAIChat, "openai-responses": codec.OpenAIResponses,
}

// fixtureRequests returns, for every recorded stream, the follow-up
// request that sends it back: a system prompt, the question, the
// assembled answer (its stop, usage and error cleared: a document does
// not carry them), a result per tool call (text and an image), a tool,
// and limits.
func fixtureRequests(t testing.TB) map[string]*norm.Request {
	t.Helper()
	root := fixtures.Root(t)
	out := map[string]*norm.Request{}
	for folder, api := range fixtureAPIs {
		paths, err := filepath.Glob(filepath.Join(root, folder, "*.sse"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("guest: no .sse fixtures in %s (%v)", filepath.Join(root, folder), err)
		}
		for _, p := range paths {
			body, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dec, err := codec.NewDecoder(api, folder)
			if err != nil {
				t.Fatal(err)
			}
			var asm norm.Assembler
			for _, e := range append(dec.Feed(body), dec.Close()...) {
				_ = asm.Add(e) // a refused event (after the terminal one) changes nothing
			}
			m := asm.Message()
			m.Stop, m.StopRaw, m.Usage, m.Error = "", "", norm.Usage{}, nil
			msgs := []norm.Message{norm.UserText("What is the weather in Paris?"), m}
			for i, c := range m.ToolCalls() {
				msgs = append(msgs, norm.ToolResultMessage{CallID: c.ID, Name: c.Name, IsError: i%2 == 1, Content: []norm.Content{
					norm.Text{Text: fmt.Sprintf("result %d", i)}, norm.Image{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G', byte(i)}}}})
			}
			for i, c := range m.Content {
				if tc, ok := c.(norm.ToolCall); ok && tc.ArgumentsError != "" {
					tc.ArgumentsError = ""
					m.Content[i] = tc
				}
			}
			out[folder+"/"+filepath.Base(p)] = &norm.Request{Model: "model-" + folder, System: "You are terse.", Messages: msgs,
				Tools:     []norm.Tool{{Name: "weather", Description: "Weather of a city.", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
				MaxTokens: 4096, Thinking: norm.ThinkingHigh, ThinkingBudget: 2048, CacheKey: "session-1"}
		}
	}
	return out
}

// reqGen draws requests the document can express (see
// normtrace.Document): valid UTF-8, producers set, arguments non-empty,
// other types without NUL, parameters valid JSON.
type reqGen struct{ r *rand.Rand }

var (
	genWords = []string{"", "a", "hi there", "<&>\u2028\u2029", "é€😀", "\x00\x01\x7f", `"\`, "call_1", "rs_1", "msg_1", "fc_1",
		"anthropic", "openai", "google", "openai-compatible", "commentary", "final_answer", "anthropic-claude-v1"}
	genJSON = []string{`{}`, `{"a":1}`, `[1,{"b":null}]`, `"s"`, `null`, `{"type":"object","properties":{"x":{"type":"string"}}}`, "{ \"a\" :\t[ 1 , 2 ] }", `-0.5e3`}
)

func (g reqGen) str() string {
	if g.r.IntN(4) == 0 {
		b := make([]rune, g.r.IntN(8))
		for i := range b {
			b[i] = rune(g.r.IntN(0x2000))
			if g.r.IntN(10) == 0 {
				b[i] = rune(0x10000 + g.r.IntN(0x1000))
			}
		}
		return string(b)
	}
	return genWords[g.r.IntN(len(genWords))]
}

func (g reqGen) bytes() []byte {
	if g.r.IntN(3) == 0 {
		return nil
	}
	b := make([]byte, g.r.IntN(12))
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	if len(b) > 0 && g.r.IntN(4) == 0 {
		b[0] = 0 // a payload that needs fencing
	}
	return b
}

func (g reqGen) nonEmpty() string {
	if s := g.str(); s != "" && !strings.Contains(s, "\x00") {
		return s
	}
	return "x"
}

func (g reqGen) content(producer string) norm.Content {
	prod := producer
	if prod == "" || g.r.IntN(3) == 0 {
		prod = g.str()
	}
	if producer != "" && prod == "" {
		prod = producer
	}
	switch g.r.IntN(5) {
	case 0:
		return norm.Text{Text: g.str(), Signature: g.bytes(), Producer: prod, ItemID: g.str(), Phase: g.str()}
	case 1:
		return norm.Thinking{Text: g.str(), Signature: g.bytes(), Encrypted: g.bytes(), Redacted: g.r.IntN(2) == 0,
			Format: g.str(), ItemID: g.str(), Producer: prod}
	case 2:
		return norm.Image{MediaType: g.str(), Data: g.bytes()}
	case 3:
		args := genJSON[g.r.IntN(len(genJSON))]
		if g.r.IntN(4) == 0 {
			args = g.nonEmpty()
		}
		return norm.ToolCall{ID: g.str(), Name: g.str(), Arguments: json.RawMessage(args), Signature: g.bytes(), ItemID: g.str(), Producer: prod}
	}
	return norm.Other{Type: g.nonEmpty(), Raw: g.bytes(), Producer: prod}
}

func (g reqGen) contents(producer string) []norm.Content {
	cs := make([]norm.Content, g.r.IntN(4))
	for i := range cs {
		cs[i] = g.content(producer)
	}
	return cs
}

func (g reqGen) request() *norm.Request {
	r := &norm.Request{Model: g.str(), System: g.str(), MaxTokens: []int{0, 1, 4096, -7, 1 << 40}[g.r.IntN(5)],
		Thinking: norm.ThinkingLevel(g.str()), ThinkingBudget: []int{0, 1024, -1}[g.r.IntN(3)], CacheKey: g.str()}
	for range g.r.IntN(5) {
		switch g.r.IntN(3) {
		case 0:
			r.Messages = append(r.Messages, norm.UserMessage{Content: g.contents("")})
		case 1:
			p := g.str()
			r.Messages = append(r.Messages, norm.AssistantMessage{Provider: p, Model: g.str(), ResponseID: g.str(), Content: g.contents(p)})
		default:
			r.Messages = append(r.Messages, norm.ToolResultMessage{CallID: g.str(), Name: g.str(), IsError: g.r.IntN(2) == 0, Content: g.contents("")})
		}
	}
	for range g.r.IntN(3) {
		t := norm.Tool{Name: g.str(), Description: g.str()}
		if g.r.IntN(4) > 0 {
			t.Parameters = json.RawMessage(strings.TrimSpace(genJSON[g.r.IntN(len(genJSON))]))
		}
		r.Tools = append(r.Tools, t)
	}
	return r
}

// TestDocumentRoundTrip: the guest's parser turns normtrace.Document(r)
// back into r, for the fixture follow-ups and for drawn requests.
func TestDocumentRoundTrip(t *testing.T) {
	check := func(t *testing.T, r *norm.Request) {
		t.Helper()
		doc := normtrace.Document(r)
		_, got, err := parseDocument(doc, r.Model)
		if err != nil {
			t.Fatalf("the document does not parse: %v\n%s", err, doc)
		}
		if g, w := normtrace.RequestTrace(got), normtrace.RequestTrace(r); g != w {
			t.Fatalf("the parsed request differs from the original\ndocument: %s\n got:\n%s\nwant:\n%s", doc, g, w)
		}
	}
	reqs := fixtureRequests(t)
	names := make([]string, 0, len(reqs))
	for name := range reqs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) { check(t, reqs[name]) })
	}
	t.Run("drawn", func(t *testing.T) {
		g := reqGen{rand.New(rand.NewPCG(6, 7))}
		for range 3000 {
			check(t, g.request())
		}
	})
}

// TestRustDocumentUnit runs the #[test]s of providers/src/document.rs
// (with those of the modules it includes).
func TestRustDocumentUnit(t *testing.T) {
	rustdriver.RunTests(t, "testdata/document_tests.rs")
}

// documentDriver is the Rust request document's driver, built with
// overflow checks.
func documentDriver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, "testdata/driver_document.rs", "-C", "overflow-checks=on")
}

// documentTrace is the driver's document_trace of a Go document and its
// request: the request's trace, a Doc line, an Env line per variable in
// key order, and a Quirks line.
func documentTrace(d *Document, r *norm.Request) string {
	var b strings.Builder
	b.WriteString(normtrace.RequestTrace(r))
	fmt.Fprintf(&b, "Doc BaseURL=%s BaseURLFlag=%s\n", strconv.QuoteToASCII(d.BaseURL), strconv.QuoteToASCII(d.BaseURLFlag))
	keys := make([]string, 0, len(d.Environment))
	for k := range d.Environment {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "Env Name=%s Value=%s\n", strconv.QuoteToASCII(k), strconv.QuoteToASCII(d.Environment[k]))
	}
	if q := d.Quirks; q == nil {
		b.WriteString("Quirks nil\n")
	} else {
		fmt.Fprintf(&b, "Quirks DeveloperRole=%t MaxTokensField=%s NoStreamUsage=%t ThinkingFormat=%s EchoReasoning=%s ReasoningDetails=%t UsageInclude=%t ToolResultName=%t NoStrict=%t NoPromptCacheKey=%t MaxToolCallIDLen=%d\n",
			q.DeveloperRole, strconv.QuoteToASCII(q.MaxTokensField), q.NoStreamUsage, strconv.QuoteToASCII(q.ThinkingFormat),
			strconv.QuoteToASCII(q.EchoReasoning), q.ReasoningDetails, q.UsageInclude, q.ToolResultName, q.NoStrict, q.NoPromptCacheKey, q.MaxToolCallIDLen)
	}
	return b.String()
}

// validStrings gives every string of r that came from a signature's
// frame (arbitrary bytes in Go) the Rust String's form: each byte of
// invalid UTF-8 as U+FFFD.
func validStrings(r *norm.Request) {
	fix := func(cs []norm.Content) {
		for i, c := range cs {
			switch c := c.(type) {
			case norm.Text:
				c.ItemID, c.Phase = string([]rune(c.ItemID)), string([]rune(c.Phase))
				cs[i] = c
			case norm.Thinking:
				c.Format, c.ItemID = string([]rune(c.Format)), string([]rune(c.ItemID))
				cs[i] = c
			case norm.ToolCall:
				c.ItemID = string([]rune(c.ItemID))
				cs[i] = c
			case norm.Other:
				c.Type = string([]rune(c.Type))
				cs[i] = c
			}
		}
	}
	for _, m := range r.Messages {
		switch m := m.(type) {
		case norm.UserMessage:
			fix(m.Content)
		case norm.AssistantMessage:
			fix(m.Content)
		case norm.ToolResultMessage:
			fix(m.Content)
		}
	}
}

// jsonDetail returns the encoding/json (or base64) error inside err, ""
// when err is the guest's own.
func jsonDetail(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var b64 base64.CorruptInputError
	switch {
	case errors.As(err, &syntax):
		return syntax.Error()
	case errors.As(err, &typ):
		return typ.Error()
	case errors.As(err, &b64):
		return b64.Error()
	}
	return ""
}

// compareDocument parses doc with Go's guest and with the Rust port and
// requires the same document and request, or errors that agree: the
// guest's own errors byte for byte, a JSON error with the same text
// before the JSON detail and a detail of jsonscan's (or Go's base64
// text).
func compareDocument(t *testing.T, d *rustdriver.Driver, model string, doc []byte) {
	t.Helper()
	got := string(d.Ask(t, 'd', append(binary.LittleEndian.AppendUint32(nil, uint32(len(model))), append([]byte(model), doc...)...)))
	gd, r, err := parseDocument(doc, model)
	if err == nil {
		validStrings(r)
		if want := documentTrace(gd, r); got != want {
			t.Fatalf("the Rust document differs from Go's on %.2000q\nrust:\n%s\n  go:\n%s", doc, got, want)
		}
		return
	}
	rust, ok := strings.CutPrefix(got, "ERR ")
	if !ok {
		t.Fatalf("Go refuses %.2000q (%v), Rust parses it:\n%s", doc, err, got)
	}
	detail := jsonDetail(err)
	if detail == "" {
		if rust != err.Error() {
			t.Fatalf("errors differ on %.2000q\nrust: %s\n  go: %s", doc, rust, err)
		}
		return
	}
	prefix := strings.TrimSuffix(err.Error(), detail)
	rest, ok := strings.CutPrefix(rust, prefix)
	if !ok || !(strings.HasPrefix(rest, "jsonscan: ") || strings.HasPrefix(rest, "illegal base64 data at input byte ") ||
		strings.HasPrefix(rest, "cannot unmarshal number ")) {
		t.Fatalf("errors differ on %.2000q\nrust: %s\n  go: %s (want %q and a JSON error)", doc, rust, err, prefix)
	}
}

// documentCases are hand-made documents: the fields outside the request,
// Go's decoding rules (folded keys, repeated keys, null, stale elements,
// byte arrays, base64 forms) and the guest's errors.
var documentCases = []struct {
	name string
	doc  string
}{
	{"empty", `{}`},
	{"null", `null`},
	{"overrides", `{"messages":[],"base_url":"http://x.test/v1","base_url_flag":"http://y.test","environment":{"ANTHROPIC_BASE_URL":"http://z.test","B":null},"quirks":{"developer_role":true,"max_tokens_field":"max_tokens","no_stream_usage":true,"thinking_format":"openrouter","echo_reasoning":"reasoning","reasoning_details":true,"usage_include":true,"tool_result_name":true,"no_strict":true,"no_prompt_cache_key":true,"max_tool_call_id_len":40}}`},
	{"folded keys", "{\"SYSTEM\":\"a\",\"\u017fystem\":\"b\",\"Cache_Key\":\"k\",\"th\u0131nk\u0131ng\":\"high\",\"BASE_URL\":\"u\",\"\u212aey\":1,\"messages\":[{\"ROLE\":\"user\",\"Content\":[{\"TYPE\":\"text\",\"Text\":\"x\"}]}]}"},
	{"repeated keys", `{"tools":[{"name":"a","description":"d","parameters":null},{"name":"x"}],"TOOLS":[{"name":"b"}],"tools":[{},{}],"environment":{"A":"a"},"Environment":{"C":"c"},"quirks":{"no_strict":true},"Quirks":{"usage_include":true},"system":"a","system":"b"}`},
	{"nulls clear", `{"quirks":{"no_strict":true},"quirks":null,"environment":{"A":"a"},"environment":null,"tools":[{"name":"a"}],"tools":[],"messages":[{"role":"user"}],"messages":null,"system":"s","system":null}`},
	{"stale blocks", `{"messages":[{"role":"assistant","provider":"p","content":[{"type":"text","text":"a","signature":"c2ln"},{"type":"thinking","redacted":true}],"content":[{"type":"tool_call"}],"content":[{},{}]}]}`},
	{"byte arrays", `{"messages":[{"role":"user","content":[{"type":"image","data":[1,2,3],"data":[null,5],"data":[]},{"type":"image","data":"YWJj","data":[7,null,null,null]},{"type":"image","data":"YQ\r\n==\n"}]}]}`},
	{"signatures", `{"messages":[{"role":"assistant","provider":"p","content":[{"type":"text","text":"hi","signature":"AGl0ZW09bXNnXzEAc2ln"},{"type":"text","signature":"AG90aGVyPXdlYl9zZWFyY2gAeyJ4IjoxfQ=="},{"type":"thinking","signature":"AGZvcm1hdD1mAP8=","item_id":"rs_9"},{"type":"tool_call","signature":"AGl0ZW09/wA=","item_id":""},{"type":"text","signature":"AGl0ZW09/wA=","phase":"p"}]}]}`},
	{"arguments", `{"messages":[{"role":"assistant","content":[{"type":"tool_call","arguments":{ "a" : [1, 2] }},{"type":"tool_call","arguments":null},{"type":"tool_call","arguments":"s","arguments_text":"{\"b\":2}"},{"type":"tool_call","arguments_text":""}]}]}`},
	{"unknown role", `{"messages":[{"role":"user"},{"role":"robot"}]}`},
	{"null message", `{"messages":[null]}`},
	{"unknown block", `{"messages":[{"role":"user","content":[{"type":"text"},{"type":"vid\u00e9o\n"}]}]}`},
	{"bad base64", `{"messages":[{"role":"user","content":[{"type":"text","signature":"YQ"}]}]}`},
	{"bad byte", `{"messages":[{"role":"user","content":[{"type":"image","data":[256]}]}]}`},
	{"message type error", `{"messages":[{"role":"user","is_error":"x"}]}`},
	{"message not an object", `{"messages":[5]}`},
	{"not an object", `[]`},
	{"syntax", `{"system":"a"`},
	{"trailing", `{"system":"a"} x`},
	{"fraction", `{"max_output_tokens":1.5}`},
	{"exponent", `{"thinking_budget":1e2}`},
	{"overflow", `{"max_output_tokens":9223372036854775808}`},
	{"tool type error", `{"tools":[{"name":5}]}`},
	{"environment type error", `{"environment":{"A":1}}`},
	{"quirks type error", `{"quirks":{"no_strict":"yes"}}`},
	{"deep", strings.Repeat("[", 10001) + strings.Repeat("]", 10001)},
}

// TestRustDocument holds document::parse and trace_request to Go's
// guest parser and normtrace.RequestTrace on the documents of every
// fixture follow-up, of drawn requests, and on hand-made documents.
func TestRustDocument(t *testing.T) {
	d := documentDriver(t)
	reqs := fixtureRequests(t)
	names := make([]string, 0, len(reqs))
	for name := range reqs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			r := reqs[name]
			compareDocument(t, d, r.Model, normtrace.Document(r))
		})
	}
	for _, tt := range documentCases {
		t.Run(tt.name, func(t *testing.T) {
			compareDocument(t, d, "m", []byte(tt.doc))
		})
	}
	t.Run("drawn", func(t *testing.T) {
		g := reqGen{rand.New(rand.NewPCG(8, 9))}
		for range 2000 {
			r := g.request()
			compareDocument(t, d, r.Model, normtrace.Document(r))
		}
	})
}

// FuzzRustDocument compares the Rust and Go parsers on arbitrary
// documents (seeded with documents of fixture-shaped requests and the
// hand-made cases).
func FuzzRustDocument(f *testing.F) {
	for _, tt := range documentCases {
		f.Add(tt.doc)
	}
	g := reqGen{rand.New(rand.NewPCG(1, 2))}
	for range 8 {
		f.Add(string(normtrace.Document(g.request())))
	}
	d := documentDriver(f)
	f.Fuzz(func(t *testing.T, doc string) {
		compareDocument(t, d, "m", []byte(doc))
	})
}

// benchDocument is the document of one long conversation: every fixture
// follow-up's messages in a row (about 150 messages with signatures,
// tool calls, results and images).
func benchDocument(b *testing.B) []byte {
	b.Helper()
	reqs := fixtureRequests(b)
	names := make([]string, 0, len(reqs))
	for name := range reqs {
		names = append(names, name)
	}
	sort.Strings(names)
	all := &norm.Request{Model: "m", System: "You are terse."}
	for _, name := range names {
		all.Messages = append(all.Messages, reqs[name].Messages...)
		all.Tools = reqs[name].Tools
	}
	return normtrace.Document(all)
}

// BenchmarkParseDocumentGo parses a long conversation's document as the
// Go guest does (json.Unmarshal, then request).
func BenchmarkParseDocumentGo(b *testing.B) {
	doc := benchDocument(b)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, err := parseDocument(doc, "m"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseDocumentRust parses the same document with
// document::parse, natively, timed inside the driver (op 't').
func BenchmarkParseDocumentRust(b *testing.B) {
	doc := benchDocument(b)
	d := documentDriver(b)
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	ns := binary.LittleEndian.Uint64(d.Ask(b, 't', append(binary.LittleEndian.AppendUint32(nil, uint32(b.N)), doc...)))
	b.ReportMetric(float64(ns)/float64(b.N), "rust-ns/op")
}
