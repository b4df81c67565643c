// Package guest is the providers plugin's side of the smith:plugin world: it
// declares the providers, turns a request snapshot (Smith's provider-neutral
// JSON request document) into a request template with secret references,
// runs the native codecs inside a decoder resource and maps their
// normalized events to the world's stream events, and classifies failed
// responses.
//
// What the world's events cannot carry is dropped here: Responses API item
// ids and phases, and server-side ("other") blocks, which Smith's messages
// have no content block for (they keep their index as empty text blocks).
//
// Plugin is stateless and safe for concurrent use; a decoder is used by one
// goroutine at a time.
package guest
