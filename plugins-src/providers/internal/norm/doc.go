// Package norm is the provider-neutral vocabulary of the provider codecs:
// the normalized stream events a decoder emits, token usage in which every
// count may be unknown, classified errors, the conversation a request is
// built from, and the HTTP request template a builder returns.
//
// It mirrors the runtime's model vocabulary (core/model) without importing
// it: the codec plugin is built for wasm and may depend only on the standard
// library and the WIT guest bindings. The plugin wrapper translates between
// the two at the WIT boundary.
//
// Values of this package are plain data and safe to share between goroutines
// once built; nothing here holds locks.
package norm
