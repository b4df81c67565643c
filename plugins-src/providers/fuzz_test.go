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

// FuzzDecode feeds arbitrary bodies to every provider's decoder, whole and
// split at an arbitrary point, and holds the product invariants: no fault
// of the plugin (a trap or a codec fault), exactly one terminal event,
// last; no tool call delta or end before its start; the same events
// however the body is cut. Seeds: every stream of the decode goldens.
func FuzzDecode(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(fixtureRoot, "*", "*.sse"))
	more, _ := filepath.Glob("testdata/streams/*/*.sse")
	for i, p := range append(paths, more...) {
		f.Add(uint8(i), uint16(i*37), mustRead(f, p))
	}
	codecInstances(f)
	f.Fuzz(func(t *testing.T, which uint8, cut uint16, body []byte) {
		name := declaredProviders[int(which)%len(declaredProviders)]
		whole := decode(t, name, [][]byte{body})
		if whole.err != "" {
			t.Fatalf("%s: %s", name, whole.err)
		}
		checkProtocol(t, whole.events)
		at := 0
		if len(body) > 0 {
			at = int(cut) % len(body)
		}
		split := decode(t, name, [][]byte{body[:at], body[at:]})
		if got, want := coalesced(split), coalesced(whole); got != want {
			t.Fatalf("%s: cut at %d gives\n%s\nwhole:\n%s", name, at, got, want)
		}
	})
}

// FuzzClassify serves arbitrary failed bodies under a failure status to
// every provider: the stream ends in exactly one StreamError whose kind is
// one of model's.
func FuzzClassify(f *testing.F) {
	for _, c := range classifyCases {
		f.Add(uint16(c.status), c.body)
	}
	codecInstances(f)
	f.Fuzz(func(t *testing.T, status uint16, body string) {
		st := 400 + int(status)%200
		for _, name := range declaredProviders {
			evs, _ := classify(t, name, failedResponse{"fuzz", st, nil, body})
			if len(evs) != 1 {
				t.Fatalf("%s: %d events for a failed response: %s", name, len(evs), trace(evs))
			}
			e, ok := evs[0].(model.StreamError)
			if !ok || e.Err == nil || e.Err.Kind == "" {
				t.Fatalf("%s: not a classified failure: %s", name, trace(evs))
			}
		}
	})
}

// FuzzRequest sends arbitrary user text, tool-call arguments and tool
// results to every provider and requires the request to round-trip: the
// body is JSON in which the user's text and the tool result come back as
// the strings they were (invalid UTF-8 as U+FFFD), and no request fails
// to build.
func FuzzRequest(f *testing.F) {
	f.Add("hi", `{"path":"a.go"}`, "40 C")
	f.Add("<&>\u2028\"\\\x01", `{}`, "\xff")
	codecInstances(f)
	f.Fuzz(func(t *testing.T, text, args, result string) {
		if !json.Valid([]byte(args)) {
			args = "{}"
		}
		text, result = strings.ToValidUTF8(text, "\uFFFD")+"x", strings.ToValidUTF8(result, "\uFFFD")+"y"
		msgs := []model.Message{model.UserText(text),
			model.AssistantMessage{Provider: "elsewhere", Stop: model.StopToolUse, Content: []model.Content{
				model.ToolCall{ID: "call_1", Name: "read", Arguments: json.RawMessage(args)}}},
			model.ToolResultMessage{CallID: "call_1", Name: "read", Content: []model.Content{model.Text{Text: result}}, Mutation: model.MutationNotApplied}}
		for _, name := range declaredProviders {
			srv := newLoopback(t)
			srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(fixtureRoot, "anthropic", "text.sse"))})
			evs := pull(t, bridge(t, name, srv.URL, func(c *provider.Config) { c.BaseURLFlag = srv.URL + "/v1" }),
				&model.Request{Model: "m", Messages: msgs, Tools: weatherTools})
			raw := srv.last().raw
			var body any
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatalf("%s: the body is not JSON (%v): %s (events %s)", name, err, raw, trace(evs))
			}
			all := fmt.Sprint(body)
			if !strings.Contains(all, text) || !strings.Contains(all, result) {
				t.Fatalf("%s: the body lost the user text %q or the tool result %q: %s", name, text, result, raw)
			}
		}
	})
}
