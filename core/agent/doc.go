// Package agent is Smith's agent loop: it sends the conversation to a
// [model.Provider], streams the normalized answer, validates the tool calls
// against each tool's JSON Schema, runs them, records every completed
// message through a [Recorder], and repeats until an explicit stop
// condition, emitting an ordered, sequenced [protocol.Event] stream.
//
// # Runs
//
// An [Agent] holds the conversation and the queued input. [Agent.Start]
// begins a [Run]; one goroutine owns the run's state, and everything else
// reaches it through bounded channels: the run's events, [Run.Abort], and
// the queue methods [Agent.Steer] and [Agent.FollowUp].
//
// A run emits agent_start, then turns (turn_start; delivered input as
// message_start/message_end; the assistant message as message_start,
// message_update per stream delta, message_end; for each tool call
// tool_execution_start/update/end and its tool_result message; turn_end),
// then exactly one agent_end and one settled, and closes the channel
// (between those two come only what the plugins' settled handlers cause:
// their diagnostics as notices, a queue_update).
// Sequence numbers increase strictly across all runs of an agent.
//
// # Queued input
//
// Steering input is delivered after the current tool batch (or at the start
// of a run); follow-up input when the agent would otherwise stop. Both are
// delivered only at those boundaries, so an injected message never lands
// between a tool call and its result. Queued input left when a run ends
// (for example by abort) stays queued for the next run.
//
// # Plugin event handlers
//
// With Config.Handlers set, each event a handler wants is delivered to
// the handlers as it is emitted, synchronously, by the run goroutine. A
// cancel-run applies at once. tool_execution_start is a decision: a
// deny-call answers the call with an error result before any effect, and
// a decision that cannot be made (a deciding handler failed) ends the run
// with handler_failed, nothing its handlers returned applied. The other
// actions wait for the safe point after the turn's stream and complete
// tool batch and apply there as one batch, or not at all: an invalid or
// conflicting action (two models, a tool both activated and deactivated)
// rejects the batch with one warning notice, no winner chosen; reload and
// model selection go through Config.Publisher. A continuation makes one
// more provider request where the run would stop (duplicates coalesce; a
// tool follow-up or queued input satisfies it); a stop, an abort or a
// failure overrides it and leaves queued input queued. The settled
// handlers run before settled is sent, a run started meanwhile waits for
// them, and a continuation they return is diagnosed, never reopening the
// run.
//
// # Abort
//
// Abort is cooperative: the provider stream and the running tool see their
// context cancelled. Every tool call still gets exactly one result, in call
// order: calls that never ran are answered as not_applied; a tool cut off
// mid-way reports its own mutation state, and one that does not stop within
// Config.AbortGrace is recorded as unknown.
//
// # Getting Started
//
//	a, err := agent.New(agent.Config{Provider: p, Model: "m", Tools: tools, Recorder: rec})
//	run, err := a.Start(ctx, model.UserText("What does hello.txt say?"))
//	for ev := range run.Events() {
//		b, _ := protocol.MarshalEvent(ev)
//		fmt.Println(string(b))
//	}
package agent
