// Package model is Smith's provider-neutral vocabulary: the messages a
// conversation is made of, their content blocks, token usage, stop reasons,
// classified provider errors, the events a provider stream emits, and the
// [Provider] interface the agent loop talks to.
//
// Nothing here names a vendor. Provider plugins translate their wire formats
// into these types; the agent, the session and every frontend see only them.
//
// # Sum types
//
// [Message], [Content] and [StreamEvent] are closed sum types: interfaces with
// an unexported marker method, implemented only by the structs of this
// package. On the wire (JSON) every variant carries a snake_case discriminator:
// "role" for messages ("user", "assistant", "tool_result"), "type" for content
// blocks and stream events. [UnmarshalMessage], [UnmarshalContent] and
// [UnmarshalStreamEvent] decode them back; unknown discriminators are errors.
//
// # Unknown is not zero
//
// An [Amount] whose value a provider did not report is unknown, and stays
// unknown through [Usage.Add]; it encodes as JSON null, never as 0.
//
// # Opaque payloads
//
// Thinking signatures and encrypted reasoning are kept byte-exact as []byte
// (base64 in JSON) together with the provider that produced them
// ([Thinking.Producer]), so they can be sent back verbatim to that provider
// and dropped for any other.
package model
