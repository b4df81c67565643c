// Package protocol is Smith's wire vocabulary: every event, request and
// response that the frontends exchange with the runtime — `smith eval
// --output json`, JSON-RPC, MCP and replay. It holds types and their JSON
// encoding only, no behaviour: the runtime (core/runtime) produces the
// events and serves the operations, the frontends consume them.
//
// # Events
//
// [Event] is a closed sum type: one struct per variant, each carrying a
// sequence number ([Seq]). On the wire an event is one JSON object whose
// first field is "type", a snake_case discriminator ([EventType]), followed
// by the variant's fields; [MarshalEvent] writes it and [UnmarshalEvent]
// reads it back. docs/events.md documents every event and field with an
// example stream.
//
// A run is agent_start, then turns (turn_start; delivered input as
// message_start and message_end; the assistant message as message_start,
// message_update per stream delta, message_end; per tool call
// tool_execution_start, tool_execution_update, tool_execution_end and its
// tool_result message; turn_end), then exactly one agent_end and one
// settled. Routing reports retries and failovers (provider_retry,
// provider_failover) inside the assistant message they delay; the
// runtime adds model_change and notice. The *_end event of a message is
// authoritative over its updates.
//
// # Operations
//
// [SessionInfo], [ModelState], [Stats], [State], [Command] and the
// *Params types are what the runtime's operations take and return; their
// JSON field names are the RPC's.
//
// All types are plain values and safe to share once built.
package protocol
