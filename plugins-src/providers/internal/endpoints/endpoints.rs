//! endpoints is the vendor knowledge of where and how to reach each
//! provider, as data: the Rust port of endpoints.go beside it, which stays
//! its oracle (the Go tests compare the whole table and resolve_base_url's
//! answers and errors). Default base URLs, the conventional environment
//! variables that override them, the credential variable names, the wire
//! API, and (for openai-compatible servers) the request quirks. The host
//! reads the environment and configuration; this module only names them
//! and resolves their precedence.
//!
//! Inclusion: the crate root includes this file as `crate::endpoints`,
//! with quirks.rs as `crate::quirks` and the tools crate's quote.rs as
//! `crate::quote`.

use crate::quirks::Quirks;

/// Endpoint describes how to reach one provider: `provider` is its name
/// in configuration, `api` the wire API (anthropic, openai-chat,
/// openai-responses, gemini), `base_url` the default base URL (empty: the
/// user must configure one), `base_url_env` the conventional variable
/// overriding it (empty: none), `key_env` the credential's secret names
/// (the conventional variables, first found wins, or the single
/// [`OPTIONAL_KEY`]; empty: the server takes no key; the first is the
/// reference the request templates), `quirks` the Chat Completions quirks
/// (openai-chat only), and `id_style` a tool-call id rule stricter than
/// the API's (see crate::handoff; empty: the API's rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub provider: &'static str,
    pub api: &'static str,
    pub base_url: &'static str,
    pub base_url_env: &'static str,
    pub key_env: &'static [&'static str],
    pub quirks: Quirks,
    pub id_style: &'static str,
}

/// OPTIONAL_KEY is the secret name of an optional key with no
/// conventional variable: a configured OpenAI-compatible server may take
/// one, and only its own configuration can say which. The trailing "?" is
/// the host's mark of an optional secret: the host never reads it from
/// the environment by this name, resolves it from the server's configured
/// credential, and leaves out the header that references it when none is
/// configured.
pub const OPTIONAL_KEY: &str = "api-key?";

/// Q is a row's Quirks as constants (Quirks holds Strings, which a static
/// table cannot).
#[derive(Clone, Copy)]
struct Q {
    developer_role: bool,
    max_tokens_field: &'static str,
    no_stream_usage: bool,
    thinking_format: &'static str,
    echo_reasoning: &'static str,
    reasoning_details: bool,
    usage_include: bool,
    tool_result_name: bool,
    no_strict: bool,
    no_prompt_cache_key: bool,
    max_tool_call_id_len: i64,
}

/// NONE is the zero Quirks, OpenAI's own API.
const NONE: Q = Q {
    developer_role: false,
    max_tokens_field: "",
    no_stream_usage: false,
    thinking_format: "",
    echo_reasoning: "",
    reasoning_details: false,
    usage_include: false,
    tool_result_name: false,
    no_strict: false,
    no_prompt_cache_key: false,
    max_tool_call_id_len: 0,
};

/// MAX_TOKENS is the quirk set most compatible servers share: the older
/// output-limit field, no prompt_cache_key.
const MAX_TOKENS: Q = Q { max_tokens_field: "max_tokens", no_prompt_cache_key: true, ..NONE };

/// ECHO is MAX_TOKENS with DeepSeek-style reasoning_content echoed back.
const ECHO: Q = Q { echo_reasoning: "reasoning_content", ..MAX_TOKENS };

impl Q {
    fn quirks(&self) -> Quirks {
        Quirks {
            developer_role: self.developer_role,
            max_tokens_field: self.max_tokens_field.to_string(),
            no_stream_usage: self.no_stream_usage,
            thinking_format: self.thinking_format.to_string(),
            echo_reasoning: self.echo_reasoning.to_string(),
            reasoning_details: self.reasoning_details,
            usage_include: self.usage_include,
            tool_result_name: self.tool_result_name,
            no_strict: self.no_strict,
            no_prompt_cache_key: self.no_prompt_cache_key,
            max_tool_call_id_len: self.max_tool_call_id_len,
        }
    }
}

/// Row is one endpoint of the table under its name.
struct Row {
    name: &'static str,
    provider: &'static str,
    api: &'static str,
    base_url: &'static str,
    base_url_env: &'static str,
    key_env: &'static [&'static str],
    quirks: Q,
    id_style: &'static str,
}

/// compat is an OpenAI-compatible server's row: Chat Completions, no base
/// URL variable, the name as provider.
const fn compat(name: &'static str, base_url: &'static str, key_env: &'static [&'static str], quirks: Q) -> Row {
    Row { name, provider: name, api: "openai-chat", base_url, base_url_env: "", key_env, quirks, id_style: "" }
}

/// KNOWN is the table, sorted by name.
const KNOWN: [Row; 16] = [
    Row {
        name: "anthropic",
        provider: "anthropic",
        api: "anthropic",
        base_url: "https://api.anthropic.com",
        base_url_env: "ANTHROPIC_BASE_URL",
        key_env: &["ANTHROPIC_API_KEY"],
        quirks: NONE,
        id_style: "",
    },
    compat("cerebras", "https://api.cerebras.ai/v1", &["CEREBRAS_API_KEY"], Q { no_prompt_cache_key: true, ..NONE }),
    compat("deepseek", "https://api.deepseek.com/v1", &["DEEPSEEK_API_KEY"], ECHO),
    Row {
        name: "google",
        provider: "google",
        api: "gemini",
        base_url: "https://generativelanguage.googleapis.com",
        base_url_env: "GEMINI_BASE_URL",
        key_env: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
        quirks: NONE,
        id_style: "",
    },
    compat("groq", "https://api.groq.com/openai/v1", &["GROQ_API_KEY"], MAX_TOKENS),
    compat("llamacpp", "http://localhost:8080/v1", &[], ECHO),
    Row {
        id_style: "mistral",
        ..compat(
            "mistral",
            "https://api.mistral.ai/v1",
            &["MISTRAL_API_KEY"],
            Q { thinking_format: "none", no_strict: true, ..MAX_TOKENS },
        )
    },
    compat("moonshot", "https://api.moonshot.ai/v1", &["MOONSHOT_API_KEY"], ECHO),
    compat("ollama", "http://localhost:11434/v1", &[], MAX_TOKENS),
    Row {
        name: "openai",
        provider: "openai",
        api: "openai-responses",
        base_url: "https://api.openai.com/v1",
        base_url_env: "OPENAI_BASE_URL",
        key_env: &["OPENAI_API_KEY"],
        quirks: NONE,
        id_style: "",
    },
    Row {
        name: "openai-chat",
        provider: "openai",
        api: "openai-chat",
        base_url: "https://api.openai.com/v1",
        base_url_env: "OPENAI_BASE_URL",
        key_env: &["OPENAI_API_KEY"],
        quirks: NONE,
        id_style: "",
    },
    // openai-compatible: the base URL comes from configuration or a flag;
    // a key, if the server takes one, from the server's own configuration.
    compat("openai-compatible", "", &[OPTIONAL_KEY], MAX_TOKENS),
    compat(
        "openrouter",
        "https://openrouter.ai/api/v1",
        &["OPENROUTER_API_KEY"],
        Q {
            thinking_format: "openrouter",
            echo_reasoning: "reasoning",
            reasoning_details: true,
            usage_include: true,
            no_prompt_cache_key: true,
            ..NONE
        },
    ),
    compat("vllm", "http://localhost:8000/v1", &[], MAX_TOKENS),
    compat(
        "xai",
        "https://api.x.ai/v1",
        &["XAI_API_KEY"],
        Q { echo_reasoning: "reasoning_content", no_prompt_cache_key: true, ..NONE },
    ),
    compat("zai", "https://api.z.ai/api/coding/paas/v4", &["ZAI_API_KEY"], ECHO),
];

fn rows() -> &'static [Row] {
    &KNOWN
}

/// lookup returns the endpoint named `name`, or an error naming the known
/// providers.
pub fn lookup(name: &str) -> Result<Endpoint, String> {
    match rows().iter().find(|r| r.name == name) {
        Some(r) => Ok(Endpoint {
            provider: r.provider,
            api: r.api,
            base_url: r.base_url,
            base_url_env: r.base_url_env,
            key_env: r.key_env,
            quirks: r.quirks.quirks(),
            id_style: r.id_style,
        }),
        None => {
            let mut e = String::from("endpoints: unknown provider ");
            crate::quote::quote(&mut e, name.as_bytes());
            e.push_str("; known: ");
            e.push_str(&names().join(", "));
            Err(e)
        }
    }
}

/// names lists the known providers, sorted.
pub fn names() -> Vec<&'static str> {
    rows().iter().map(|r| r.name).collect()
}

/// The sources of a resolved base URL, lowest precedence first.
pub const FROM_DEFAULT: &str = "default";
pub const FROM_CONFIG: &str = "config";
pub const FROM_ENV: &str = "env";
pub const FROM_FLAG: &str = "flag";

/// resolve_base_url applies the precedence default < config < environment
/// variable < flag to the values the host found (empty: not set) and
/// returns the URL and its source (one of the FROM_* names). Trailing
/// slashes are removed so paths join cleanly. It fails, with Go's text,
/// when nothing supplies a URL (openai-compatible has no default) or the
/// URL is not http(s).
pub fn resolve_base_url(e: &Endpoint, config: &str, env: &str, flag: &str) -> Result<(String, &'static str), String> {
    let mut url: &str = e.base_url;
    let mut src = FROM_DEFAULT;
    for &(v, s) in [(config, FROM_CONFIG), (env, FROM_ENV), (flag, FROM_FLAG)].iter() {
        if !v.is_empty() {
            url = v;
            src = s;
        }
    }
    if url.is_empty() {
        let mut m = String::from("endpoints: provider ");
        crate::quote::quote(&mut m, e.provider.as_bytes());
        m.push_str(" has no base URL; set base-url in its config block or pass --base-url (for example http://localhost:8000/v1)");
        return Err(m);
    }
    if !url.starts_with("https://") && !url.starts_with("http://") {
        let place = if src == FROM_ENV { e.base_url_env } else { src };
        let mut m = String::from("endpoints: base URL ");
        crate::quote::quote(&mut m, url.as_bytes());
        m.push_str(" for provider ");
        crate::quote::quote(&mut m, e.provider.as_bytes());
        m.push_str(" (from ");
        m.push_str(place);
        m.push_str(") is not an http:// or https:// URL");
        return Err(m);
    }
    Ok((url.trim_end_matches('/').to_string(), src))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_unique() {
        let n = names();
        assert_eq!(n.len(), 16);
        assert!(n.windows(2).all(|w| w[0] < w[1]), "{:?}", n);
    }

    #[test]
    fn lookup_and_errors() {
        let e = lookup("mistral").unwrap();
        assert_eq!((e.api, e.id_style, e.key_env), ("openai-chat", "mistral", &["MISTRAL_API_KEY"][..]));
        assert_eq!(e.quirks.thinking_format, "none");
        assert!(lookup("").unwrap_err().starts_with("endpoints: unknown provider \"\"; known: anthropic, cerebras,"));
    }

    #[test]
    fn precedence_and_validation() {
        let a = lookup("anthropic").unwrap();
        assert_eq!(resolve_base_url(&a, "", "", ""), Ok(("https://api.anthropic.com".to_string(), FROM_DEFAULT)));
        assert_eq!(resolve_base_url(&a, "https://c//", "", ""), Ok(("https://c".to_string(), FROM_CONFIG)));
        assert_eq!(resolve_base_url(&a, "https://c", "http://e/", ""), Ok(("http://e".to_string(), FROM_ENV)));
        assert_eq!(resolve_base_url(&a, "https://c", "http://e", "http://f"), Ok(("http://f".to_string(), FROM_FLAG)));
        assert_eq!(
            resolve_base_url(&a, "", "api.anthropic.com", ""),
            Err("endpoints: base URL \"api.anthropic.com\" for provider \"anthropic\" (from ANTHROPIC_BASE_URL) is not an http:// or https:// URL".to_string())
        );
        let c = lookup("openai-compatible").unwrap();
        assert_eq!(
            resolve_base_url(&c, "", "", ""),
            Err("endpoints: provider \"openai-compatible\" has no base URL; set base-url in its config block or pass --base-url (for example http://localhost:8000/v1)".to_string())
        );
    }
}
