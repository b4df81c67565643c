package conformance

import (
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/codec"
)

// TestDecoderBehaviour covers what the recorded fixtures do not: cut-off
// streams, in-stream errors of every shape, arguments cut by a length stop,
// redacted thinking, missing usage. Each case states only the fields it is
// about; the body is also decoded one byte at a time.
func TestDecoderBehaviour(t *testing.T) {
	tests := []struct {
		name string
		api  codec.API
		body string
		want string // JSON subset of the result
	}{
		{
			name: "anthropic eof before any stop signal is truncated even with text",
			api:  codec.Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n" +
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n",
			want: `{"text":"Hel","stop":{"reason":"error","raw":""},"error_kind":"truncated","error":{"retryable":true},
				"usage":{"input":3,"output":1,"cache_read":0,"cache_write":0,"reasoning":null,"total":4}}`,
		},
		{
			name: "anthropic stop reason then eof without message_stop is complete",
			api:  codec.Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\"}}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n",
			want: `{"stop":{"reason":"length","raw":"max_tokens"},"error":null,"usage":null}`,
		},
		{
			name: "anthropic overloaded mid-stream error event",
			api:  codec.Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\"}}\n\n" +
				"event: error\ndata: {\"type\":\"error\",\"error\":{\"details\":null,\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
			want: `{"stop":{"reason":"error"},"error_kind":"overloaded","error":{"type":"overloaded_error","message":"Overloaded","retryable":true}}`,
		},
		{
			name: "anthropic redacted thinking kept byte-exact",
			api:  codec.Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\"}}\n\n" +
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgBEgy+/=\"}}\n\n" +
				"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			want: `{"blocks":[{"type":"thinking","text":"","signature":null,"redacted":true,"redacted_data":"EmwKAhgBEgy+/="}],"stop":{"reason":"end"}}`,
		},
		{
			name: "anthropic length stop cuts tool arguments: invalid, never executable",
			api:  codec.Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\"}}\n\n" +
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"write\",\"input\":{}}}\n\n" +
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"path\\\":\\\"a.go\\\",\\\"content\\\":\\\"pack\"}}\n\n" +
				"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":9}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			want: `{"blocks":[{"type":"tool_call","id":"toolu_1","name":"write","arguments_raw":"{\"path\":\"a.go\",\"content\":\"pack","arguments":null,"arguments_valid_json":false}],
				"stop":{"reason":"length","raw":"max_tokens"}}`,
		},
		{
			name: "chat done sentinel without finish_reason is truncated",
			api:  codec.OpenAIChat,
			body: "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n",
			want: `{"text":"Hi","stop":{"reason":"error"},"error_kind":"truncated","usage":null,"framing":{"done_sentinel":true}}`,
		},
		{
			name: "chat eof before finish_reason is truncated",
			api:  codec.OpenAIChat,
			body: "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n",
			want: `{"text":"Hi","stop":{"reason":"error"},"error_kind":"truncated"}`,
		},
		{
			name: "openrouter mid-stream error chunk",
			api:  codec.OpenAIChat,
			body: ": OPENROUTER PROCESSING\n\ndata: {\"id\":\"gen-1\",\"model\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n" +
				"data: {\"id\":\"gen-1\",\"model\":\"x\",\"error\":{\"code\":502,\"message\":\"Provider returned error\"},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}\n\n",
			want: `{"text":"a","stop":{"reason":"error"},"error_kind":"server","error":{"message":"Provider returned error","retryable":true,"type":"502"},"framing":{"comment_lines":1}}`,
		},
		{
			name: "chat content_filter is a refusal, usage absent stays unknown",
			api:  codec.OpenAIChat,
			body: "data: {\"id\":\"c1\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"content_filter\"}]}\n\n",
			want: `{"stop":{"reason":"refusal","raw":"content_filter"},"usage":null,"blocks":[]}`,
		},
		{
			name: "responses flat error event then eof",
			api:  codec.OpenAIResponses,
			body: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"gpt\"}}\n\n" +
				"event: error\ndata: {\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"Rate limit reached. Please try again in 1.5s.\",\"param\":null}\n\n",
			want: `{"stop":{"reason":"error"},"error_kind":"rate_limit","retry_after_ms":1500,"error":{"type":"rate_limit_exceeded","retryable":true}}`,
		},
		{
			name: "responses incomplete with only reasoning is a length stop",
			api:  codec.OpenAIResponses,
			body: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"gpt\"}}\n\n" +
				"event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"item\":{\"id\":\"rs_1\",\"type\":\"reasoning\"}}\n\n" +
				"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":\"rs_1\",\"type\":\"reasoning\",\"encrypted_content\":\"gAAA\"}}\n\n" +
				"event: response.incomplete\ndata: {\"type\":\"response.incomplete\",\"response\":{\"id\":\"resp_1\",\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":10,\"output_tokens\":100,\"output_tokens_details\":{\"reasoning_tokens\":100}}}}\n\n",
			want: `{"stop":{"reason":"length","raw":"incomplete"},"blocks":[{"type":"thinking","text":"","signature":"gAAA","encrypted_content":true,"item_id":"rs_1"}],
				"usage":{"input":10,"output":100,"cache_read":0,"cache_write":0,"reasoning":100,"total":110}}`,
		},
		{
			name: "responses eof before terminal event is truncated",
			api:  codec.OpenAIResponses,
			body: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\",\"model\":\"gpt\"}}\n\n" +
				"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"delta\":\"Hi\"}\n\n",
			want: `{"text":"Hi","stop":{"reason":"error"},"error_kind":"truncated"}`,
		},
		{
			name: "gemini bare json error after a stop chunk wins over the stop",
			api:  codec.Gemini,
			body: "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\"}],\"role\": \"model\"},\"finishReason\": \"STOP\"}],\"modelVersion\": \"g\",\"responseId\": \"r\"}\r\n\r\n" +
				"{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The model is overloaded. Please try again later.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n",
			want: `{"text":"Hi","stop":{"reason":"error","raw":"STOP"},"error_kind":"overloaded","error":{"type":"UNAVAILABLE","retryable":true},"framing":{"non_sse_text":true}}`,
		},
		{
			name: "anthropic proxy quirks: a second message_start keeps the first id, a stray [DONE] is ignored",
			api:  codec.Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_a\",\"model\":\"c\",\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n" +
				"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\"}}\n\n" +
				"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_b\",\"model\":\"c\"}}\n\n" +
				"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"b\"}}\n\n" +
				"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":3}}\n\n" +
				"data: [DONE]\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			want: `{"response":{"id":"msg_a","model":"c"},"text":"ab","stop":{"reason":"end"},"usage":{"input":5,"output":3,"cache_read":0,"cache_write":0,"reasoning":null,"total":8}}`,
		},
		{
			name: "responses message phase is kept on its text block",
			api:  codec.OpenAIResponses,
			body: "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"phase\":\"commentary\"}}\n\n" +
				"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"delta\":\"Looking.\"}\n\n" +
				"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\"}}\n\n",
			want: `{"blocks":[{"type":"text","text":"Looking.","signature":null,"item_id":"msg_1","phase":"commentary"}],"stop":{"reason":"end"},"usage":null}`,
		},
		{
			name: "responses codex terminal response.done",
			api:  codec.OpenAIResponses,
			body: "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"delta\":\"Hi\"}\n\n" +
				"event: response.done\ndata: {\"type\":\"response.done\",\"response\":{\"id\":\"resp_1\",\"model\":\"gpt-5-codex\",\"status\":\"completed\",\"usage\":{\"input_tokens\":10,\"input_tokens_details\":{\"cached_tokens\":4},\"output_tokens\":2}}}\n\n",
			want: `{"text":"Hi","stop":{"reason":"end","raw":"completed"},"usage":{"input":6,"output":2,"cache_read":4,"cache_write":0,"reasoning":null,"total":12}}`,
		},
		{
			name: "gemini vertex partial args: nested keys, numbers, booleans, continued strings",
			api:  codec.Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"willContinue\":true}}]}}],\"responseId\":\"r\"}\r\n\r\n" +
				"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.a.b\",\"numberValue\":1.5},{\"jsonPath\":\"$.a.c\",\"stringValue\":\"x\\\"\",\"willContinue\":true}],\"willContinue\":true}}]}}]}\r\n\r\n" +
				"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.a.c\",\"stringValue\":\"y\"},{\"jsonPath\":\"$.d\",\"boolValue\":true}],\"willContinue\":true}}]}}]}\r\n\r\n" +
				"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{}}]},\"finishReason\":\"STOP\"}]}\r\n\r\n",
			want: `{"tool_calls":[{"id":"gemini_r_1","name":"f","arguments":{"a":{"b":1.5,"c":"x\"y"},"d":true}}],"stop":{"reason":"tool_use","raw":"STOP"},"delta_counts":{"tool_args":4}}`,
		},
		{
			name: "gemini eof without finishReason is truncated",
			api:  codec.Gemini,
			body: "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\"}],\"role\": \"model\"}}],\"modelVersion\": \"g\",\"responseId\": \"r\"}\r\n\r\n",
			want: `{"text":"Hi","stop":{"reason":"error"},"error_kind":"truncated","usage":null}`,
		},
		{
			name: "gemini max tokens while thinking with no parts is a length stop",
			api:  codec.Gemini,
			body: "data: {\"candidates\": [{\"content\": {\"role\": \"model\"},\"finishReason\": \"MAX_TOKENS\"}],\"usageMetadata\": {\"promptTokenCount\": 5,\"thoughtsTokenCount\": 100},\"modelVersion\": \"g\",\"responseId\": \"r\"}\r\n\r\n",
			want: `{"blocks":[],"stop":{"reason":"length","raw":"MAX_TOKENS"},"usage":{"input":5,"output":100,"cache_read":0,"cache_write":0,"reasoning":100,"total":105}}`,
		},
		{
			name: "gemini prompt blocked is a refusal",
			api:  codec.Gemini,
			body: "data: {\"promptFeedback\": {\"blockReason\": \"SAFETY\"},\"usageMetadata\": {\"promptTokenCount\": 5},\"modelVersion\": \"g\",\"responseId\": \"r\"}\r\n\r\n",
			want: `{"blocks":[],"stop":{"reason":"refusal","raw":"SAFETY"}}`,
		},
		{
			name: "gemini malformed function call is an error",
			api:  codec.Gemini,
			body: "data: {\"candidates\": [{\"content\": {\"role\": \"model\"},\"finishReason\": \"MALFORMED_FUNCTION_CALL\"}],\"modelVersion\": \"g\",\"responseId\": \"r\"}\r\n\r\n",
			want: `{"stop":{"reason":"error","raw":"MALFORMED_FUNCTION_CALL"},"error_kind":"server"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := decodeNumbers(t, []byte(tt.want))
			var first any
			for _, ch := range chunkings[:2] {
				d, err := codec.NewDecoder(tt.api, "test")
				if err != nil {
					t.Fatal(err)
				}
				events := decodeChunks(d, ch.split([]byte(tt.body)))
				got, err := result(string(tt.api), d.Framing(), events)
				if err != nil {
					t.Fatalf("%s: events break the protocol: %v", ch.name, err)
				}
				gotN := normalizeJSON(got)
				if first == nil {
					first = gotN
				} else if c := (comparer{synth: map[string]string{}}); true {
					c.compare("whole", first, gotN)
					if len(c.diffs) > 0 {
						t.Errorf("%s chunking differs:\n%s", ch.name, strings.Join(c.diffs, "\n"))
					}
				}
				c := comparer{synth: map[string]string{}, subset: true}
				c.compare("result", want, gotN)
				if len(c.diffs) > 0 {
					t.Errorf("%s chunking:\n%s", ch.name, strings.Join(c.diffs, "\n"))
				}
			}
		})
	}
}
