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

use crate::jsonout::Writer;

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
        Value::Raw(raw) => w.raw(raw).map_err(|e| crate::jsonout::marshal_error_text(raw, &e))?,
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
            (b"[1", "unexpected end of JSON input"),
            (b"tru", "invalid character ' ' in literal true (expecting 'e')"),
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
