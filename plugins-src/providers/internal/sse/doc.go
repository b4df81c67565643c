// Package sse is an incremental Server-Sent Events framer for provider
// response bodies. It accepts the body in arbitrary byte chunks — split
// anywhere, including between CR and LF or inside a UTF-8 sequence — and
// reports each dispatched event, each line that is not SSE at all (Gemini
// appends a bare JSON error object to a 200 stream), and framing facts
// (line endings, comment lines, the [DONE] sentinel).
//
// It deviates from the WHATWG parser in two deliberate ways: a body that
// ends without a final blank line still dispatches its last event, and a
// line whose field name is not event, data, id or retry is reported as
// non-SSE text instead of being silently ignored.
//
//	var f sse.Framer
//	for chunk := range body {
//		f.Feed(chunk, handle)
//	}
//	f.Close(handle)
//	stats := f.Stats()
package sse
