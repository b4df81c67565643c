// Package codec selects the codec of a wire API by name — the decoder of its
// response streams ([NewDecoder]), the classifier of its error responses
// ([ClassifyResponse]) and its request builder ([BuildRequest]) — and is
// what the provider plugin's WIT exports call.
//
// The pipeline for one model request: the host resolves the provider's
// endpoint (package endpoints: base URL, credential name, quirks), passes
// the history through handoff.Transform for that target, calls
// BuildRequest, substitutes the referenced credential at the effect
// boundary, and feeds the response body's chunks to the decoder, or a
// non-2xx response to ClassifyResponse. Decoders are stateful and used by
// one goroutine at a time; the other functions are pure and safe for
// concurrent use.
package codec
