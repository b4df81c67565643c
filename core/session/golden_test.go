package session

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenMessages cover every field of every message and content type, the
// omitted zero values, unknown amounts, and text that is not valid UTF-8.
var goldenMessages = []struct {
	name string
	msg  model.Message
}{
	{"user text", model.UserText("hi ✓ <tag> & \u2028")},
	{"user image", model.UserMessage{Content: []model.Content{model.Text{Text: "see"}, model.Image{MediaType: "image/png", Data: []byte{0, 1, 2, 0xff}}}}},
	{"user empty", model.UserMessage{}},
	{"assistant full", model.AssistantMessage{Provider: "p", Model: "m", ResponseID: "r", Stop: model.StopToolUse,
		Usage: model.Usage{Input: model.Known(12), Output: model.Known(-1), CacheRead: model.Known(0), CacheWrite: model.Known(1 << 40), Reasoning: model.Unknown(), CostNanoUSD: model.Known(7)},
		Content: []model.Content{
			model.Thinking{Text: "t", Signature: []byte{0, 1, 0xfe}, Encrypted: []byte("enc"), Redacted: true, Producer: "p"},
			model.Text{Text: "answer", Signature: []byte("sig"), Producer: "p"},
			model.ToolCall{ID: "c", Name: "n", Arguments: json.RawMessage(`{ "z": 1.50, "a": [true] }`), Signature: []byte{9}, Producer: "p"},
			model.ToolCall{ID: "d", Name: "n", Arguments: json.RawMessage(`"{bad"`), ArgumentsError: "the arguments are not valid JSON"},
		}}},
	{"assistant error", model.AssistantMessage{Error: &model.Error{Kind: model.ErrRateLimit, Message: "slow down", Retryable: true,
		RetryAfterMillis: 1500, HTTPStatus: 429, ProviderType: "rate_limit_error", Code: "c", RequestID: "req"}}},
	{"assistant minimal error", model.AssistantMessage{Error: &model.Error{Kind: model.ErrAborted, Message: "x"}}},
	{"invalid utf-8", model.AssistantMessage{Stop: model.StopEnd, Content: []model.Content{model.Text{Text: "a\xffb\xc3(c\xe2\x82"}}}},
	{"tool result", model.ToolResultMessage{CallID: "c", Name: "n", Mutation: model.MutationUnknown, IsError: true,
		Content: []model.Content{model.Text{Text: "out"}, model.Image{MediaType: "image/png", Data: []byte{1, 2, 3}}}}},
	{"tool result applied", model.ToolResultMessage{CallID: "c", Name: "n", Mutation: model.MutationApplied}},
}

// TestMessageEncodingGolden freezes the entry content of every message
// shape: a session written by an earlier Smith must read the same, and a
// change of encoding must be deliberate (go test -run TestMessageEncodingGolden -update).
func TestMessageEncodingGolden(t *testing.T) {
	var b strings.Builder
	for _, tt := range goldenMessages {
		enc, err := encodeMessage(tt.msg)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		b.WriteString(tt.name + "\n" + hex.EncodeToString(enc) + "\n")
	}
	path := filepath.Join("testdata", "messages.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if b.String() != string(want) {
		t.Fatalf("message encoding changed:\n got %s\nwant %s", b.String(), want)
	}
}

// TestMessageDecodingGolden: every golden message decodes back to itself
// (as its JSON form says; text that was not valid UTF-8 reads as JSON
// wrote it).
func TestMessageDecodingGolden(t *testing.T) {
	for _, tt := range goldenMessages {
		t.Run(tt.name, func(t *testing.T) {
			enc, err := encodeMessage(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			back, err := decodeMessage(enc)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := normalJSON(t, back), normalJSON(t, tt.msg); got != want {
				t.Fatalf("decoded\n got %s\nwant %s", got, want)
			}
		})
	}
}

// normalJSON is m's JSON form with its escapes normalized.
func normalJSON(t *testing.T, m model.Message) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(v)
	return string(b)
}
