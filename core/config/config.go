package config

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/auth"
	"github.com/smith-agent/smith/core/catalog"
	"github.com/smith-agent/smith/core/route"
)

// Config is the resolved configuration. It is immutable after [Load] and
// safe for concurrent reads.
type Config struct {
	// Model is the default model name (--model, SMITH_MODEL, model).
	Model Setting[string]
	// Thinking is the default reasoning level; "" means the provider's.
	Thinking Setting[catalog.Level]
	// MaxOutputTokens bounds each response; 0 means the model's output
	// limit.
	MaxOutputTokens Setting[int]
	// MaxCost is the budget of one run in billionths of a US dollar; 0
	// (unset) means none.
	MaxCost Setting[int64]
	// Ignore are gitignore-style patterns find, grep and ls skip in
	// addition to .gitignore files, from every layer in precedence order
	// (layers add patterns; none replaces another's).
	Ignore []Setting[string]
	// TrustProject is the one-run trust of --trust-project.
	TrustProject Setting[bool]
	// BaseURLFlag is --base-url, which applies to the model's provider.
	BaseURLFlag Setting[string]
	// SystemPrompt replaces the product plugin's system prompt when set:
	// inline text (smith.kdl system-prompt "…") or a file
	// (system-prompt file="…", --system-prompt-file,
	// SMITH_SYSTEM_PROMPT_FILE). The zero value keeps the plugin's prompt.
	SystemPrompt Setting[Prompt]
	// HeadTimeout, IdleTimeout and ResponseTimeout bound a provider
	// exchange: the wait for the response head, for each piece of content
	// (keep-alive bytes do not count), and for the whole response. Zero
	// means the runtime's default.
	HeadTimeout, IdleTimeout, ResponseTimeout Setting[time.Duration]
	// CatalogRefresh is the URL the model catalog is refreshed from; ""
	// (the default, or "off") means the catalog is never refreshed.
	CatalogRefresh Setting[string]
	// Providers are the provider blocks, by name.
	Providers map[string]*Provider
	// Aliases map a name to a model name; Groups map a name to an ordered
	// failover list of model names.
	Aliases map[string]Setting[string]
	Groups  map[string]Setting[[]string]
	// Models are the model-info blocks by "provider/id": what the user
	// states about a model, which beats the bundled catalog (see
	// [Config.CatalogLayer]).
	Models map[string]Setting[catalog.Model]
	// UI is the interactive mode's tui block (keys, theme, mouse, terminal
	// overrides).
	UI UI
	// Compaction is the compaction block: when and how a session's
	// context is compacted.
	Compaction Compaction
	// PluginBudgets are the plugin blocks by plugin name: the budgets of
	// its calls (see [PluginBudget]); nil when there are none.
	PluginBudgets map[string]*PluginBudget
	// Sandbox is the mode of the process sandbox of bash's commands
	// ("workspace-write", "read-only" or "off"); unset is
	// [DefaultSandbox]. SandboxNetwork says whether they may use the
	// network; unset allows it. See [Config.SandboxMode] and
	// [Config.NetworkAllowed].
	Sandbox        Setting[string]
	SandboxNetwork Setting[bool]
	// Roots are directories besides the working directory that the file
	// tools may use and a workspace-write sandbox lets commands write,
	// absolute, from every layer (layers add roots).
	Roots []Setting[string]
	// Permissions is the permission policy of tool calls (the
	// permissions block, --permission-mode, --yes); see [Permissions].
	Permissions Permissions
	// Secrets are the secrets the user's smith.kdl registers (secret
	// nodes), in file order.
	Secrets []SecretRef
	// Trusted lists the projects the user's file trusts (trusted-project).
	Trusted []Setting[string]
	// TrustedBaseURLs are the base URLs a trusted project's provider
	// blocks may send the user's credentials to (trusted-base-url, read
	// only from the user's file); see [Config.CredentialEndpoint].
	TrustedBaseURLs []Setting[string]
	// Files lists the configuration files considered, in precedence order.
	Files []File
	// Notes are warnings that are not errors, such as an untrusted project
	// file that was not read, or a literal key in a file others may read.
	Notes []string
}

// Prompt is a replacement prompt: its Text, or the absolute path of the
// File that holds it (read when the prompt is needed).
type Prompt struct {
	Text string `json:"text,omitempty"`
	File string `json:"file,omitempty"`
}

// Provider is one provider block of smith.kdl.
type Provider struct {
	Name string
	// Source is where the block is (the highest layer's, when several
	// layers have one).
	Source Source
	// API names the provider of the codec plugin that serves this one; it
	// defaults to Name. A self-hosted OpenAI-compatible server is a block
	// with its own name and api "openai-compatible".
	API Setting[string]
	// APIBefore is the api in force before a project's file set API: the
	// user's file's, or unset for the default (Name). It is kept only
	// when a project's file sets API (see [Provider.ProjectAPI]).
	APIBefore Setting[string]
	// BaseURL overrides the codec's default base URL; the provider's
	// conventional *_BASE_URL variable and --base-url beat it.
	BaseURL Setting[string]
	// Accounts are the provider's account buckets, in failover order.
	Accounts Setting[[]string]
	// Quirks are the options the provider's quirks block sets, validated
	// against the codec's declared options by [Config.CheckProviders] and
	// sent to the codec (see [Provider.QuirksJSON]); they replace the
	// codec's own.
	Quirks Setting[[]OptionValue]
	// Credentials are explicit credentials by account ("" is the default
	// account).
	Credentials map[string]Credential
}

// Codec returns the codec provider that serves p: API when set, else Name.
func (p *Provider) Codec() string {
	if p.API.Value != "" {
		return p.API.Value
	}
	return p.Name
}

// Credential is a credential named in configuration: an environment
// variable to read, or a literal key. Printing it never shows the key.
type Credential struct {
	// Env is the variable holding the credential; empty for a literal.
	Env string
	// Key is the literal key; empty when Env is used.
	Key    auth.Secret
	Source Source
}

// Describe returns "env NAME" or "key [redacted]".
func (c Credential) Describe() string {
	if c.Env != "" {
		return "env " + c.Env
	}
	return "key [redacted]"
}

// FileState says whether a configuration file was read.
type FileState string

// The file states.
const (
	FileLoaded    FileState = "loaded"
	FileAbsent    FileState = "absent"
	FileUntrusted FileState = "untrusted"
)

// File is a configuration file that was considered.
type File struct {
	Layer Layer
	Path  string
	State FileState
	// Trust says why a project's file was read, such as "trusted by
	// FILE:LINE:COL" or "trusted for this run by flag --trust-project".
	Trust string
}

// Route returns the routing configuration: aliases, groups and each
// provider's account buckets.
func (c *Config) Route() route.Config {
	r := route.Config{Aliases: map[string]string{}, Groups: map[string][]string{}, Accounts: map[string][]string{}}
	for n, a := range c.Aliases {
		r.Aliases[n] = a.Value
	}
	for n, g := range c.Groups {
		r.Groups[n] = slices.Clone(g.Value)
	}
	for n, p := range c.Providers {
		if len(p.Accounts.Value) > 0 {
			r.Accounts[n] = slices.Clone(p.Accounts.Value)
		}
	}
	return r
}

// IgnorePatterns returns the ignore patterns of every layer, lowest
// precedence first.
func (c *Config) IgnorePatterns() []string {
	out := make([]string, len(c.Ignore))
	for i, p := range c.Ignore {
		out[i] = p.Value
	}
	return out
}

// Provider returns the block of provider name, or an empty one (every
// field a product default) when smith.kdl has none.
func (c *Config) Provider(name string) *Provider {
	if p, ok := c.Providers[name]; ok {
		return p
	}
	return &Provider{Name: name}
}

// ProviderNames returns the names of the provider blocks, sorted.
func (c *Config) ProviderNames() []string { return slices.Sorted(maps.Keys(c.Providers)) }

// Credentials returns the explicit credentials for core/auth, keyed by
// provider or "provider@account"; variables are read when resolved.
func (c *Config) Credentials() map[string]auth.Explicit {
	out := map[string]auth.Explicit{}
	for name, p := range c.Providers {
		for acct, cr := range p.Credentials {
			key := name
			if acct != "" {
				key = name + "@" + acct
			}
			out[key] = auth.Explicit{Value: cr.Key, Env: cr.Env, Origin: cr.Source.String()}
		}
	}
	return out
}

// CheckProviders checks the provider blocks against the providers the
// codec plugins declare: a block must name a declared provider or give
// the api of one, so a misspelt name (provider "antropic") fails instead
// of configuring nothing. It returns nil or [Errors].
func (c *Config) CheckProviders(declared []ProviderSchema) error {
	var errs Errors
	names := make([]string, len(declared))
	for i, d := range declared {
		names[i] = d.Name
	}
	known := strings.Join(names, ", ")
	for _, name := range c.ProviderNames() {
		p := c.Providers[name]
		switch {
		case p.API.IsSet() && !slices.Contains(names, p.API.Value):
			errs = append(errs, &Error{Source: p.API.Source, Path: "provider." + name + ".api", Value: strconv.Quote(p.API.Value),
				Problem: "is not a provider the codec plugins declare (" + known + ")" + suggest(p.API.Value, names), Example: `api "openai-compatible"`})
		case !p.API.IsSet() && !slices.Contains(names, name):
			errs = append(errs, &Error{Source: p.Source, Path: "provider." + name, Value: strconv.Quote(name),
				Problem: "is not a provider the codec plugins declare (" + known + ")" + suggest(name, names) +
					"; a provider of your own needs its api", Example: `provider "` + name + `" { api "openai-compatible"; base-url "http://127.0.0.1:8000/v1" }`})
		default:
			errs = append(errs, checkOptions(name, p, declared[slices.Index(names, p.Codec())])...)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
