package anthropic_test

import "strings"

// ev is one SSE event with an event name and a data line.
func ev(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }

// data is one SSE event with only a data line.
func data(d string) string { return "data: " + d + "\n\n" }

const (
	msgStart = `{"type":"message_start","message":{"id":"msg_1","model":"claude-x","usage":{"input_tokens":12,"output_tokens":1,"cache_read_input_tokens":null}}}`
	endTurn  = `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":30}}`
	msgStop  = `{"type":"message_stop"}`
)

// handMade are bodies for the paths the recordings do not reach; the
// differential tests and the fuzz seed corpus use them.
var handMade = []struct {
	name string
	body string
}{
	{"text with ping, comments and done", ": hi\n\n" + ev("message_start", msgStart) + ev("ping", `{"type": "ping"}`) +
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi"}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there \u00e9\ud83d\ude00\ud800 <&>"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + ev("message_delta", endTurn) + ev("message_stop", msgStop) +
		data("[DONE]")},
	{"crlf and escaped type", strings.ReplaceAll(data(`{"type":"message\u005fstart","message":{"id":"a\"b","model":null}}`)+
		data(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)+
		data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x\u0000\u2028"}}`)+
		data(`{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`), "\n", "\r\n")},
	{"second message_start and non-object message", data(`{"type":"message_start","message":null}`) + data(msgStart) +
		data(`{"type":"message_start","message":{"id":"other","usage":{"input_tokens":99}}}`) + data(endTurn)},
	{"non-SSE line", data(msgStart) + "<html>" + strings.Repeat("é\xff", 60) + "\n\n"},
	{"payload not JSON", ev("content_block_delta", `{"type":"content_block_delta","index":0,`) + data(endTurn)},
	{"payload with trailing garbage", data(`{"type":"ping"} x`)},
	{"payload not an object", ev("weird\x01name", `[1,2]`)},
	{"index not an integer", data(`{"type":"content_block_stop","index":1.5}`)},
	{"index overflows", data(`{"type":"content_block_stop","index":99999999999999999999}`)},
	{"content_block not an object", data(`{"type":"content_block_start","index":4,"content_block":"text"}`)},
	{"content_block absent", data(`{"type":"content_block_start","index":4}`)},
	{"content_block field of the wrong type", data(`{"type":"content_block_start","index":-4,"content_block":{"type":"text","text":7}}`)},
	{"delta for a block never started", data(msgStart) + data(`{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"x"}}`)},
	{"delta not an object is ignored", data(`{"type":"content_block_delta","index":7,"delta":"x"}`) + data(endTurn) + data(msgStop)},
	{"message_stop without stop reason", data(msgStart) + data(`{"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":2}}`) + data(msgStop)},
	{"empty stop reason resets", data(`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`) + data(`{"type":"message_delta","delta":{"stop_reason":""}}`)},
	{"unknown stop reason", data(msgStart) + data(`{"type":"message_delta","delta":{"stop_reason":"odd\u00ad\u0301\t"}}`) + data(msgStop)},
	{"every known stop reason", data(`{"type":"message_delta","delta":{"stop_reason":"refusal"}}`) + data(`{"type":"message_delta","delta":{"stop_reason":"pause_turn"}}`)},
	{"ends after message_delta without message_stop", data(msgStart) + data(endTurn)},
	{"truncated", data(msgStart) + data(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`)},
	{"error event overloaded", data(msgStart) + ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`) + data(endTurn)},
	{"error event prompt too long", ev("error", `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 300000 tokens > 200000 maximum"},"request_id":"req_1"}`)},
	{"error event without error", ev("error", `{"type":"error"}`)},
	{"error event with null error", ev("error", `{"type":"error","error":null}`)},
	{"error event with folded keys", ev("error", `{"type":"error","error":{"TYPE":"rate_limit_error","meſsage":"slow down","Type":null,"extra":[1]}}`)},
	{"error member that is a string", ev("error", `{"type":"error","error":"boom"}`)},
	{"error member with a number type", data(`{"type":"ping","error":{"type":5,"message":{}}}`)},
	{"error type unknown", ev("error", `{"type":"error","error":{"type":"teapot_error","message":"short and stout"}}`)},
	{"usage merging", data(`{"type":"message_start","message":{"usage":{"input_tokens":5,"cache_creation_input_tokens":3,"output_tokens_details":{"thinking_tokens":2},"note":"<a&b>\u2028"}}}`) +
		data(`{"type":"message_delta","delta":{},"usage":{"output_tokens":9,"input_tokens":null,"output_tokens_details":null,"x":1,"x":2,"y":[ 1 , {"z" : null} ]}}`) +
		data(`{"type":"message_delta","usage":{"output_tokens":1.5}}`) + data(`{"type":"message_delta","usage":{"output_tokens_details":3}}`) +
		data(`{"type":"message_delta","usage":"none"}`) + data(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens_details":{"thinking_tokens":"x"}}}`) + data(msgStop)},
	{"usage edge values", data(`{"type":"message_start","message":{"id":"m","usage":{"input\u005ftokens":9223372036854775807,"output_tokens":-0,"cache_read_input_tokens":-9223372036854775808,"n\u00e9":"`+"\xff"+`\ud800<\u2029>","\ud83d\ude00":{ "a" : [ ] }}}}`) +
		data(`{"type":"message_delta","usage":{"output_tokens":1e2}}`) + data(`{"type":"message_delta","usage":{"output_tokens":9223372036854775808}}`) +
		data(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"cache_creation_input_tokens":3}}`)},
	{"nesting beyond the limit", data(`{"type":"message_delta","usage":{"x":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}}`)},
	{"nesting at the limit in an error object", ev("error", `{"type":"error","error":{"type":"api_error","x":`+strings.Repeat("[", 9997)+strings.Repeat("]", 9997)+`}}`)},
	{"usage with repeated null", data(`{"type":"message_delta","usage":{"input_tokens":1,"input_tokens":null,"cache_read_input_tokens":-7}}`)},
	{"thinking and redacted thinking", data(msgStart) +
		data(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":"s0"}}`) +
		data(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`) +
		data(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}`) +
		data(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"wrong kind"}}`) +
		data(`{"type":"content_block_stop","index":0}`) +
		data(`{"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":""}}`) +
		data(`{"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"s1"}}`) +
		data(`{"type":"content_block_start","index":2,"content_block":{"type":"thinking","thinking":""}}`) +
		data(`{"type":"content_block_stop","index":2}`) + data(`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`) + data(msgStop)},
	{"server blocks", data(msgStart) +
		data(`{"type":"content_block_start","index":3,"content_block":{"type":"server_tool_use","id":"srv","name":"web_search","input":{} }}`) +
		data(`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"query\": "}}`) +
		data(`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"\"go\"}"}}`) +
		data(`{"type":"content_block_stop","index":3}`) +
		data(`{"type":"content_block_start","index":4,"content_block":{"type":"web_search_tool_result","content":[]}}`) +
		data(`{"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"[1]"}}`) +
		data(`{"type":"content_block_start","index":5,"content_block":{ }}`) +
		data(`{"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"7"}}`) +
		data(`{"type":"content_block_start","index":6,"content_block":{"Type":"x","type":null,"TYPE":3,"input":1}}`) +
		data(`{"type":"content_block_delta","index":6,"delta":{"type":"input_json_delta","partial_json":"{bad"}}`) +
		data(`{"type":"content_block_start","index":7,"content_block":{"type":"x","input":{},"input":[]}}`) +
		data(`{"type":"content_block_delta","index":7,"delta":{"type":"input_json_delta","partial_json":" \u00a0 "}}`) +
		data(`{"type":"content_block_start","index":8,"content_block":{"type":"y","input":{}}}`) +
		data(`{"type":"content_block_delta","index":8,"delta":{"type":"input_json_delta","partial_json":"true"}}`) +
		data(`{"type":"content_block_delta","index":8,"delta":{"type":"citations_delta","citation":{}}}`) +
		data(`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`) + data(msgStop)},
	{"block index reused and open blocks closed in order", data(msgStart) +
		data(`{"type":"content_block_start","index":9,"content_block":{"type":"tool_use","id":"a","name":"f"}}`) +
		data(`{"type":"content_block_start","index":9,"content_block":{"type":"tool_use","id":"b","name":"g"}}`) +
		data(`{"type":"content_block_start","index":-2,"content_block":{"type":"tool_use","id":"c","name":"h"}}`) +
		data(`{"type":"content_block_delta","index":-2,"delta":{"type":"input_json_delta","partial_json":"{}"}}`) +
		data(`{"type":"content_block_stop","index":12}`) +
		data(`{"type":"content_block_start","index":0,"content_block":null}`) +
		data(`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`) + data(msgStop) + data(`{"type":"ping"}`) + "garbage after the end\n"},
	{"unknown event types and fields", data(`{"type":"future_event","index":"x","delta":{"type":7}}`) + data(`{"type":"message_delta","delta":{"stop_reason":"end_turn","extra":{"a":[]}},"usage":null}`)},
	{"cr line endings", strings.ReplaceAll(data(msgStart)+data(endTurn)+data(msgStop), "\n", "\r")},
	{"null server block with input is kept as it started", data(`{"type":"content_block_start","index":0,"content_block":null}`) +
		data(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`) +
		data(`{"type":"content_block_stop","index":0}`) + data(endTurn)},
	{"empty body", ""},
	{"only done", data("[DONE]")},
}
