// Package anthropic is the codec of the Anthropic Messages API: a streaming
// decoder (message_start … message_stop, with thinking signatures,
// redacted thinking and server-tool blocks kept verbatim), the
// classification of error responses, and the request builder.
package anthropic
