// Package plugin loads Smith's WebAssembly plugins and exposes what they
// contribute to the runtime: the plugin manager glue between wasmhost (the
// engine), the generated smith:plugin bindings, and the durable effect
// journal.
//
// A [Host] owns one engine (with its on-disk compilation cache). [Host.Load]
// runs each [Artifact]'s registration (declare-contributions) — or reuses
// the registration cached under the same pinned SHA-256, grants and world
// version, so a warm start hashes and compiles nothing — and verifies the
// artifact's bytes against its pin before any of them runs (at Load when it
// must register, else at its first compile);
// validates the complete contribution set (a tool name declared twice fails
// naming both plugins) and publishes a [Generation]. Plugins are compiled
// and instantiated lazily, on the first call that needs them, or ahead of
// it by [Generation.Prepare] (run it in the background during the first
// model request).
//
// [Generation.Bind] attaches the generation's tools to a session: the
// allowed roots, the effect journal and the configured ignores. The tools it
// returns are [agent.Tool]s; Execute validates the arguments against the
// tool's JSON Schema before any effect, runs the plugin's invoke-tool export
// on a pooled instance with the call's working directory, and every fs and
// process import the plugin makes is a journaled effect (intent durable
// before it runs) attributed to the tool call.
//
//	h, err := plugin.Open(ctx, plugin.Config{CacheDir: dir})
//	gen, err := h.Load(ctx, artifacts)
//	go gen.Prepare(ctx) // optional: compile while the model thinks
//	b, err := gen.Bind(plugin.Effects{Journal: j, Roots: []string{project}})
//	a, err := agent.New(agent.Config{Tools: b.Tools(), Cwd: project, ...})
//	...
//	b.Close(); gen.Close(); h.Close(ctx)
package plugin
