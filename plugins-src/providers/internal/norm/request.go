package norm

import "encoding/json"

// ThinkingLevel is a provider-neutral reasoning effort.
type ThinkingLevel string

// The thinking levels. The zero value, ThinkingDefault, sends no thinking
// configuration at all and leaves the choice to the vendor.
const (
	ThinkingDefault ThinkingLevel = ""
	ThinkingOff     ThinkingLevel = "off"
	ThinkingMinimal ThinkingLevel = "minimal"
	ThinkingLow     ThinkingLevel = "low"
	ThinkingMedium  ThinkingLevel = "medium"
	ThinkingHigh    ThinkingLevel = "high"
	ThinkingXHigh   ThinkingLevel = "xhigh"
)

// Tool advertises a tool. Parameters is a JSON Schema object.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Request is the provider-neutral description of one model request.
type Request struct {
	// Model is the vendor's model id.
	Model string
	// System is the system prompt; empty means none.
	System string
	// Messages is the conversation so far, oldest first.
	Messages []Message
	// Tools are the tools the model may call; nil means none.
	Tools []Tool
	// MaxTokens bounds the output; 0 means the builder's default (see each
	// API's builder).
	MaxTokens int
	// Thinking selects the reasoning effort.
	Thinking ThinkingLevel
	// ThinkingBudget, when positive, overrides the token budget derived from
	// Thinking for APIs that take a budget (Anthropic, Gemini 2.5).
	ThinkingBudget int
	// CacheKey, when set, asks for prompt caching keyed by it (usually the
	// session id): OpenAI gets it as prompt_cache_key, Anthropic gets
	// cache_control breakpoints on the system prompt and the last message.
	// Empty sends no caching hints (vendors' automatic caching still
	// applies).
	CacheKey string
}

// Header is one request header. When SecretRef is set the host appends the
// plaintext of the named credential to Value at the effect boundary (so
// Value is a prefix such as "Bearer "); the codec never sees the secret.
type Header struct {
	Name      string
	Value     string
	SecretRef string
}

// HTTPRequest is a request template: Path is relative to the provider's
// base URL (it may carry a query); Body is JSON.
type HTTPRequest struct {
	Method  string
	Path    string
	Headers []Header
	Body    []byte
}
