//! status reads and classifies the {"error":{code,message,status,details}}
//! object a failed response carries and a 200 stream may carry or end
//! with. Keys match ignoring ASCII case, null leaves a field as it was
//! (and clears an array or the error object), a repeated key decodes into
//! what the earlier one left, arrays reuse their earlier elements (see
//! [`Slice`]), and any type mismatch makes the whole body "not an API
//! error".

use crate::norm::{self, ErrorKind};
use crate::retry;
use smith_json::read::{self, Kind};

/// Slice is an array decoded into again and again (a repeated key): each
/// element decodes into the element at its position in the earlier array,
/// whose fields it does not set stay, and elements between len and the
/// buffer's end are stale values a later, longer array reuses.
#[derive(Debug, Default)]
struct Slice<T> {
    buf: Vec<T>,
    len: usize,
}

impl<T: Default> Slice<T> {
    fn items(&self) -> &[T] {
        &self.buf[..self.len]
    }

    /// read decodes a JSON array into the slice; null and an empty array
    /// clear it, stale elements included.
    fn read<'a, F: FnMut(&mut read::Decoder<'a>, &mut T)>(&mut self, s: &mut read::Decoder<'a>, mut elem: F) {
        if s.peek() == Kind::Null {
            s.skip();
            self.buf.clear();
            self.len = 0;
            return;
        }
        let mut i = 0;
        s.array(|s| {
            if i >= self.buf.len() {
                self.buf.push(T::default());
            }
            if i >= self.len {
                self.len = i + 1;
            }
            elem(s, &mut self.buf[i]);
            i += 1;
        });
        if i < self.len {
            self.len = i;
        }
        if i == 0 {
            self.buf.clear();
            self.len = 0;
        }
    }
}

#[derive(Debug, Default)]
struct Violation {
    quota_id: String,
}

#[derive(Debug, Default)]
struct Detail {
    type_: String,
    reason: String,
    retry_delay: String,
    violations: Slice<Violation>,
}

#[derive(Debug, Default)]
struct WireStatus {
    code: i64,
    message: String,
    status: String,
    details: Slice<Detail>,
}

/// key_is reports whether the object key equals the field name want (all
/// ASCII) ignoring ASCII case.
fn key_is(key: &[u8], want: &str) -> bool {
    retry::equal_fold(key, want.as_bytes())
}

/// set_str stores a string value; null (and a mismatch, which fails the
/// whole decode) leaves the field as it was.
fn set_str(s: &mut read::Decoder, dst: &mut String) {
    let v = s.str();
    if !v.is_nil() {
        *dst = v.string();
    }
}

fn read_violation(s: &mut read::Decoder, v: &mut Violation) {
    s.object(|s, key| {
        if key_is(key, "quotaId") {
            set_str(s, &mut v.quota_id);
        }
    });
}

fn read_detail(s: &mut read::Decoder, d: &mut Detail) {
    s.object(|s, key| {
        if key_is(key, "@type") {
            set_str(s, &mut d.type_);
        } else if key_is(key, "reason") {
            set_str(s, &mut d.reason);
        } else if key_is(key, "retryDelay") {
            set_str(s, &mut d.retry_delay);
        } else if key_is(key, "violations") {
            d.violations.read(s, read_violation);
        }
    });
}

fn read_status(s: &mut read::Decoder, w: &mut WireStatus) {
    s.object(|s, key| {
        if key_is(key, "code") {
            if let Some(n) = s.int() {
                w.code = n;
            }
        } else if key_is(key, "message") {
            set_str(s, &mut w.message);
        } else if key_is(key, "status") {
            set_str(s, &mut w.status);
        } else if key_is(key, "details") {
            w.details.read(s, read_detail);
        }
    });
}

/// unmarshal reads body's "error" object; None when body is not valid JSON
/// of the expected types, or has no (or a null) error.
fn unmarshal(body: &[u8]) -> Option<WireStatus> {
    let mut env: Option<WireStatus> = None;
    let mut s = read::Decoder::new(body);
    s.object(|s, key| {
        if key_is(key, "error") {
            if s.peek() == Kind::Null {
                s.skip();
                env = None;
            } else {
                read_status(s, env.get_or_insert_with(WireStatus::default));
            }
        }
    });
    s.finish().ok()?;
    env
}

fn kind_of(status: &str) -> Option<ErrorKind> {
    Some(match status {
        "INVALID_ARGUMENT" | "FAILED_PRECONDITION" => ErrorKind::InvalidRequest,
        "UNAUTHENTICATED" | "PERMISSION_DENIED" => ErrorKind::Auth,
        "NOT_FOUND" => ErrorKind::NotFound,
        "RESOURCE_EXHAUSTED" => ErrorKind::RateLimit,
        "INTERNAL" | "DEADLINE_EXCEEDED" => ErrorKind::Server,
        "UNAVAILABLE" => ErrorKind::Overloaded,
        _ => return None,
    })
}

fn by_status(status: i64) -> ErrorKind {
    match status {
        401 | 403 => ErrorKind::Auth,
        404 => ErrorKind::NotFound,
        429 => ErrorKind::RateLimit,
        503 => ErrorKind::Overloaded,
        s if s >= 500 || s == 0 => ErrorKind::Server,
        _ => ErrorKind::InvalidRequest,
    }
}

/// http_status narrows a status to norm's u16; a code outside 0..=65535
/// (no HTTP status) is 0.
fn http_status(status: i64) -> u16 {
    u16::try_from(status).unwrap_or(0)
}

/// error_object classifies {"error":{code,message,status,details}}, from
/// an error response (status) or from the bare object a 200 stream
/// carries (status 0, the object's code is used).
pub fn error_object(status: i64, body: &[u8]) -> norm::Error {
    let w = match unmarshal(body) {
        Some(w) => w,
        None => {
            // A proxy's page or an empty body: the status alone classifies
            // it (a 401 is a credential problem, not a bad request).
            let kind = by_status(status);
            let mut message = String::from("gemini: http ");
            message.push_str(&status.to_string());
            message.push_str(" with a body that is not an API error: ");
            smith_text::quote::quote(&mut message, smith_text::quote::prefix(body, 120));
            return norm::Error {
                kind,
                retryable: kind.retryable(),
                http_status: http_status(status),
                message,
                ..norm::Error::default()
            };
        }
    };
    let status = if status == 0 { w.code } else { status };
    let mut e = norm::Error {
        kind: kind_of(&w.status).unwrap_or_else(|| by_status(status)),
        http_status: http_status(status),
        ..norm::Error::default()
    };
    let mut per_day = false;
    for d in w.details.items() {
        if d.reason == "API_KEY_INVALID" || d.reason == "API_KEY_EXPIRED" {
            e.kind = ErrorKind::Auth;
        }
        if d.type_.ends_with("google.rpc.RetryInfo") {
            e.retry_after = retry::duration(d.retry_delay.as_bytes());
        }
        for v in d.violations.items() {
            per_day = per_day || v.quota_id.contains("PerDay");
        }
    }
    if e.kind == ErrorKind::RateLimit && per_day && e.retry_after == 0 {
        e.kind = ErrorKind::Quota; // a daily quota is not a short wait
    }
    if e.kind == ErrorKind::InvalidRequest && w.message.contains("exceeds the maximum number of tokens") {
        e.kind = ErrorKind::ContextOverflow;
    }
    e.retryable = e.kind.retryable();
    e.message = w.message;
    e.provider_type = w.status;
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_fold_ascii_case_only() {
        assert!(key_is(b"code", "code"));
        assert!(key_is(b"CoDe", "code"));
        assert!(!key_is("\u{17f}tatus".as_bytes(), "status"));
        assert!(!key_is("\u{212a}".as_bytes(), "k"));
        assert!(!key_is("deta\u{131}ls".as_bytes(), "details"));
        assert!(!key_is("quota\u{130}d".as_bytes(), "quotaId"));
        assert!(!key_is(b"codes", "code"));
        assert!(!key_is(b"cod", "code"));
        assert!(!key_is("c\u{f6}de".as_bytes(), "code"));
        assert!(key_is(b"@TYPE", "@type"));
    }

    #[test]
    fn classifies_in_stream_objects() {
        let e = error_object(0, br#"{"error":{"code":429,"message":"slow","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProject"}]}]}}"#);
        assert_eq!(
            (e.kind, e.http_status, e.retryable, e.provider_type.as_str()),
            (ErrorKind::Quota, 429, false, "RESOURCE_EXHAUSTED")
        );
        let e = error_object(0, br#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"x/google.rpc.RetryInfo","retryDelay":"2.5s"}]}}"#);
        assert_eq!((e.kind, e.retry_after), (ErrorKind::RateLimit, 2_500_000_000));
        let e = error_object(0, br#"{"error":{"code":400,"message":"input exceeds the maximum number of tokens","status":"INVALID_ARGUMENT"}}"#);
        assert_eq!(e.kind, ErrorKind::ContextOverflow);
        let e = error_object(
            0,
            br#"{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#,
        );
        assert_eq!(e.kind, ErrorKind::Auth);
        let e = error_object(0, br#"{"error":{"code":503}}"#);
        assert_eq!((e.kind, e.retryable), (ErrorKind::Overloaded, true));
    }

    #[test]
    fn repeated_and_null_members() {
        // A repeated key decodes into what the first left; null keeps a
        // string, clears a slice and the error.
        let e = error_object(0, br#"{"error":{"message":"a","code":404},"ERROR":{"message":null,"status":"X"}}"#);
        assert_eq!((e.message.as_str(), e.provider_type.as_str(), e.kind), ("a", "X", ErrorKind::NotFound));
        let e = error_object(0, br#"{"error":{"details":[{"reason":"API_KEY_INVALID"},{}],"details":[{}]}}"#);
        assert_eq!(e.kind, ErrorKind::Auth, "the stale first element keeps its reason");
        let e =
            error_object(0, br#"{"error":{"details":[{"reason":"API_KEY_INVALID"}],"details":null,"details":[{}]}}"#);
        assert_eq!(e.kind, ErrorKind::Server);
        let e = error_object(0, br#"{"error":{"code":1},"error":null}"#);
        assert_eq!(e.message, "gemini: http 0 with a body that is not an API error: \"{\\\"error\\\":{\\\"code\\\":1},\\\"error\\\":null}\"");
        let e = error_object(0, br#"{"error":{"code":1.5}}"#);
        assert_eq!((e.kind, e.http_status), (ErrorKind::Server, 0));
        let e = error_object(0, br#"{"error":{"code":70000,"status":"NOT_FOUND"}}"#);
        assert_eq!((e.kind, e.http_status), (ErrorKind::NotFound, 0));
    }
}
