//! wire reads the Messages API stream events (their payloads, content
//! blocks and error objects) and classifies in-stream errors. A reader
//! reads the whole text and reports a syntax error anywhere in it before a
//! field of the wrong type; an error object of the wrong shape is refused
//! with a `json: cannot unmarshal …` text ([`WireError::unmarshal`]).

use crate::norm;
use smith_json::read::{Decoder, Error, Kind, Str};

/// Event is one stream event. Its strings and raw values borrow the
/// event's data. A raw value is empty when absent and "null" when null.
#[derive(Debug, Default)]
pub struct Event<'a> {
    pub typ: Str<'a>,
    /// "message" is an object.
    pub has_message: bool,
    pub message_id: Str<'a>,
    pub message_model: Str<'a>,
    pub message_usage: &'a [u8],
    pub index: i64,
    pub content_block: &'a [u8],
    /// "delta" is an object.
    pub has_delta: bool,
    pub delta: Delta<'a>,
    pub usage: &'a [u8],
    /// The "error" object, when the event has one that is not null.
    pub err: Option<WireError>,
}

/// Delta holds the fields of an event's "delta" object.
#[derive(Debug, Default)]
pub struct Delta<'a> {
    pub typ: Str<'a>,
    pub text: Str<'a>,
    pub thinking: Str<'a>,
    pub signature: Str<'a>,
    pub partial_json: Str<'a>,
    pub stop_reason: Str<'a>,
}

/// ReadError is why an event's payload was refused: the JSON reader's
/// syntax or type error, or the `json: cannot unmarshal …` text of an
/// "error" member of the wrong shape.
#[derive(Debug)]
pub enum ReadError {
    Scan(Error),
    Json(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Scan(e) => e.fmt(f),
            ReadError::Json(m) => f.write_str(m),
        }
    }
}

impl<'a> Event<'a> {
    /// read parses data. A member read twice keeps its last value; the
    /// members of a nested object accumulate over repeats.
    pub fn read(data: &'a [u8]) -> Result<Event<'a>, ReadError> {
        let mut e = Event::default();
        let mut err_raw: &[u8] = b"";
        let mut s = Decoder::new(data);
        s.object(|s, key| match key {
            b"type" => e.typ = s.str(),
            b"message" => {
                e.has_message = s.peek() == Kind::Object;
                s.object(|s, key| match key {
                    b"id" => e.message_id = s.str(),
                    b"model" => e.message_model = s.str(),
                    b"usage" => e.message_usage = s.raw().unwrap_or(b""),
                    _ => {}
                });
            }
            b"index" => e.index = s.int().unwrap_or(0),
            b"content_block" => e.content_block = s.raw().unwrap_or(b""),
            b"delta" => {
                e.has_delta = s.peek() == Kind::Object;
                let d = &mut e.delta;
                s.object(|s, key| match key {
                    b"type" => d.typ = s.str(),
                    b"text" => d.text = s.str(),
                    b"thinking" => d.thinking = s.str(),
                    b"signature" => d.signature = s.str(),
                    b"partial_json" => d.partial_json = s.str(),
                    b"stop_reason" => d.stop_reason = s.str(),
                    _ => {}
                });
            }
            b"usage" => e.usage = s.raw().unwrap_or(b""),
            b"error" => err_raw = s.raw().unwrap_or(b""),
            _ => {}
        });
        s.finish().map_err(ReadError::Scan)?;
        // An error object is rare and has its own reader (and error texts).
        if !err_raw.is_empty() && !matches!(err_raw, b"null") {
            e.err = Some(WireError::unmarshal(err_raw).map_err(ReadError::Json)?);
        }
        Ok(e)
    }
}

/// Block is the content_block of a content_block_start event.
#[derive(Debug, Default, PartialEq)]
pub struct Block {
    pub typ: String,
    pub id: String,
    pub name: String,
    pub text: String,
    pub thinking: String,
    pub signature: String,
    pub data: String,
}

impl Block {
    /// read parses raw; null reads as the empty block, and absent (empty)
    /// is an error.
    pub fn read(raw: &[u8]) -> Result<Block, Error> {
        let mut f: [Str; 7] = Default::default();
        let mut s = Decoder::new(raw);
        s.object(|s, key| {
            let i = match key {
                b"type" => 0,
                b"id" => 1,
                b"name" => 2,
                b"text" => 3,
                b"thinking" => 4,
                b"signature" => 5,
                b"data" => 6,
                _ => return,
            };
            f[i] = s.str();
        });
        s.finish()?;
        Ok(Block {
            typ: f[0].string(),
            id: f[1].string(),
            name: f[2].string(),
            text: f[3].string(),
            thinking: f[4].string(),
            signature: f[5].string(),
            data: f[6].string(),
        })
    }
}

/// WireError is the API's error object.
#[derive(Debug, Default, PartialEq)]
pub struct WireError {
    pub typ: String,
    pub message: String,
}

impl WireError {
    /// unmarshal reads the valid JSON text raw, an object with the strings
    /// "type" and "message": keys match ignoring ASCII case, of a repeated
    /// key the last wins, null leaves a field alone, and the first value of
    /// the wrong kind is the error, "json: cannot unmarshal KIND into Go
    /// struct field wireError.NAME of type string" (a raw value that is not
    /// an object: "… into Go value of type anthropic.wireError").
    pub fn unmarshal(raw: &[u8]) -> Result<WireError, String> {
        let mut w = WireError::default();
        let mut d = Decoder::new(raw);
        let top = d.peek();
        if top != Kind::Object {
            return Err(format!("json: cannot unmarshal {} into Go value of type anthropic.wireError", json_kind(top)));
        }
        let mut first: Option<String> = None;
        d.object(|d, key| {
            let (dst, name) = if fold_equal(key, "TYPE") {
                (&mut w.typ, "type")
            } else if fold_equal(key, "MESSAGE") {
                (&mut w.message, "message")
            } else {
                return;
            };
            match d.peek() {
                Kind::Str => *dst = d.str().string(),
                Kind::Null => {}
                k => {
                    if first.is_none() {
                        first = Some(format!(
                            "json: cannot unmarshal {} into Go struct field wireError.{} of type string",
                            json_kind(k),
                            name
                        ));
                    }
                }
            }
        });
        // raw was validated by the event's reader, so only a kind error is
        // left to report.
        match (d.finish(), first) {
            (Err(e), _) => Err(e.to_string()),
            (Ok(()), Some(m)) => Err(m),
            (Ok(()), None) => Ok(w),
        }
    }
}

/// json_kind names a value's kind in the type errors ("object", "array",
/// "string", "number", "bool", "null").
pub fn json_kind(k: Kind) -> &'static str {
    match k {
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::Str => "string",
        Kind::Number => "number",
        Kind::Bool => "bool",
        Kind::Null | Kind::Invalid => "null",
    }
}

/// fold_equal reports whether key equals the ASCII name ignoring ASCII
/// case.
pub fn fold_equal(key: &[u8], name: &str) -> bool {
    crate::retry::equal_fold(key, name.as_bytes())
}

/// other_type returns the "type" of the block raw (an object or null): the
/// key matched as fold_equal matches it, the last string value winning,
/// a value of another kind ignored.
pub fn other_type(raw: &[u8]) -> String {
    let mut t = String::new();
    let mut d = Decoder::new(raw);
    d.object(|d, key| {
        if fold_equal(key, "TYPE") && d.peek() == Kind::Str {
            t = d.str().string();
        }
    });
    t
}

/// classify_body classifies an in-stream error object as
/// [`super::classify::classify_body`] does with status 0 (an unknown or
/// missing type is a server error) and no request id.
pub fn classify_body(w: Option<WireError>) -> norm::Error {
    super::classify::classify_body(0, w, String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::ErrorKind;

    #[test]
    fn wire_error_reads_type_and_message() {
        let cases: &[(&str, Result<(&str, &str), &str>)] = &[
            (r#"{"type":"overloaded_error","message":"Overloaded"}"#, Ok(("overloaded_error", "Overloaded"))),
            (r#"{"TYPE":"a","meſsage":"b","Type":null}"#, Ok(("a", ""))),
            (r#"{"type":"\ud800x"}"#, Ok(("\u{fffd}x", ""))),
            ("[]", Err("json: cannot unmarshal array into Go value of type anthropic.wireError")),
            ("true", Err("json: cannot unmarshal bool into Go value of type anthropic.wireError")),
            (
                r#"{"type":[1],"message":true}"#,
                Err("json: cannot unmarshal array into Go struct field wireError.type of type string"),
            ),
            (
                r#"{"message":5}"#,
                Err("json: cannot unmarshal number into Go struct field wireError.message of type string"),
            ),
        ];
        for (raw, want) in cases {
            let got = WireError::unmarshal(raw.as_bytes());
            match (got, want) {
                (Ok(w), Ok((t, m))) => assert_eq!((w.typ.as_str(), w.message.as_str()), (*t, *m), "{}", raw),
                (Err(e), Err(m)) => assert_eq!(&e, m, "{}", raw),
                (got, _) => panic!("{}: got {:?}, want {:?}", raw, got, want),
            }
        }
    }

    #[test]
    fn fold_ignores_ascii_case_only() {
        assert!(fold_equal(b"type", "TYPE"));
        assert!(fold_equal(b"tYpE", "TYPE"));
        assert!(!fold_equal("me\u{17f}sage".as_bytes(), "MESSAGE"));
        assert!(!fold_equal(b"types", "TYPE"));
        assert!(!fold_equal(b"typ", "TYPE"));
        assert!(!fold_equal("typ\u{c9}".as_bytes(), "TYPE"));
        assert!(!fold_equal("t\u{131}pe".as_bytes(), "TYPE"));
        assert!(!fold_equal("request_\u{130}d".as_bytes(), "REQUEST_ID"));
    }

    #[test]
    fn classify_in_stream_errors() {
        let e = classify_body(Some(WireError {
            typ: "invalid_request_error".into(),
            message: "prompt is too long: 9 tokens".into(),
        }));
        assert_eq!(
            (e.kind, e.retryable, e.provider_type.as_str()),
            (ErrorKind::ContextOverflow, false, "invalid_request_error")
        );
        let e = classify_body(None);
        assert_eq!((e.kind, e.retryable, e.message.as_str()), (ErrorKind::Server, true, ""));
        let e = classify_body(Some(WireError { typ: "overloaded_error".into(), message: "busy".into() }));
        assert_eq!((e.kind, e.retryable), (ErrorKind::Overloaded, true));
    }

    #[test]
    fn event_members_repeat() {
        let e = Event::read(
            br#"{"type":"a","message":{"id":"x"},"message":{"model":"m"},"index":1,"index":null,"type":"b"}"#,
        )
        .unwrap();
        assert_eq!(
            (e.typ.string(), e.message_id.string(), e.message_model.string(), e.index),
            ("b".into(), "x".into(), "m".into(), 0)
        );
        assert!(e.has_message);
        let err = Event::read(br#"{"type":"ping","error":"x"}"#).unwrap_err();
        assert_eq!(err.to_string(), "json: cannot unmarshal string into Go value of type anthropic.wireError");
        assert!(Event::read(br#"{"index":1.5}"#).is_err());
    }

    #[test]
    fn block_null_is_empty_and_absent_is_an_error() {
        assert_eq!(Block::read(b"null").unwrap(), Block::default());
        assert!(Block::read(b"").is_err());
        let b = Block::read(br#"{"type":"tool_use","id":"t","name":"n","input":{}}"#).unwrap();
        assert_eq!((b.typ.as_str(), b.id.as_str(), b.name.as_str()), ("tool_use", "t", "n"));
    }
}
