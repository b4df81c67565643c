package anthropic

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

func TestWithInput(t *testing.T) {
	tests := []struct {
		name, raw, input, want string
	}{
		{name: "placeholder replaced, other bytes kept", raw: `{"type":"server_tool_use", "id":"s1","input" : {} ,"name":"web_search"}`,
			input: `{"query": "go"}`, want: `{"type":"server_tool_use", "id":"s1","input" : {"query": "go"} ,"name":"web_search"}`},
		{name: "nested input keys are not the block's", raw: `{"content":{"input":1},"input":{}}`, input: `{"a":1}`,
			want: `{"content":{"input":1},"input":{"a":1}}`},
		{name: "missing input is appended", raw: `{"type":"x" }`, input: `{"a":1}`, want: `{"type":"x" ,"input":{"a":1}}`},
		{name: "missing input in an empty block", raw: `{ }`, input: `{}`, want: `{ "input":{}}`},
		{name: "no streamed input keeps the block", raw: `{"input":{}}`, input: ``, want: `{"input":{}}`},
		{name: "streamed input that is not JSON keeps the block", raw: `{"input":{}}`, input: `{"a":`, want: `{"input":{}}`},
		{name: "a block that is not JSON is kept", raw: `{"input":`, input: `{}`, want: `{"input":`},
		{name: "a null block is kept", raw: `null`, input: `{"a":1}`, want: `null`},
	}
	var s jsonscan.Decoder
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := append([]byte(nil), tc.raw...)
			if got := withInput(&s, raw, []byte(tc.input)); string(got) != tc.want {
				t.Errorf("withInput(%s, %s) = %s; want %s", tc.raw, tc.input, got, tc.want)
			}
		})
	}
}

// TestServerBlocksRoundTrip: server-side and unknown blocks decode to
// Other blocks holding the vendor's bytes exactly (padding included, the
// streamed input in place of the placeholder), and the next request sends
// them back in their place in the assistant message.
func TestServerBlocksRoundTrip(t *testing.T) {
	const stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"server_tool_use\", \"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}   }}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"go wasm\\\"}\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":[{\"type\":\"web_search_result\",\"url\":\"https://go.dev\",\"encrypted_content\":\"Eo8BCioIAhgB\"}]}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"mystery_block_2027\",\"payload\":[1, 2]}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"Found it.\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":3}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":9}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	wantRaw := []string{
		`{"type":"server_tool_use", "id":"srvtoolu_1","name":"web_search","input":{"query": "go wasm"}   }`,
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://go.dev","encrypted_content":"Eo8BCioIAhgB"}]}`,
		`{"type":"mystery_block_2027","payload":[1, 2]}`,
	}
	d := NewDecoder("anthropic")
	var asm norm.Assembler
	for _, e := range append(d.Feed([]byte(stream)), d.Close()...) {
		if err := asm.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	msg := asm.Message()
	if len(msg.Content) != 4 {
		t.Fatalf("decoded %d blocks, want 3 server blocks and a text: %#v", len(msg.Content), msg.Content)
	}
	var want []any
	for i, w := range wantRaw {
		o, ok := msg.Content[i].(norm.Other)
		if !ok {
			t.Fatalf("block %d is %T, want norm.Other", i, msg.Content[i])
		}
		if string(o.Raw) != w || o.Producer != "anthropic" {
			t.Errorf("block %d kept %s (producer %q); want the vendor's bytes %s from anthropic", i, o.Raw, o.Producer, w)
		}
		var v any
		if err := json.Unmarshal([]byte(w), &v); err != nil {
			t.Fatal(err)
		}
		want = append(want, v)
	}
	want = append(want, map[string]any{"type": "text", "text": "Found it."})
	h, err := BuildRequest(&norm.Request{Model: "claude", Messages: []norm.Message{norm.UserText("q"), msg, norm.UserText("more")}}, "ANTHROPIC_API_KEY")
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role    string
			Content []any
		}
	}
	if err := json.Unmarshal(h.Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 3 || body.Messages[1].Role != "assistant" || !reflect.DeepEqual(body.Messages[1].Content, want) {
		t.Errorf("request messages %s; want the assistant message to send back %v", h.Body, want)
	}
}
