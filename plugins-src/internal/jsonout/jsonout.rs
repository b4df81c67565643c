//! JSON output that is byte for byte what Go's `encoding/json.Marshal`
//! writes, for the value shapes the provider codecs marshal: objects
//! (structs with their fields in order, maps with their keys sorted),
//! arrays, strings, bools, integers, float64 and `json.RawMessage`.
//!
//! A request builder drives a [`Writer`] the way `Marshal` walks a value:
//! for a struct it writes the fields in declaration order and leaves out an
//! `omitempty` field itself (`false`, `0`, `""`, a nil or empty slice, map
//! or RawMessage, a nil pointer or interface); for a `map[string]…` it
//! writes the keys in byte order, or hands the entries to [`Writer::map`],
//! which sorts them. A nil slice or map is `null`, an empty one `[]`/`{}`.
//!
//! ```ignore
//! let mut w = Writer::new();
//! w.begin_object();
//! w.key("model");
//! w.string(model);
//! w.key("input_schema");
//! w.raw(schema)?; // compacted and validated, as Marshal does
//! w.key("max_tokens");
//! w.int(4096);
//! w.end_object();
//! let body: Vec<u8> = w.into_bytes();
//! ```
//!
//! Strings are escaped as `encoding/json` escapes them with HTML escaping
//! on (its default): `"` `\` and `\b \f \n \r \t` with a backslash, other
//! control bytes, `<`, `>` and `&` as `\u00XX`, U+2028 and U+2029 as
//! `\u2028`/`\u2029`, and each byte that does not start a valid UTF-8
//! sequence as `\ufffd` — by the JSON reader's writer,
//! `crate::jsonscan::append_quote`, so a crate root includes
//! plugins-src/internal/jsonscan/jsonscan.rs as `crate::jsonscan` beside
//! this module. Floats use the shortest digits that round-trip
//! (of two as near, the even one), in plain notation unless the magnitude
//! is below 1e-6 or at least 1e21.
//! NaN and the infinities, and a raw value that is not exactly one valid
//! JSON value, are errors, as they are for `Marshal`.

use std::fmt;

/// MAX_DEPTH is encoding/json's nesting limit for a raw value: arrays and
/// objects nested deeper are a syntax error.
const MAX_DEPTH: usize = 10000;

/// Error is why a value has no JSON form; `Marshal` fails on the same
/// values.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// UnsupportedFloat is NaN or an infinity (encoding/json's
    /// UnsupportedValueError).
    UnsupportedFloat(f64),
    /// InvalidRaw is a raw value that is not one valid JSON value
    /// (encoding/json's MarshalerError around a SyntaxError): the offset of
    /// the offending byte in the raw value, the byte (None at the end of
    /// the input) and what the reader was looking at.
    InvalidRaw { offset: usize, byte: Option<u8>, context: &'static str },
    /// TooDeep is a raw value nested deeper than encoding/json's 10000
    /// levels; offset is that of the bracket that went too deep.
    TooDeep { offset: usize },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnsupportedFloat(v) => write!(
                f,
                "jsonout: float64 {} has no JSON form (encoding/json refuses NaN and ±Inf); send a finite number or leave the field out",
                if v.is_nan() { "NaN" } else if *v > 0.0 { "+Inf" } else { "-Inf" }
            ),
            Error::InvalidRaw { offset, byte: None, context } => write!(
                f,
                "jsonout: raw JSON value ends early at byte {} ({}); pass one complete JSON value",
                offset, context
            ),
            Error::InvalidRaw { offset, byte: Some(b), context } => {
                write!(f, "jsonout: raw JSON value has invalid character ")?;
                if b.is_ascii_graphic() || *b == b' ' {
                    write!(f, "'{}'", *b as char)?;
                } else {
                    write!(f, "0x{:02x}", b)?;
                }
                write!(f, " at byte {} {}; pass one valid JSON value", offset, context)
            }
            Error::TooDeep { offset } => write!(
                f,
                "jsonout: raw JSON value nests deeper than {} levels at byte {}; flatten it (encoding/json refuses it too)",
                MAX_DEPTH, offset
            ),
        }
    }
}

impl std::error::Error for Error {}

/// BASE64 is the standard base64 alphabet (Go's base64.StdEncoding).
const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// append_base64 appends src in standard base64 with padding, the text
/// Marshal writes for a []byte (and base64.StdEncoding.EncodeToString's).
pub fn append_base64(dst: &mut Vec<u8>, src: &[u8]) {
    dst.reserve((src.len() + 2) / 3 * 4);
    let mut chunks = src.chunks_exact(3);
    for c in &mut chunks {
        let n = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
        dst.extend_from_slice(&[
            BASE64[(n >> 18 & 63) as usize],
            BASE64[(n >> 12 & 63) as usize],
            BASE64[(n >> 6 & 63) as usize],
            BASE64[(n & 63) as usize],
        ]);
    }
    match *chunks.remainder() {
        [a] => dst.extend_from_slice(&[BASE64[(a >> 2) as usize], BASE64[((a & 3) << 4) as usize], b'=', b'=']),
        [a, b] => dst.extend_from_slice(&[
            BASE64[(a >> 2) as usize],
            BASE64[((a & 3) << 4 | b >> 4) as usize],
            BASE64[((b & 15) << 2) as usize],
            b'=',
        ]),
        _ => {}
    }
}

/// marshal_error_text is the text of the error Go's `json.Marshal` returns
/// for a value in which this module refused e: for a `json.RawMessage`
/// holding src (the raw value e came from), the MarshalerError around the
/// scanner's SyntaxError ("json: error calling MarshalJSON for type
/// json.RawMessage: invalid character …"); for a float, the
/// UnsupportedValueError ("json: unsupported value: NaN"). A request
/// builder wraps it as Go's builder wraps Marshal's error.
pub fn marshal_error_text(src: &[u8], e: &Error) -> String {
    let mut s = String::new();
    if !matches!(e, Error::UnsupportedFloat(_)) {
        s.push_str("json: error calling MarshalJSON for type json.RawMessage: ");
    }
    push_go_text(&mut s, src, e);
    s
}

/// syntax_error_text is the text of encoding/json's SyntaxError for the
/// raw value src that append_raw (or Writer::raw) refused with e, as
/// json.Unmarshal reports it for the same bytes. At the end of the input
/// the scanner steps over a space, so a cut literal, number or escape is
/// "invalid character ' ' …" and anything else "unexpected end of JSON
/// input". An UnsupportedFloat, which no raw value causes, gives the
/// UnsupportedValueError text.
pub fn syntax_error_text(src: &[u8], e: &Error) -> String {
    let mut s = String::new();
    push_go_text(&mut s, src, e);
    s
}

/// push_go_text appends encoding/json's text for e (see syntax_error_text).
fn push_go_text(s: &mut String, src: &[u8], e: &Error) {
    let (c, context) = match *e {
        Error::UnsupportedFloat(v) => {
            s.push_str("json: unsupported value: ");
            s.push_str(if v.is_nan() { "NaN" } else if v > 0.0 { "+Inf" } else { "-Inf" });
            return;
        }
        Error::TooDeep { offset } => (src.get(offset).copied().unwrap_or(b'['), "exceeded max depth"),
        Error::InvalidRaw { offset: _, byte: Some(c), context } => (c, context),
        Error::InvalidRaw { offset: _, byte: None, context } => {
            let in_token = context.starts_with("in literal ")
                || context.ends_with("numeric literal")
                || context.ends_with("escape code")
                || context.ends_with("character escape");
            if !in_token {
                s.push_str("unexpected end of JSON input");
                return;
            }
            (b' ', context)
        }
    };
    s.push_str("invalid character ");
    push_quote_char(s, c);
    s.push(' ');
    s.push_str(context);
    if let (Error::InvalidRaw { offset, .. }, Some(word)) = (e, context.strip_prefix("in literal ")) {
        // The scanner names the letter the literal needed at offset; the
        // bytes before it are the part of the word matched so far (each
        // prefix of true, false and null ends in a different letter).
        let word = word.as_bytes();
        let k = (1..word.len()).rev().find(|&k| *offset >= k && src.get(offset - k..*offset) == Some(&word[..k])).unwrap_or(0);
        s.push_str(" (expecting '");
        s.push(word[k] as char);
        s.push_str("')");
    }
}

/// push_quote_char appends c as encoding/json's quoteChar writes it:
/// strconv.Quote of the rune U+00XX between single quotes, with `'\''`
/// and `'"'` as they are.
fn push_quote_char(s: &mut String, c: u8) {
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
        _ => {
            s.push_str(if c < 0x80 { "\\x" } else { "\\u00" });
            s.push(HEX[(c >> 4) as usize] as char);
            s.push(HEX[(c & 15) as usize] as char);
        }
    }
    s.push('\'');
}

/// Writer builds one JSON text in a byte buffer and places the commas
/// between members and elements. The caller writes keys and values in the
/// order Marshal would; nothing checks that a key precedes each member
/// value. A method that fails leaves the text as it was before the call.
/// The zero value ([`Writer::new`], `Default`) is an empty writer.
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

    fn separate(&mut self) {
        if self.comma {
            self.buf.push(b',');
        }
    }

    /// begin_object starts an object: `{`.
    pub fn begin_object(&mut self) {
        self.separate();
        self.buf.push(b'{');
        self.comma = false;
    }

    /// end_object ends the innermost object: `}`.
    pub fn end_object(&mut self) {
        self.buf.push(b'}');
        self.comma = true;
    }

    /// begin_array starts an array: `[`.
    pub fn begin_array(&mut self) {
        self.separate();
        self.buf.push(b'[');
        self.comma = false;
    }

    /// end_array ends the innermost array: `]`.
    pub fn end_array(&mut self) {
        self.buf.push(b']');
        self.comma = true;
    }

    /// key writes a member name (escaped as a string) and its colon; the
    /// member's value comes next.
    pub fn key<S: AsRef<[u8]> + ?Sized>(&mut self, name: &S) {
        self.separate();
        crate::jsonscan::append_quote(&mut self.buf, name.as_ref());
        self.buf.push(b':');
        self.comma = false;
    }

    /// string writes a string value: a Go string of these bytes, which need
    /// not be UTF-8.
    pub fn string<S: AsRef<[u8]> + ?Sized>(&mut self, s: &S) {
        self.separate();
        crate::jsonscan::append_quote(&mut self.buf, s.as_ref());
        self.comma = true;
    }

    /// bytes writes a Go []byte as Marshal writes a non-nil one: a string
    /// of its standard base64 with padding (a nil slice is [`Writer::null`]).
    pub fn bytes(&mut self, b: &[u8]) {
        self.separate();
        self.buf.reserve((b.len() + 2) / 3 * 4 + 2);
        self.buf.push(b'"');
        append_base64(&mut self.buf, b);
        self.buf.push(b'"');
        self.comma = true;
    }

    /// bool writes `true` or `false`.
    pub fn bool(&mut self, v: bool) {
        self.separate();
        self.buf.extend_from_slice(if v { b"true" } else { b"false" });
        self.comma = true;
    }

    /// null writes `null`: a nil slice, map, pointer, interface or
    /// RawMessage.
    pub fn null(&mut self) {
        self.separate();
        self.buf.extend_from_slice(b"null");
        self.comma = true;
    }

    /// int writes a signed integer (Go's int, int64 and smaller).
    pub fn int(&mut self, v: i64) {
        self.separate();
        append_int(&mut self.buf, v);
        self.comma = true;
    }

    /// uint writes an unsigned integer (Go's uint, uint64 and smaller).
    pub fn uint(&mut self, v: u64) {
        self.separate();
        append_uint(&mut self.buf, v);
        self.comma = true;
    }

    /// float64 writes a float64 as Marshal does; NaN and ±Inf are an
    /// error and write nothing.
    pub fn float64(&mut self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::UnsupportedFloat(v));
        }
        self.separate();
        append_float64(&mut self.buf, v)?;
        self.comma = true;
        Ok(())
    }

    /// raw writes a json.RawMessage holding raw: compacted and HTML-escaped
    /// as Marshal does. An empty or invalid raw is an error and writes
    /// nothing; a nil RawMessage is [`Writer::null`].
    pub fn raw(&mut self, raw: &[u8]) -> Result<(), Error> {
        let mark = self.buf.len();
        self.separate();
        if let Err(e) = append_raw(&mut self.buf, raw) {
            self.buf.truncate(mark);
            return Err(e);
        }
        self.comma = true;
        Ok(())
    }

    /// map writes entries as Marshal writes a Go map with string keys: an
    /// object with its members sorted by the bytes of their keys (entries
    /// is sorted in place), each value written by value. The keys should be
    /// distinct, as a map's are. An error from value is returned as is; the
    /// text is then left as it was before the call.
    pub fn map<K, V, F>(&mut self, entries: &mut [(K, V)], mut value: F) -> Result<(), Error>
    where
        K: AsRef<[u8]>,
        F: FnMut(&mut Writer, &V) -> Result<(), Error>,
    {
        let (mark, comma) = (self.buf.len(), self.comma);
        entries.sort_unstable_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
        self.begin_object();
        for (k, v) in entries.iter() {
            self.key(k);
            if let Err(e) = value(self, v) {
                self.buf.truncate(mark);
                self.comma = comma;
                return Err(e);
            }
        }
        self.end_object();
        Ok(())
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// append_int appends v in decimal.
pub fn append_int(dst: &mut Vec<u8>, v: i64) {
    if v < 0 {
        dst.push(b'-');
    }
    append_uint(dst, v.unsigned_abs());
}

/// append_uint appends v in decimal.
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

/// append_float64 appends v as encoding/json writes a float64: the
/// shortest decimal that reads back as v (of two equally short and equally
/// near, the one with an even last digit), in plain notation, or in
/// exponent notation (`1e-7`, `1.5e+21`) when |v| is below 1e-6 or at
/// least 1e21. NaN and ±Inf are an error and append nothing.
pub fn append_float64(dst: &mut Vec<u8>, v: f64) -> Result<(), Error> {
    if !v.is_finite() {
        return Err(Error::UnsupportedFloat(v));
    }
    if v.is_sign_negative() {
        dst.push(b'-');
    }
    let abs = v.abs();
    if abs == 0.0 {
        dst.push(b'0');
        return Ok(());
    }
    let (mut digits, mut n, exp) = shortest(abs);
    // Rust rounds an exact tie between two shortest candidates up, Go's
    // strconv to the even digit.
    if (digits[n - 1] - b'0') % 2 == 1 && tie(abs, &digits[..n], exp) {
        digits[n - 1] -= 1;
        while n > 1 && digits[n - 1] == b'0' {
            n -= 1;
        }
    }
    let digits = &digits[..n];
    if (1e-6..1e21).contains(&abs) {
        if exp < 0 {
            dst.extend_from_slice(b"0.");
            dst.resize(dst.len() + (-exp - 1) as usize, b'0');
            dst.extend_from_slice(digits);
        } else {
            let int = exp as usize + 1;
            if n <= int {
                dst.extend_from_slice(digits);
                dst.resize(dst.len() + int - n, b'0');
            } else {
                dst.extend_from_slice(&digits[..int]);
                dst.push(b'.');
                dst.extend_from_slice(&digits[int..]);
            }
        }
    } else {
        // strconv's 'e' format, which encoding/json trims from e-07 to
        // e-7: a signed exponent without leading zeros.
        dst.push(digits[0]);
        if n > 1 {
            dst.push(b'.');
            dst.extend_from_slice(&digits[1..]);
        }
        dst.extend_from_slice(if exp < 0 { b"e-" } else { b"e+" });
        append_uint(dst, exp.unsigned_abs() as u64);
    }
    Ok(())
}

/// Digits is a fixed buffer for a float's text, filled through fmt::Write.
struct Digits {
    buf: [u8; 32],
    len: usize,
}

impl fmt::Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// shortest returns the shortest round-trip decimal digits of a positive
/// finite v (at most 17, no trailing zeros), how many there are, and the
/// decimal exponent of the first: v ≈ d.ddd × 10^exp. They come from
/// Rust's LowerExp, which writes the shortest digits nearest to v.
fn shortest(v: f64) -> ([u8; 17], usize, i32) {
    let mut text = Digits { buf: [0; 32], len: 0 };
    // "d.ddde-x" is at most 24 bytes: the write cannot fail.
    let _ = fmt::write(&mut text, format_args!("{:e}", v));
    let text = &text.buf[..text.len];
    let (mut digits, mut n) = ([b'0'; 17], 0);
    let mut i = 0;
    while i < text.len() && text[i] != b'e' {
        if text[i] != b'.' && n < digits.len() {
            digits[n] = text[i];
            n += 1;
        }
        i += 1;
    }
    let (negative, mut exp) = (text.get(i + 1) == Some(&b'-'), 0i32);
    for &c in &text[(i + 1).min(text.len())..] {
        if c.is_ascii_digit() {
            exp = exp * 10 + (c - b'0') as i32;
        }
    }
    (digits, n.max(1), if negative { -exp } else { exp })
}

/// tie reports whether v lies exactly halfway between digits (n digits,
/// the first at 10^exp) and the same digits with the last one lowered by
/// one, and that lower candidate also reads back as v: then Go writes the
/// lower, even one.
fn tie(v: f64, digits: &[u8], exp: i32) -> bool {
    // The midpoint is t × 10^k, t = the lower digits followed by a 5.
    let mut t: u64 = 0;
    for &d in digits {
        t = t * 10 + (d - b'0') as u64;
    }
    let t = (t - 1) * 10 + 5;
    let k = exp - digits.len() as i32;
    // v = m × 2^p with m odd. t is odd, so v = t × 2^k × 5^k only when
    // p == k and m × 5^-k == t (k < 0) or m == t × 5^k (k >= 0).
    let bits = v.to_bits();
    let (field, fraction) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
    let (mut m, mut p) = if field == 0 { (fraction, -1074) } else { (fraction | 1 << 52, field - 1075) };
    let zeros = m.trailing_zeros();
    m >>= zeros;
    p += zeros as i32;
    if p != k {
        return false;
    }
    let times5 = |mut x: u128, count: i32| {
        for _ in 0..count {
            x = x.checked_mul(5)?;
        }
        Some(x)
    };
    let equal = if k < 0 { times5(m as u128, -k) == Some(t as u128) } else { times5(t as u128, k) == Some(m as u128) };
    if !equal {
        return false;
    }
    // The lower candidate must itself read back as v (it may not, next to
    // a power of two, where the interval below v is half as wide).
    let mut text = Digits { buf: [0; 32], len: 0 };
    let lower = t / 10;
    let _ = fmt::write(&mut text, format_args!("{}e{}", lower, k + 1));
    std::str::from_utf8(&text.buf[..text.len]).ok().and_then(|s| s.parse::<f64>().ok()) == Some(v)
}

/// append_raw appends raw as Marshal writes a json.RawMessage holding it:
/// without the whitespace between tokens, with `<`, `>`, `&`, U+2028 and
/// U+2029 in its strings escaped, and everything else (escape sequences,
/// number spellings, bytes that are not UTF-8) as it is. raw must be
/// exactly one JSON value with optional whitespace around it, nested at
/// most 10000 deep; otherwise it is an error and nothing is appended.
pub fn append_raw(dst: &mut Vec<u8>, raw: &[u8]) -> Result<(), Error> {
    let mark = dst.len();
    dst.reserve(raw.len());
    let r = compact(dst, raw);
    if r.is_err() {
        dst.truncate(mark);
    }
    r
}

/// State is what the compactor expects next.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Value,
    ValueOrEnd, // after `[`
    Key,
    KeyOrEnd, // after `{`
    AfterValue,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

fn invalid(src: &[u8], i: usize, context: &'static str) -> Error {
    Error::InvalidRaw { offset: i, byte: src.get(i).copied(), context }
}

fn compact(dst: &mut Vec<u8>, src: &[u8]) -> Result<(), Error> {
    // kinds holds one bit per open bracket, set for an object: enough for
    // MAX_DEPTH levels without allocating.
    let mut kinds = [0u64; (MAX_DEPTH + 63) / 64];
    let mut depth = 0usize;
    let mut state = State::Value;
    let mut i = 0;
    loop {
        while i < src.len() && is_space(src[i]) {
            i += 1;
        }
        match state {
            State::Value | State::ValueOrEnd => {
                let c = match src.get(i) {
                    Some(&c) => c,
                    None => return Err(invalid(src, i, "looking for beginning of value")),
                };
                if c == b']' && state == State::ValueOrEnd {
                    depth -= 1;
                    dst.push(c);
                    i += 1;
                    state = State::AfterValue;
                    continue;
                }
                match c {
                    b'{' | b'[' => {
                        if depth == MAX_DEPTH {
                            return Err(Error::TooDeep { offset: i });
                        }
                        let bit = 1u64 << (depth % 64);
                        if c == b'{' {
                            kinds[depth / 64] |= bit;
                            state = State::KeyOrEnd;
                        } else {
                            kinds[depth / 64] &= !bit;
                            state = State::ValueOrEnd;
                        }
                        depth += 1;
                        dst.push(c);
                        i += 1;
                    }
                    b'"' => {
                        i = string(dst, src, i)?;
                        state = State::AfterValue;
                    }
                    b'-' | b'0'..=b'9' => {
                        i = number(dst, src, i)?;
                        state = State::AfterValue;
                    }
                    b't' => {
                        i = literal(dst, src, i, b"true", "in literal true")?;
                        state = State::AfterValue;
                    }
                    b'f' => {
                        i = literal(dst, src, i, b"false", "in literal false")?;
                        state = State::AfterValue;
                    }
                    b'n' => {
                        i = literal(dst, src, i, b"null", "in literal null")?;
                        state = State::AfterValue;
                    }
                    _ => return Err(invalid(src, i, "looking for beginning of value")),
                }
            }
            State::Key | State::KeyOrEnd => {
                match src.get(i) {
                    Some(b'}') if state == State::KeyOrEnd => {
                        depth -= 1;
                        dst.push(b'}');
                        i += 1;
                        state = State::AfterValue;
                        continue;
                    }
                    Some(b'"') => i = string(dst, src, i)?,
                    _ => return Err(invalid(src, i, "looking for beginning of object key string")),
                }
                while i < src.len() && is_space(src[i]) {
                    i += 1;
                }
                if src.get(i) != Some(&b':') {
                    return Err(invalid(src, i, "after object key"));
                }
                dst.push(b':');
                i += 1;
                state = State::Value;
            }
            State::AfterValue => {
                if depth == 0 {
                    if i < src.len() {
                        return Err(invalid(src, i, "after top-level value"));
                    }
                    return Ok(());
                }
                let object = kinds[(depth - 1) / 64] & (1u64 << ((depth - 1) % 64)) != 0;
                match (src.get(i), object) {
                    (Some(b','), true) => state = State::Key,
                    (Some(b','), false) => state = State::Value,
                    (Some(b'}'), true) | (Some(b']'), false) => depth -= 1,
                    (_, true) => return Err(invalid(src, i, "after object key:value pair")),
                    (_, false) => return Err(invalid(src, i, "after array element")),
                }
                dst.push(src[i]);
                i += 1;
            }
        }
    }
}

/// string copies the string starting at src[i] (a `"`), escaping `<`, `>`,
/// `&`, U+2028 and U+2029, and returns the offset after it.
fn string(dst: &mut Vec<u8>, src: &[u8], mut i: usize) -> Result<usize, Error> {
    let mut start = i;
    i += 1;
    loop {
        let c = match src.get(i) {
            Some(&c) => c,
            None => return Err(invalid(src, i, "in string literal")),
        };
        match c {
            b'"' => {
                dst.extend_from_slice(&src[start..=i]);
                return Ok(i + 1);
            }
            b'\\' => {
                match src.get(i + 1) {
                    Some(b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"') => i += 2,
                    Some(b'u') => {
                        for k in i + 2..i + 6 {
                            if !src.get(k).map_or(false, u8::is_ascii_hexdigit) {
                                return Err(invalid(src, k, "in \\u hexadecimal character escape"));
                            }
                        }
                        i += 6;
                    }
                    _ => return Err(invalid(src, i + 1, "in string escape code")),
                }
                continue;
            }
            b'<' | b'>' | b'&' => {
                dst.extend_from_slice(&src[start..i]);
                dst.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 0xf) as usize]]);
                i += 1;
                start = i;
            }
            0xe2 if src.get(i + 1) == Some(&0x80) && src.get(i + 2).map_or(false, |&d| d & !1 == 0xa8) => {
                dst.extend_from_slice(&src[start..i]);
                dst.extend_from_slice(&[b'\\', b'u', b'2', b'0', b'2', HEX[(src[i + 2] & 0xf) as usize]]);
                i += 3;
                start = i;
            }
            _ if c < 0x20 => return Err(invalid(src, i, "in string literal")),
            _ => i += 1,
        }
    }
}

/// number copies the number starting at src[i] (`-` or a digit) and
/// returns the offset after it.
fn number(dst: &mut Vec<u8>, src: &[u8], start: usize) -> Result<usize, Error> {
    let digit = |i: usize| src.get(i).map_or(false, u8::is_ascii_digit);
    let digits = |mut i: usize| {
        while digit(i) {
            i += 1;
        }
        i
    };
    let mut i = start;
    if src[i] == b'-' {
        i += 1;
    }
    match src.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i + 1),
        _ => return Err(invalid(src, i, "in numeric literal")),
    }
    if src.get(i) == Some(&b'.') {
        if !digit(i + 1) {
            return Err(invalid(src, i + 1, "after decimal point in numeric literal"));
        }
        i = digits(i + 1);
    }
    if matches!(src.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(src.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digit(i) {
            return Err(invalid(src, i, "in exponent of numeric literal"));
        }
        i = digits(i);
    }
    dst.extend_from_slice(&src[start..i]);
    Ok(i)
}

/// literal copies word (true, false or null), which src[i..] must start
/// with, and returns the offset after it.
fn literal(
    dst: &mut Vec<u8>,
    src: &[u8],
    i: usize,
    word: &'static [u8],
    context: &'static str,
) -> Result<usize, Error> {
    for (k, &w) in word.iter().enumerate() {
        if src.get(i + k) != Some(&w) {
            return Err(invalid(src, i + k, context));
        }
    }
    dst.extend_from_slice(word);
    Ok(i + word.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote(s: &[u8]) -> String {
        let mut out = Vec::new();
        crate::jsonscan::append_quote(&mut out, s);
        String::from_utf8(out).expect("append_quote writes UTF-8")
    }

    fn float(v: f64) -> String {
        let mut out = Vec::new();
        append_float64(&mut out, v).expect("finite");
        String::from_utf8(out).expect("ASCII")
    }

    fn raw(s: &[u8]) -> Result<Vec<u8>, Error> {
        let mut out = b"prefix".to_vec();
        let r = append_raw(&mut out, s);
        match r {
            Ok(()) => Ok(out[6..].to_vec()),
            Err(e) => {
                assert_eq!(out, b"prefix", "a failed append_raw must leave dst as it was");
                Err(e)
            }
        }
    }

    // The expected texts below are json.Marshal's output (Go 1.26).
    #[test]
    fn strings() {
        let cases: &[(&str, &[u8], &str)] = &[
            ("empty", b"", r#""""#),
            ("plain", b"hello, world", r#""hello, world""#),
            ("quote and backslash", b"a\"b\\c/d", r#""a\"b\\c/d""#),
            ("short escapes", b"\x08\x0c\n\r\t", r#""\b\f\n\r\t""#),
            ("other controls", b"\x00\x01\x1f\x0b", r#""\u0000\u0001\u001f\u000b""#),
            ("del is not escaped", b"\x7f", "\"\x7f\""),
            ("html", b"<a href='x'>&amp;</a>", r#""\u003ca href='x'\u003e\u0026amp;\u003c/a\u003e""#),
            ("line and paragraph separators", "x\u{2028}y\u{2029}z".as_bytes(), r#""x\u2028y\u2029z""#),
            ("neighbours of the separators", "\u{2027}\u{202a}".as_bytes(), "\"\u{2027}\u{202a}\""),
            ("multibyte", "héllo 世界 🎉".as_bytes(), "\"héllo 世界 🎉\""),
            ("replacement character itself", "\u{fffd}".as_bytes(), "\"\u{fffd}\""),
            ("lone continuation", b"a\x80b", r#""a\ufffdb""#),
            ("invalid lead", b"\xff\xfe\xc0\xc1\xf5", r#""\ufffd\ufffd\ufffd\ufffd\ufffd""#),
            ("truncated three-byte, one per byte", b"\xe2\x82", r#""\ufffd\ufffd""#),
            ("truncated separator", b"\xe2\x80", r#""\ufffd\ufffd""#),
            ("overlong", b"\xe0\x80\xaf", r#""\ufffd\ufffd\ufffd""#),
            ("surrogate", b"\xed\xa0\x80", r#""\ufffd\ufffd\ufffd""#),
            ("above U+10FFFF", b"\xf4\x90\x80\x80", r#""\ufffd\ufffd\ufffd\ufffd""#),
            ("largest code point", b"\xf4\x8f\xbf\xbf", "\"\u{10ffff}\""),
            ("invalid then separator", b"\xe2\xe2\x80\xa8", r#""\ufffd\u2028""#),
        ];
        for (name, input, want) in cases {
            assert_eq!(quote(input), *want, "{}", name);
        }
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64, &str)] = &[
            ("zero", 0.0, "0"),
            ("negative zero", -0.0, "-0"),
            ("integer", 3.0, "3"),
            ("fraction", 0.1, "0.1"),
            ("sum", 0.1 + 0.2, "0.30000000000000004"),
            ("negative", -123.456, "-123.456"),
            ("smallest plain", 1e-6, "0.000001"),
            ("below plain", f64::from_bits(1e-6f64.to_bits() - 1), "9.999999999999997e-7"),
            ("exponent trimmed", 1e-7, "1e-7"),
            ("three-digit exponent", 2.5e-300, "2.5e-300"),
            ("smallest subnormal", 5e-324, "5e-324"),
            ("largest plain", f64::from_bits(1e21f64.to_bits() - 1), "999999999999999900000"),
            ("1e20", 1e20, "100000000000000000000"),
            ("1e21", 1e21, "1e+21"),
            ("negative large", -1.5e21, "-1.5e+21"),
            ("largest", f64::MAX, "1.7976931348623157e+308"),
            ("2^53+2", 9007199254740994.0, "9007199254740994"),
            // Exact ties between two shortest candidates: Go takes the even
            // digit where Rust's formatting rounds up.
            ("tie 2^-25", 2.9802322387695312e-8, "2.9802322387695312e-8"),
            ("tie in plain notation", 1.0728836059570312e-6, "0.0000010728836059570312"),
            ("negative tie", -5.960464477539062e-7, "-5.960464477539062e-7"),
        ];
        for (name, v, want) in cases {
            assert_eq!(float(*v), *want, "{}", name);
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut out = b"x".to_vec();
            assert!(matches!(append_float64(&mut out, v), Err(Error::UnsupportedFloat(_))), "{}", v);
            assert_eq!(out, b"x");
        }
    }

    #[test]
    fn integers() {
        let mut w = Writer::new();
        w.begin_array();
        for v in [0, 7, -7, i64::MAX, i64::MIN] {
            w.int(v);
        }
        w.uint(u64::MAX);
        w.uint(0);
        w.end_array();
        assert_eq!(w.as_bytes(), b"[0,7,-7,9223372036854775807,-9223372036854775808,18446744073709551615,0]".as_ref());
    }

    #[test]
    fn raw_values() {
        let cases: &[(&str, &[u8], &[u8])] = &[
            (
                "whitespace removed",
                b" { \"a\" : [ 1 , 2.5e+3 , -0 ] ,\n\t\"b\":{} }\r\n",
                br#"{"a":[1,2.5e+3,-0],"b":{}}"#,
            ),
            ("literals", b"[true,false,null]", b"[true,false,null]"),
            ("empty containers", b"[ [ ] , { } ]", b"[[],{}]"),
            ("escapes kept", br#""\/\u00e9\"\\\b\f\n\r\t\uD800""#, br#""\/\u00e9\"\\\b\f\n\r\t\uD800""#),
            ("html escaped in strings", b"{\"<k>\":\"a&b\"}", br#"{"\u003ck\u003e":"a\u0026b"}"#),
            ("separators escaped", "\"\u{2028}\u{2029}\"".as_bytes(), br#""\u2028\u2029""#),
            ("invalid UTF-8 kept", b"\"\xff\xe2\x80\"", b"\"\xff\xe2\x80\""),
            ("space inside strings kept", b"\" a b \"", b"\" a b \""),
            ("top-level number", b" 12 ", b"12"),
            ("number forms", b"[0,-1,1.0,1e5,1E-5,0.5e+0]", b"[0,-1,1.0,1e5,1E-5,0.5e+0]"),
        ];
        for (name, input, want) in cases {
            assert_eq!(raw(input).as_deref(), Ok(*want), "{}", name);
        }
    }

    #[test]
    fn raw_errors() {
        let cases: &[(&str, &[u8], usize, Option<u8>)] = &[
            ("empty", b"", 0, None),
            ("only space", b"  ", 2, None),
            ("trailing value", b"1 x", 2, Some(b'x')),
            ("two values", b"{}{}", 2, Some(b'{')),
            ("leading zero", b"01", 1, Some(b'1')),
            ("bare minus", b"-", 1, None),
            ("dot without digits", b"1.", 2, None),
            ("exponent without digits", b"1e+", 3, None),
            ("plus sign", b"+1", 0, Some(b'+')),
            ("bad literal", b"tru", 3, None),
            ("bad literal byte", b"nul1", 3, Some(b'1')),
            ("unterminated string", b"\"abc", 4, None),
            ("control in string", b"\"a\nb\"", 2, Some(b'\n')),
            ("bad escape", br#""\x""#, 2, Some(b'x')),
            ("short unicode escape", br#""\u12g4""#, 5, Some(b'g')),
            ("trailing comma", b"[1,]", 3, Some(b']')),
            ("missing colon", b"{\"a\" 1}", 5, Some(b'1')),
            ("non-string key", b"{1:2}", 1, Some(b'1')),
            ("mismatched bracket", b"[1}", 2, Some(b'}')),
            ("unclosed", b"[", 1, None),
            ("single quotes", b"'a'", 0, Some(b'\'')),
            ("html outside strings", b"<", 0, Some(b'<')),
        ];
        for (name, input, offset, byte) in cases {
            match raw(input) {
                Err(Error::InvalidRaw { offset: o, byte: b, .. }) => assert_eq!((o, b), (*offset, *byte), "{}", name),
                other => panic!("{}: got {:?}", name, other),
            }
        }
    }

    #[test]
    fn raw_depth() {
        let deep = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
        assert_eq!(raw(&deep(MAX_DEPTH)).map(|v| v.len()), Ok(2 * MAX_DEPTH));
        assert_eq!(raw(&deep(MAX_DEPTH + 1)), Err(Error::TooDeep { offset: MAX_DEPTH }));
        let objects = [b"{\"a\":".repeat(MAX_DEPTH), b"1".to_vec(), b"}".repeat(MAX_DEPTH)].concat();
        assert!(raw(&objects).is_ok());
        // The object/array bit of each level survives crossing a word boundary.
        let mixed = [b"[{\"k\":".repeat(100), b"[]".to_vec(), b"}]".repeat(100)].concat();
        assert_eq!(raw(&mixed), Ok(mixed.clone()));
        let crossed = [b"[{\"k\":".repeat(100), b"[]".to_vec(), b"]}".repeat(100)].concat();
        assert!(raw(&crossed).is_err());
    }

    #[test]
    fn writer_struct_and_maps() {
        // json.Marshal(map[string]any{"model": "m", "max_tokens": 4096,
        // "stream": true, "system": []any{map[string]any{"type": "text",
        // "text": "<sys>"}}, "messages": []any(nil), "tools": []any{},
        // "input_schema": json.RawMessage(` {"type" : "object"} `),
        // "temperature": 0.5})
        let want = br#"{"input_schema":{"type":"object"},"max_tokens":4096,"messages":null,"model":"m","stream":true,"system":[{"text":"\u003csys\u003e","type":"text"}],"temperature":0.5,"tools":[]}"#;
        let mut w = Writer::with_buffer(b"stale".to_vec());
        w.begin_object();
        w.key("input_schema");
        w.raw(br#" {"type" : "object"} "#).expect("valid raw");
        w.key("max_tokens");
        w.int(4096);
        w.key("messages");
        w.null();
        w.key("model");
        w.string("m");
        w.key("stream");
        w.bool(true);
        w.key("system");
        w.begin_array();
        let mut sys = [("type", "text"), ("text", "<sys>")];
        w.map(&mut sys, |w, v| {
            w.string(v);
            Ok(())
        })
        .expect("strings cannot fail");
        w.end_array();
        w.key("temperature");
        w.float64(0.5).expect("finite");
        w.key("tools");
        w.begin_array();
        w.end_array();
        w.end_object();
        assert_eq!(w.into_bytes(), want.to_vec());
    }

    #[test]
    fn writer_errors_leave_text() {
        let mut w = Writer::new();
        w.begin_array();
        w.int(1);
        assert!(w.raw(b"{").is_err());
        assert!(w.float64(f64::NAN).is_err());
        let mut entries = vec![(b"b".to_vec(), 1.0), (b"a".to_vec(), f64::INFINITY)];
        assert_eq!(w.map(&mut entries, |w, v| w.float64(*v)), Err(Error::UnsupportedFloat(f64::INFINITY)));
        w.bool(false);
        w.end_array();
        assert_eq!(w.as_bytes(), b"[1,false]".as_ref());
    }

    #[test]
    fn map_sorts_by_bytes() {
        // Byte order, not code point order of the escaped form: "\x7f" <
        // "é" (0xc3) < "\xff", and "A" < "a" < "ab".
        let mut w = Writer::new();
        let mut entries: Vec<(Vec<u8>, i64)> = vec![
            (b"ab".to_vec(), 1),
            (b"\xff".to_vec(), 2),
            ("é".as_bytes().to_vec(), 3),
            (b"a".to_vec(), 4),
            (b"A".to_vec(), 5),
            (b"\x7f".to_vec(), 6),
            (Vec::new(), 7),
        ];
        w.map(&mut entries, |w, v| {
            w.int(*v);
            Ok(())
        })
        .expect("ints cannot fail");
        assert_eq!(
            String::from_utf8_lossy(w.as_bytes()),
            "{\"\":7,\"A\":5,\"a\":4,\"ab\":1,\"\x7f\":6,\"é\":3,\"\\ufffd\":2}"
        );
    }

    #[test]
    fn messages() {
        let cases: &[(&str, Error, &str)] = &[
            ("nan", Error::UnsupportedFloat(f64::NAN), "jsonout: float64 NaN has no JSON form (encoding/json refuses NaN and ±Inf); send a finite number or leave the field out"),
            ("negative infinity", Error::UnsupportedFloat(f64::NEG_INFINITY), "jsonout: float64 -Inf has no JSON form (encoding/json refuses NaN and ±Inf); send a finite number or leave the field out"),
            ("printable byte", Error::InvalidRaw { offset: 2, byte: Some(b'x'), context: "after top-level value" }, "jsonout: raw JSON value has invalid character 'x' at byte 2 after top-level value; pass one valid JSON value"),
            ("control byte", Error::InvalidRaw { offset: 0, byte: Some(0), context: "looking for beginning of value" }, "jsonout: raw JSON value has invalid character 0x00 at byte 0 looking for beginning of value; pass one valid JSON value"),
            ("end", Error::InvalidRaw { offset: 4, byte: None, context: "in string literal" }, "jsonout: raw JSON value ends early at byte 4 (in string literal); pass one complete JSON value"),
            ("depth", Error::TooDeep { offset: 10000 }, "jsonout: raw JSON value nests deeper than 10000 levels at byte 10000; flatten it (encoding/json refuses it too)"),
        ];
        for (name, e, want) in cases {
            assert_eq!(e.to_string(), *want, "{}", name);
        }
    }

    // The expected texts are json.Marshal's (Go 1.26) for a
    // json.RawMessage holding the input; TestGoErrorTexts and
    // FuzzRawMessage compare them with encoding/json itself.
    #[test]
    fn go_error_texts() {
        let prefix = "json: error calling MarshalJSON for type json.RawMessage: ";
        let cases: &[(&[u8], &str)] = &[
            (b"", "unexpected end of JSON input"),
            (b"{\"type\":}", "invalid character '}' looking for beginning of value"),
            (b"1 2", "invalid character '2' after top-level value"),
            (b"[1", "unexpected end of JSON input"),
            (b"tru", "invalid character ' ' in literal true (expecting 'e')"),
            (b"tx", "invalid character 'x' in literal true (expecting 'r')"),
            (b"trUe", "invalid character 'U' in literal true (expecting 'u')"),
            (b"[nul ]", "invalid character ' ' in literal null (expecting 'l')"),
            (b"falx", "invalid character 'x' in literal false (expecting 's')"),
            (b"{'a':1}", "invalid character '\\'' looking for beginning of object key string"),
            (b"[\"\x01\"]", "invalid character '\\x01' in string literal"),
            (b"\xe9", "invalid character '\u{e9}' looking for beginning of value"),
            (b"\xa0", "invalid character '\\u00a0' looking for beginning of value"),
            (b"\xad", "invalid character '\\u00ad' looking for beginning of value"),
            (b"\x80", "invalid character '\\u0080' looking for beginning of value"),
            (b"\x7f", "invalid character '\\x7f' looking for beginning of value"),
            (b"\\", "invalid character '\\\\' looking for beginning of value"),
            (b"{\"a\" 1}", "invalid character '1' after object key"),
            (b"{\"a\":1 \"b\"}", "invalid character '\"' after object key:value pair"),
            (b"[1 2]", "invalid character '2' after array element"),
            (b"-x", "invalid character 'x' in numeric literal"),
            (b"1.", "invalid character ' ' after decimal point in numeric literal"),
            (b"1e+", "invalid character ' ' in exponent of numeric literal"),
            (b"[\"\\u1", "invalid character ' ' in \\u hexadecimal character escape"),
            (b"\"\\u12g4\"", "invalid character 'g' in \\u hexadecimal character escape"),
            (b"[\"\\", "invalid character ' ' in string escape code"),
            (b"\"\\x\"", "invalid character 'x' in string escape code"),
        ];
        for (src, want) in cases {
            let e = raw(src).expect_err("invalid");
            assert_eq!(syntax_error_text(src, &e), *want, "{:?}", String::from_utf8_lossy(src));
            assert_eq!(marshal_error_text(src, &e), format!("{}{}", prefix, want));
        }
        let deep = [vec![b'['; MAX_DEPTH + 1], vec![b']'; MAX_DEPTH + 1]].concat();
        let e = raw(&deep).expect_err("too deep");
        assert_eq!(marshal_error_text(&deep, &e), format!("{}invalid character '[' exceeded max depth", prefix));
        let e = Error::UnsupportedFloat(f64::NEG_INFINITY);
        assert_eq!(marshal_error_text(b"", &e), "json: unsupported value: -Inf");
    }

    #[test]
    fn base64_is_std_encoding() {
        let cases: &[(&[u8], &str)] = &[
            (b"", ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"\x00\x01\x02\x03\xfa", "AAECA/o="),
            (b"\xff\xfe", "//4="),
        ];
        for (src, want) in cases {
            let mut out = Vec::new();
            append_base64(&mut out, src);
            assert_eq!(String::from_utf8(out).unwrap(), *want);
        }
        let mut w = Writer::new();
        w.begin_array();
        w.bytes(b"ab");
        w.bytes(b"");
        w.end_array();
        assert_eq!(w.as_bytes(), br#"["YWI=",""]"#);
    }
}
