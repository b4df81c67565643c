//! request builds the request template for a snapshot: the history is
//! handed off to the target provider (foreign thinking and ids
//! transformed), the base URL resolved (default < document base_url < the
//! provider's conventional environment variable from the document's
//! environment < base_url_flag), and the credential left as a secret
//! reference named after the provider's first credential variable.

use crate::handoff::{self, Target};
use crate::norm::message::HttpRequest;
use smith_plugin::provider::{
    CodecFault, HeaderTemplate, HttpMethod, RequestSnapshot, RequestTemplate, SecretReference, TemplatePart,
};

/// build returns the request template of `s`.
pub fn build(s: &RequestSnapshot) -> Result<RequestTemplate, CodecFault> {
    let (f, e) = crate::format::lookup(&s.provider)?;
    let doc = crate::document::parse(s.document.as_bytes(), &s.model)
        .map_err(|m| CodecFault::UnsupportedRequest(crate::document::fault_text(&s.provider, m)))?;
    let mut r = doc.request;
    let target = Target { provider: s.provider.clone(), api: f.api.to_string(), model: s.model.clone() };
    r.messages = handoff::transform(std::mem::take(&mut r.messages), &target);
    let env = doc.environment.get(e.base_url_env).map(String::as_str).unwrap_or("");
    let (base, _) = crate::format::resolve_base_url(&e, &doc.base_url, env, &doc.base_url_flag)
        .map_err(CodecFault::UnsupportedRequest)?;
    let quirks = doc.quirks.as_ref().unwrap_or(&e.quirks);
    let secret_ref = e.key_env.first().copied().unwrap_or("");
    let h = (f.build)(&r, quirks, secret_ref).map_err(CodecFault::UnsupportedRequest)?;
    Ok(template(base, h))
}

/// template turns a codec's request into the world's template: literal
/// URL and header parts, a secret part where a header references the
/// credential.
fn template(base: String, h: HttpRequest) -> RequestTemplate {
    let method = if h.method.eq_ignore_ascii_case("GET") { HttpMethod::Get } else { HttpMethod::Post };
    let mut url = base;
    url.push_str(&h.path);
    let headers = h
        .headers
        .into_iter()
        .map(|hd| {
            let mut value = Vec::with_capacity(2);
            if !hd.value.is_empty() {
                value.push(TemplatePart::Literal(hd.value));
            }
            if !hd.secret_ref.is_empty() {
                value.push(TemplatePart::Secret(SecretReference { name: hd.secret_ref }));
            }
            HeaderTemplate { name: hd.name, value }
        })
        .collect();
    RequestTemplate { method, url: vec![TemplatePart::Literal(url)], headers, body: h.body }
}
