//! response classifies a non-2xx Chat Completions or Responses API answer
//! (the two share the error envelope) or a compatible server's. The body's
//! error object is read and classified by classify.rs; the headers are
//! read with crate::retry.

use super::classify::{classify, Wire};
use crate::norm::{Error, ErrorKind};
use crate::retry;
use smith_json::read::{Decoder as Scan, Kind};

/// classify_response classifies a failed response: status, the headers
/// (names lower-cased, the first value of a repeated name only) and the
/// body; an HTTP-date retry-after is resolved against the Date header. The
/// wait hint comes from
/// retry-after-ms, retry-after, x-ratelimit-reset-*, then the message text
/// ("try again in 3.3s"); an explicit x-should-retry overrides the kind's
/// default except for quota. A body that is not an API error is named in
/// the message, its first 120 characters quoted (smith_text::quote: each
/// byte of invalid UTF-8 counts as one character and is written as \xNN).
pub fn classify_response<K: AsRef<[u8]>, V: AsRef<[u8]>>(status: i64, h: &[(K, V)], body: &[u8]) -> Error {
    let mut w = Wire::default();
    match envelope_error(body) {
        Some(raw) => {
            let mut s = Scan::new(raw);
            match s.peek() {
                // A member of the wrong type leaves the others read; the
                // whole object is then no string either.
                Kind::Object => {
                    w.read_object(&mut s);
                }
                Kind::Str => w.message = s.str().unquoted().into_owned().into_bytes(),
                _ => {} // null, a number, a bool or an array: no fields
            }
        }
        None => {
            let mut m = format!("openaichat: http {} with a body that is not an API error: ", status);
            smith_text::quote::quote(&mut m, smith_text::quote::prefix(body, 120));
            w.message = m.into_bytes();
        }
    }
    let mut e = classify(status, &w);
    e.request_id = smith_text::quote::lossy(retry::get(h, "x-request-id"));
    let after = retry::after(h);
    if after > 0 {
        e.retry_after = after;
    }
    if let Some(retry) = retry::should_retry(h) {
        if e.kind != ErrorKind::Quota {
            e.retryable = retry;
        }
    }
    e
}

/// envelope_error returns the raw "error" member of body when body is a
/// JSON object (the key matched in any ASCII case, the last one winning,
/// null kept as "null") with such a member; None when body is
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
        use ErrorKind as K;
        // Quota, string and null errors, and an HTML body are in the classify
        // goldens. (status, body, kind, message, provider type, code): an
        // upper-case key, an OpenRouter numeric code on 200, a number error,
        // a wrong member type keeping the rest, no error member.
        let context = r#"{"ERROR":{"message":"This model's maximum context length is 8192","code":"x"}}"#;
        let quoted = r#"openaichat: http 400 with a body that is not an API error: "{\"detail\":\"x\"}""#;
        let cases: [(u16, &str, ErrorKind, &str, &str, &str); 5] = [
            (400, context, K::ContextOverflow, "This model's maximum context length is 8192", "x", ""),
            (200, r#"{"error":{"message":"m","code":502}}"#, K::Server, "m", "502", ""),
            (418, r#"{"error":1}"#, K::InvalidRequest, "", "", ""),
            (500, r#"{"error":{"type":"t","message":[1],"code":"c"}}"#, K::Server, "", "t", "c"),
            (400, r#"{"detail":"x"}"#, K::InvalidRequest, quoted, "", ""),
        ];
        for (status, body, kind, message, ptype, code) in cases {
            let e = classify_response(i64::from(status), &NONE, body.as_bytes());
            assert_eq!(
                (e.kind, e.message.as_str(), e.provider_type.as_str(), e.code.as_str(), e.http_status, e.retryable),
                (kind, message, ptype, code, status, kind.retryable()),
                "{}",
                body
            );
        }
    }

    #[test]
    fn headers_and_hints() {
        let body = br#"{"error":{"message":"Rate limit reached. Please try again in 3.3s.","type":"requests","code":"rate_limit_exceeded"}}"#;
        let h = [("x-request-id", "req_1"), ("retry-after-ms", "250"), ("x-should-retry", "FALSE")];
        let e = classify_response(429, &h, body);
        assert_eq!((e.request_id.as_str(), e.retry_after, e.retryable), ("req_1", 250_000_000, false));
        let h = [
            ("retry-after", "Thu, 01 Jan 1970 00:00:10 GMT"),
            ("date", "Thu, 01 Jan 1970 00:00:04 GMT"),
            ("x-should-retry", "true"),
        ];
        let quota = br#"{"error":{"code":"insufficient_quota"}}"#;
        let e = classify_response(429, &h, quota);
        assert_eq!((e.kind, e.retry_after, e.retryable), (ErrorKind::Quota, 6_000_000_000, false));
        let long = [b'\xff'; 130];
        let e = classify_response(500, &NONE, &long);
        assert_eq!(
            e.message,
            format!("openaichat: http 500 with a body that is not an API error: \"{}\"", "\\xff".repeat(120))
        );
    }
}
