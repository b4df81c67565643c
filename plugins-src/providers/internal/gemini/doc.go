// Package gemini is the codec of the Google Gemini API
// (streamGenerateContent?alt=sse, and Vertex AI's streamed function-call
// arguments): the decoder (thought summaries, thoughtSignature kept on the
// part it came on, function calls with synthesized ids when the model gives
// none, STOP with function calls as tool_use, the bare JSON error object a
// 200 stream may end with), error classification, and the request builder.
package gemini
