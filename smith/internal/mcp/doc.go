// Package mcp is `smith mcp`: Smith served over the Model Context Protocol,
// on the official Go SDK (github.com/modelcontextprotocol/go-sdk), as a
// thin client of core/runtime. A client (Claude Desktop, Cursor, another
// agent) spawns it and speaks MCP over its stdin and stdout; stdout
// carries only MCP frames, and everything a person should read goes to
// stderr.
//
// # Getting Started
//
//	srv, err := mcp.New(ctx, mcp.Options{Runtime: rt, Session: s, Version: v, Log: os.Stderr})
//	err = srv.Serve(ctx, os.Stdin, os.Stdout)
//
// [Server.Serve] reads newline-delimited JSON-RPC and, unlike the SDK's
// stdio transport, answers a line that is no message (not JSON, a batch,
// an object without "jsonrpc":"2.0") with a parse or invalid-request error
// and goes on serving; [Server.Run] takes any SDK transport (in-memory
// ones in tests).
//
// # Tools
//
// Every active tool of the session — the built-in tools and the active
// plugins' — is an MCP tool with the same name, description and JSON
// Schema ([runtime.Session.Tools]). A tools/call runs through
// [runtime.Session.CallTool]: the permission policy decides it as it
// decides the model's calls (a deny rule of smith.kdl refuses it, naming
// the rule), the arguments are validated against the
// schema before any effect, and the effects are journaled in the server's
// session exactly as a model's calls are, confined to the working
// directory.
//
// The causal parent of a call's effects is "mcp:N", N counting the calls
// of available tools this server process has received (1, 2, …): the MCP
// request id is not exposed by the SDK, and the journal needs only a name
// that no model's tool call can have. Nothing is added to the session's
// conversation — no tool call and no tool result message — so a later
// `smith eval --resume` continues a valid conversation, while the journal
// keeps the evidence (the Markdown resource lists each MCP call's effects
// where they happened; the JSONL resource and `smith session dump` hold
// every frame) and
// the tools' memory of what was read and written (an edit of a file the
// MCP client read goes through the same stale-edit check).
//
// A call runs between two snapshots of the working directory, and one
// that changed files is recorded as a turn of the session's file history
// (its start and end snapshots), so `smith session diff` and `smith
// session undo` of the server's session cover what MCP calls changed, one
// call at a time; a call that changed nothing records no snapshot. Calls
// wait for each other while snapshots are taken.
//
// An unknown tool is a JSON-RPC error (invalid params) naming the
// available tools; arguments that do not match the schema, a path outside
// the working directory and a failing command are tool results with
// isError set, whose text says what to change. Every result carries the
// call's mutation state and causal parent in _meta ("smith/mutation",
// "smith/call_id").
//
// Progress: when the client sends a progressToken, each partial update the
// tool reports (a command's output as it arrives) is a
// notifications/progress with the text as its message and a counter as its
// progress. Cancellation: notifications/cancelled cancels the call's
// context; a running command is stopped (SIGTERM, then SIGKILL) and its
// outcome (mutation unknown) is journaled.
//
// # Sessions as resources
//
// Every stored session is two resources, listed by resources/list:
//
//	smith://sessions/ID/transcript.md     text/markdown: the conversation,
//	                                      with the MCP calls' effects
//	smith://sessions/ID/transcript.jsonl  application/jsonl: every frame
//
// read with resources/read through [runtime.Runtime.Transcript]; the two
// URI templates are listed by resources/templates/list.
//
// # The server's session
//
// The session the calls are recorded in is chosen by the command (--session
// NAME, default a new auto-named one); the server names it in its
// instructions and on stderr. A new session in which nothing was called is
// removed when the server ends.
//
// # UI intents
//
// Plugins' UI intents (the WIT interface smith:plugin/ui) are declared but
// no host implements them yet, so none reaches this frontend today. When
// they do, they degrade per the intent law (drop, refuse with an event, or
// persist; never discovered at runtime):
//
//   - progress → notifications/progress (above);
//   - transcript appends → persisted in the session, read as resources;
//   - show-notification → dropped (it is informational; MCP's logging
//     notifications, deprecated as of protocol 2026-07-28, are not
//     offered), with the text on stderr;
//   - request-confirmation → refused with the WIT's no-user fault (this
//     frontend has no user of its own; the MCP client's user is not asked
//     on a plugin's behalf), so the plugin takes its documented default.
//
// # Concurrency
//
// A Server serves one client connection at a time; its tool calls may run
// concurrently. Serve and Run return when the client disconnects or ctx
// ends,
// after the calls still running have ended (bounded by
// [runtime.ToolAbortGrace]).
package mcp
