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
// The host serves the capabilities fs, process, log, http and ui; granting any
// other refuses the artifact, and an artifact importing a capability it
// was not granted is refused before any of its code runs.
//
//   - log: write-log appends one line "plugin NAME: LEVEL: MESSAGE" to
//     [Config.Log]. The message is redacted of the binding's registered
//     secrets, cut at [LogMessageBytes], and its control and format
//     characters are escaped (\x1b, \n, \u202e, ...), so no terminal
//     escape and no forged line reaches the log. A call may write
//     [LogRecordsPerCall] records and [LogBytesPerCall] bytes; then one
//     "log budget exhausted" record, and the rest are dropped. Records
//     written outside a tool call, prompt or command (registration,
//     codecs) share one such budget per compiled plugin.
//   - http: send-request reaches only URLs inside the artifact's
//     [Artifact.Network] prefixes: the same scheme, host and port (the
//     scheme's default when none is given) and a path equal to the
//     prefix's or beneath it on a segment boundary, so
//     "https://api.example.com/v1" admits neither ".../v10" nor
//     "https://api.example.com.evil/"; URLs with user info, "." or ".."
//     segments (also percent-encoded) or backslashes, and plain http to
//     another machine, are refused. Anything else is a scope-denied fault
//     before any DNS lookup or connection, and is not journaled. An
//     admitted exchange runs through httpengine ([Config.HTTP]) as a
//     journaled effect of kind "http.request" attributed to the tool call:
//     the intent records the method, the URL (secrets redacted), the
//     header names, the body's size, the names of the secrets restored
//     and the bounds, never a header value or the body; the completion
//     the status and the body's size. timeout-ms 0 means
//     [DefaultHTTPTimeout], and every limit is cut to the artifact's
//     Timeout and the call's deadline; body-limit 0 means
//     [DefaultHTTPBodyLimit] (at most [MaxHTTPBodyLimit]), and a longer
//     body is a too-large fault. Redirects are not followed: a 3xx is
//     returned to the guest like any response. A secret reference
//     ${secret:NAME} in a header value is replaced by the plaintext just
//     before sending when the artifact is granted it ([Artifact.Secrets];
//     the URL and body are never restored); the response's header
//     values and body reach the guest redacted of the registered secrets.
//     Prompts and context transforms may not send requests.
//   - ui: show-notification and request-confirmation reach the person
//     through the binding's [Effects.UI], with the text redacted of the
//     registered secrets, cut at [IntentTextBytes] and escaped like a
//     log record. Where nobody can answer the outcome is fixed, not left
//     to the frontend: with no UI (or outside a call) a notification is
//     written to the plugin log and a confirmation is answered no-user. A
//     confirmation waits at most its timeout-ms ([DefaultConfirmTimeout]
//     when 0, at most [MaxConfirmTimeout]) and then takes its
//     default-answer; the wait is not charged to the call's Timeout nor
//     to [HandlerBudget], and an abort of the run dismisses it.
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
