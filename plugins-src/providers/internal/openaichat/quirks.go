package openaichat

// Quirks are the per-server differences of Chat Completions requests, as
// data. The zero Quirks is OpenAI's own API.
type Quirks struct {
	// DeveloperRole sends the system prompt with role "developer" instead of
	// "system".
	DeveloperRole bool `json:"developer_role,omitempty"`
	// MaxTokensField names the output-limit field: "max_completion_tokens"
	// (default), or "max_tokens" for servers that reject the newer name.
	MaxTokensField string `json:"max_tokens_field,omitempty"`
	// NoStreamUsage omits stream_options.include_usage for servers that
	// reject it.
	NoStreamUsage bool `json:"no_stream_usage,omitempty"`
	// ThinkingFormat says how a thinking level is sent: "" or "openai"
	// (reasoning_effort), "openrouter" (reasoning.effort), "enable_thinking"
	// (Qwen/Z.ai style boolean), "none" (never sent).
	ThinkingFormat string `json:"thinking_format,omitempty"`
	// EchoReasoning sends an assistant message's thinking back in the
	// named field ("reasoning_content" for DeepSeek-style servers, or
	// "reasoning" for OpenRouter), always on turns with tool calls (DeepSeek
	// answers 400 when a tool-call turn lacks it); empty drops it.
	EchoReasoning string `json:"echo_reasoning,omitempty"`
	// ReasoningDetails sends OpenRouter's reasoning_details (text plus
	// signature) back with an assistant message, so a signed provider
	// behind the gateway accepts its own thinking.
	ReasoningDetails bool `json:"reasoning_details,omitempty"`
	// UsageInclude sends OpenRouter's usage:{include:true}.
	UsageInclude bool `json:"usage_include,omitempty"`
	// ToolResultName adds the tool name to tool messages.
	ToolResultName bool `json:"tool_result_name,omitempty"`
	// NoStrict omits "strict" from tool definitions.
	NoStrict bool `json:"no_strict,omitempty"`
	// NoPromptCacheKey omits prompt_cache_key.
	NoPromptCacheKey bool `json:"no_prompt_cache_key,omitempty"`
	// MaxToolCallIDLen bounds tool-call ids sent back (0: no bound).
	MaxToolCallIDLen int `json:"max_tool_call_id_len,omitempty"`
}
