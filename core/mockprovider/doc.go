// Package mockprovider is a MOCK model provider: it answers requests from a
// script of canned responses, in order, without any network or model. It
// exists for tests and for the offline demo; everything it produces is
// labelled "mock" (provider "mock", model "mock-model" unless the script
// names another, response ids "mock-resp-N").
//
// # Script format
//
// A script is one JSON object:
//
//	{
//	  "mock_script": 1,
//	  "model": "mock-model",
//	  "responses": [
//	    {"tool_calls": [{"id": "call_1", "name": "read", "arguments": {"path": "hello.txt"}}]},
//	    {"thinking": "The file says hi.", "text": "hello.txt says: hi"},
//	    {"error": {"kind": "overloaded", "message": "try later"}},
//	    {"events": [{"type": "start"}, {"type": "text_delta", "index": 0, "text": "raw"}]}
//	  ]
//	}
//
// A shorthand response (thinking, text, tool_calls, optional stop and
// usage) is expanded into a well-formed stream: start, thinking deltas, text
// deltas (split after each space), each tool call as start, argument deltas
// of at most 16 bytes and end, then done with stop "tool_use" when there are
// tool calls and "end" otherwise. "events" gives the exact stream instead,
// malformed or not (omit the terminal event to simulate a cut-off stream).
// "hang_after": N makes the stream block after N events until the request's
// context is cancelled, to exercise aborts.
//
// When the script runs out, the stream fails with an invalid_request error
// saying so.
package mockprovider
