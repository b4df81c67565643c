package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

func TestMessageCodecRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		msg  model.Message
	}{
		{"user", model.UserText("hi ✓")},
		{"assistant keeps argument bytes", model.AssistantMessage{Stop: model.StopToolUse, Provider: "mock",
			Usage: model.Usage{Input: model.Known(12), Output: model.Known(-1), CostNanoUSD: model.Unknown()},
			Content: []model.Content{
				model.Thinking{Text: "t", Signature: []byte{0, 1, 0xfe}, Producer: "mock"},
				model.ToolCall{ID: "c", Name: "n", Arguments: json.RawMessage(`{ "z": 1.50, "a": [true] }`)},
				model.ToolCall{ID: "d", Name: "n", Arguments: json.RawMessage(`"{bad"`), ArgumentsError: "the arguments are not valid JSON"},
			}}},
		{"assistant error, nil content", model.AssistantMessage{Error: &model.Error{Kind: model.ErrAborted, Message: "x"}}},
		{"tool result with image", model.ToolResultMessage{CallID: "c", Name: "n", Mutation: model.MutationUnknown, IsError: true,
			Content: []model.Content{model.Image{MediaType: "image/png", Data: []byte{1, 2, 3}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := encodeMessage(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := encodeMessage(tt.msg)
			if string(again) != string(b) {
				t.Fatal("encoding is not deterministic")
			}
			back, err := decodeMessage(b)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(tt.msg)
			got, _ := json.Marshal(back)
			if string(got) != string(want) {
				t.Fatalf("round trip\n got %s\nwant %s", got, want)
			}
			if am, ok := tt.msg.(model.AssistantMessage); ok && len(am.Content) > 1 {
				if !reflect.DeepEqual(back.(model.AssistantMessage).Content[1], am.Content[1]) {
					t.Fatalf("arguments changed: %s", back.(model.AssistantMessage).Content[1].(model.ToolCall).Arguments)
				}
			}
		})
	}
}

func TestDecodeMessageErrors(t *testing.T) {
	enc := func(v any) []byte {
		b, err := sessionfmt.EncodeContent(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name    string
		content []byte
		want    string
	}{
		{"not cbor", []byte{0xff}, "sessionfmt: decode content"},
		{"integer keys", enc(map[int]string{1: "a"}), "map key 1 is uint64, not a string"},
		{"byte string", enc(map[string]any{"role": "user", "content": []byte{1}}), "unexpected byte string"},
		{"bad arguments", enc(map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_call", "id": "c", "name": "n", "arguments": "{"}}}), "content[0]: tool-call arguments are not a JSON text"},
		{"unknown role", enc(map[string]any{"role": "robot"}), `unknown role "robot"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeMessage(tt.content)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want %q", err, tt.want)
			}
		})
	}
}

// FuzzDecodeMessage: decoding arbitrary entry content never panics, and
// what decodes re-encodes and decodes to the same JSON.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range []model.Message{
		model.UserText("hi"),
		model.AssistantMessage{Stop: model.StopToolUse, Content: []model.Content{model.ToolCall{ID: "c", Name: "n", Arguments: json.RawMessage(`{"a":1}`)}}},
		model.ToolResultMessage{CallID: "c", Name: "n", Mutation: model.MutationApplied, Content: []model.Content{model.Text{Text: "x"}}},
	} {
		b, _ := encodeMessage(m)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeMessage(b)
		if err != nil {
			return
		}
		enc, err := encodeMessage(m)
		if err != nil {
			t.Fatalf("re-encode %#v: %v", m, err)
		}
		back, err := decodeMessage(enc)
		if err != nil {
			t.Fatalf("decode re-encoding: %v", err)
		}
		j1, _ := json.Marshal(m)
		j2, _ := json.Marshal(back)
		if string(j1) != string(j2) {
			t.Fatalf("round trip differs:\n%s\n%s", j1, j2)
		}
	})
}
