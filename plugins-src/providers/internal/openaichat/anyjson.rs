//! anyjson: the JSON values the OpenAI request builders marshal, held as
//! Go holds them before `json.Marshal` — `map[string]any`, `[]any`,
//! strings, bools, ints and `json.RawMessage` — and written byte for byte
//! as encoding/json writes them (through crate::jsonout): an object's
//! members sorted by the bytes of their keys, a nil slice `null`, a raw
//! value compacted and validated. A failed write returns Go's error text.
//!
//! It is a submodule of build.rs (`crate::openaichat_build::anyjson`),
//! shared with openairesp's builder. Keys and strings borrow the request
//! where they can, so building a body copies its text once, into the
//! output.

use crate::jsonout::{Error as OutError, Writer};

/// Value is one marshalled value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// Null is a nil slice, map or interface.
    Null,
    Bool(bool),
    Int(i64),
    /// Str is a Go string borrowed from the request; its bytes need not be
    /// UTF-8 (each invalid byte is written as `\ufffd`).
    Str(&'a [u8]),
    /// String is a Go string built by the builder.
    String(Vec<u8>),
    /// Raw is a json.RawMessage: compacted on output; empty is the nil
    /// RawMessage, `null` (a Rust Vec cannot tell nil from empty, and the
    /// request document yields nil for an absent or null value).
    Raw(&'a [u8]),
    Array(Vec<Value<'a>>),
    Object(Object<'a>),
}

/// Object is a `map[string]any`: setting a key again replaces its value,
/// and the members are kept sorted by key bytes, as Marshal writes them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object<'a> {
    members: Vec<(&'a str, Value<'a>)>,
}

impl<'a> Object<'a> {
    /// new returns an empty object.
    pub fn new() -> Object<'a> {
        Object { members: Vec::new() }
    }

    /// set sets key to v, replacing an earlier value of key.
    pub fn set(&mut self, key: &'a str, v: Value<'a>) {
        match self.members.binary_search_by(|(k, _)| k.as_bytes().cmp(key.as_bytes())) {
            Ok(i) => self.members[i].1 = v,
            Err(i) => self.members.insert(i, (key, v)),
        }
    }

    /// with is set for a literal: it returns the object.
    pub fn with(mut self, key: &'a str, v: Value<'a>) -> Object<'a> {
        self.set(key, v);
        self
    }

    /// len is the number of distinct keys (Go's len of the map).
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// is_empty reports whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
}

impl<'a> From<Object<'a>> for Value<'a> {
    fn from(o: Object<'a>) -> Value<'a> {
        Value::Object(o)
    }
}

/// str is a borrowed string value.
pub fn str(s: &str) -> Value<'_> {
    Value::Str(s.as_bytes())
}

/// marshal returns v as `json.Marshal` writes it, or Go's error text
/// (`json: error calling MarshalJSON for type json.RawMessage: …`) for
/// the first raw value, in output order, that is not one JSON value.
pub fn marshal(v: &Value<'_>) -> Result<Vec<u8>, String> {
    let mut w = Writer::new();
    write(&mut w, v)?;
    Ok(w.into_bytes())
}

fn write(w: &mut Writer, v: &Value<'_>) -> Result<(), String> {
    match v {
        Value::Null => w.null(),
        Value::Bool(b) => w.bool(*b),
        Value::Int(n) => w.int(*n),
        Value::Str(s) => w.string(s),
        Value::String(s) => w.string(s),
        Value::Raw(raw) if raw.is_empty() => w.null(),
        Value::Raw(raw) => w.raw(raw).map_err(|e| raw_error(raw, &e))?,
        Value::Array(items) => {
            w.begin_array();
            for item in items {
                write(w, item)?;
            }
            w.end_array();
        }
        Value::Object(o) => {
            w.begin_object();
            for (k, v) in &o.members {
                w.key(k);
                write(w, v)?;
            }
            w.end_object();
        }
    }
    Ok(())
}

/// raw_error is Marshal's error for a json.RawMessage holding raw that
/// jsonout refused with e: a MarshalerError around the scanner's
/// SyntaxError.
pub fn raw_error(raw: &[u8], e: &OutError) -> String {
    let mut s = String::from("json: error calling MarshalJSON for type json.RawMessage: ");
    s.push_str(&syntax_error(raw, e));
    s
}

/// syntax_error is the text of encoding/json's SyntaxError for the error
/// jsonout reported compacting raw.
pub fn syntax_error(raw: &[u8], e: &OutError) -> String {
    let (c, context) = match *e {
        // At the end of the input the scanner steps a space: inside a
        // literal, a number or an escape that is an invalid character.
        OutError::InvalidRaw { offset, byte, context } => {
            let c = match byte {
                Some(c) => c,
                None if context.starts_with("in literal")
                    || context.contains("numeric")
                    || context.contains("escape") =>
                {
                    b' '
                }
                None => return "unexpected end of JSON input".to_string(),
            };
            let context = match context {
                "in literal true" => expecting(raw, offset, "true"),
                "in literal false" => expecting(raw, offset, "false"),
                "in literal null" => expecting(raw, offset, "null"),
                _ => context.to_string(),
            };
            (c, context)
        }
        OutError::TooDeep { offset } => (raw.get(offset).copied().unwrap_or(b'['), "exceeded max depth".to_string()),
        OutError::UnsupportedFloat(_) => return e.to_string(),
    };
    let mut s = String::from("invalid character ");
    quote_char(&mut s, c);
    s.push(' ');
    s.push_str(&context);
    s
}

/// expecting is the scanner's context for a literal broken at offset:
/// "in literal true (expecting 'r')". The letters of the word before
/// offset tell how far it got (each prefix of true, false and null ends
/// in a different letter).
fn expecting(raw: &[u8], offset: usize, word: &str) -> String {
    let w = word.as_bytes();
    let k = (1..w.len()).find(|&k| offset >= k && raw.get(offset - k..offset) == Some(&w[..k])).unwrap_or(1);
    format!("in literal {} (expecting '{}')", word, w[k] as char)
}

/// quote_char writes c as encoding/json's quoteChar does: strconv.Quote
/// of the rune U+00XX between single quotes, `'\''` and `'"'` special.
fn quote_char(s: &mut String, c: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    s.push('\'');
    match c {
        b'\'' => s.push_str("\\'"),
        b'"' => s.push('"'),
        b'\\' => s.push_str("\\\\"),
        0x07 => s.push_str("\\a"),
        0x08 => s.push_str("\\b"),
        0x0c => s.push_str("\\f"),
        b'\n' => s.push_str("\\n"),
        b'\r' => s.push_str("\\r"),
        b'\t' => s.push_str("\\t"),
        0x0b => s.push_str("\\v"),
        0x20..=0x7e => s.push(c as char),
        // Latin-1 letters and symbols are printable; U+00A0 and the soft
        // hyphen U+00AD are not, nor the C1 controls.
        0xa1..=0xff if c != 0xad => s.push(c as char),
        0..=0x1f | 0x7f => {
            s.push_str("\\x");
            s.push(HEX[(c >> 4) as usize] as char);
            s.push(HEX[(c & 15) as usize] as char);
        }
        _ => {
            s.push_str("\\u00");
            s.push(HEX[(c >> 4) as usize] as char);
            s.push(HEX[(c & 15) as usize] as char);
        }
    }
    s.push('\'');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_sort_and_replace_as_go_maps() {
        let o = Object::new()
            .with("stream", Value::Bool(true))
            .with("model", str("m"))
            .with("max_tokens", Value::Int(3))
            .with("model", str("n"))
            .with("a", Value::Array(vec![Value::Null, Value::Raw(b" { \"x\" : [1, 2] } "), Value::Raw(b"")]));
        assert_eq!(o.len(), 4);
        let got = marshal(&o.into()).unwrap();
        assert_eq!(
            String::from_utf8(got).unwrap(),
            r#"{"a":[null,{"x":[1,2]},null],"max_tokens":3,"model":"n","stream":true}"#
        );
        let s = marshal(&Value::String(b"<\xff\xe2\x80\xa8>".to_vec())).unwrap();
        assert_eq!(String::from_utf8(s).unwrap(), r#""\u003c\ufffd\u2028\u003e""#);
    }

    // The expected texts are json.Marshal's (Go 1.26) for a
    // json.RawMessage holding the input.
    #[test]
    fn raw_errors_are_gos() {
        let prefix = "json: error calling MarshalJSON for type json.RawMessage: ";
        let cases: &[(&[u8], &str)] = &[
            (b"{\"type\":}", "invalid character '}' looking for beginning of value"),
            (b"1 2", "invalid character '2' after top-level value"),
            (b"[1", "unexpected end of JSON input"),
            (b"tru", "invalid character ' ' in literal true (expecting 'e')"),
            (b"trUe", "invalid character 'U' in literal true (expecting 'u')"),
            (b"[nul ]", "invalid character ' ' in literal null (expecting 'l')"),
            (b"fx", "invalid character 'x' in literal false (expecting 'a')"),
            (b"{'a':1}", "invalid character '\\'' looking for beginning of object key string"),
            (b"[\"\x01\"]", "invalid character '\\x01' in string literal"),
            (b"\xe9", "invalid character '\u{e9}' looking for beginning of value"),
            (b"\xa0", "invalid character '\\u00a0' looking for beginning of value"),
            (b"{\"a\" 1}", "invalid character '1' after object key"),
            (b"{\"a\":1 \"b\"}", "invalid character '\"' after object key:value pair"),
            (b"[1 2]", "invalid character '2' after array element"),
            (b"-x", "invalid character 'x' in numeric literal"),
            (b"1.e", "invalid character 'e' after decimal point in numeric literal"),
            (b"1e+", "invalid character ' ' in exponent of numeric literal"),
            (b"-", "invalid character ' ' in numeric literal"),
            (b"[\"\\u1", "invalid character ' ' in \\u hexadecimal character escape"),
            (b"[\"\\", "invalid character ' ' in string escape code"),
            (b"[\"abc", "unexpected end of JSON input"),
            (b"{\"a\"", "unexpected end of JSON input"),
            (b"\xad", "invalid character '\\u00ad' looking for beginning of value"),
            (b"\x80", "invalid character '\\u0080' looking for beginning of value"),
            (b"\\", "invalid character '\\\\' looking for beginning of value"),
            (b"\x7f", "invalid character '\\x7f' looking for beginning of value"),
            (b"\"\\x\"", "invalid character 'x' in string escape code"),
            (b"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"),
        ];
        for (raw, want) in cases {
            let got = marshal(&Value::Raw(raw)).unwrap_err();
            assert_eq!(got, format!("{}{}", prefix, want), "raw {:?}", String::from_utf8_lossy(raw));
        }
        let deep = [vec![b'['; 10001], vec![b']'; 10001]].concat();
        assert_eq!(
            marshal(&Value::Raw(&deep)).unwrap_err(),
            format!("{}invalid character '[' exceeded max depth", prefix)
        );
    }
}
