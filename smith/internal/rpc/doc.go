// Package rpc is `smith rpc`: Smith served as JSON-RPC 2.0 over a pair of
// streams (standard input and output), one message per LF-terminated line,
// as a thin client of core/runtime. docs/rpc.md documents every method,
// the notifications and the errors, with an example transcript;
// core/rpcclient is the Go client.
//
// # Getting Started
//
//	srv, err := rpc.New(rpc.Options{Runtime: rt, Log: os.Stderr})
//	err = srv.Serve(ctx, os.Stdin, os.Stdout)
//
// # Output
//
// The output carries protocol messages only: responses, and one "event"
// notification per event of the current session (the event object as
// core/protocol.MarshalEvent writes it, in sequence order). One writer
// writes whole lines, so no message is ever split or interleaved with
// another. Notes for people go to Options.Log.
//
// # Concurrency
//
// The methods that act on an active run — abort, steer, follow_up and the
// queue methods — are served as soon as their line is read. Every other
// method is served in arrival order, one at a time: a wait holds the
// methods after it until the session settles or its timeout passes, which
// makes a script of prompt, wait, state deterministic, and abort still
// reaches the run.
//
// # Back-pressure
//
// A client that stops reading the output fills the pipe; the event writer
// then blocks, the session's subscription holds up to
// runtime.SubscriberBuffer events, merging consecutive deltas of one
// content block, and then holds the run back until the client reads again.
// No event is dropped and message_end stays authoritative.
package rpc
