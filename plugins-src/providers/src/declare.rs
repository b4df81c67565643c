//! declare names the providers the plugin declares and resolves a
//! declared provider's endpoint (the port of guest/plugin.go and
//! guest/build.go's lookup).

use crate::endpoints::{self, Endpoint};
use crate::smith_plugin::contrib::{Contributions, OptionKind, ProviderDefinition, ProviderOption, RegistrationFault};
use crate::smith_plugin::provider::CodecFault;

/// PROVIDERS are the providers the plugin declares, in order, each with
/// its display name; each is an endpoint of crate::endpoints.
pub const PROVIDERS: [(&str, &str); 5] = [
    ("anthropic", "Anthropic"),
    ("openai", "OpenAI (Responses)"),
    ("openai-chat", "OpenAI (Chat Completions)"),
    ("google", "Google Gemini"),
    ("openai-compatible", "OpenAI-compatible server"),
];

/// contributions declares the providers; their secret names are the
/// conventional credential variables (the host resolves a reference by
/// that name).
pub fn contributions() -> Result<Contributions, RegistrationFault> {
    let mut c = Contributions::default();
    for (name, display) in PROVIDERS.iter() {
        let e = endpoints::lookup(name).map_err(RegistrationFault::Unknown)?;
        c.providers.push(ProviderDefinition {
            name: name.to_string(),
            display_name: display.to_string(),
            secret_names: e.key_env.iter().map(|k| k.to_string()).collect(),
            options: if e.api == "openai-chat" { chat_options() } else { Vec::new() },
        });
    }
    Ok(c)
}

/// CHAT_OPTIONS are the Chat Completions quirks a provider block may set
/// (crate::quirks, by their document names with `_` written as `-`):
/// name, kind, allowed values of a text option, example, what it changes.
const CHAT_OPTIONS: [(&str, OptionKind, &[&str], &str, &str); 11] = [
    ("developer-role", OptionKind::Flag, &[], "#true", "sends the system prompt with role \"developer\" instead of \"system\""),
    (
        "max-tokens-field",
        OptionKind::Text,
        &["max_completion_tokens", "max_tokens"],
        "\"max_tokens\"",
        "names the output-limit field, for servers that reject max_completion_tokens",
    ),
    ("no-stream-usage", OptionKind::Flag, &[], "#true", "omits stream_options.include_usage, for servers that reject it"),
    (
        "thinking-format",
        OptionKind::Text,
        &["openai", "openrouter", "enable_thinking", "none"],
        "\"none\"",
        "how a thinking level is sent: reasoning_effort, reasoning.effort, enable_thinking, or never",
    ),
    (
        "echo-reasoning",
        OptionKind::Text,
        &["reasoning_content", "reasoning"],
        "\"reasoning_content\"",
        "the field an assistant message's thinking is sent back in",
    ),
    ("reasoning-details", OptionKind::Flag, &[], "#true", "sends OpenRouter's reasoning_details back with assistant messages"),
    ("usage-include", OptionKind::Flag, &[], "#true", "sends OpenRouter's usage {include: true}"),
    ("tool-result-name", OptionKind::Flag, &[], "#true", "adds the tool name to tool messages"),
    ("no-strict", OptionKind::Flag, &[], "#true", "omits \"strict\" from tool definitions"),
    ("no-prompt-cache-key", OptionKind::Flag, &[], "#true", "omits prompt_cache_key, for servers that reject it"),
    ("max-tool-call-id-len", OptionKind::Count, &[], "40", "bounds the tool-call ids sent back (0: no bound)"),
];

/// chat_options returns CHAT_OPTIONS as the contribution declares them.
fn chat_options() -> Vec<ProviderOption> {
    CHAT_OPTIONS
        .iter()
        .map(|(name, kind, allowed, example, description)| ProviderOption {
            name: name.to_string(),
            kind: *kind,
            allowed: allowed.iter().map(|a| a.to_string()).collect(),
            example: example.to_string(),
            description: description.to_string(),
        })
        .collect()
}

/// lookup returns the endpoint of a declared provider, or an
/// unknown-provider fault naming the declared ones.
pub fn lookup(name: &str) -> Result<Endpoint, CodecFault> {
    if PROVIDERS.iter().any(|(p, _)| *p == name) {
        return endpoints::lookup(name).map_err(CodecFault::Unknown);
    }
    let declared: Vec<&str> = PROVIDERS.iter().map(|(p, _)| *p).collect();
    Err(CodecFault::UnknownProvider(format!("{} (this plugin declares {})", name, declared.join(", "))))
}

/// fault_text is a codec fault's text as the Go world's CodecFault.Error
/// writes it.
pub fn fault_text(f: &CodecFault) -> String {
    match f {
        CodecFault::UnsupportedRequest(s) => format!("codec-fault unsupported-request: {}", s),
        CodecFault::MalformedResponse(s) => format!("codec-fault malformed-response: {}", s),
        CodecFault::UnknownProvider(s) => format!("codec-fault unknown-provider: {}", s),
        CodecFault::Unknown(s) => format!("codec-fault unknown: {}", s),
    }
}

/// unknown_api is the text of Go's codec error for a wire API no codec
/// speaks (an endpoint table mistake, never user input).
pub fn unknown_api(api: &str) -> String {
    let mut s = String::from("codec: unknown wire API ");
    crate::quote::quote(&mut s, api.as_bytes());
    s.push_str("; want anthropic, openai-chat, openai-responses or gemini");
    s
}
