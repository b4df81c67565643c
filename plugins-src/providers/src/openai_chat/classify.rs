//! classify turns an OpenAI error object into a classified error: the
//! top-level "error" of a stream chunk ([`stream_error`]), and through
//! [`classify`], which response.rs shares, the error of an HTTP failure.
//! The error object's keys match the field names ignoring ASCII case, the
//! last of duplicate keys wins, null leaves a field as it was, and a field
//! of the wrong type makes the whole value fall back to its text.

use crate::norm::{Error, ErrorKind};
use crate::retry;
use smith_json::read::{Decoder as Scan, Kind};

/// Field is a field of the error object a key names.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Message,
    Type,
    Code,
    Other,
}

/// field matches key to a field of the error object, ignoring ASCII case.
fn field(key: &[u8]) -> Field {
    let is = |name: &str| retry::equal_fold(key, name.as_bytes());
    if is("message") {
        Field::Message
    } else if is("type") {
        Field::Type
    } else if is("code") {
        Field::Code
    } else {
        Field::Other
    }
}

/// Wire is the error object: message, type and code; the message is bytes
/// because the fallback message keeps the value's text unchanged.
#[derive(Default)]
pub struct Wire<'a> {
    pub message: Vec<u8>,
    pub type_: String,
    pub code: Option<&'a [u8]>,
}

impl<'a> Wire<'a> {
    /// read_object reads an error object into w: message and type from
    /// strings (null leaves them as they were), code as its raw text, the
    /// last of duplicate keys winning. A member of the wrong type is
    /// skipped and the rest still read; read_object returns whether there
    /// was one (the caller then falls back to the value's text). The next
    /// value must be an object.
    pub fn read_object(&mut self, s: &mut Scan<'a>) -> bool {
        let mut mismatch = false;
        s.object(|s, key| match field(key) {
            which @ (Field::Message | Field::Type) => match s.peek() {
                Kind::Str => {
                    let v = s.str().unquoted();
                    if which == Field::Message {
                        self.message.clear();
                        self.message.extend_from_slice(v.as_bytes());
                    } else {
                        self.type_ = v.into_owned();
                    }
                }
                Kind::Null => {}
                _ => mismatch = true,
            },
            Field::Code => self.code = s.raw(),
            Field::Other => {}
        });
        mismatch
    }
}

/// stream_error classifies the top-level "error" of a stream chunk
/// (OpenRouter and others send it with HTTP 200); raw is a valid JSON
/// value other than null.
pub fn stream_error(raw: &[u8]) -> Error {
    let mut w = Wire::default();
    let mut s = Scan::new(raw);
    let mismatch = match s.peek() {
        Kind::Null => false,
        Kind::Object => w.read_object(&mut s),
        _ => true,
    };
    if mismatch {
        let mut s = Scan::new(raw);
        w.message.clear();
        if s.peek() == Kind::Str {
            w.message.extend_from_slice(s.str().unquoted().as_bytes());
        } else {
            w.message.extend_from_slice(smith_text::quote::prefix(raw, 200));
        }
    }
    classify(0, &w)
}

/// code_string is the code as text: a string code unquoted, "" for none or
/// null, else the code's JSON text.
fn code_string(code: Option<&[u8]>) -> Vec<u8> {
    let raw = match code {
        Some(raw) if raw != b"null" => raw,
        _ => return Vec::new(),
    };
    let mut s = Scan::new(raw);
    if s.peek() == Kind::Str {
        return s.str().unquoted().into_owned().into_bytes();
    }
    raw.to_vec()
}

/// classify classifies w under status: the kind from the code, the type,
/// then the status; an invalid request that names a context overflow in
/// its message is one. A status outside u16 (never an HTTP status) is
/// kept as 0 in the error.
pub fn classify(status: i64, w: &Wire) -> Error {
    let code = code_string(w.code);
    let mut kind =
        kind_by_code(&code).or_else(|| kind_by_code(w.type_.as_bytes())).unwrap_or_else(|| by_status(status, &code));
    if kind == ErrorKind::InvalidRequest && is_overflow(&w.message) {
        kind = ErrorKind::ContextOverflow;
    }
    let ptype: &[u8] = if w.type_.is_empty() { &code } else { w.type_.as_bytes() };
    let mut e = Error {
        kind,
        message: smith_text::quote::lossy(&w.message),
        retryable: kind.retryable(),
        http_status: u16::try_from(status).unwrap_or(0),
        provider_type: smith_text::quote::lossy(ptype),
        ..Error::default()
    };
    if kind == ErrorKind::RateLimit {
        e.retry_after = retry::from_message(&w.message);
    }
    if !code.is_empty() && code != ptype {
        e.code = smith_text::quote::lossy(&code);
    }
    e
}

fn kind_by_code(code: &[u8]) -> Option<ErrorKind> {
    Some(match code {
        b"insufficient_quota" | b"billing_hard_limit_reached" | b"usage_limit_reached" | b"usage_not_included" => {
            ErrorKind::Quota
        }
        b"invalid_api_key" | b"authentication_error" | b"permission_error" => ErrorKind::Auth,
        b"context_length_exceeded" | b"exceed_context_size_error" => ErrorKind::ContextOverflow,
        b"rate_limit_exceeded" | b"slow_down" => ErrorKind::RateLimit,
        b"model_not_found" => ErrorKind::NotFound,
        b"previous_response_not_found" => ErrorKind::InvalidRequest,
        b"server_error" => ErrorKind::Server,
        b"server_is_overloaded" => ErrorKind::Overloaded,
        _ => return None,
    })
}

/// by_status is the kind a status implies; a code that is a status number
/// ("429", …) counts as that status.
fn by_status(status: i64, code: &[u8]) -> ErrorKind {
    let either = |st: i64, c: &[u8]| status == st || code == c;
    if either(401, b"401") || either(403, b"403") {
        ErrorKind::Auth
    } else if either(402, b"402") {
        ErrorKind::Quota
    } else if either(404, b"404") {
        ErrorKind::NotFound
    } else if either(429, b"429") {
        ErrorKind::RateLimit
    } else if either(503, b"503") || either(529, b"529") {
        ErrorKind::Overloaded
    } else if status >= 500 || (status == 0 && code.is_empty()) || code.first() == Some(&b'5') {
        ErrorKind::Server
    } else {
        ErrorKind::InvalidRequest
    }
}

/// is_overflow reports whether msg, lower-cased, names a context overflow
/// ("context length", "context window", "maximum context", "too many
/// tokens"). The lowered text keeps ASCII (letters lowered, and U+0130 and
/// U+212A lowered to i and k) and marks every other char, each byte of
/// invalid UTF-8 included, with a byte that matches nothing.
fn is_overflow(msg: &[u8]) -> bool {
    let mut low = Vec::with_capacity(msg.len());
    let mut i = 0;
    while i < msg.len() {
        let (r, w) = decode_rune(&msg[i..]);
        i += w;
        low.push(match r {
            0..=0x7f => (r as u8).to_ascii_lowercase(),
            0x130 => b'i',
            0x212a => b'k',
            _ => 0x80,
        });
    }
    let has = |needle: &[u8]| low.windows(needle.len()).any(|w| w == needle);
    has(b"context length") || has(b"context window") || has(b"maximum context") || has(b"too many tokens")
}

/// decode_rune decodes the char at the start of s and its width:
/// (U+FFFD, 1) for an invalid or short sequence, (0, 0) for an empty s.
fn decode_rune(s: &[u8]) -> (u32, usize) {
    let c = match s.first() {
        Some(&c) => c,
        None => return (0, 0),
    };
    let w = match c {
        0..=0x7f => return (c as u32, 1),
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return (0xfffd, 1),
    };
    match s.get(..w).map(std::str::from_utf8) {
        Some(Ok(text)) => (text.chars().next().map_or(0xfffd, |r| r as u32), w),
        _ => (0xfffd, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_error_objects() {
        use ErrorKind as K;
        let (wrong, hint, kelvin) = (
            r#"{"type":"server_is_overloaded","message":5}"#,
            r#"{"message":"Please try again in 1.5s","code":"rate_limit_exceeded"}"#,
            "{\"message\":\"Too many to\u{212a}ens\",\"code\":\"4\"}",
        );
        // (error object, kind, message, provider type, code, retry after):
        // an OpenRouter numeric code, quota by code, a rate limit's hint,
        // overflow named in the message (the Kelvin sign lowered), keys
        // folded, a string, an array falling back to its text, a wrong
        // field type keeping the rest, null keeping the earlier message.
        let cases: [(&str, ErrorKind, &str, &str, &str, u64); 10] = [
            (r#"{"message":"Provider returned error","code":502}"#, K::Server, "Provider returned error", "502", "", 0),
            (r#"{"message":"q","type":"x","code":"insufficient_quota"}"#, K::Quota, "q", "x", "insufficient_quota", 0),
            (hint, K::RateLimit, "Please try again in 1.5s", "rate_limit_exceeded", "", 1_500_000_000),
            (r#"{"message":"Maximum Context","code":400}"#, K::ContextOverflow, "Maximum Context", "400", "", 0),
            (kelvin, K::ContextOverflow, "Too many to\u{212a}ens", "4", "", 0),
            ("{\"MESSAGE\":\"m\",\"Type\":\"t\",\"\u{212a}\":1,\"CODE\":\"503\"}", K::Overloaded, "m", "t", "503", 0),
            (r#""boom""#, K::Server, "boom", "", "", 0),
            (r#"[1,"x"]"#, K::Server, r#"[1,"x"]"#, "", "", 0),
            (wrong, K::Overloaded, wrong, "server_is_overloaded", "", 0),
            (r#"{"message":"a","message":null,"code":null}"#, K::Server, "a", "", "", 0),
        ];
        for (raw, kind, message, ptype, code, after) in cases {
            let e = stream_error(raw.as_bytes());
            assert_eq!(
                (e.kind, e.message.as_str(), e.provider_type.as_str(), e.code.as_str(), e.retry_after, e.retryable),
                (kind, message, ptype, code, after, kind.retryable()),
                "{}",
                raw
            );
        }
    }

    #[test]
    fn folding_and_lowering() {
        assert!(field("meſſage".as_bytes()) == Field::Other);
        assert!(field("MeSsAgE".as_bytes()) == Field::Message);
        assert!(field("cOdE".as_bytes()) == Field::Code);
        assert!(field("tÿpe".as_bytes()) == Field::Other);
        assert!(is_overflow("MAX\u{130}MUM CONTEXT".as_bytes()));
        assert!(!is_overflow("context len\u{1e9e}th".as_bytes()));
        assert!(!is_overflow(b"context\xfflength"));
    }
}
