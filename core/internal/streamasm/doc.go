// Package streamasm assembles a provider's stream events into one complete
// assistant message, and rejects any sequence that breaks the stream
// protocol of [model.StreamEvent] with an explicit [model.ErrMalformed] error
// instead of guessing.
package streamasm
