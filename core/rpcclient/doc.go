// Package rpcclient is the Go client of `smith rpc`: JSON-RPC 2.0 over a
// pair of streams, one message per line, with the types of core/protocol.
// docs/rpc.md documents the protocol.
//
// # Getting Started
//
//	c, err := rpcclient.Start(exec.Command("smith", "rpc", "--model", "mock"))
//	defer c.Close()
//	_, err = c.Prompt(ctx, protocol.PromptParams{Text: "fix the bug"})
//	for ev := range c.Events() {
//		// render ev; the run ends with agent_end, then settled
//		if _, ok := ev.(protocol.Settled); ok {
//			break
//		}
//	}
//	st, err := c.State(ctx)
//
// [New] connects over any reader and writer (pipes, a socket, an
// in-process server); [Start] starts a `smith rpc` process.
//
// # Events
//
// The server's event notifications arrive on [Client.Events] in order.
// The client reads the server's output continuously, so calls are answered
// whether or not events are read: unread events are held in memory without
// bound. A client that never reads them should call [Client.DiscardEvents].
// [Assembler] rebuilds each assistant message from its deltas, for a
// client that shows it while it streams.
//
// # Concurrency
//
// A Client is safe for concurrent use: calls may be made from many
// goroutines, each waits for its own response.
package rpcclient
