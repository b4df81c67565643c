//! classify is the classification of a failed (non-2xx) Gemini response:
//! the body's {"error":{…}} object read and classified as the decoder
//! reads an in-stream one (status.rs's error_object), then, when the body
//! gave no RetryInfo wait, the headers' retry hints.

use crate::norm;
use crate::retry;

/// classify_response classifies a non-2xx response: status, its headers
/// (names lower-cased, the first value of a repeated name) and body (an
/// HTTP-date retry-after is resolved against the Date header). A bad
/// API key is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID (auth,
/// not invalid_request); the wait of a 429 is RetryInfo.retryDelay in the
/// body (Gemini sends no rate-limit headers), then retry-after. A status
/// outside 0..=65535 gives http_status 0 (norm's u16), as in the decoder.
pub fn classify_response<K: AsRef<[u8]>, V: AsRef<[u8]>>(status: i64, h: &[(K, V)], body: &[u8]) -> norm::Error {
    let mut e = super::status::error_object(status, body);
    if e.retry_after == 0 {
        e.retry_after = retry::after(h);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::ErrorKind;

    const NONE: &[(&str, &str)] = &[];

    #[test]
    fn body_hint_before_headers() {
        let body = br#"{"error":{"code":429,"message":"q","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"34.4s"}]}}"#;
        let e = classify_response(429, &[("retry-after", "7")], body);
        assert_eq!((e.kind, e.retry_after, e.http_status), (ErrorKind::RateLimit, 34_400_000_000, 429));
        let e = classify_response(429, &[("retry-after", "7")], br#"{"error":{"status":"RESOURCE_EXHAUSTED"}}"#);
        assert_eq!(e.retry_after, 7_000_000_000);
        let e = classify_response(
            503,
            &[("retry-after", "Thu, 01 Jan 1970 00:00:10 GMT"), ("date", "Thu, 01 Jan 1970 00:00:04 GMT")],
            b"",
        );
        assert_eq!((e.kind, e.retry_after), (ErrorKind::Overloaded, 6_000_000_000));
    }

    #[test]
    fn status_without_api_error() {
        let e = classify_response(404, NONE, b"<html>no</html>");
        assert_eq!((e.kind, e.retryable), (ErrorKind::NotFound, false));
        assert_eq!(e.message, "gemini: http 404 with a body that is not an API error: \"<html>no</html>\"");
        let e = classify_response(401, NONE, b"");
        assert_eq!((e.kind, e.retryable), (ErrorKind::Auth, false));
        let e = classify_response(400, NONE, b"<html>bad</html>");
        assert_eq!(e.kind, ErrorKind::InvalidRequest);
        let e = classify_response(
            400,
            NONE,
            br#"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#,
        );
        assert_eq!(e.kind, ErrorKind::Auth);
        let e = classify_response(70000, NONE, br#"{"error":{}}"#);
        assert_eq!((e.kind, e.http_status), (ErrorKind::Server, 0));
    }
}
