package handoff_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/fixtures"

	"github.com/smith-agent/smith/plugins-src/internal/rustdriver"
	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
	"github.com/smith-agent/smith/plugins-src/providers/internal/endpoints"
	"github.com/smith-agent/smith/plugins-src/providers/internal/guest"
	"github.com/smith-agent/smith/plugins-src/providers/internal/handoff"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
	"github.com/smith-agent/smith/plugins-src/providers/internal/normtrace"
)

func TestMain(m *testing.M) {
	code := m.Run()
	rustdriver.Stop()
	os.Exit(code)
}

// TestRustHandoffUnit runs the #[test]s of handoff.rs.
func TestRustHandoffUnit(t *testing.T) {
	rustdriver.RunTests(t, "testdata/handoff_tests.rs")
}

// driver is the Rust port's driver, built with overflow checks.
func driver(tb testing.TB) *rustdriver.Driver {
	return rustdriver.Start(tb, "testdata/driver_handoff.rs", "-C", "overflow-checks=on")
}

func appendStr(p []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint32(p, uint32(len(s))), s...)
}

// compareTransform sends msgs (as the request document of a request
// holding them) and the indexes of the messages that ended in an error to
// the Rust transform, and requires the trace of Go's Transform of the
// same messages (as Go's guest parses the document back).
func compareTransform(t *testing.T, d *rustdriver.Driver, msgs []norm.Message, errored []int, tgt handoff.Target) {
	t.Helper()
	doc := normtrace.Document(&norm.Request{Messages: msgs})
	r, err := guest.ParseDocument(doc, "")
	if err != nil {
		t.Fatalf("the document of the messages does not parse: %v\n%s", err, doc)
	}
	in := r.Messages
	for _, i := range errored {
		if a, ok := in[i].(norm.AssistantMessage); ok {
			a.Error = &norm.Error{Message: "failed"}
			in[i] = a
		}
	}
	want := normtrace.RequestTrace(&norm.Request{Messages: handoff.Transform(in, tgt)})
	p := appendStr(appendStr(appendStr(appendStr(nil, tgt.Provider), tgt.API), tgt.Model), tgt.IDStyle)
	p = binary.LittleEndian.AppendUint32(p, uint32(len(errored)))
	for _, i := range errored {
		p = binary.LittleEndian.AppendUint32(p, uint32(i))
	}
	got := string(d.Ask(t, 'h', append(p, doc...)))
	if got != want {
		t.Fatalf("the Rust transform differs from Go's for %+v (errored %v) on\n%s\nrust:\n%s\n  go:\n%s",
			tgt, errored, normtrace.RequestTrace(&norm.Request{Messages: in}), got, want)
	}
}

// fixtureTurns decodes every recorded stream into the assistant message
// its provider's decoder assembles, keyed by folder/file.
func fixtureTurns(t *testing.T) map[string]norm.AssistantMessage {
	t.Helper()
	folders := []struct {
		dir, provider string
		api           codec.API
	}{
		{"anthropic", "anthropic", codec.Anthropic},
		{"google", "google", codec.Gemini},
		{"openai-chat", "openai", codec.OpenAIChat},
		{"openai-compatible", "openrouter", codec.OpenAIChat},
		{"openai-responses", "openai", codec.OpenAIResponses},
	}
	root := fixtures.Root(t)
	out := map[string]norm.AssistantMessage{}
	for _, f := range folders {
		paths, err := filepath.Glob(filepath.Join(root, f.dir, "*.sse"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("handoff: no .sse fixtures in %s (%v)", filepath.Join(root, f.dir), err)
		}
		for _, p := range paths {
			body, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			dec, err := codec.NewDecoder(f.api, f.provider)
			if err != nil {
				t.Fatal(err)
			}
			var asm norm.Assembler
			for _, e := range append(dec.Feed(body), dec.Close()...) {
				_ = asm.Add(e) // a refused event changes nothing
			}
			out[f.dir+"/"+filepath.Base(p)] = asm.Message()
		}
	}
	return out
}

// targets are every endpoint's target, for the model "gpt-5" and for
// the model "claude-sonnet-4".
func targets(t *testing.T) []handoff.Target {
	t.Helper()
	var out []handoff.Target
	for _, name := range endpoints.Names() {
		e, err := endpoints.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []string{"gpt-5", "claude-sonnet-4"} {
			out = append(out, handoff.Target{Provider: e.Provider, API: e.API, Model: model, IDStyle: e.IDStyle})
		}
	}
	return out
}

// followUp is the history a fixture turn leaves: the question, the turn,
// the results of all but its last call (the last one interrupted), an
// orphan result and the next question.
func followUp(turn norm.AssistantMessage) []norm.Message {
	msgs := []norm.Message{norm.UserText("What is the weather in Paris?"), turn}
	calls := turn.ToolCalls()
	for i, c := range calls {
		if i == len(calls)-1 && i > 0 {
			break
		}
		msgs = append(msgs, norm.ToolResultMessage{CallID: c.ID, Name: c.Name, Content: []norm.Content{
			norm.Text{Text: fmt.Sprintf("result %d", i)}, norm.Image{MediaType: "image/png", Data: []byte{1, 2}}}})
	}
	msgs = append(msgs, norm.ToolResultMessage{CallID: "stray|id", Name: "old", Content: []norm.Content{norm.Text{Text: "late"}}})
	return append(msgs, norm.UserText("And tomorrow?"))
}

// TestRustTransform holds handoff.rs to handoff.Transform on every
// recorded stream's follow-up handed to every endpoint (and to each
// turn's own provider), on every pair of recorded turns in one history
// (the first ended in an error, or not), and on drawn histories.
func TestRustTransform(t *testing.T) {
	d := driver(t)
	turns := fixtureTurns(t)
	names := make([]string, 0, len(turns))
	for name := range turns {
		names = append(names, name)
	}
	sort.Strings(names)
	tgts := targets(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			turn := turns[name]
			msgs := followUp(turn)
			own := handoff.Target{Provider: turn.Provider, API: "openai-responses", Model: turn.Model}
			for _, tgt := range append(tgts, own) {
				compareTransform(t, d, msgs, nil, tgt)
			}
		})
	}
	t.Run("pairs", func(t *testing.T) {
		for i, a := range names {
			b := names[(i*7+3)%len(names)]
			msgs := append(followUp(turns[a]), followUp(turns[b])...)
			for j, tgt := range tgts {
				var errored []int
				if j%3 == 0 {
					errored = []int{1}
				}
				compareTransform(t, d, msgs, errored, tgt)
			}
		}
	})
	t.Run("drawn", func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		for range 3000 {
			in := make([]byte, 64+r.IntN(192))
			for i := range in {
				in[i] = byte(r.Uint32())
			}
			g := &gen{b: in}
			msgs, errored := g.history()
			compareTransform(t, d, msgs, errored, g.target())
		}
	})
}

// FuzzRustTransform draws a history and a target from the input and
// compares the transforms.
func FuzzRustTransform(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05\x01\x02\x03\x01\x00\x04\x02\x01\x03\x03\x02\x02\x00\x01\x05\x03\x02\x01\x04\x07\x01\x02\x00\x03"))
	f.Add(bytes.Repeat([]byte{2, 7, 1, 8, 2, 8, 1, 8}, 12))
	d := driver(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		g := &gen{b: in}
		msgs, errored := g.history()
		compareTransform(t, d, msgs, errored, g.target())
	})
}

// gen draws histories from bytes; an exhausted input draws zeros.
type gen struct{ b []byte }

func (g *gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *gen) pick(words []string) string { return words[int(g.byte())%len(words)] }

var (
	genIDs = []string{"call_1", "call_2", "toolu_01", "a|b", "a.b", "a_b", "a:b", "", "abcDEF123", "abcdefghi", "x/é€😀",
		"call_abc|fc_0123456789012345678901234567890123456789012345678901234567890123",
		strings.Repeat("x", 40), strings.Repeat("y", 41), strings.Repeat("z", 64), strings.Repeat("w", 65),
		strings.Repeat("q", 55) + "_" + "811c9dc5", "call", "call_811c9dc5", "9d532gc9",
		"hiqO8rrKB", "9Gd2dIMCT"} // the mistral ids of "" and "call_1"
	genProviders = []string{"anthropic", "openai", "google", "openrouter", "mistral", ""}
	genModels    = []string{"gpt-5", "gpt-5-mini", "claude", ""}
	genAPIs      = []string{"anthropic", "openai-chat", "openai-responses", "gemini", "other"}
	genTexts     = []string{"", "hi", "let me look", "é\n"}
)

func (g *gen) content() norm.Content {
	switch g.byte() % 6 {
	case 0:
		return norm.Text{Text: g.pick(genTexts), Signature: []byte(g.pick([]string{"", "sig"})), ItemID: g.pick([]string{"", "msg_1"}),
			Phase: g.pick([]string{"", "commentary"}), Producer: g.pick(genProviders)}
	case 1:
		f := g.byte()
		return norm.Thinking{Text: g.pick(genTexts), Signature: []byte(g.pick([]string{"", "EtY"})), Encrypted: []byte(g.pick([]string{"", "gAAAA"})),
			Redacted: f&1 != 0, Format: g.pick([]string{"", "anthropic-claude-v1"}), ItemID: g.pick([]string{"", "rs_1"}), Producer: g.pick(genProviders)}
	case 2:
		return norm.Image{MediaType: "image/png", Data: []byte{g.byte()}}
	case 3, 4:
		return norm.ToolCall{ID: g.pick(genIDs), Name: g.pick([]string{"read", "write", ""}), Arguments: json.RawMessage(`{"a":1}`),
			Signature: []byte(g.pick([]string{"", "callsig"})), ItemID: g.pick([]string{"", "fc_1"}), Producer: g.pick(genProviders)}
	}
	return norm.Other{Type: g.pick([]string{"server_tool_use", "web_search_call"}), Raw: json.RawMessage(`{}`), Producer: g.pick(genProviders)}
}

func (g *gen) contents() []norm.Content {
	cs := make([]norm.Content, g.byte()%5)
	for i := range cs {
		cs[i] = g.content()
	}
	return cs
}

// history draws up to 12 messages and marks some assistant messages as
// ended in an error.
func (g *gen) history() ([]norm.Message, []int) {
	var msgs []norm.Message
	var errored []int
	for range g.byte() % 13 {
		switch g.byte() % 5 {
		case 0:
			msgs = append(msgs, norm.UserMessage{Content: g.contents()})
		case 1, 2:
			if g.byte()%5 == 0 {
				errored = append(errored, len(msgs))
			}
			msgs = append(msgs, norm.AssistantMessage{Provider: g.pick(genProviders), Model: g.pick(genModels), Content: g.contents()})
		default:
			msgs = append(msgs, norm.ToolResultMessage{CallID: g.pick(genIDs), Name: g.pick([]string{"read", "write"}),
				IsError: g.byte()%2 == 0, Content: g.contents()})
		}
	}
	return msgs, errored
}

func (g *gen) target() handoff.Target {
	return handoff.Target{Provider: g.pick(genProviders), API: g.pick(genAPIs), Model: g.pick(genModels),
		IDStyle: g.pick([]string{"", "", "mistral", "other"})}
}
