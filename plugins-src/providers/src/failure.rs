//! failure classifies non-2xx responses with the codec of the provider's
//! wire API and maps the classified errors onto the world's `failure`.

use crate::norm::{Error, ErrorKind};
use smith_plugin::provider::{ClassifyOptions, Failure};
use smith_plugin::types::FailureKind;

/// classify classifies a non-2xx response from its body and the headers
/// the host passed (request ids, x-should-retry, retry-after,
/// retry-after-ms, x-ratelimit-*); vendor hints in the body (Gemini's
/// RetryInfo, OpenAI's "try again in") are read by the codecs. A header
/// repeated in the list keeps its first value. An HTTP-date
/// retry-after is resolved against the response's Date header (the
/// plugin's own clock is the sandbox's fixed one).
pub fn classify(body: &[u8], o: &ClassifyOptions) -> Failure {
    let f = match crate::format::lookup(&o.provider) {
        Ok((f, _)) => f,
        Err(f) => {
            return Failure {
                kind: FailureKind::Unknown,
                message: crate::declare::fault_text(&f),
                ..Failure::default()
            }
        }
    };
    // Header names are HTTP tokens (ASCII); they are compared lower-cased,
    // first value wins.
    let mut h: Vec<(String, &str)> = Vec::with_capacity(o.headers.len());
    for kv in o.headers.iter() {
        let k = kv.name.to_ascii_lowercase();
        if !h.iter().any(|(seen, _)| *seen == k) {
            h.push((k, kv.value.as_str()));
        }
    }
    let status = i64::from(o.status);
    let err = (f.classify)(status, &h, body);
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
        ErrorKind::Truncated => FailureKind::Truncated,
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
