// Package core is Smith's provider-independent runtime. Every frontend
// (TUI, eval, RPC, replay, MCP) drives the same packages:
//
//   - [github.com/smith-agent/smith/core/model]: the provider-neutral
//     vocabulary — messages, content blocks, usage, stop reasons, classified
//     errors, provider stream events and the Provider interface.
//   - [github.com/smith-agent/smith/core/agent]: the agent loop and its
//     ordered event stream, tool validation and execution, queued input.
//   - [github.com/smith-agent/smith/core/effect]: the durable effect
//     boundary (intent before execution, three-state completion, recovery).
//   - [github.com/smith-agent/smith/core/mockprovider]: a scripted MOCK
//     provider for tests and the offline demo.
//
// # Getting Started
//
// A run with the mock provider, a tool and a recorder prints one JSON event
// per line:
//
//	p := mockprovider.New(script)
//	a, _ := agent.New(agent.Config{Provider: p, Tools: []agent.Tool{read}, Recorder: rec})
//	run, _ := a.Start(ctx, model.UserText("What does hello.txt say?"))
//	for ev := range run.Events() {
//		b, _ := protocol.MarshalEvent(ev)
//		fmt.Println(string(b))
//	}
//
// See the package example for a complete program.
package core
