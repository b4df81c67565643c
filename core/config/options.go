package config

// Option declares one top-level option once: its node in smith.kdl, its
// command-line flag and its environment variable. Frontends build their
// flags from [Options]; [Load] reads the same declarations.
type Option struct {
	// Key is the node's name in smith.kdl; empty when the option cannot be
	// set in a file.
	Key string
	// Flag is the long flag's name without dashes; Short a one-letter
	// alias, if any.
	Flag, Short string
	// Env is the environment variable; empty when there is none.
	Env string
	// Bool marks a flag that takes no value.
	Bool bool
	// List marks a flag that may be given more than once; its values are
	// passed to [Load] joined with os.PathListSeparator, as the
	// environment variable holds them.
	List bool
	// Usage describes the option for help text.
	Usage string
	// Example is a valid value as written on the command line.
	Example string
}

// The option keys, for [Config] lookups and [Inputs.Flags].
const (
	KeyModel           = "model"
	KeyThinking        = "thinking"
	KeyMaxOutputTokens = "max-output-tokens"
	KeyTrustProject    = "trust-project"
	KeyBaseURL         = "base-url"
	KeyCatalogRefresh  = "catalog-refresh"
	KeySystemPrompt    = "system-prompt"
	// FlagSystemPromptFile is the flag (and, as SMITH_SYSTEM_PROMPT_FILE,
	// the variable) of KeySystemPrompt: a file whose text replaces the
	// system prompt.
	FlagSystemPromptFile = "system-prompt-file"
)

var options = []Option{
	{Key: KeyModel, Flag: "model", Short: "m", Env: "SMITH_MODEL", Example: "anthropic/claude-sonnet-4-5",
		Usage: "the `MODEL`: PROVIDER/MODEL, a model name from smith models, an alias or group from smith.kdl, or mock (the offline demo), mock/NAME or mock/PATH (a mock script)"},
	{Key: KeyThinking, Flag: "thinking", Env: "SMITH_THINKING", Example: "medium",
		Usage: "reasoning `LEVEL`: off, minimal, low, medium, high or xhigh (default: the provider's); a level the model lacks is clamped to the nearest it supports, with a warning"},
	{Key: KeyMaxOutputTokens, Flag: "max-output-tokens", Env: "SMITH_MAX_OUTPUT_TOKENS", Example: "8192",
		Usage: "bound each response to `N` tokens (default: the model's output limit from the catalog)"},
	{Flag: KeyTrustProject, Env: "SMITH_TRUST_PROJECT", Bool: true, Example: "true",
		Usage: "trust the project for this run: read its .smith/smith.kdl (to trust it always, run smith config trust)"},
	{Flag: KeyBaseURL, Example: "http://localhost:8000/v1",
		Usage: "send the model's provider requests to `URL` (beats smith.kdl and the provider's *_BASE_URL variable)"},
	{Key: KeyCatalogRefresh, Flag: KeyCatalogRefresh, Env: "SMITH_CATALOG_REFRESH", Example: "https://example.com/smith/catalog.json",
		Usage: "refresh the model catalog from `URL` (a catalog document in Smith's format, https or loopback http) in the background at most once a day, or off (the default); smith models --refresh refreshes at once"},
	{Key: KeyHeadTimeout, Flag: KeyHeadTimeout, Env: "SMITH_HEAD_TIMEOUT", Example: "2m",
		Usage: "wait at most `DURATION` for a provider's response to start (default 2m); a timed-out request is retried"},
	{Key: KeyIdleTimeout, Flag: KeyIdleTimeout, Env: "SMITH_IDLE_TIMEOUT", Example: "2m",
		Usage: "wait at most `DURATION` for the next piece of a response's content, keep-alives not counting (default 2m); a stalled response is retried"},
	{Key: KeyResponseTimeout, Flag: KeyResponseTimeout, Env: "SMITH_RESPONSE_TIMEOUT", Example: "30m",
		Usage: "stop a provider's response that takes longer than `DURATION` in all (default 30m)"},
	{Key: KeyMaxCost, Flag: KeyMaxCost, Env: "SMITH_MAX_COST", Example: "2.50",
		Usage: "stop a run before a provider request once it has spent `USD` US dollars (default: no budget); a run whose cost is unknown (no price for the model) stops too"},
	{Key: KeySandbox, Flag: KeySandbox, Env: "SMITH_SANDBOX", Example: "read-only",
		Usage: "what the commands bash runs may write: `MODE` workspace-write (the working directory, the roots and the temp dir; the default), read-only or off"},
	{Key: KeySandboxNetwork, Flag: KeySandboxNetwork, Env: "SMITH_SANDBOX_NETWORK", Example: "deny",
		Usage: "whether the commands bash runs may use the network: `POLICY` allow (the default) or deny"},
	{Key: KeyRoots, Flag: FlagAddDir, Env: "SMITH_ADD_DIRS", List: true, Example: "../shared",
		Usage: "let the file tools and bash's sandbox use `DIR` besides the working directory (repeatable)"},
	{Key: "permissions.mode", Flag: KeyPermissionMode, Env: "SMITH_PERMISSION_MODE", Example: "ask",
		Usage: "which tool calls run: `MODE` auto (every call; the sandbox is the boundary; the default), ask (you are asked before a call that may change something runs; where nobody can be asked, --yes or an allow rule approves it) or read-only (only read, grep, find and ls)"},
	{Flag: KeyYes, Short: "y", Env: "SMITH_YES", Bool: true, Example: "true",
		Usage: "approve every call permission mode ask would ask about (deny rules still refuse)"},
	{Key: KeySystemPrompt, Flag: FlagSystemPromptFile, Env: "SMITH_SYSTEM_PROMPT_FILE", Example: "prompts/system.md",
		Usage: "replace Smith's system prompt with the text of `FILE` (the project's AGENTS.md is still added); smith prompt show prints the prompt in use"},
}

// Options returns every option's declaration, in a fixed order.
func Options() []Option { return append([]Option(nil), options...) }

// option returns the declaration with flag name flag.
func option(flag string) (Option, bool) {
	for _, o := range options {
		if o.Flag == flag {
			return o, true
		}
	}
	return Option{}, false
}
