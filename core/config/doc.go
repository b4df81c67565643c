// Package config reads Smith's configuration: KDL 2 files named smith.kdl,
// environment variables and command-line flags, merged with a fixed
// precedence (lowest first): product defaults, built-in plugin defaults,
// plugin contributions, the user's file, the trusted project's file
// (.smith/smith.kdl), environment variables, flags.
//
// Every top-level option is declared once in [Options], with its node in
// smith.kdl, its flag and its environment variable. Every resolved value is
// a [Setting] that carries its [Source] (file:line:col, env NAME, flag
// --name or default), which `smith config show` prints.
//
// The reader never guesses: an unknown node or property fails naming the
// known ones and the nearest match, a node set twice in one file fails
// naming both lines, and every invalid value fails with an [Error] naming
// the file, line, column, field path, the bad value and a valid example. A
// literal credential (credential key="…") is never part of an error or of
// any printed form: it is held as an auth.Secret.
//
// The schema: model, thinking, max-output-tokens; ignore (gitignore-style
// patterns for find, grep and ls, added up across layers); provider blocks (api,
// base-url, accounts, credential env=/key=/account=, quirks); alias and
// group (ordered failover lists) for core/route ([Config.Route]);
// model-info blocks layered over the bundled catalog as configuration
// evidence ([Config.CatalogLayer]); trusted-project and trusted-base-url
// (the user's file only);
// tui, the interactive mode's keys, theme, mouse and terminal overrides
// ([UI]); compaction, when and how a session's context is compacted
// ([Compaction]).
// Explicit credentials go to core/auth through [Config.Credentials].
//
// A project's file is read only when the project is trusted: listed by a
// trusted-project node of the user's file, or trusted for one run with
// --trust-project or SMITH_TRUST_PROJECT=1. An untrusted project file is
// reported in [Config.Notes], never read. Trusting a project is not
// trusting it with the user's keys: a credential goes to a base-url the
// project's file chose only when the user's file names that URL in a
// trusted-base-url node, and never over plain http to another machine
// ([Config.CredentialEndpoint]).
package config
