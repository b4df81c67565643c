// Package guest is the providers plugin's side of the smith:plugin world: it
// declares the providers, turns a request snapshot (Smith's provider-neutral
// JSON request document) into a request template with secret references,
// runs the native codecs inside a decoder resource and maps their
// normalized events to the world's stream events, and classifies failed
// responses.
//
// The world's stream-event variant has no room for some of what the codecs
// preserve; such facts travel as an unknown event whose payload starts with
// [ExtensionPrefix] followed by a JSON object (see [Extension]). A host that
// does not know the prefix ignores them, as the world says.
//
// Plugin is stateless and safe for concurrent use; a decoder is used by one
// goroutine at a time.
package guest
