package guest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

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

// fixtureRoot finds shared/fixtures/providers beside the repository (the
// directory holding go.work).
func fixtureRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatalf("guest: get working directory: %v", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			root := filepath.Join(d, "..", "shared", "fixtures", "providers")
			if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
				tb.Fatalf("guest: provider fixtures not found at %s (expected beside the repository root %s): %v", root, d, err)
			}
			return root
		}
		if filepath.Dir(d) == d {
			tb.Fatalf("guest: no go.work above %s; run the tests inside the Smith repository", dir)
		}
	}
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
func fixtureRequests(t *testing.T) map[string]*norm.Request {
	t.Helper()
	root := fixtureRoot(t)
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
