//! anyjson holds the JSON values the OpenAI request builders (Chat
//! Completions and Responses) marshal: objects, arrays, strings, bools,
//! ints and raw JSON, written through smith_json::write with an object's
//! members sorted by the bytes of their keys, a null for an absent value,
//! and a raw value compacted and validated. A raw value that is not one
//! JSON value fails the write with the text [`marshal`] documents.
//!
//! Keys and strings borrow the request where they can, so building a body
//! copies its text once, into the output.

use smith_json::write::Writer;

/// Value is one marshalled value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// Null is an absent value.
    Null,
    Bool(bool),
    Int(i64),
    /// Str is a string borrowed from the request; its bytes need not be
    /// UTF-8 (each invalid byte is written as `\ufffd`).
    Str(&'a [u8]),
    /// String is a string built by the builder (bytes, as Str).
    String(Vec<u8>),
    /// Raw is raw JSON, compacted on output; empty is written as `null`
    /// (the request document yields empty for an absent or null value).
    Raw(&'a [u8]),
    Array(Vec<Value<'a>>),
    Object(Object<'a>),
}

/// Object is a JSON object: setting a key again replaces its value, and
/// the members are kept sorted by key bytes, the order they are written in.
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

    /// len is the number of distinct keys.
    pub fn len(&self) -> usize {
        self.members.len()
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

/// marshal returns v as JSON, or, for the first raw value in output order
/// that is not one JSON value, the error text
/// `raw JSON value is not valid JSON: …`
/// ([`smith_json::write::marshal_error_text`]).
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
        Value::Raw(raw) => w.raw(raw).map_err(|e| smith_json::write::marshal_error_text(raw, &e))?,
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
    fn objects_sort_and_replace_keys() {
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
        assert_eq!(String::from_utf8(s).unwrap(), r#""<\ufffd\u2028>""#);
    }

    #[test]
    fn raw_errors_name_the_invalid_json() {
        let prefix = "raw JSON value is not valid JSON: ";
        let cases: &[(&[u8], &str)] = &[
            (b"{\"type\":}", "invalid character '}' at offset 8 looking for the beginning of a value"),
            (b"[1", "the input ends at offset 2 inside an unclosed object or array; the JSON text is incomplete"),
            (b"tru", "the input ends at offset 3 in the literal true; the JSON text is incomplete"),
        ];
        for (raw, want) in cases {
            let got = marshal(&Value::Raw(raw)).unwrap_err();
            assert_eq!(got, format!("{}{}", prefix, want), "raw {:?}", String::from_utf8_lossy(raw));
        }
        let deep = [vec![b'['; 10001], vec![b']'; 10001]].concat();
        assert_eq!(
            marshal(&Value::Raw(&deep)).unwrap_err(),
            format!("{}nesting at offset 10000 exceeds the limit of 10000 levels", prefix)
        );
    }
}
