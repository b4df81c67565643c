// Command smith is the Smith terminal coding agent.
//
// Commands:
//
//	smith demo                     fix a bug in a generated project with the MOCK model (no key)
//	smith eval [flags] PROMPT|-    run one prompt without the TUI, recorded in a session
//	smith session ls|show|dump|fork
//	smith models                   the model catalog with prices and provenance
//	smith auth status|set|remove   provider credentials (values never shown)
//	smith config show|trust        every configuration value with its source; trust a project
//
// Configuration (core/config) is KDL 2: the user's smith.kdl
// ($SMITH_HOME/smith.kdl, else $XDG_CONFIG_HOME/smith/smith.kdl, else
// ~/.config/smith/smith.kdl), the project's .smith/smith.kdl when the
// project is trusted, then SMITH_* variables, then flags.
//
// eval's model is resolved through core/route with the configuration's
// aliases, groups and account buckets and the bundled catalog, without
// network access (PROVIDER/MODEL, a bare model name or alias, or a
// configured alias or group); a group or account buckets give a failover
// chain, one provider per target; the thinking level and every request are admitted against the
// model's advertised capabilities before dispatch; each assistant message
// in --output json carries its stop reason, usage and cost, agent_end the
// conversation's total; every provider exchange is journaled, redacted, in
// the session.
//
// Every subcommand lives in its own file and is listed once in
// commands.go. Flags are declared once, with their environment variables
// (SMITH_HOME, SMITH_OUTPUT; the configuration's options in core/config). Errors are printed as
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
