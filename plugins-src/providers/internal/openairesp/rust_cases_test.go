package openairesp_test

import (
	"strings"
	"testing"
)

// sseBody writes each JSON payload as one "data:" event.
func sseBody(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: ")
		b.WriteString(e)
		b.WriteString("\n\n")
	}
	return b.String()
}

const (
	created   = `{"type":"response.created","response":{"id":"resp_1","model":"gpt-5","status":"in_progress"}}`
	completed = `{"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":12,"input_tokens_details":{"cached_tokens":5},"output_tokens":9,"output_tokens_details":{"reasoning_tokens":4}}}}`
)

// TestRustCases holds the Rust decoder to the Go one on hand-made streams
// that reach every branch the recordings do not: error events of both
// shapes and of every kind, error objects encoding/json refuses or reads
// with folded keys, incomplete and failed responses, malformed payloads
// and non-SSE lines, odd usage objects and items.
func TestRustCases(t *testing.T) {
	long := strings.Repeat("é\x01", 60)
	tests := []struct {
		name string
		body string
	}{
		{"text with phase and refusal", sseBody(created,
			`{"type":"response.output_item.added","item":{"type":"message","id":"msg_1","phase":"commentary"}}`,
			`{"type":"response.output_text.delta","item_id":"msg_1","delta":""}`,
			`{"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi"}`,
			`{"type":"response.refusal.delta","item_id":"msg_2","delta":"no"}`,
			`{"type":"response.output_item.done","item":{"type":"message","id":"msg_1"}}`, completed)},
		{"reasoning summary parts and encrypted content", sseBody(created,
			`{"type":"response.output_item.added","item":{"type":"reasoning","id":"rs_1","encrypted_content":"old"}}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":0,"delta":"A"}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":1,"delta":""}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":1,"delta":"B"}`,
			`{"type":"response.reasoning_text.delta","item_id":"rs_1","summary_index":7,"delta":"C"}`,
			`{"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_1","encrypted_content":"new\u0000"}}`,
			`{"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_2","encrypted_content":"only"}}`,
			`{"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_3","encrypted_content":""}}`, completed)},
		{"function calls announced, streamed and not", sseBody(created,
			`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{\"a\":"}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":""}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_x","delta":"lost"}`,
			`{"type":"response.function_call_arguments.delta","item_id":"msg_1","delta":"lost"}`,
			`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{\"a\":1}"}}`,
			`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_2","call_id":"call_2","name":"g","arguments":"{}"}}`,
			`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_3","call_id":"call_3","name":"h"}}`, completed)},
		{"other items and odd item values", sseBody(created,
			`{"type":"response.output_item.added","item":{"type":"web_search_call","id":"ws_1"}}`,
			`{"type":"response.output_item.done","item":{"type":"web_search_call","id":"ws_1","action":{"query":"x"},  "status":"completed"}}`,
			`{"type":"response.output_item.done","item":null}`,
			`{"type":"response.output_item.done"}`,
			`{"type":"response.output_item.added","item":"nope"}`,
			`{"type":"response.output_item.done","item":{"type":1}}`, completed)},
		{"flat error event then failed", sseBody(created,
			`{"type":"error","code":"rate_limit_exceeded","message":"Rate limit reached. Please try again in 1.234s."}`,
			`{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"x"}}}`)},
		{"nested error event then end of body", sseBody(created,
			`{"type":"error","error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"too long","param":null}}`)},
		{"error codes as numbers and objects", sseBody(
			`{"type":"error","error":{"code":429,"message":"slow"}}`,
			`{"type":"error","error":{"code":{"a": [1, 2]},"message":"odd"}}`)},
		{"error code with invalid UTF-8", sseBody("{\"type\":\"error\",\"code\":{\"a\":\"\xff\xe2\x82\"},\"message\":\"m\"}")},
		{"error code with invalid UTF-8 beside a type", sseBody("{\"type\":\"error\",\"error\":{\"type\":\"t\",\"code\":[\"\xed\xa0\x80\"]}}")},
		{"error codes as statuses", sseBody(`{"type":"error","code":"502","message":"bad gateway"}`)},
		{"error status 401", sseBody(`{"type":"error","code":"401","message":"who"}`)},
		{"error status 402", sseBody(`{"type":"error","code":"402"}`)},
		{"error status 404", sseBody(`{"type":"error","code":"404"}`)},
		{"error status 529", sseBody(`{"type":"error","code":"529"}`)},
		{"error without code", sseBody(`{"type":"error","message":"?"}`)},
		{"error code null", sseBody(`{"type":"error","code":null,"message":"?"}`)},
		{"error unknown code and overflow message", sseBody(`{"type":"error","code":"weird","message":"Too many to\u212aens in the conte\u0130"}`)},
		{"error unknown code and context window", sseBody(`{"type":"error","code":"weird","message":"exceeds the CONTEXT W\u0130NDOW"}`)},
		{"error type only", sseBody(`{"type":"error","error":{"type":"insufficient_quota","message":"pay"}}`)},
		{"error with folded keys", sseBody(`{"type":"error","error":{"MESSAGE":"a","me\u017f\u017fage":"b","Type":"server_is_overloaded","CODE":"x","PARAM":[1]}}`)},
		{"error with kelvin in no key", sseBody(`{"type":"error","error":{"\u212aode":"x","message":"m"}}`)},
		{"error message of the wrong type", sseBody(`{"type":"error","error":{"message":5,"type":[true]}}`)},
		{"error type of the wrong type", sseBody(`{"type":"error","error":{"type":{"a":1}}}`)},
		{"error message bool", sseBody(`{"type":"error","error":{"message":true}}`)},
		{"error not an object", sseBody(`{"type":"error","error":"boom"}`)},
		{"error array", sseBody(`{"type":"error","error":[1]}`)},
		{"error number", sseBody(`{"type":"error","error":3}`)},
		{"error bool", sseBody(`{"type":"error","error":false}`)},
		{"response error of the wrong type", sseBody(`{"type":"response.failed","response":{"status":"failed","error":{"message":1}}}`)},
		{"failed without error", sseBody(created, `{"type":"response.failed","response":{"status":"cancelled"}}`)},
		{"failed with response error", sseBody(created, `{"type":"response.failed","response":{"status":"failed","error":{"code":"invalid_api_key","message":"k"}}}`)},
		{"incomplete for length", sseBody(created, `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":1,"output_tokens":2}}}`)},
		{"incomplete for content filter", sseBody(`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"content_filter"}}}`)},
		{"incomplete for another reason", sseBody(`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"weird\n\u00e9\u200b"}}}`)},
		{"incomplete without details", sseBody(`{"type":"response.done","response":{"status":"incomplete","incomplete_details":null}}`)},
		{"incomplete duplicate details", sseBody(`{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"incomplete_details":{}}}`)},
		{"duplicate responses", sseBody(`{"type":"response.completed","response":{"id":"a","usage":{"input_tokens":3}},"response":{"model":"m"}}`)},
		{"response null then terminal", sseBody(`{"type":"response.completed","response":null}`)},
		{"terminal without response", sseBody(created, `{"type":"response.completed"}`)},
		{"usage null keeps the last", sseBody(
			`{"type":"response.in_progress","response":{"usage":{"input_tokens":7}}}`,
			`{"type":"response.completed","response":{"usage":null}}`)},
		{"usage of odd shapes", sseBody(`{"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":1.5,"output_tokens":2}}}`)},
		{"usage details null and wrapped", sseBody(`{"type":"response.completed","response":{"usage":{"input_tokens":-9223372036854775808,"input_tokens_details":{"cached_tokens":1},"output_tokens_details":null,"output_tokens":null}}}`)},
		{"usage details not an object", sseBody(`{"type":"response.completed","response":{"usage":{"input_tokens_details":3}}}`)},
		{"usage not an object", sseBody(`{"type":"response.completed","response":{"usage":[1]}}`)},
		{"interleaved items and the fast reader's shapes", sseBody(
			` { "type" : "response.created" , "response" : { "id" : "r" , "model" : "m" , "tools" : [ { "\u0061" : [ 1 , { } ] } ] } } `,
			`{"type":"response.output_item.added","item":{"type":"message","id":"msg_1","phase":"final_answer","content":[]}}`,
			`{"type":"response.output_text.delta","item_id":"msg_1","delta":"a","logprobs":[{"token":"a","top_logprobs":[]}]}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":0,"delta":"b"}`,
			`{"type":"response.output_text.delta","item_id":"msg_1","delta":"c","obfuscation":"x"}`,
			`{"type":"response.output_item.added","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f"}}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":1,"delta":"d"}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{}"}`,
			`{"type":"response.output_item.done","item":{"type":"reasoning","id":"rs_1","encrypted_content":"e","summary":[{"type":"summary_text","text":"b"}]}}`,
			`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","summary_index":1,"delta":"after done"}`,
			`{"type":"response.output_item.done","item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{}"}}`,
			`{"type":"response.output_text.delta","item_id":"msg_1","delta":"f"}`,
			`{"type":"response.completed","response":{"status":"completed","incomplete_details":null,"usage":{"input_tokens":2,"output_tokens":1}}}`)},
		{"payload not json", "event: response.output_text.delta\ndata: {\"type\":\n\n"},
		{"payload not json long", "event: \xffname\ndata: " + long + "\n\n"},
		{"field of the wrong type", sseBody(`{"type":"response.output_text.delta","item_id":1}`)},
		{"summary index of the wrong type", sseBody(`{"type":"response.reasoning_summary_text.delta","item_id":"r","summary_index":"1","delta":"x"}`)},
		{"non-SSE line", "data: " + created + "\n\n" + long + "\n"},
		{"done sentinel and comments", ": keep-alive\r\n\r\ndata: " + created + "\r\n\r\ndata: [DONE]\r\n\r\n"},
		{"events after the end are ignored", sseBody(completed, `{"type":"response.output_text.delta","item_id":"m","delta":"late"}`, "{")},
		{"empty body", ""},
	}
	d := driver(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			for _, chunks := range [][][]byte{whole(body), perEvent(body), byteByByte(body)} {
				compare(t, d, chunks)
			}
		})
	}
}
