// Command smith is the Smith terminal coding agent.
//
// Commands:
//
//	smith demo                     fix a bug in a generated project with the MOCK model (no key)
//	smith eval [flags] PROMPT|-    run one prompt without the TUI, recorded in a session
//	smith session ls|show|dump|fork
//	smith models                   the model catalog with prices and provenance
//	smith auth status|set|remove   provider credentials (values never shown)
//
// eval's --model is resolved through core/route against the bundled
// catalog without network access (PROVIDER/MODEL, or a bare model name or
// alias); the --thinking level and every request are admitted against the
// model's advertised capabilities before dispatch; each assistant message
// in --output json carries its stop reason, usage and cost, agent_end the
// conversation's total; every provider exchange is journaled, redacted, in
// the session.
//
// Every subcommand lives in its own file and is listed once in
// commands.go. Flags are declared once, with their environment variables
// (SMITH_HOME, SMITH_MODEL, SMITH_OUTPUT). Errors are printed as
// "smith: …" and name the flag, value or file at fault and what to do.
//
// Exit status: 0 success, 1 model or tool failure, 2 usage error, 130 abort
// (the first SIGINT or SIGTERM cancels the run through its context, so every
// tool call still gets its result and the session stays consistent; a
// second signal exits at once).
//
// Sessions live in $SMITH_HOME/sessions, else $XDG_DATA_HOME/smith/sessions,
// else ~/.local/share/smith/sessions. Compiled plugin code is cached under
// the user cache directory ($XDG_CACHE_HOME/smith or ~/.cache/smith).
package main
