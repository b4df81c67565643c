//! classify is the HTTP (non-2xx) failure classification of the Messages
//! API. It shares the decoder's error object (wire::WireError) and key
//! folding; the decoder's in-stream errors are classify_body with status 0
//! and no request id.
//!
//! norm::Error's http_status is a u16, so a status outside 0..=65535
//! (never an HTTP status; the host passes a u16) is recorded as 0 there,
//! though the message names it.

use super::wire::{fold_equal, WireError};
use crate::norm::{self, ErrorKind};
use crate::retry;
use smith_json::read::{Decoder, Kind};

/// classify_response classifies a non-2xx response from its status, headers
/// (names lower-cased, the first value of a repeated name) and body. Vendor
/// signals win: x-should-retry over the kind's default, retry-after-ms over
/// retry-after, an HTTP date in it resolved against the response's Date header.
pub fn classify_response<K: AsRef<[u8]>, V: AsRef<[u8]>>(status: i64, h: &[(K, V)], body: &[u8]) -> norm::Error {
    let env = Envelope::read(body);
    let req_id =
        if env.request_id.is_empty() { smith_text::quote::lossy(retry::get(h, "request-id")) } else { env.request_id };
    let api_error = env.error.is_some();
    let mut e = classify_body(status, env.error, req_id);
    if !api_error {
        let mut m = format!("anthropic: http {} with a body that is not an API error: ", status);
        smith_text::quote::quote(&mut m, smith_text::quote::prefix(body, 120));
        e.message = m;
    }
    e.retry_after = retry::after(h);
    if let Some(r) = retry::should_retry(h) {
        e.retryable = r;
    }
    e
}

/// classify_body classifies the API's error object: its type names the kind, an
/// unknown or missing type falls back to the status, and an invalid request
/// whose message says the prompt is too long is a context overflow. The decoder
/// calls it with status 0 for an in-stream error.
pub fn classify_body(status: i64, w: Option<WireError>, req_id: String) -> norm::Error {
    let w = w.unwrap_or_default();
    let mut kind = match w.typ.as_str() {
        "invalid_request_error" => ErrorKind::InvalidRequest,
        "authentication_error" | "permission_error" => ErrorKind::Auth,
        "billing_error" => ErrorKind::Quota,
        "not_found_error" => ErrorKind::NotFound,
        "request_too_large" => ErrorKind::ContextOverflow,
        "rate_limit_error" => ErrorKind::RateLimit,
        "api_error" | "timeout_error" => ErrorKind::Server,
        "overloaded_error" => ErrorKind::Overloaded,
        _ => by_status(status),
    };
    if kind == ErrorKind::InvalidRequest && w.message.contains("prompt is too long") {
        kind = ErrorKind::ContextOverflow;
    }
    norm::Error {
        kind,
        message: w.message,
        retryable: kind.retryable(),
        http_status: u16::try_from(status).unwrap_or(0),
        provider_type: w.typ,
        request_id: req_id,
        ..norm::Error::default()
    }
}

/// by_status is the kind a status implies when the body names none.
fn by_status(status: i64) -> ErrorKind {
    match status {
        401 | 403 => ErrorKind::Auth,
        402 => ErrorKind::Quota,
        404 => ErrorKind::NotFound,
        413 => ErrorKind::ContextOverflow,
        429 => ErrorKind::RateLimit,
        529 => ErrorKind::Overloaded,
        0 => ErrorKind::Server,
        s if s >= 500 => ErrorKind::Server,
        _ => ErrorKind::InvalidRequest,
    }
}

/// Envelope is the error response body, {"error": {...}, "request_id":
/// "..."}, read leniently (see [`Envelope::read`]).
#[derive(Debug, Default, PartialEq)]
struct Envelope {
    error: Option<WireError>,
    request_id: String,
}

impl Envelope {
    /// read decodes body: a body that is not valid JSON, or not an object,
    /// leaves everything empty; keys match ignoring ASCII case and repeat
    /// (the last wins, a repeated error object fills the same struct, null
    /// clears it); a value of the wrong type leaves its field as it was,
    /// except that any non-null "error" value makes the (empty) error
    /// object exist.
    fn read(body: &[u8]) -> Envelope {
        let mut env = Envelope::default();
        let mut d = Decoder::new(body);
        if d.peek() == Kind::Object {
            d.object(|d, key| {
                if fold_equal(key, "ERROR") {
                    match d.peek() {
                        Kind::Null => env.error = None,
                        Kind::Object => {
                            let w = env.error.get_or_insert_with(WireError::default);
                            d.object(|d, key| {
                                let dst = if fold_equal(key, "TYPE") {
                                    &mut w.typ
                                } else if fold_equal(key, "MESSAGE") {
                                    &mut w.message
                                } else {
                                    return;
                                };
                                if d.peek() == Kind::Str {
                                    *dst = d.str().string();
                                }
                            });
                        }
                        _ => {
                            env.error.get_or_insert_with(WireError::default);
                        }
                    }
                } else if fold_equal(key, "REQUEST_ID") && d.peek() == Kind::Str {
                    env.request_id = d.str().string();
                }
            });
        } else {
            d.skip();
        }
        // Only syntax errors are left: every value was read as its kind.
        match d.finish() {
            Ok(()) => env,
            Err(_) => Envelope::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(status: i64, h: &[(&str, &str)], body: &str) -> norm::Error {
        classify_response(status, h, body.as_bytes())
    }

    #[test]
    fn api_errors_name_their_kind() {
        // The 529 overloaded_error with both request ids is in classifyCases.
        let e = classify(
            400,
            &[("request-id", "req_h")],
            r#"{"error":{"type":"invalid_request_error","message":"prompt is too long: 300000 tokens > 200000 maximum"}}"#,
        );
        assert_eq!((e.kind, e.retryable, e.request_id.as_str()), (ErrorKind::ContextOverflow, false, "req_h"));
        let e = classify(418, &[] as &[(&str, &str)], r#"{"error":{"type":"teapot_error"}}"#);
        assert_eq!((e.kind, e.provider_type.as_str()), (ErrorKind::InvalidRequest, "teapot_error"));
    }

    #[test]
    fn statuses_classify_bodies_without_a_type() {
        // The golden shapes hold "{}" under the usual failure statuses.
        let cases: &[(i64, ErrorKind)] = &[
            (0, ErrorKind::Server),
            (402, ErrorKind::Quota),
            (499, ErrorKind::InvalidRequest),
            (-1, ErrorKind::InvalidRequest),
        ];
        for &(status, kind) in cases {
            assert_eq!(classify(status, &[], "{}").kind, kind, "status {}", status);
        }
    }

    #[test]
    fn bodies_that_are_not_api_errors_are_quoted() {
        let long = "é".repeat(130);
        let e = classify(500, &[], &long);
        assert_eq!(
            e.message,
            format!("anthropic: http 500 with a body that is not an API error: \"{}\"", "é".repeat(120))
        );
        // An error member of the wrong type is an API error (an empty one).
        let e = classify(500, &[], r#"{"error":"boom","request_id":7}"#);
        assert_eq!((e.message.as_str(), e.request_id.as_str()), ("", ""));
    }

    #[test]
    fn envelope_reads_leniently() {
        let w = |t: &str, m: &str| Some(WireError { typ: t.into(), message: m.into() });
        let cases: &[(&str, Option<WireError>, &str)] = &[
            (r#"{"ERROR":{"Type":"a","messagE":"b"},"Request_ID":"r"}"#, w("a", "b"), "r"),
            (r#"{"error":{"type":"a"},"error":{"message":"b"}}"#, w("a", "b"), ""),
            (r#"{"error":{"type":"a"},"error":null}"#, None, ""),
            (r#"{"error":{"type":1,"message":"m"},"request_id":null}"#, w("", "m"), ""),
            (r#"{"error":[1],"request_id":"r"}"#, w("", ""), "r"),
            (r#"{"error":{"type":"a"},"request_id":"r"} x"#, None, ""),
            (r#"[{"error":{}}]"#, None, ""),
            (r#"{"erroR":{"type":"\ud800"}}"#, w("\u{fffd}", ""), ""),
        ];
        for (body, error, request_id) in cases {
            let env = Envelope::read(body.as_bytes());
            assert_eq!((&env.error, env.request_id.as_str()), (error, *request_id), "{}", body);
        }
    }

    #[test]
    fn retry_headers_win() {
        let h = [("retry-after", "3"), ("x-should-retry", "false")];
        let e = classify(429, &h, r#"{"error":{"type":"rate_limit_error","message":"slow down"}}"#);
        assert_eq!((e.kind, e.retryable, e.retry_after), (ErrorKind::RateLimit, false, 3_000_000_000));
        let h = [("retry-after-ms", "250"), ("retry-after", "3"), ("x-should-retry", "TRUE")];
        let e = classify(400, &h, r#"{"error":{"type":"invalid_request_error"}}"#);
        assert_eq!((e.retryable, e.retry_after), (true, 250_000_000));
    }

    #[test]
    fn header_request_ids_keep_their_text() {
        // A plain header id is in classifyCases; invalid UTF-8 is not.
        let h: [(&[u8], &[u8]); 1] = [(b"request-id", b"r\xe2\x82x\xff\xc3\xa9")];
        let e = classify_response(500, &h, b"{}");
        assert_eq!(e.request_id, "r\u{fffd}\u{fffd}x\u{fffd}\u{e9}");
    }
}
