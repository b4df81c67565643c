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
// The same Binding renders the generation's prompts and runs its context
// transforms from the runtime [Facts]: [Binding.SystemPrompt] (the prompt
// named "system", "" when no plugin declares one) and [Binding.Context]
// (every transform's additions, such as the project's AGENTS.md files).
// Their plugins read files through a scope of their own: the repository
// (or the working directory) and the user's configuration directory,
// read-only, every read journaled. [Generation.Commands] lists the
// contributed commands and [Binding.RunCommand] runs one; a command's
// [CommandResult.Prompt] is the prompt the frontend submits next.
//
//	h, err := plugin.Open(ctx, plugin.Config{CacheDir: dir})
//	gen, err := h.Load(ctx, artifacts)
//	go gen.Prepare(ctx) // optional: compile while the model thinks
//	b, err := gen.Bind(plugin.Effects{Journal: j, Roots: []string{project}})
//	system, err := b.SystemPrompt(ctx, facts)
//	additions, err := b.Context(ctx, facts)
//	a, err := agent.New(agent.Config{Tools: b.Tools(), Cwd: project, ...})
//	...
//	b.Close(); gen.Close(); h.Close(ctx)
package plugin
