// Package replay records HTTP exchanges underneath an httpengine.Engine and
// serves them again byte for byte, chunk boundaries included, with no
// network: the basis of `smith replay`.
//
// A [Recorder] wraps any [net/http.RoundTripper]; [Recorder.Exchanges]
// returns what passed through it, secret header values redacted. [Encode]
// and [Decode] store exchanges in a small text format with raw byte
// payloads. A [Transport] serves recorded exchanges in order, checking that
// each request's method and URL match, optionally with the recorded timing.
package replay
