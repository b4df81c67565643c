// Package httpengine is Smith's one HTTP engine: every provider request and
// every granted plugin http effect goes through it. It is synchronous (the
// caller's goroutine blocks; there is no event loop), pure Go, bounded and
// observable.
//
// # Getting Started
//
//	eng, err := httpengine.New(httpengine.Config{})
//	if err != nil { ... }
//	resp, err := eng.Exchange(ctx, httpengine.Request{Method: "POST", URL: url, Body: body})
//	if err != nil { ... } // an *httpengine.Error; errors.As it and switch on Kind
//	for chunk, ok := resp.Body.Next(); ok; chunk, ok = resp.Body.Next() {
//		decode(chunk) // as the server sent it; valid until the next call to Next
//	}
//	switch end := resp.Body.End(); end.Outcome { ... } // complete, truncated, cancelled or failed
//
// # Bounds
//
// Every exchange is bounded; each bound is a [Config] field whose zero value
// means the default:
//   - request bodies over 16 MiB are refused before anything is sent
//     ([Config.MaxRequestBody]);
//   - response bodies stop at 64 MiB and end [Truncated]
//     ([Config.MaxResponseBody]);
//   - the response head must arrive within 120 s ([Config.HeadTimeout]);
//   - a gap of 300 s between body chunks ends the body [Failed] with
//     [KindTimeout] ([Config.ChunkGap]);
//   - the reader runs at most [Config.ChunkQueue] (8) chunks of at most
//     [Config.ReadSize] (32 KiB) ahead of the consumer, so a body holds at
//     most ChunkQueue+2 buffers (320 KiB by default) however long it is:
//     bodies are streamed, never buffered to completion.
//
// # Outcomes and errors
//
// Every body ends with exactly one [Outcome]: [Complete], [Truncated],
// [Cancelled] or [Failed]. A body cut short by the peer (a closed connection
// inside chunked framing, fewer bytes than its Content-Length) is [Failed],
// never [Complete]. Cancellation of the context is observed at every chunk
// boundary: after it, no further chunk is delivered.
//
// Any HTTP status is a [Response]. Transport failures are [*Error] values
// whose [Kind] (dns, connect, tls, timeout, reset, protocol, plus request
// and cancelled) lets retry policy decide without parsing text.
//
// # TLS and proxies
//
// [NewTransport] validates certificates against the bundled Mozilla roots
// (golang.org/x/crypto/x509roots/fallback/bundle) plus any
// [TransportConfig.ExtraRoots]; the operating system's pool is never used.
// HTTP/2 is negotiated over TLS. HTTPS_PROXY, HTTP_PROXY and NO_PROXY are
// honoured.
//
// # Observation, recording and replay
//
// An [Observer] sees start, head, every chunk's size and timing, and the end
// of each exchange, with secret header values replaced by [Redacted]. The
// network layer is an [net/http.RoundTripper] ([Config.Transport]), so the
// replay package's recorder and replay transport, and test fakes, plug in
// underneath the same bounds.
package httpengine
