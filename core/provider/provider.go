package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/smith-agent/smith/core/effect"
	"github.com/smith-agent/smith/core/internal/secret"
	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/httpengine"
	"github.com/smith-agent/smith/wasmhost"
)

// Secrets resolves a secret reference (a name the codec declared, such as
// ANTHROPIC_API_KEY) to its value. Its errors must not contain the value.
// For an optional secret (see [OptionalSecret]) with no configured value it
// returns [ErrNoSecret], and the header referencing it is not sent.
type Secrets func(ref string) (string, error)

// ErrNoSecret is what a [Secrets] resolver returns (or wraps) for an
// optional secret the user configured no value for: the request is sent
// without the header that references it. For any other secret it is an
// ordinary resolution failure.
var ErrNoSecret = errors.New("provider: no value is configured for this optional secret")

// OptionalSecret reports whether a declared secret name is optional: it
// ends in "?", as a server that may take a key but needs none declares
// it. An optional secret has no conventional environment variable (the
// name is not one); only the provider's own configured credential
// supplies it.
func OptionalSecret(name string) bool { return strings.HasSuffix(name, "?") }

// EnvSecrets resolves references as environment variables read by getenv;
// an unset or empty variable is an error naming it. An optional secret
// (see [OptionalSecret]) names no variable: it resolves to [ErrNoSecret].
func EnvSecrets(getenv func(string) string) Secrets {
	return func(ref string) (string, error) {
		if OptionalSecret(ref) {
			return "", ErrNoSecret
		}
		if v := getenv(ref); v != "" {
			return v, nil
		}
		return "", fmt.Errorf("provider: credential %s is not set; export it or add it to the auth file", ref)
	}
}

// Instances hands out instances of a loaded plugin; *wasmhost.Generation
// implements it. An instance is released when its stream ends.
type Instances interface {
	Acquire(ctx context.Context, plugin string) (*wasmhost.Instance, error)
}

// Config configures a provider bridge.
type Config struct {
	// Name is the provider's name as the codec plugin declared it, such as
	// "anthropic" or "openai-compatible". Required.
	Name string
	// Plugin is the codec plugin's name in Instances. Required.
	Plugin string
	// Instances supplies plugin instances. Required.
	Instances Instances
	// Engine runs the exchanges. Required.
	Engine *httpengine.Engine
	// Secrets resolves the template's secret references. Default: none
	// resolve (a template with a reference fails before dispatch).
	Secrets Secrets
	// Redactor, when set, replaces registered secrets (plaintext and
	// common encodings) with references: before dispatch in the body the
	// codec built and the literal parts of its headers (the credentials
	// the codec declares are substituted after it, where its template
	// references them); in the streamed text, thinking and tool arguments
	// (keeping back only a tail that may begin a secret), the recorded
	// response chunks and error texts. Default none.
	Redactor *secret.Set
	// BaseURL is the base URL from configuration; BaseURLFlag the one from
	// a command-line flag. Precedence: the codec's default < BaseURL < the
	// provider's conventional environment variable < BaseURLFlag. Empty
	// means not set.
	BaseURL, BaseURLFlag string
	// Endpoint, when set, is asked before dispatch about the URL the codec
	// built and whether the request carries a credential (a declared
	// secret substituted in a header): an error refuses the request before
	// any connection is made (the stream fails with invalid_request, so no
	// other target is tried with it), and a non-empty note is yielded as a
	// [model.Note] before the provider's events. Default none: every URL
	// is sent to.
	Endpoint func(url string, credentialed bool) (note string, err error)
	// Environ is the environment the codec may take its base URL variable
	// from; only NAME_BASE_URL entries are passed on. Default os.Environ().
	Environ []string
	// Quirks, when set, is a JSON object of Chat Completions quirk flags
	// for an openai-compatible server (see the providers plugin).
	Quirks json.RawMessage
	// Thinking is the reasoning effort asked of the model: "" (the
	// vendor's default), off, minimal, low, medium, high or xhigh.
	// ThinkingBudget, when positive, is the token budget for APIs that take
	// one. They apply to every request of this bridge.
	Thinking       string
	ThinkingBudget int
	// CacheKey, when set, asks for prompt caching keyed by it (the
	// runtime passes the session id where the catalog says the model
	// caches): the codec sends Anthropic cache_control breakpoints on the
	// system prompt and the latest message, OpenAI prompt_cache_key; a
	// vendor that caches implicitly (Gemini) needs nothing. Default "": no
	// caching is requested.
	CacheKey string
	// Cost prices a response's usage for the requested model, in
	// billionths of a US dollar (for example from the catalog's prices); an
	// unknown price or usage yields an unknown amount. Default none: the
	// cost stays unknown. A cost the codec already reported is kept.
	Cost func(model string, u model.Usage) model.Amount
	// Journal, when set, records every exchange durably as a
	// provider.exchange effect: the intent (the templated request, its
	// body's size and hash) before anything is sent, the completion (status,
	// outcome, response body with secrets replaced) when the stream ends.
	// Default none.
	Journal *effect.Journal
	// Recorder receives every exchange, redacted. Default none.
	Recorder Recorder
	// MaxErrorBody bounds the bytes of a failed response read for
	// classification. Default 1 MiB.
	MaxErrorBody int
	// IdleTimeout bounds the wait for content: from the response head, and
	// again from each chunk that decoded to events, the codec must yield
	// an event within it. Keep-alive bytes (SSE comments, ping events) are
	// not content. Default [DefaultIdleTimeout].
	IdleTimeout time.Duration
	// ResponseTimeout bounds one exchange, from sending the request to the
	// response's end. Default [DefaultResponseTimeout].
	ResponseTimeout time.Duration
	// WaitNotice is how long the stream waits — for the response head, or
	// for content — before it yields a progress [model.Note] saying so,
	// and again after each note. Default [DefaultWaitNotice].
	WaitNotice time.Duration
}

// EndpointRefused is the ProviderType of the error of a request that
// Config.Endpoint refused: the host's refusal, before any connection.
const EndpointRefused = "endpoint"

// The default time bounds of one exchange.
const (
	DefaultIdleTimeout     = 2 * time.Minute
	DefaultResponseTimeout = 30 * time.Minute
	DefaultWaitNotice      = 15 * time.Second
)

// Provider is the bridge. It is safe for concurrent use.
type Provider struct {
	cfg     Config
	environ map[string]string
}

var _ model.Provider = (*Provider)(nil)

// New validates cfg and returns the bridge.
func New(cfg Config) (*Provider, error) {
	var missing []string
	if cfg.Name == "" {
		missing = append(missing, "Name")
	}
	if cfg.Plugin == "" {
		missing = append(missing, "Plugin")
	}
	if cfg.Instances == nil {
		missing = append(missing, "Instances")
	}
	if cfg.Engine == nil {
		missing = append(missing, "Engine")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("provider: config for %q lacks %s; set them before New", cfg.Name, strings.Join(missing, ", "))
	}
	if cfg.Quirks != nil && !json.Valid(cfg.Quirks) {
		return nil, fmt.Errorf("provider: quirks for %q are not valid JSON; give a JSON object of quirk flags", cfg.Name)
	}
	if cfg.Secrets == nil {
		cfg.Secrets = func(ref string) (string, error) {
			return "", errors.New("provider: no credential resolver is configured for reference " + ref)
		}
	}
	if cfg.Environ == nil {
		cfg.Environ = os.Environ()
	}
	if cfg.MaxErrorBody <= 0 {
		cfg.MaxErrorBody = 1 << 20
	}
	env := map[string]string{}
	for _, kv := range cfg.Environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasSuffix(k, "_BASE_URL") && v != "" {
			env[k] = v
		}
	}
	return &Provider{cfg: cfg, environ: env}, nil
}

// Stream starts a request; the work happens as the caller pulls events.
func (p *Provider) Stream(ctx context.Context, req *model.Request) model.Stream {
	ctx, cancel := context.WithCancelCause(ctx)
	return &stream{p: p, ctx: ctx, cancel: func() { cancel(nil) }, stop: cancel, req: req}
}
