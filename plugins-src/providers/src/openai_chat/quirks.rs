//! quirks holds the per-server differences of Chat Completions requests,
//! as data. The default Quirks is OpenAI's own API.

/// Quirks shape an openai-chat request. The request document names the
/// fields as they are named here; strings are empty when unset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quirks {
    /// developer_role sends the system prompt with role "developer".
    pub developer_role: bool,
    /// max_tokens_field names the output-limit field ("" is
    /// "max_completion_tokens").
    pub max_tokens_field: String,
    /// no_stream_usage omits stream_options.include_usage.
    pub no_stream_usage: bool,
    /// thinking_format: "" or "openai", "openrouter", "enable_thinking",
    /// "none".
    pub thinking_format: String,
    /// echo_reasoning names the field an assistant message's thinking is
    /// sent back in ("" drops it).
    pub echo_reasoning: String,
    /// reasoning_details sends OpenRouter's reasoning_details back.
    pub reasoning_details: bool,
    /// usage_include sends OpenRouter's usage:{include:true}.
    pub usage_include: bool,
    /// tool_result_name adds the tool name to tool messages.
    pub tool_result_name: bool,
    /// no_strict omits "strict" from tool definitions.
    pub no_strict: bool,
    /// no_prompt_cache_key omits prompt_cache_key.
    pub no_prompt_cache_key: bool,
    /// max_tool_call_id_len bounds tool-call ids sent back (0: no bound).
    pub max_tool_call_id_len: i64,
}
