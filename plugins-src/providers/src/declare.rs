//! declare declares the providers of the registered formats, with their
//! credential variables and, for Chat Completions servers, the quirk
//! options a provider block may set.

use smith_plugin::contrib::{Contributions, OptionKind, ProviderDefinition, ProviderOption, RegistrationFault};
use smith_plugin::provider::CodecFault;

/// contributions declares the providers of every registered format;
/// their secret names are the conventional credential variables (the host
/// resolves a reference by that name).
pub fn contributions() -> Result<Contributions, RegistrationFault> {
    let mut c = Contributions::default();
    for (f, p) in crate::format::declared() {
        c.providers.push(ProviderDefinition {
            name: p.name.to_string(),
            display_name: p.display.to_string(),
            secret_names: p.key_env.iter().map(|k| k.to_string()).collect(),
            options: if f.api == "openai-chat" { chat_options() } else { Vec::new() },
        });
    }
    Ok(c)
}

/// CHAT_OPTIONS are the Chat Completions quirks a provider block may set
/// (crate::openai_chat::quirks, by their document names with `_` written as `-`):
/// name, kind, allowed values of a text option, example, what it changes.
const CHAT_OPTIONS: [(&str, OptionKind, &[&str], &str, &str); 11] = [
    (
        "developer-role",
        OptionKind::Flag,
        &[],
        "#true",
        "sends the system prompt with role \"developer\" instead of \"system\"",
    ),
    (
        "max-tokens-field",
        OptionKind::Text,
        &["max_completion_tokens", "max_tokens"],
        "\"max_tokens\"",
        "names the output-limit field, for servers that reject max_completion_tokens",
    ),
    (
        "no-stream-usage",
        OptionKind::Flag,
        &[],
        "#true",
        "omits stream_options.include_usage, for servers that reject it",
    ),
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
    (
        "reasoning-details",
        OptionKind::Flag,
        &[],
        "#true",
        "sends OpenRouter's reasoning_details back with assistant messages",
    ),
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

/// fault_text is a codec fault as text: "codec-fault KIND: DETAIL", KIND
/// the fault's case in kebab case.
pub fn fault_text(f: &CodecFault) -> String {
    match f {
        CodecFault::UnsupportedRequest(s) => format!("codec-fault unsupported-request: {}", s),
        CodecFault::MalformedResponse(s) => format!("codec-fault malformed-response: {}", s),
        CodecFault::UnknownProvider(s) => format!("codec-fault unknown-provider: {}", s),
        CodecFault::Unknown(s) => format!("codec-fault unknown: {}", s),
    }
}
