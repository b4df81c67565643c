//! response: the classification of a non-2xx Chat Completions or
//! Responses API answer (the two share the error envelope) or of a
//! compatible server's — the Rust port of response.go's ClassifyResponse
//! beside it, which stays its oracle. The body's error object is read as
//! Go's json.Unmarshal reads it into WireError (see classify.rs, which
//! classifies it); the headers are read with crate::retryhint.

use super::classify::{classify, Wire};
use crate::jsonscan::{Decoder as Scan, Kind};
use crate::norm::{Error, ErrorKind};
use crate::retryhint;

/// classify_response classifies a failed response: status, the headers
/// (names lower-cased, the first value of a repeated name only), the body
/// and the time now (Unix seconds and nanoseconds) an HTTP-date
/// retry-after is resolved against. The wait hint comes from
/// retry-after-ms, retry-after, x-ratelimit-reset-*, then the message text
/// ("try again in 3.3s"); an explicit x-should-retry overrides the kind's
/// default except for quota. A body that is not an API error is named in
/// the message, its first 120 runes quoted as Go's %.120q quotes them.
pub fn classify_response<K: AsRef<[u8]>, V: AsRef<[u8]>>(
    status: i64,
    h: &[(K, V)],
    body: &[u8],
    now_secs: i64,
    now_nanos: u32,
) -> Error {
    let mut w = Wire::default();
    match envelope_error(body) {
        Some(raw) => {
            let mut s = Scan::new(raw);
            match s.peek() {
                // A member of the wrong type leaves the others read; the
                // whole object is then no string either (Go's second try).
                Kind::Object => {
                    w.read_object(&mut s);
                }
                Kind::Str => w.message = s.str().unquoted().into_owned().into_bytes(),
                _ => {} // null, a number, a bool or an array: no fields
            }
        }
        None => {
            let mut m = format!("openaichat: http {} with a body that is not an API error: ", status);
            crate::quote::quote(&mut m, crate::quote::prefix(body, 120));
            w.message = m.into_bytes();
        }
    }
    let mut e = classify(status, &w);
    e.request_id = crate::quote::lossy(retryhint::get(h, "x-request-id"));
    let after = retryhint::after(h, now_secs, now_nanos);
    if after > 0 {
        e.retry_after = after;
    }
    if let Some(retry) = retryhint::should_retry(h) {
        if e.kind != ErrorKind::Quota {
            e.retryable = retry;
        }
    }
    e
}

/// envelope_error returns the raw "error" member of body when body is a
/// JSON object (read as json.Unmarshal reads it into a struct with one
/// json.RawMessage field: the key matched in any ASCII case, the last one
/// winning, null kept as "null") with such a member; None when body is
/// not valid JSON, not an object, or has none.
fn envelope_error(body: &[u8]) -> Option<&[u8]> {
    let mut s = Scan::new(body);
    let mut raw: Option<&[u8]> = None;
    s.object(|s, key| {
        if key.eq_ignore_ascii_case(b"error") {
            raw = s.raw();
        }
    });
    match (s.finish(), raw) {
        (Ok(()), Some(raw)) if !raw.is_empty() => Some(raw),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: [(&str, &str); 0] = [];

    #[test]
    fn envelopes() {
        let cases: [(&str, u16, &str, ErrorKind, &str, &str, &str); 9] = [
            (
                "quota",
                429,
                r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
                ErrorKind::Quota,
                "You exceeded your current quota",
                "insufficient_quota",
                "",
            ),
            (
                "context",
                400,
                r#"{"ERROR":{"message":"This model's maximum context length is 8192","code":"x"}}"#,
                ErrorKind::ContextOverflow,
                "This model's maximum context length is 8192",
                "x",
                "",
            ),
            ("openrouter code", 200, r#"{"error":{"message":"m","code":502}}"#, ErrorKind::Server, "m", "502", ""),
            ("string error", 404, r#"{"error":"no such model"}"#, ErrorKind::NotFound, "no such model", "", ""),
            ("null error", 401, r#"{"error":null}"#, ErrorKind::Auth, "", "", ""),
            ("number error", 418, r#"{"error":1}"#, ErrorKind::InvalidRequest, "", "", ""),
            (
                "wrong member type keeps the rest",
                500,
                r#"{"error":{"type":"t","message":[1],"code":"c"}}"#,
                ErrorKind::Server,
                "",
                "t",
                "c",
            ),
            (
                "not JSON",
                502,
                "<html>bad gateway</html>",
                ErrorKind::Server,
                r#"openaichat: http 502 with a body that is not an API error: "<html>bad gateway</html>""#,
                "",
                "",
            ),
            (
                "no error member",
                400,
                r#"{"detail":"x"}"#,
                ErrorKind::InvalidRequest,
                r#"openaichat: http 400 with a body that is not an API error: "{\"detail\":\"x\"}""#,
                "",
                "",
            ),
        ];
        for (name, status, body, kind, message, ptype, code) in cases {
            let e = classify_response(i64::from(status), &NONE, body.as_bytes(), 0, 0);
            assert_eq!(
                (e.kind, e.message.as_str(), e.provider_type.as_str(), e.code.as_str(), e.http_status, e.retryable),
                (kind, message, ptype, code, status, kind.retryable()),
                "{}",
                name
            );
        }
    }

    #[test]
    fn headers_and_hints() {
        let body = br#"{"error":{"message":"Rate limit reached. Please try again in 3.3s.","type":"requests","code":"rate_limit_exceeded"}}"#;
        let e = classify_response(429, &NONE, body, 0, 0);
        assert_eq!((e.kind, e.retry_after, e.retryable), (ErrorKind::RateLimit, 3_300_000_000, true));
        let h = [("x-request-id", "req_1"), ("retry-after-ms", "250"), ("x-should-retry", "FALSE")];
        let e = classify_response(429, &h, body, 0, 0);
        assert_eq!((e.request_id.as_str(), e.retry_after, e.retryable), ("req_1", 250_000_000, false));
        let h = [("retry-after", "Thu, 01 Jan 1970 00:00:10 GMT"), ("x-should-retry", "true")];
        let quota = br#"{"error":{"code":"insufficient_quota"}}"#;
        let e = classify_response(429, &h, quota, 4, 500_000_000);
        assert_eq!((e.kind, e.retry_after, e.retryable), (ErrorKind::Quota, 5_500_000_000, false));
        let long = [b'\xff'; 130];
        let e = classify_response(500, &NONE, &long, 0, 0);
        assert_eq!(
            e.message,
            format!("openaichat: http 500 with a body that is not an API error: \"{}\"", "\\xff".repeat(120))
        );
    }
}
