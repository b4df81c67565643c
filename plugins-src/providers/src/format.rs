//! format is how the plugin knows its wire formats: each one (a folder
//! beside this file) contributes a [`Format`] — its decoder, request
//! builder and failure classifier, and the [`Provider`]s it serves — and
//! `lib.rs` registers it on its `formats!` line. The host reads the
//! environment and configuration; this module names the providers'
//! variables and resolves their precedence.

use crate::norm::message::{HttpRequest, Request};
use crate::norm::{self, Decoder};
use crate::openai_chat::quirks::Quirks;
use smith_plugin::provider::CodecFault;

/// Format is one wire format: `api` its name, `providers` the providers
/// it serves (in declaration order), `decoder` a decoder of one response
/// tagging opaque payloads with the provider's name, `build` the HTTP
/// request of a normalized request (with an openai-chat server's quirks
/// and the credential's secret name), and `classify` the classified error
/// of a failed response (status, headers lower-cased with the first value
/// of a repeated name, body).
pub struct Format {
    pub api: &'static str,
    pub providers: fn() -> Vec<Provider>,
    pub decoder: fn(provider: &str) -> Box<dyn Decoder>,
    pub build: fn(r: &Request, quirks: &Quirks, secret: &str) -> Result<HttpRequest, String>,
    pub classify: fn(status: i64, headers: &[(String, &str)], body: &[u8]) -> norm::Error,
}

/// Provider describes how to reach one provider: `name` is its name in
/// configuration and `display` for people, `base_url` the default base
/// URL (empty: the user must configure one), `base_url_env` the
/// conventional variable overriding it (empty: none), `key_env` the
/// credential's secret names (the conventional variables, first found
/// wins, or the single [`OPTIONAL_KEY`]; empty: the server takes no key;
/// the first is the reference the request templates), and `quirks` the Chat
/// Completions quirks (openai-chat only).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Provider {
    pub name: &'static str,
    pub display: &'static str,
    pub base_url: &'static str,
    pub base_url_env: &'static str,
    pub key_env: &'static [&'static str],
    pub quirks: Quirks,
}

/// OPTIONAL_KEY is the secret name of an optional key with no
/// conventional variable: a configured OpenAI-compatible server may take
/// one, and only its own configuration can say which. The trailing "?" is
/// the host's mark of an optional secret: the host never reads it from
/// the environment by this name, resolves it from the server's configured
/// credential, and leaves out the header that references it when none is
/// configured.
pub const OPTIONAL_KEY: &str = "api-key?";

/// declared returns every provider of every registered format, in order,
/// with its format.
pub fn declared() -> Vec<(&'static Format, Provider)> {
    crate::FORMATS.iter().flat_map(|f| (f.providers)().into_iter().map(move |p| (*f, p))).collect()
}

/// lookup returns the format and description of a declared provider, or
/// an unknown-provider fault naming the declared ones.
pub fn lookup(name: &str) -> Result<(&'static Format, Provider), CodecFault> {
    let all = declared();
    if let Some((f, p)) = all.iter().find(|(_, p)| p.name == name) {
        return Ok((*f, p.clone()));
    }
    let names: Vec<&str> = all.iter().map(|(_, p)| p.name).collect();
    Err(CodecFault::UnknownProvider(format!("{} (this plugin declares {})", name, names.join(", "))))
}

/// The sources of a resolved base URL, lowest precedence first.
pub const FROM_DEFAULT: &str = "default";
pub const FROM_CONFIG: &str = "config";
pub const FROM_ENV: &str = "env";
pub const FROM_FLAG: &str = "flag";

/// resolve_base_url applies the precedence default < config < environment
/// variable < flag to the values the host found (empty: not set) and
/// returns the URL and its source (one of the FROM_* names). Trailing
/// slashes are removed so paths join cleanly. It fails when nothing
/// supplies a URL (openai-compatible has no default) or the
/// URL is not http(s).
pub fn resolve_base_url(e: &Provider, config: &str, env: &str, flag: &str) -> Result<(String, &'static str), String> {
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
        smith_text::quote::quote(&mut m, e.name.as_bytes());
        m.push_str(" has no base URL; set base-url in its config block or pass --base-url (for example http://localhost:8000/v1)");
        return Err(m);
    }
    if !url.starts_with("https://") && !url.starts_with("http://") {
        let place = if src == FROM_ENV { e.base_url_env } else { src };
        let mut m = String::from("endpoints: base URL ");
        smith_text::quote::quote(&mut m, url.as_bytes());
        m.push_str(" for provider ");
        smith_text::quote::quote(&mut m, e.name.as_bytes());
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
    fn declared_names_are_unique_and_lookup_fails_naming_them() {
        let names: Vec<&str> = declared().iter().map(|(_, p)| p.name).collect();
        assert_eq!(names, ["anthropic", "openai", "openai-chat", "openai-compatible", "google"]);
        let (f, p) = lookup("openai-compatible").unwrap();
        assert_eq!((f.api, p.key_env), ("openai-chat", &[OPTIONAL_KEY][..]));
        assert_eq!(p.quirks.max_tokens_field, "max_tokens");
        match lookup("nope") {
            Err(CodecFault::UnknownProvider(m)) => {
                assert_eq!(m, "nope (this plugin declares anthropic, openai, openai-chat, openai-compatible, google)")
            }
            _ => panic!("lookup of an undeclared provider must fail"),
        }
    }

    #[test]
    fn precedence_and_validation() {
        let (_, a) = lookup("anthropic").unwrap();
        assert_eq!(resolve_base_url(&a, "", "", ""), Ok(("https://api.anthropic.com".to_string(), FROM_DEFAULT)));
        assert_eq!(resolve_base_url(&a, "https://c//", "", ""), Ok(("https://c".to_string(), FROM_CONFIG)));
        assert_eq!(resolve_base_url(&a, "https://c", "http://e/", ""), Ok(("http://e".to_string(), FROM_ENV)));
        assert_eq!(resolve_base_url(&a, "https://c", "http://e", "http://f"), Ok(("http://f".to_string(), FROM_FLAG)));
        assert_eq!(
            resolve_base_url(&a, "", "api.anthropic.com", ""),
            Err("endpoints: base URL \"api.anthropic.com\" for provider \"anthropic\" (from ANTHROPIC_BASE_URL) is not an http:// or https:// URL".to_string())
        );
        let (_, c) = lookup("openai-compatible").unwrap();
        assert_eq!(
            resolve_base_url(&c, "", "", ""),
            Err("endpoints: provider \"openai-compatible\" has no base URL; set base-url in its config block or pass --base-url (for example http://localhost:8000/v1)".to_string())
        );
    }
}
