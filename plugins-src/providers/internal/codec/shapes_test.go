package codec

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// TestWireShapes pins how each decoder treats payloads of unusual shape:
// null fields read as absent, a field of the wrong type fails the event
// as malformed (or, where the decoder says so, is ignored), escapes are
// unquoted, duplicate keys keep the last. The expectations are what the
// encoding/json decoders these replaced produced for the same bodies,
// except the typing of an unknown gemini part with several members, which
// was random (map order) and is now its first member.
func TestWireShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		api  API
		body string
		want []string
	}{
		{name: "chat: a model that is not a string fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":null,\"model\":5,\"choices\":[]}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: null choices and null fields read as absent", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[null,{\"delta\":null,\"finish_reason\":null}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: content of another shape is ignored", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"content\":5}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: content parts of text and joined thinking", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"},{\"type\":\"thinking\",\"thinking\":[{\"text\":\"a\"},null,{\"text\":\"b\"}]}]}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"text 0 \"x\" sig=nil item=\"\" phase=\"\"",
				"thinking 1 \"ab\" sig=nil enc=nil redacted=false format=\"\" item=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: content parts of the wrong shape are ignored whole", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"content\":[{\"type\":\"text\",\"text\":5}]}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: escaped content is unquoted as encoding/json does", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"content\":\"\\ud83d\\ude00 \\u00e9\\n\"}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"text 0 \"😀 é\\n\" sig=nil item=\"\" phase=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: reasoning_content that is not a string fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"reasoning_content\":5}}]}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: a fractional tool-call index fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1.5}]}}]}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: a null index falls back to the id, then to the last call", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":null,\"id\":\"x\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}},{\"function\":{\"arguments\":\"1\"}}]}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"call-start 0 id=\"x\" name=\"f\" item=\"\"",
				"call-delta 0 \"{}\"",
				"call-delta 0 \"1\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: a negative index and a null function", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":-3,\"function\":null}]}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"call-start 0 id=\"\" name=\"\" item=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: reasoning_details with encrypted data, signature and format", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.encrypted\",\"data\":\"enc\"},{\"type\":\"reasoning.text\",\"text\":\"t\",\"signature\":\"s\\/g\",\"format\":\"f\"},null]}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"thinking 0 \"\" sig=nil enc=\"enc\" redacted=false format=\"\" item=\"\"",
				"thinking 0 \"t\" sig=\"s/g\" enc=nil redacted=false format=\"f\" item=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: x_groq that is not an object fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"x_groq\":\"str\"}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: x_groq usage is taken", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"x_groq\":{\"usage\":{\"prompt_tokens\":3}},\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"done end raw=\"stop\" usage={3 unknown 0 0 unknown} rawusage=\"{\\\"prompt_tokens\\\":3}\"",
			}},
		{name: "chat: an empty finish_reason is no stop and choice usage is taken", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"error\":null,\"usage\":null,\"choices\":[{\"finish_reason\":\"\",\"usage\":{\"completion_tokens\":2}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"error truncated raw=\"\" usage={unknown 2 0 0 unknown} rawusage=\"{\\\"completion_tokens\\\":2}\"",
			}},
		{name: "chat: an error object ends the stream", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"error\":{\"message\":\"boom\",\"code\":500}}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"error server raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: choices that is not an array fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":{}}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: a finish_reason that is not a string fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"finish_reason\":5}]}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: text after the JSON value fails the chunk", api: OpenAIChat,
			body: "data: {\"id\":\"a\"} x\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat: duplicate keys, the last wins", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"id\":\"b\",\"choices\":[{\"delta\":{\"content\":\"1\"}}],\"choices\":[{\"delta\":{\"content\":\"2\"}}]}\n\n",
			want: []string{
				"start model=\"\" id=\"b\"",
				"text 0 \"2\" sig=nil item=\"\" phase=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: a null message starts nothing", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":null}\n\n",
			want: []string{
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: null model and delta, then a stop reason", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":null,\"usage\":{\"input_tokens\":3}}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\\u00e9\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":null}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":null}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\n",
			want: []string{
				"start model=\"\" id=\"m\"",
				"text 0 \"hié\" sig=nil item=\"\" phase=\"\"",
				"done end raw=\"end_turn\" usage={3 2 0 0 unknown} rawusage=\"{\\\"input_tokens\\\":3,\\\"output_tokens\\\":2}\"",
			}},
		{name: "anthropic: a string index fails the event", api: Anthropic,
			body: "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":\"0\"}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: an index of 2.0 fails the event", api: Anthropic,
			body: "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2.0}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: an error field that is not an object fails even a ping", api: Anthropic,
			body: "event: x\ndata: {\"type\":\"ping\",\"error\":\"str\"}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: an error event", api: Anthropic,
			body: "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"x\"}}\n\n",
			want: []string{
				"error overloaded raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: an error event without an object", api: Anthropic,
			body: "event: error\ndata: {\"type\":\"error\",\"error\":null}\n\n",
			want: []string{
				"error server raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: an empty then an escaped signature", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"ab\\/c+=\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			want: []string{
				"start model=\"\" id=\"m\"",
				"thinking 0 \"\" sig=\"\" enc=nil redacted=false format=\"\" item=\"\"",
				"thinking 0 \"\" sig=\"ab/c+=\" enc=nil redacted=false format=\"\" item=\"\"",
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: deltas, summary paragraphs and a null response", api: OpenAIResponses,
			body: "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"model\":\"m\"}}\n\nevent: d\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"i\",\"delta\":\"x\",\"response\":null}\n\nevent: d\ndata: {\"type\":\"response.reasoning_summary_text.delta\",\"item_id\":\"j\",\"summary_index\":1,\"delta\":\"y\"}\n\nevent: d\ndata: {\"type\":\"response.reasoning_summary_text.delta\",\"item_id\":\"j\",\"summary_index\":null,\"delta\":\"z\"}\n\nevent: c\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":1}}}\n\n",
			want: []string{
				"start model=\"m\" id=\"r\"",
				"text 0 \"x\" sig=nil item=\"i\" phase=\"\"",
				"thinking 1 \"\\n\\ny\" sig=nil enc=nil redacted=false format=\"\" item=\"j\"",
				"thinking 1 \"\\n\\nz\" sig=nil enc=nil redacted=false format=\"\" item=\"\"",
				"done end raw=\"completed\" usage={1 unknown 0 0 unknown} rawusage=\"{\\\"input_tokens\\\":1}\"",
			}},
		{name: "responses: an item_id that is not a string fails the event", api: OpenAIResponses,
			body: "event: d\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":5}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a summary_index that is not an integer fails the event", api: OpenAIResponses,
			body: "event: d\ndata: {\"type\":\"response.output_text.delta\",\"summary_index\":\"1\"}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a flat error event, then failure", api: OpenAIResponses,
			body: "event: e\ndata: {\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"slow\"}\n\nevent: f\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\"}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"error rate_limit raw=\"failed\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a flat error message that is not a string fails the event", api: OpenAIResponses,
			body: "event: e\ndata: {\"type\":\"error\",\"message\":5}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a nested error event, then failure", api: OpenAIResponses,
			body: "event: e\ndata: {\"type\":\"error\",\"error\":{\"code\":\"server_error\",\"message\":\"m\"}}\n\nevent: f\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\"}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"error server raw=\"failed\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a function call through added, delta and done", api: OpenAIResponses,
			body: "event: a\ndata: {\"type\":\"response.output_item.added\",\"item\":{\"id\":\"fc\",\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\"}}\n\nevent: d\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc\",\"delta\":\"{}\"}\n\nevent: d\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":\"fc\",\"type\":\"function_call\",\"arguments\":\"{}\"}}\n\n",
			want: []string{
				"call-start 0 id=\"c\" name=\"f\" item=\"fc\"",
				"call-delta 0 \"{}\"",
				"call-end 0 sig=nil",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: text, null text, signed empty text, thought, odd parts", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"},{\"text\":null},{\"text\":\"\",\"thoughtSignature\":\"sig\"},{\"text\":\"t\",\"thought\":true},{\"thought\":\"yes\",\"text\":\"x\"},5,null,{\"inlineData\":{}}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":null},\"modelVersion\":\"g\",\"responseId\":\"r\"}\n\n",
			want: []string{
				"start model=\"g\" id=\"r\"",
				"text 0 \"a\" sig=nil item=\"\" phase=\"\"",
				"other 1 \"text\" \"{\\\"text\\\":null}\"",
				"text 2 \"\" sig=\"sig\" item=\"\" phase=\"\"",
				"thinking 3 \"t\" sig=nil enc=nil redacted=false format=\"\" item=\"\"",
				"other 4 \"part\" \"null\"",
				"other 5 \"inlineData\" \"{\\\"inlineData\\\":{}}\"",
				"done end raw=\"STOP\" usage={3 unknown 0 0 unknown} rawusage=\"{\\\"promptTokenCount\\\":3,\\\"candidatesTokenCount\\\":null}\"",
			}},
		{name: "gemini: only the first candidate counts and bad usage is ignored", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":null},{\"content\":{\"parts\":[{\"text\":\"second candidate\"}]}}],\"usageMetadata\":{\"promptTokenCount\":1.5}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: a function call part with a signature", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"args\":{\"a\":1}},\"thoughtSignature\":\"s\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":\"x\"}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"call-start 0 id=\"gemini__1\" name=\"f\" item=\"\"",
				"call-delta 0 \"{\\\"a\\\":1}\"",
				"call-end 0 sig=\"s\"",
				"done tool_use raw=\"STOP\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: a null functionCall leaves a text part and a block reason", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":null,\"text\":\"t\"}]}}],\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"text 0 \"t\" sig=nil item=\"\" phase=\"\"",
				"done refusal raw=\"SAFETY\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: candidates that is not an array fails the chunk", api: Gemini,
			body: "data: {\"candidates\":5}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: an error object ends the stream", api: Gemini,
			body: "data: {\"error\":{\"code\":500,\"message\":\"x\"}}\n\n",
			want: []string{
				"error server raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: a later null count clears an earlier one", api: Gemini,
			body: "data: {\"candidates\":[{\"finishReason\":null,\"index\":\"x\"}],\"usageMetadata\":{\"promptTokenCount\":4,\"promptTokenCount\":null}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=\"{\\\"promptTokenCount\\\":4,\\\"promptTokenCount\\\":null}\"",
			}},
		{name: "responses: a large response object is skipped over, then incomplete for length", api: OpenAIResponses,
			body: "event: c\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"model\":\"m\",\"status\":\"in_progress\",\"incomplete_details\":null,\"tools\":[{\"type\":\"function\",\"parameters\":{\"a\":[1,2,{\"b\":null}]}}],\"usage\":null}}\n\nevent: i\ndata: {\"type\":\"response.incomplete\",\"response\":{\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":5,\"output_tokens\":7}}}\n\n",
			want: []string{
				"start model=\"m\" id=\"r\"",
				"done length raw=\"incomplete\" usage={5 7 0 0 unknown} rawusage=\"{\\\"input_tokens\\\":5,\\\"output_tokens\\\":7}\"",
			}},
		{name: "responses: incomplete without details is a server error", api: OpenAIResponses,
			body: "event: i\ndata: {\"type\":\"response.incomplete\",\"response\":{\"status\":\"incomplete\",\"incomplete_details\":null}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"error server raw=\"incomplete\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a failed response with a nested error object", api: OpenAIResponses,
			body: "event: f\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"slow down\"}}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"error rate_limit raw=\"failed\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a response error that is not an object fails the event", api: OpenAIResponses,
			body: "event: f\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":\"x\"}}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: a response that is not an object fails the event", api: OpenAIResponses,
			body: "event: f\ndata: {\"type\":\"response.completed\",\"response\":5}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "responses: output items: null, empty and escaped encrypted content, a server-side item, a bad id", api: OpenAIResponses,
			body: "event: a\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":\"r1\",\"type\":\"reasoning\",\"encrypted_content\":null}}\n\nevent: a\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":\"r2\",\"type\":\"reasoning\",\"encrypted_content\":\"\"}}\n\nevent: a\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":\"r3\",\"type\":\"reasoning\",\"encrypted_content\":\"gAAA\\/x=\"}}\n\nevent: a\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":\"w\",\"type\":\"web_search_call\",\"status\":\"completed\"}}\n\nevent: a\ndata: {\"type\":\"response.output_item.done\",\"item\":{\"id\":5}}\n\n",
			want: []string{
				"thinking 0 \"\" sig=nil enc=\"gAAA/x=\" redacted=false format=\"\" item=\"r3\"",
				"other 1 \"web_search_call\" \"{\\\"id\\\":\\\"w\\\",\\\"type\\\":\\\"web_search_call\\\",\\\"status\\\":\\\"completed\\\"}\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: streamed call arguments of every value kind, escaped as encoding/json escapes", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"willContinue\":true,\"partialArgs\":[{\"jsonPath\":\"$.q\",\"stringValue\":\"<a&b>\\n\",\"willContinue\":true}]}}]}}]}\n\ndata: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.q\",\"stringValue\":\" more\\u2028\"},{\"jsonPath\":\"$.o.n\",\"numberValue\":1.5e3},{\"jsonPath\":\"$.o.b\",\"boolValue\":false},{\"jsonPath\":\"$.z\",\"nullValue\":null},{\"jsonPath\":\"$.y\",\"boolValue\":null,\"numberValue\":null},null]}}]}}]}\n\ndata: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{}}]},\"finishReason\":\"STOP\"}]}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"call-start 0 id=\"gemini__1\" name=\"f\" item=\"\"",
				"call-delta 0 \"{\\\"q\\\":\\\"\\\\u003ca\\\\u0026b\\\\u003e\\\\n\"",
				"call-delta 0 \" more\\\\u2028\\\"\"",
				"call-delta 0 \",\\\"o\\\":{\\\"n\\\":1.5e3\"",
				"call-delta 0 \",\\\"b\\\":false\"",
				"call-delta 0 \"},\\\"z\\\":null\"",
				"call-delta 0 \",\\\"y\\\":null\"",
				"call-delta 0 \"}\"",
				"call-end 0 sig=nil",
				"done tool_use raw=\"STOP\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: function-call parts of the wrong shape are ignored", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"id\":5}},{\"functionCall\":\"x\",\"text\":\"t\"},{\"functionCall\":{\"name\":\"g\",\"args\":null,\"willContinue\":null}}]},\"finishReason\":\"STOP\"}]}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"call-start 0 id=\"gemini__1\" name=\"g\" item=\"\"",
				"call-delta 0 \"{}\"",
				"call-end 0 sig=nil",
				"done tool_use raw=\"STOP\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "gemini: an unsupported path poisons the arguments and a bad bool drops its part", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",\"willContinue\":true,\"partialArgs\":[{\"jsonPath\":\"$[0]\",\"stringValue\":\"x\"}]}},{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.k\",\"boolValue\":\"yes\"}]}}]},\"finishReason\":\"STOP\"}]}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"call-start 0 id=\"gemini__1\" name=\"f\" item=\"\"",
				"call-delta 0 \"{$[0]}\"",
				"call-end 0 sig=nil",
				"done tool_use raw=\"STOP\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: usage merged from message_start and message_delta, raw fields kept", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":4,\"output_tokens\":1,\"service_tier\":\"standard\"}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":20,\"input_tokens\":null,\"output_tokens_details\":{\"thinking_tokens\":7}}}\n\n",
			want: []string{
				"start model=\"\" id=\"m\"",
				"done end raw=\"end_turn\" usage={10 20 4 0 7} rawusage=\"{\\\"cache_read_input_tokens\\\":4,\\\"input_tokens\\\":10,\\\"output_tokens\\\":20,\\\"output_tokens_details\\\":{\\\"thinking_tokens\\\":7},\\\"service_tier\\\":\\\"standard\\\"}\"",
			}},
		{name: "anthropic: a usage object with a count of the wrong type is ignored whole", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":3,\"input_tokens\":null,\"output_tokens\":\"x\"}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2,\"output_tokens_details\":null}}\n\n",
			want: []string{
				"start model=\"\" id=\"m\"",
				"done end raw=\"end_turn\" usage={unknown 2 0 0 unknown} rawusage=\"{\\\"output_tokens\\\":2}\"",
			}},
		{name: "anthropic: a fractional count in message_delta is ignored whole", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1.5}}\n\n",
			want: []string{
				"start model=\"\" id=\"m\"",
				"done end raw=\"end_turn\" usage={3 1 0 0 unknown} rawusage=\"{\\\"input_tokens\\\":3,\\\"output_tokens\\\":1}\"",
			}},
		{name: "anthropic: repeated usage keys, the last wins, and details that are not an object", api: Anthropic,
			body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":3,\"input_tokens\":5,\"output_tokens_details\":{\"thinking_tokens\":4},\"output_tokens_details\":null,\"z\":{\"a\":[1, 2]}}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens_details\":5}}\n\n",
			want: []string{
				"start model=\"\" id=\"m\"",
				"done end raw=\"end_turn\" usage={5 unknown 0 0 unknown} rawusage=\"{\\\"input_tokens\\\":5,\\\"z\\\":{\\\"a\\\":[1,2]}}\"",
			}},
		{name: "anthropic: content_block_start without a content block fails", api: Anthropic,
			body: "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: a null content block is an opaque block", api: Anthropic,
			body: "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":null}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
			want: []string{
				"other 0 \"\" \"null\"",
				"error truncated raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: a content block with text of the wrong type fails", api: Anthropic,
			body: "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":5}}\n\n",
			want: []string{
				"error malformed raw=\"\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "anthropic: redacted thinking, a signed empty thinking block, an escaped tool id", api: Anthropic,
			body: "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"EnC\\/r==\"}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"sig\"}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\\u0031\",\"name\":\"f\",\"input\":{}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			want: []string{
				"thinking 0 \"\" sig=nil enc=\"EnC/r==\" redacted=true format=\"\" item=\"\"",
				"thinking 1 \"\" sig=\"sig\" enc=nil redacted=false format=\"\" item=\"\"",
				"call-start 2 id=\"t1\" name=\"f\" item=\"\"",
				"call-end 2 sig=nil",
				"done tool_use raw=\"tool_use\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
		{name: "chat usage: cached, cache-write and reasoning counts (reasoning added when total shows it was left out)", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":20,\"prompt_tokens_details\":{\"cached_tokens\":2,\"cache_write_tokens\":3},\"completion_tokens_details\":{\"reasoning_tokens\":5}}}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"done end raw=\"stop\" usage={5 10 2 3 5} rawusage=\"{\\\"prompt_tokens\\\":10,\\\"completion_tokens\\\":5,\\\"total_tokens\\\":20,\\\"prompt_tokens_details\\\":{\\\"cached_tokens\\\":2,\\\"cache_write_tokens\\\":3},\\\"completion_tokens_details\\\":{\\\"reasoning_tokens\\\":5}}\"",
			}},
		{name: "chat usage: null details fall back to DeepSeek's prompt_cache_hit_tokens", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"prompt_cache_hit_tokens\":4,\"prompt_tokens_details\":null,\"completion_tokens_details\":null}}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"done end raw=\"stop\" usage={6 5 4 0 unknown} rawusage=\"{\\\"prompt_tokens\\\":10,\\\"completion_tokens\\\":5,\\\"prompt_cache_hit_tokens\\\":4,\\\"prompt_tokens_details\\\":null,\\\"completion_tokens_details\\\":null}\"",
			}},
		{name: "chat usage: repeated details objects merge", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"prompt_tokens_details\":{\"cached_tokens\":2},\"prompt_tokens_details\":{\"cache_write_tokens\":1}}}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"done end raw=\"stop\" usage={7 unknown 2 1 unknown} rawusage=\"{\\\"prompt_tokens\\\":10,\\\"prompt_tokens_details\\\":{\\\"cached_tokens\\\":2},\\\"prompt_tokens_details\\\":{\\\"cache_write_tokens\\\":1}}\"",
			}},
		{name: "chat usage: a count of the wrong type makes the usage unknown, the raw object kept", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":\"10\",\"completion_tokens\":5}}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"done end raw=\"stop\" usage={unknown unknown unknown unknown unknown} rawusage=\"{\\\"prompt_tokens\\\":\\\"10\\\",\\\"completion_tokens\\\":5}\"",
			}},
		{name: "chat usage: a usage that is not an object is unknown", api: OpenAIChat,
			body: "data: {\"id\":\"a\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":[1,2]}\n\n",
			want: []string{
				"start model=\"\" id=\"a\"",
				"done end raw=\"stop\" usage={unknown unknown unknown unknown unknown} rawusage=\"[1,2]\"",
			}},
		{name: "responses usage: cached and reasoning counts", api: OpenAIResponses,
			body: "event: c\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":10,\"output_tokens\":7,\"input_tokens_details\":{\"cached_tokens\":4},\"output_tokens_details\":{\"reasoning_tokens\":3}}}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"done end raw=\"completed\" usage={6 7 4 0 3} rawusage=\"{\\\"input_tokens\\\":10,\\\"output_tokens\\\":7,\\\"input_tokens_details\\\":{\\\"cached_tokens\\\":4},\\\"output_tokens_details\\\":{\\\"reasoning_tokens\\\":3}}\"",
			}},
		{name: "responses usage: null details after an object clear the cached count", api: OpenAIResponses,
			body: "event: c\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":10,\"input_tokens_details\":{\"cached_tokens\":4},\"input_tokens_details\":null}}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"done end raw=\"completed\" usage={10 unknown 0 0 unknown} rawusage=\"{\\\"input_tokens\\\":10,\\\"input_tokens_details\\\":{\\\"cached_tokens\\\":4},\\\"input_tokens_details\\\":null}\"",
			}},
		{name: "responses usage: a fractional count makes the usage unknown", api: OpenAIResponses,
			body: "event: c\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"input_tokens\":1.5}}}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"done end raw=\"completed\" usage={unknown unknown unknown unknown unknown} rawusage=\"{\\\"input_tokens\\\":1.5}\"",
			}},
		{name: "gemini: a part of another kind is typed by its first member other than thoughtSignature", api: Gemini,
			body: "data: {\"candidates\":[{\"content\":{\"parts\":[{\"thought\":true,\"executableCode\":{\"code\":\"x\"},\"thoughtSignature\":\"s\"},{\"inlineData\":{\"data\":\"AA==\"},\"videoMetadata\":{}},{\"thoughtSignature\":\"s2\"},{\"text\":null,\"fileData\":{\"uri\":\"u\"}}]},\"finishReason\":\"STOP\"}]}\n\n",
			want: []string{
				"start model=\"\" id=\"\"",
				"other 0 \"thought\" \"{\\\"thought\\\":true,\\\"executableCode\\\":{\\\"code\\\":\\\"x\\\"},\\\"thoughtSignature\\\":\\\"s\\\"}\"",
				"other 1 \"inlineData\" \"{\\\"inlineData\\\":{\\\"data\\\":\\\"AA==\\\"},\\\"videoMetadata\\\":{}}\"",
				"other 2 \"part\" \"{\\\"thoughtSignature\\\":\\\"s2\\\"}\"",
				"other 3 \"text\" \"{\\\"text\\\":null,\\\"fileData\\\":{\\\"uri\\\":\\\"u\\\"}}\"",
				"done end raw=\"STOP\" usage={unknown unknown unknown unknown unknown} rawusage=nil",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewDecoder(tc.api, "p")
			if err != nil {
				t.Fatal(err)
			}
			evs := append([]norm.Event(nil), d.Feed([]byte(tc.body))...) // Close reuses Feed's slice
			evs = append(evs, d.Close()...)
			if got := summary(evs); !slices.Equal(got, tc.want) {
				t.Fatalf("events:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// summary renders events compactly, for comparing with a table: every
// field a decoder sets, error messages reduced to their kind.
func summary(evs []norm.Event) []string {
	var out []string
	b := func(p []byte) string {
		if p == nil {
			return "nil"
		}
		return strconv.Quote(string(p))
	}
	for _, e := range evs {
		var s string
		switch e := e.(type) {
		case norm.Start:
			s = fmt.Sprintf("start model=%q id=%q", e.Model, e.ResponseID)
		case norm.TextDelta:
			s = fmt.Sprintf("text %d %q sig=%s item=%q phase=%q", e.Index, e.Text, b(e.Signature), e.ItemID, e.Phase)
		case norm.ThinkingDelta:
			s = fmt.Sprintf("thinking %d %q sig=%s enc=%s redacted=%v format=%q item=%q", e.Index, e.Text, b(e.Signature),
				b(e.Encrypted), e.Redacted, e.Format, e.ItemID)
		case norm.ToolCallStart:
			s = fmt.Sprintf("call-start %d id=%q name=%q item=%q", e.Index, e.ID, e.Name, e.ItemID)
		case norm.ToolCallDelta:
			s = fmt.Sprintf("call-delta %d %q", e.Index, e.Arguments)
		case norm.ToolCallEnd:
			s = fmt.Sprintf("call-end %d sig=%s", e.Index, b(e.Signature))
		case norm.OtherBlock:
			s = fmt.Sprintf("other %d %q %s", e.Index, e.Type, b(e.Raw))
		case norm.Done:
			s = fmt.Sprintf("done %s raw=%q usage=%v rawusage=%s", e.Reason, e.Raw, e.Usage, b(e.UsageRaw))
		case norm.StreamError:
			s = fmt.Sprintf("error %s raw=%q usage=%v rawusage=%s", e.Err.Kind, e.Raw, e.Usage, b(e.UsageRaw))
		default:
			s = fmt.Sprintf("%T", e)
		}
		out = append(out, s)
	}
	return out
}
