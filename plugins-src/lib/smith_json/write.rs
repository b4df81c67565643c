//! write builds JSON texts (request bodies, tool output) with a
//! [`Writer`].
//!
//! The contract: given calls that nest properly (each begin matched by its
//! end, a key before each member value), what a Writer writes is valid,
//! compact JSON (no whitespace between tokens), and the same calls always
//! give the same bytes, which the vendors' prompt caches rely on. Object members come in
//! the order the caller writes them (the request builders write keys in
//! byte order); the Writer places the commas and checks nothing else.
//!
//! - Keys and strings are escaped by [`crate::read::append_quote`]: `"`,
//!   `\` and the control characters as RFC 8259 requires; it also escapes
//!   U+2028 and U+2029, and writes each byte that does not begin valid
//!   UTF-8 as `\ufffd`.
//! - Integers are written in decimal. A float is written in the shortest
//!   digits that read back as the same f64 (Rust's own formatting), in
//!   plain notation when 1e-6 <= |v| < 1e21 and in exponent notation
//!   (`1e21`, `2.5e-7`) otherwise; NaN and the infinities are an error.
//! - A raw JSON value must be one JSON text as [`crate::read::Decoder`]
//!   accepts it (RFC 8259, nested at most 10000 deep), else it is an error
//!   naming what is wrong and its offset. It is written compacted by
//!   [`crate::read::append_compact`]: its numbers and escape sequences
//!   spelt as they were, U+2028 and U+2029 in its strings escaped as
//!   append_quote escapes them, and (here) each invalid UTF-8 byte as
//!   `\ufffd`.
//! - A byte string is written as a string of its standard base64.
//!
//! ```ignore
//! let mut w = Writer::new();
//! w.begin_object();
//! w.key("input_schema");
//! w.raw(schema)?;
//! w.key("model");
//! w.string(model);
//! w.end_object();
//! let body: Vec<u8> = w.into_bytes();
//! ```

use crate::read::{self, Decoder};
use std::fmt;

/// Error is why a value was not written: it names what is wrong and, in a
/// raw value, the offset.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// NotFinite is a NaN or infinite float, which JSON cannot represent.
    NotFinite(f64),
    /// Raw is a raw value that is not one JSON text: the reader's syntax
    /// error, with the offset in the raw value.
    Raw(read::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotFinite(v) => write!(f, "the float {} has no JSON form", v),
            Error::Raw(e) => write!(f, "raw JSON value is not valid JSON: {}", e),
        }
    }
}

impl std::error::Error for Error {}

/// marshal_error_text is e's whole text, its Display, for a request
/// builder's error; src, the value e is about, is not needed.
pub fn marshal_error_text(_src: &[u8], e: &Error) -> String {
    e.to_string()
}

/// syntax_error_text is the text of e without the words saying that a raw
/// value failed ("invalid character 'x' at offset 3 after an object
/// member"), for a caller that says what src was; src is not needed.
pub fn syntax_error_text(_src: &[u8], e: &Error) -> String {
    match e {
        Error::Raw(e) => e.message().to_string(),
        Error::NotFinite(_) => e.to_string(),
    }
}

/// append_raw appends the raw JSON value raw, compacted, as the module
/// documentation says. raw must be exactly one JSON text (whitespace
/// around it allowed); otherwise it is an [`Error::Raw`] and nothing is
/// appended.
pub fn append_raw(dst: &mut Vec<u8>, raw: &[u8]) -> Result<(), Error> {
    check_raw(raw)?;
    append_checked_raw(dst, raw);
    Ok(())
}

/// check_raw returns the reader's syntax error for raw, if it is not
/// exactly one JSON text.
fn check_raw(raw: &[u8]) -> Result<(), Error> {
    let mut d = Decoder::new(raw);
    d.skip();
    d.finish().map_err(Error::Raw)
}

/// append_checked_raw appends raw, one JSON text, compacted, with each
/// invalid UTF-8 byte written as `\ufffd`.
fn append_checked_raw(dst: &mut Vec<u8>, raw: &[u8]) {
    let mark = dst.len();
    read::append_compact(dst, raw);
    if std::str::from_utf8(&dst[mark..]).is_ok() {
        return;
    }
    // Invalid UTF-8 can only be inside strings: JSON outside them is ASCII.
    let compact = dst.split_off(mark);
    let mut rest = compact.as_slice();
    while let Err(e) = std::str::from_utf8(rest) {
        let n = e.valid_up_to();
        dst.extend_from_slice(&rest[..n]);
        dst.extend_from_slice(b"\\ufffd");
        rest = &rest[n + 1..];
    }
    dst.extend_from_slice(rest);
}

/// append_base64 appends src in standard base64 with padding (RFC 4648
/// §4), the form [`Writer::bytes`] writes a byte string in.
pub fn append_base64(dst: &mut Vec<u8>, src: &[u8]) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    dst.reserve((src.len() + 2) / 3 * 4);
    for c in src.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..4 {
            dst.push(if k <= c.len() { ALPHABET[(n >> (18 - 6 * k) & 63) as usize] } else { b'=' });
        }
    }
}

/// append_int appends v in decimal.
pub fn append_int(dst: &mut Vec<u8>, v: i64) {
    if v < 0 {
        dst.push(b'-');
    }
    append_uint(dst, v.unsigned_abs());
}

/// append_uint appends v in decimal (without core::fmt, which the reader's
/// error messages avoid).
pub fn append_uint(dst: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    dst.extend_from_slice(&digits[at..]);
}

/// Writer builds one JSON text in a byte buffer and places the commas
/// between members and elements. The caller writes keys and values in the
/// order the text is to have them; nothing checks that a key precedes each
/// member value. A method that fails writes nothing.
#[derive(Debug, Default, Clone)]
pub struct Writer {
    buf: Vec<u8>,
    /// comma is set when the next key or value needs a comma before it.
    comma: bool,
}

impl Writer {
    /// new returns an empty writer.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// with_buffer returns an empty writer that writes into buf, reusing
    /// its capacity (its contents are discarded).
    pub fn with_buffer(mut buf: Vec<u8>) -> Writer {
        buf.clear();
        Writer { buf, comma: false }
    }

    /// as_bytes returns the text written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// into_bytes returns the text written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// value writes a comma if one is due, then the value's text by
    /// append, and makes a comma due.
    fn value(&mut self, append: impl FnOnce(&mut Vec<u8>)) {
        if self.comma {
            self.buf.push(b',');
        }
        append(&mut self.buf);
        self.comma = true;
    }

    /// begin_object starts an object: `{`.
    pub fn begin_object(&mut self) {
        self.value(|b| b.push(b'{'));
        self.comma = false;
    }

    /// end_object ends the innermost object: `}`.
    pub fn end_object(&mut self) {
        self.buf.push(b'}');
        self.comma = true;
    }

    /// begin_array starts an array: `[`.
    pub fn begin_array(&mut self) {
        self.value(|b| b.push(b'['));
        self.comma = false;
    }

    /// end_array ends the innermost array: `]`.
    pub fn end_array(&mut self) {
        self.buf.push(b']');
        self.comma = true;
    }

    /// key writes a member name, escaped as a string, and its colon; the
    /// member's value comes next.
    pub fn key<S: AsRef<[u8]> + ?Sized>(&mut self, name: &S) {
        self.value(|b| {
            read::append_quote(b, name.as_ref());
            b.push(b':');
        });
        self.comma = false;
    }

    /// string writes a string of these bytes, which need not be UTF-8.
    pub fn string<S: AsRef<[u8]> + ?Sized>(&mut self, s: &S) {
        self.value(|b| read::append_quote(b, s.as_ref()));
    }

    /// bytes writes a byte string: a string of its standard base64.
    pub fn bytes(&mut self, data: &[u8]) {
        self.value(|b| {
            b.push(b'"');
            append_base64(b, data);
            b.push(b'"');
        });
    }

    /// bool writes `true` or `false`.
    pub fn bool(&mut self, v: bool) {
        self.value(|b| b.extend_from_slice(if v { b"true" } else { b"false" }));
    }

    /// null writes `null`.
    pub fn null(&mut self) {
        self.value(|b| b.extend_from_slice(b"null"));
    }

    /// int writes v in decimal.
    pub fn int(&mut self, v: i64) {
        self.value(|b| append_int(b, v));
    }

    /// float64 writes v in its shortest round-trip digits (see the module
    /// documentation); NaN and ±Inf are an [`Error::NotFinite`].
    pub fn float64(&mut self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::NotFinite(v));
        }
        let text = if v == 0.0 || (1e-6..1e21).contains(&v.abs()) { format!("{}", v) } else { format!("{:e}", v) };
        self.value(|b| b.extend_from_slice(text.as_bytes()));
        Ok(())
    }

    /// raw writes the raw JSON value raw as [`append_raw`] does; one that
    /// is not a JSON text (empty included) is an [`Error::Raw`].
    pub fn raw(&mut self, raw: &[u8]) -> Result<(), Error> {
        check_raw(raw)?;
        self.value(|b| append_checked_raw(b, raw));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(w: Writer) -> String {
        String::from_utf8(w.into_bytes()).expect("the writer writes UTF-8")
    }

    #[test]
    fn structure() {
        let cases: &[(&str, fn(&mut Writer), &str)] = &[
            (
                "members in call order",
                |w| {
                    w.begin_object();
                    w.key("b");
                    w.begin_object();
                    w.end_object();
                    w.key("a");
                    w.begin_array();
                    w.end_array();
                    w.key("c");
                    w.null();
                    w.end_object();
                },
                r#"{"b":{},"a":[],"c":null}"#,
            ),
            (
                "scalars",
                |w| {
                    w.begin_array();
                    for v in [0, -7, i64::MAX, i64::MIN] {
                        w.int(v);
                    }
                    w.bool(true);
                    w.bool(false);
                    w.string("s");
                    w.bytes(b"ab");
                    w.end_array();
                },
                r#"[0,-7,9223372036854775807,-9223372036854775808,true,false,"s","YWI="]"#,
            ),
            (
                "failed calls write nothing",
                |w| {
                    w.begin_array();
                    w.int(1);
                    assert!(w.raw(b"{").is_err());
                    assert!(w.float64(f64::NAN).is_err());
                    w.int(2);
                    w.end_array();
                },
                "[1,2]",
            ),
        ];
        for (name, build, want) in cases {
            let mut w = Writer::with_buffer(b"stale".to_vec());
            build(&mut w);
            assert_eq!(text(w), *want, "{}", name);
        }
    }

    #[test]
    fn strings() {
        let cases: &[(&str, &[u8], &str)] = &[
            ("plain", b"hello, world", r#""hello, world""#),
            ("quote and backslash", b"a\"b\\c/d", r#""a\"b\\c/d""#),
            ("controls", b"\x08\x0c\n\r\t\x00\x1f", r#""\b\f\n\r\t\u0000\u001f""#),
            ("multibyte", "é 世界 🎉".as_bytes(), "\"é 世界 🎉\""),
            ("invalid UTF-8, one replacement a byte", b"a\xff\xe2\x82b", r#""a\ufffd\ufffd\ufffdb""#),
        ];
        for (name, s, want) in cases {
            let mut w = Writer::new();
            w.string(s);
            assert_eq!(text(w), *want, "{}", name);
        }
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64, &str)] = &[
            ("zero", 0.0, "0"),
            ("negative zero", -0.0, "-0"),
            ("integral", 3.0, "3"),
            ("fraction", 0.5, "0.5"),
            ("shortest round trip", 0.1 + 0.2, "0.30000000000000004"),
            ("smallest plain", 1e-6, "0.000001"),
            ("below plain", 1e-7, "1e-7"),
            ("largest plain", 1e20, "100000000000000000000"),
            ("above plain", -1.5e21, "-1.5e21"),
            ("largest", f64::MAX, "1.7976931348623157e308"),
            ("smallest subnormal", 5e-324, "5e-324"),
        ];
        for (name, v, want) in cases {
            let mut w = Writer::new();
            w.float64(*v).expect("finite");
            let got = text(w);
            assert_eq!(got, *want, "{}", name);
            assert_eq!(got.parse::<f64>().map(f64::to_bits), Ok(v.to_bits()), "{} reads back", name);
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                Writer::new().float64(v).map_err(|e| e.to_string()),
                Err(format!("the float {} has no JSON form", v))
            );
        }
    }

    #[test]
    fn raw_values() {
        let cases: &[(&str, &[u8], &[u8])] = &[
            ("whitespace removed", b" { \"a\" : [ 1 , true ] ,\n\t\"b\":{} }\r\n", br#"{"a":[1,true],"b":{}}"#),
            ("space in strings kept", b"\" a b \"", b"\" a b \""),
            ("numbers spelt as they were", b"[0,-1,1.0,1e5,1E-5,0.5e+0]", b"[0,-1,1.0,1e5,1E-5,0.5e+0]"),
            ("escapes kept", br#""\/\u00e9\"\\\n\uD800""#, br#""\/\u00e9\"\\\n\uD800""#),
            ("invalid UTF-8 replaced", b"{\"\xff\":\"a\xe2\x80\"}", br#"{"\ufffd":"a\ufffd\ufffd"}"#),
        ];
        for (name, raw, want) in cases {
            let mut w = Writer::new();
            w.raw(raw).expect(name);
            assert_eq!(w.as_bytes(), *want, "{}", name);
        }
    }

    #[test]
    fn raw_errors() {
        let nest = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
        let cases: &[(&str, Vec<u8>, &str)] = &[
            ("empty", b"".to_vec(), "the input ends at offset 0 looking for the beginning of a value"),
            ("trailing value", b"1 x".to_vec(), "invalid character 'x' at offset 2 after the top-level value"),
            ("leading zero", b"[01]".to_vec(), "invalid character '1' at offset 2 after an array element"),
            ("bad literal", b"tru".to_vec(), "the input ends at offset 3 in the literal true"),
            ("control in string", b"\"a\nb\"".to_vec(), "invalid character '\\n' at offset 2 in a string literal"),
            ("missing colon", b"{\"a\" 1}".to_vec(), "invalid character '1' at offset 5 after an object key"),
            ("unclosed", b"[".to_vec(), "the input ends at offset 1 looking for the beginning of a value"),
            ("too deep", nest(10001), "nesting at offset 10000 exceeds the limit of 10000 levels"),
        ];
        for (name, raw, want) in cases {
            let mut out = b"x".to_vec();
            let e = append_raw(&mut out, raw).expect_err(name);
            assert_eq!(out, b"x", "{}: nothing appended", name);
            assert!(syntax_error_text(raw, &e).starts_with(want), "{}: {}", name, e);
            assert_eq!(
                marshal_error_text(raw, &e),
                format!("raw JSON value is not valid JSON: {}", syntax_error_text(raw, &e))
            );
        }
        let mut out = Vec::new();
        assert_eq!(append_raw(&mut out, &nest(10000)), Ok(()), "10000 levels");
    }

    #[test]
    fn base64() {
        let cases: &[(&str, &[u8], &str)] = &[
            ("empty", b"", ""),
            ("one byte", b"f", "Zg=="),
            ("two bytes", b"fo", "Zm8="),
            ("three bytes", b"foo", "Zm9v"),
            ("high bits", b"\x00\x01\x02\x03\xfa\xff\xfe", "AAECA/r//g=="),
        ];
        for (name, src, want) in cases {
            let mut out = Vec::new();
            append_base64(&mut out, src);
            assert_eq!(String::from_utf8(out).expect("ASCII"), *want, "{}", name);
        }
    }
}
