// Package runtime is Smith's one composition root: every frontend — the
// TUI, `smith eval`, JSON-RPC, replay and MCP — drives it, and none wires
// the parts it composes.
//
// [Open] resolves the configuration (product defaults, the user's smith.kdl,
// a trusted project's, environment, flags), then loads one plugin
// generation in the background (the tools, the provider codecs and the
// product plugin, through core/plugin on one wasmhost engine; a warm start
// reads cached registrations and compiles nothing until a call needs it)
// and opens the catalog on demand. A [Session] adds the session file, its
// effect journal (an interrupted effect of an earlier process recovers as
// unknown, with a notice), the model resolved through the catalog, the
// routing and the credentials, the tools bound to the journal, the system
// prompt with the project's instructions, and the agent.
//
// # Getting Started
//
//	rt, err := runtime.Open(ctx, runtime.Config{Cwd: dir, Plugins: sysplugins})
//	defer rt.Close(ctx)
//	s, err := rt.NewSession(ctx, runtime.NewSessionOptions{NameHint: prompt})
//	sub := s.Subscribe()
//	err = s.Submit(ctx, protocol.PromptParams{Text: prompt})
//	for ev := range sub.Events() {
//		// render ev; a run ends with agent_end, then settled
//		if _, ok := ev.(protocol.Settled); ok {
//			break
//		}
//	}
//	end, err := s.Wait(ctx)
//
// # Events and slow consumers
//
// A session's events — its runs' agent events and the runtime's own
// (model_change, notice) — carry one strictly increasing sequence and reach
// every [Subscription] in order. A subscription holds up to
// [SubscriberBuffer] unread events; when it is full, a message_update
// delta continuing the same content block as the last held one is merged
// into it (the text is whole, the sequence numbers skip), and any other
// event makes the run wait for the consumer (back-pressure). Nothing is
// dropped: message_end stays authoritative.
//
// # Input
//
// [Session.Submit] takes a delivery policy: a prompt starts a run (refused
// with [ErrBusy] while one is active), steering input is delivered after
// the active run's current tool batch, follow-up input when it would
// otherwise stop; both start a run when none is active.
// [Session.Abort] aborts the active run; [Session.Wait] waits until it has
// settled. [Session.Queue] and [Session.SetQueue] inspect and edit the
// queued input.
//
// # Sessions
//
// [Runtime.NewSession], [Runtime.OpenSession] (a name, an id or a unique
// id prefix), [Runtime.OpenOrCreateSession], [Runtime.ContinueSession]
// (the latest session of this working directory), [Session.Fork] (at an
// entry), [Session.Select] (continue from another entry: a new branch),
// [Session.Tree] (every entry with its parent and label) and
// [Runtime.Sessions] (the listing, with working directory, model, first
// prompt, size and last activity). A new session records its working
// directory and Smith's version, and every model change is a model_change
// entry: a resumed session keeps its model and thinking level unless
// --model is given.
//
// [Runtime.Models] lists what a session's model can be set to (the
// catalog's models, the configuration's aliases and groups) and
// [Runtime.Transcript] writes a session as Markdown or JSONL without
// opening it for writing.
//
// # Tools called by a frontend
//
// [Session.Tools] lists the active tools with their schemas and
// [Session.CallTool] runs one call of them outside a run (MCP's
// tools/call) through the same path as a model's calls: validated against
// the schema, its effects journaled in the session with the frontend's
// call id as their causal parent, cancellable, with the tool's partial
// output as progress. Nothing is added to the conversation.
//
// # Replay
//
// [Runtime.Replay] rebuilds a session's event stream from its file alone —
// no provider, no credentials, no network, nothing written — in the event
// vocabulary of a live run, numbered from 1 (the same file always gives the
// same events). Recorded provider bytes are decoded again through the
// codec and compared with the recorded messages; with ReExecute the
// recorded tool calls run again in a scratch copy of the working tree.
// Every difference is a [protocol.Divergence]; an effect that never
// completed is shown as unknown and never run again; frames and entries
// this Smith does not know are skipped and reported. A running tool's
// partial output (tool_execution_update) is not recorded, so a replay
// shows each call's result only.
//
// # Concurrency
//
// A Runtime and its Sessions are safe for concurrent use. Each session
// file has one writer — the process that opened it — until Close.
package runtime
