//! failure classifies non-2xx responses and maps the codecs' classified
//! errors onto the world's `failure` (the port of guest/classify.go).

use crate::norm::{Error, ErrorKind};
use crate::smith_plugin::provider::{ClassifyOptions, Failure};
use crate::smith_plugin::types::FailureKind;

/// classify classifies a non-2xx response from its body and the headers
/// the host passed (request ids, x-should-retry, retry-after,
/// retry-after-ms, x-ratelimit-*); vendor hints in the body (Gemini's
/// RetryInfo, OpenAI's "try again in") are read by the codecs. A header
/// repeated in the list keeps its first value. `now` is the Unix time
/// (seconds, nanoseconds) HTTP-date retry-after values are resolved
/// against.
pub fn classify(body: &[u8], o: &ClassifyOptions, now: (i64, u32)) -> Failure {
    let e = match crate::declare::lookup(&o.provider) {
        Ok(e) => e,
        Err(f) => return Failure { kind: FailureKind::Unknown, message: crate::declare::fault_text(&f), ..Failure::default() },
    };
    // Header names are HTTP tokens (ASCII); they are compared lower-cased,
    // first value wins, as the Go guest's map did.
    let mut h: Vec<(String, &str)> = Vec::with_capacity(o.headers.len());
    for kv in o.headers.iter() {
        let k = kv.name.to_ascii_lowercase();
        if !h.iter().any(|(seen, _)| *seen == k) {
            h.push((k, kv.value.as_str()));
        }
    }
    let status = i64::from(o.status);
    let err = match e.api {
        "anthropic" => crate::anthropic::classify::classify_response(status, &h, body, now.0, now.1),
        "openai-chat" | "openai-responses" => {
            crate::openaichat::response::classify_response(status, &h, body, now.0, now.1)
        }
        "gemini" => crate::gemini::classify::classify_response(status, &h, body, now.0, now.1),
        api => {
            return Failure {
                kind: FailureKind::Unknown,
                message: crate::declare::unknown_api(api),
                ..Failure::default()
            }
        }
    };
    failure(&err)
}

/// failure maps a classified error onto the world's failure.
pub fn failure(e: &Error) -> Failure {
    let kind = match e.kind {
        ErrorKind::Auth => FailureKind::Auth,
        ErrorKind::InvalidRequest => FailureKind::InvalidRequest,
        ErrorKind::ContextOverflow => FailureKind::ContextOverflow,
        ErrorKind::RateLimit => FailureKind::RateLimit,
        ErrorKind::Quota => FailureKind::Quota,
        ErrorKind::Overloaded => FailureKind::Overloaded,
        ErrorKind::Server => FailureKind::Server,
        ErrorKind::NotFound => FailureKind::NotFound,
        ErrorKind::Transport => FailureKind::Transport,
        ErrorKind::Truncated => FailureKind::Truncated,
        ErrorKind::Aborted => FailureKind::Aborted,
        ErrorKind::Malformed => FailureKind::Malformed,
    };
    Failure {
        kind,
        message: e.message.clone(),
        retryable: e.retryable,
        retry_after_ms: if e.retry_after > 0 { Some(e.retry_after / 1_000_000) } else { None },
        http_status: if (100..=599).contains(&e.http_status) { Some(e.http_status) } else { None },
        provider_type: crate::decoder::opt_text(&e.provider_type),
        vendor_code: crate::decoder::opt_text(&e.code),
        request_id: crate::decoder::opt_text(&e.request_id),
    }
}
