package endpoints

import (
	"fmt"
	"sort"
	"strings"

	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
)

// Endpoint describes how to reach one provider.
type Endpoint struct {
	// Provider is the provider's name in configuration.
	Provider string
	// API is the wire API: anthropic, openai-chat, openai-responses, gemini.
	API string
	// BaseURL is the default base URL; request paths are relative to it.
	// Empty means the user must configure one.
	BaseURL string
	// BaseURLEnv is the conventional variable overriding BaseURL, if any.
	BaseURLEnv string
	// KeyEnv are the credential's secret names: the conventional
	// variables, first found wins, or the single [OptionalKey] of a server
	// that may take a key but needs none. Empty means the server takes no
	// key. The first name is the reference the request templates.
	KeyEnv []string
	// Quirks shape Chat Completions requests (openai-chat only).
	Quirks openaichat.Quirks
	// IDStyle names a tool-call id rule stricter than the API's (see
	// handoff.Target.IDStyle); empty means the API's rule.
	IDStyle string
}

// OptionalKey is the secret name of an optional key with no conventional
// variable: a configured OpenAI-compatible server (a vLLM started with
// --api-key, OpenRouter, a local Ollama) may take one, and only its own
// configuration can say which. The trailing "?" is the host's mark of an
// optional secret (core/provider.OptionalSecret): the host never reads it
// from the environment by this name, resolves it from the server's
// configured credential, and leaves out the header that references it
// when none is configured, so a keyless server gets no Authorization
// header.
const OptionalKey = "api-key?"

var known = map[string]Endpoint{
	"anthropic": {Provider: "anthropic", API: "anthropic", BaseURL: "https://api.anthropic.com",
		BaseURLEnv: "ANTHROPIC_BASE_URL", KeyEnv: []string{"ANTHROPIC_API_KEY"}},
	"openai": {Provider: "openai", API: "openai-responses", BaseURL: "https://api.openai.com/v1",
		BaseURLEnv: "OPENAI_BASE_URL", KeyEnv: []string{"OPENAI_API_KEY"}},
	"openai-chat": {Provider: "openai", API: "openai-chat", BaseURL: "https://api.openai.com/v1",
		BaseURLEnv: "OPENAI_BASE_URL", KeyEnv: []string{"OPENAI_API_KEY"}},
	"google": {Provider: "google", API: "gemini", BaseURL: "https://generativelanguage.googleapis.com",
		BaseURLEnv: "GEMINI_BASE_URL", KeyEnv: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}},
	// openai-compatible: the base URL comes from configuration or a flag;
	// a key, if the server takes one, from the server's own configuration.
	"openai-compatible": {Provider: "openai-compatible", API: "openai-chat", KeyEnv: []string{OptionalKey},
		Quirks: openaichat.Quirks{MaxTokensField: "max_tokens", NoPromptCacheKey: true}},

	"deepseek": compat("deepseek", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY",
		openaichat.Quirks{MaxTokensField: "max_tokens", EchoReasoning: "reasoning_content", NoPromptCacheKey: true}),
	"groq": compat("groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY",
		openaichat.Quirks{MaxTokensField: "max_tokens", NoPromptCacheKey: true}),
	"mistral": withIDStyle(compat("mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY",
		openaichat.Quirks{MaxTokensField: "max_tokens", ThinkingFormat: "none", NoStrict: true, NoPromptCacheKey: true}), "mistral"),
	"openrouter": compat("openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY",
		openaichat.Quirks{ThinkingFormat: "openrouter", EchoReasoning: "reasoning", ReasoningDetails: true,
			UsageInclude: true, NoPromptCacheKey: true}),
	"xai": compat("xai", "https://api.x.ai/v1", "XAI_API_KEY",
		openaichat.Quirks{EchoReasoning: "reasoning_content", NoPromptCacheKey: true}),
	"zai": compat("zai", "https://api.z.ai/api/coding/paas/v4", "ZAI_API_KEY",
		openaichat.Quirks{MaxTokensField: "max_tokens", EchoReasoning: "reasoning_content", NoPromptCacheKey: true}),
	"cerebras": compat("cerebras", "https://api.cerebras.ai/v1", "CEREBRAS_API_KEY",
		openaichat.Quirks{NoPromptCacheKey: true}),
	"moonshot": compat("moonshot", "https://api.moonshot.ai/v1", "MOONSHOT_API_KEY",
		openaichat.Quirks{MaxTokensField: "max_tokens", EchoReasoning: "reasoning_content", NoPromptCacheKey: true}),
	"llamacpp": compat("llamacpp", "http://localhost:8080/v1", "",
		openaichat.Quirks{MaxTokensField: "max_tokens", EchoReasoning: "reasoning_content", NoPromptCacheKey: true}),
	"vllm": compat("vllm", "http://localhost:8000/v1", "",
		openaichat.Quirks{MaxTokensField: "max_tokens", NoPromptCacheKey: true}),
	"ollama": compat("ollama", "http://localhost:11434/v1", "",
		openaichat.Quirks{MaxTokensField: "max_tokens", NoPromptCacheKey: true}),
}

func compat(name, base, key string, q openaichat.Quirks) Endpoint {
	e := Endpoint{Provider: name, API: "openai-chat", BaseURL: base, Quirks: q}
	if key != "" {
		e.KeyEnv = []string{key}
	}
	return e
}

func withIDStyle(e Endpoint, style string) Endpoint {
	e.IDStyle = style
	return e
}

// Lookup returns the endpoint named name.
func Lookup(name string) (Endpoint, error) {
	if e, ok := known[name]; ok {
		return e, nil
	}
	return Endpoint{}, fmt.Errorf("endpoints: unknown provider %q; known: %s", name, strings.Join(Names(), ", "))
}

// Names lists the known providers, sorted.
func Names() []string {
	names := make([]string, 0, len(known))
	for n := range known {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Source says where a resolved base URL came from.
type Source string

// The sources, lowest precedence first.
const (
	FromDefault Source = "default"
	FromConfig  Source = "config"
	FromEnv     Source = "env"
	FromFlag    Source = "flag"
)

// ResolveBaseURL applies the precedence default < config < environment
// variable < flag (DESIGN §9) to the values the host found (empty: not
// set). A trailing slash is removed so paths join cleanly. It fails when
// nothing supplies a URL (openai-compatible has no default) or the URL is
// not http(s).
func ResolveBaseURL(e Endpoint, config, env, flag string) (string, Source, error) {
	url, src := e.BaseURL, FromDefault
	for _, c := range []struct {
		v string
		s Source
	}{{config, FromConfig}, {env, FromEnv}, {flag, FromFlag}} {
		if c.v != "" {
			url, src = c.v, c.s
		}
	}
	if url == "" {
		return "", "", fmt.Errorf("endpoints: provider %q has no base URL; set base-url in its config block or pass --base-url (for example http://localhost:8000/v1)", e.Provider)
	}
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		where := string(src)
		if src == FromEnv {
			where = e.BaseURLEnv
		}
		return "", "", fmt.Errorf("endpoints: base URL %q for provider %q (from %s) is not an http:// or https:// URL", url, e.Provider, where)
	}
	return strings.TrimRight(url, "/"), src, nil
}
