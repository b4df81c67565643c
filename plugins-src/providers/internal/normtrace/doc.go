// Package normtrace renders normalized stream events ([norm.Event]) as
// text, one line per event, so that a test can compare two decoders — the
// Go one and its Rust port (norm.rs's trace, which writes the same text
// for equal events) — by comparing strings.
//
// The format: each event is its Go type name followed by its fields in
// Go declaration order, each as " Name=value", and a newline:
//
//	Start Provider="anthropic" Model="claude-x" ResponseID="msg_1"
//	TextDelta Index=0 Text="hi\n" Signature="" ItemID="" Phase=""
//	Done Reason="end" Raw="end_turn" Usage={Input=3 Output=7 CacheRead=unknown CacheWrite=0 Reasoning=unknown} UsageRaw="{}"
//
// Strings, byte slices and string-typed values (StopReason, ErrorKind) are
// written as [strconv.QuoteToASCII] writes them (ASCII only: \n, \t, …,
// \xNN for control and invalid UTF-8 bytes, \uXXXX and \UXXXXXXXX for
// other runes), so a trace is one line per event whatever the payload; a
// nil and an empty byte slice look the same. Integers are decimal, bools
// true or false, a duration is its nanoseconds, an [norm.Amount] is its
// value or "unknown", a [norm.Usage] and an [norm.Error] are their fields
// in braces ([AppendUsage], [AppendError]), and a nil *Error is nil.
//
//	events := dec.Feed(chunk)
//	fmt.Print(normtrace.Trace(events))
//
// The request half does the same for the Rust request document and
// builders: [RequestTrace] renders a [norm.Request] (the Rust port's
// document::trace_request writes the same text), and [Document] writes a
// request as the provider plugin's request document, which the guest's
// parser (and the Rust port's document::parse) turns back into it.
package normtrace
