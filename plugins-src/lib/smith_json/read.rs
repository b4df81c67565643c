//! read is a small, allocation-light JSON reader.
//!
//! A [`Decoder`] reads one JSON text front to back. It accepts the texts
//! of RFC 8259's grammar nested at most [`MAX_DEPTH`] deep, decodes
//! strings with each invalid UTF-8 byte and each lone surrogate replaced
//! by U+FFFD, and reports a syntax error anywhere in the text in
//! preference to a type mismatch. Object keys are given to the caller,
//! which matches them. [`append_quote`] and [`append_compact`] write a
//! string and a raw value in the escaping smith_json::write uses; a
//! [`Cursor`] is the callback-free reader of the decoders' fast paths.
//!
//! ```ignore
//! let mut d = Decoder::new(data);
//! let mut id = Str::default();
//! d.object(|d, key| {
//!     if key == b"id" {
//!         id = d.str();
//!     }
//! });
//! d.finish()?;
//! use_id(&id.unquoted());
//! ```

use std::borrow::Cow;
use std::fmt;

/// MAX_DEPTH is the nesting limit: a text with more containers open at
/// once is a syntax error.
const MAX_DEPTH: usize = 10000;

/// Kind is the type of a JSON value, told by its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Invalid,
    Null,
    Bool,
    Number,
    Str,
    Object,
    Array,
}

impl Kind {
    /// name returns the kind's JSON name ("invalid" for Invalid).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Invalid => "invalid",
            Kind::Null => "null",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::Str => "string",
            Kind::Object => "object",
            Kind::Array => "array",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error is a syntax error or a type mismatch; its message ("invalid
/// character 'x' at offset 3 after an object member", "value at offset 0:
/// found number, want object") names the offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    /// message is the error's text (also its Display, which needs
    /// core::fmt; this does not).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Decoder reads one JSON text. Each reading method consumes the next
/// value; after the first syntax error the rest are no-ops returning
/// empty values. A value of the wrong type is skipped, still validated,
/// and remembered as a type error. Slices it returns borrow the input.
pub struct Decoder<'a> {
    data: &'a [u8],
    pos: usize,
    err: Option<Error>,      // the first syntax error
    type_err: Option<Error>, // the first type mismatch
    stack: Stack,            // the open containers
    key: Vec<u8>,            // an escaped key, unquoted
}

impl<'a> Decoder<'a> {
    /// new returns a decoder reading data.
    pub fn new(data: &'a [u8]) -> Decoder<'a> {
        Decoder { data, pos: 0, err: None, type_err: None, stack: Stack::default(), key: Vec::new() }
    }

    /// reset starts reading data, forgetting any earlier error and keeping
    /// the buffers.
    pub fn reset(&mut self, data: &'a [u8]) {
        self.data = data;
        self.pos = 0;
        self.err = None;
        self.type_err = None;
        self.stack.clear();
    }

    /// finish checks that only whitespace follows the value read and
    /// returns the first syntax error, else the first type mismatch.
    pub fn finish(&mut self) -> Result<(), Error> {
        if self.err.is_none() {
            self.pos = skip_space(self.data, self.pos);
            if self.pos < self.data.len() {
                self.syntax("after the top-level value");
            }
        }
        match (&self.err, &self.type_err) {
            (Some(e), _) | (None, Some(e)) => Err(e.clone()),
            (None, None) => Ok(()),
        }
    }

    /// peek returns the kind of the next value without consuming it;
    /// Invalid after an error or at the end of the input.
    #[inline]
    pub fn peek(&mut self) -> Kind {
        if self.err.is_some() {
            return Kind::Invalid;
        }
        self.pos = skip_space(self.data, self.pos);
        match self.data.get(self.pos) {
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b'"') => Kind::Str,
            Some(b't') | Some(b'f') => Kind::Bool,
            Some(b'n') => Kind::Null,
            Some(b'-') | Some(b'0'..=b'9') => Kind::Number,
            _ => Kind::Invalid,
        }
    }

    /// skip consumes the next value of any kind, validating it.
    pub fn skip(&mut self) {
        self.skip_value();
    }

    /// raw consumes the next value and returns its text, without the white
    /// space around it ("null" for null); None after an error.
    #[inline]
    pub fn raw(&mut self) -> Option<&'a [u8]> {
        if self.err.is_some() {
            return None;
        }
        self.pos = skip_space(self.data, self.pos);
        let start = self.pos;
        self.skip_value();
        if self.err.is_some() {
            return None;
        }
        Some(&self.data[start..self.pos])
    }

    /// null consumes the next value and reports true if it is null; any
    /// other value is left unread.
    pub fn null(&mut self) -> bool {
        if self.peek() != Kind::Null {
            return false;
        }
        self.skip_value();
        self.err.is_none()
    }

    /// str consumes a string and returns it quoted, as it appears in the
    /// input; null and a value of another kind (a type mismatch) give the
    /// nil Str.
    #[inline]
    pub fn str(&mut self) -> Str<'a> {
        match self.peek() {
            Kind::Str => {
                if let Some((s, end)) = Str::at(self.data, self.pos) {
                    self.pos = end;
                    return s;
                }
                self.pos = scan_string(self.data, self.pos).0;
                self.syntax("in a string literal");
                return Str::default();
            }
            Kind::Null => self.skip_value(),
            _ => self.mismatch(Kind::Str),
        }
        Str::default()
    }

    /// bool consumes a boolean; null and a mismatch give false.
    pub fn bool(&mut self) -> bool {
        match self.peek() {
            Kind::Bool => {
                let v = self.data[self.pos] == b't';
                self.skip_value();
                return v && self.err.is_none();
            }
            Kind::Null => self.skip_value(),
            _ => self.mismatch(Kind::Bool),
        }
        false
    }

    /// int consumes an integer that fits an i64: null gives None; another
    /// kind, a fraction, an exponent or an overflow is a type mismatch (and
    /// None).
    pub fn int(&mut self) -> Option<i64> {
        match self.peek() {
            Kind::Number => {
                let start = self.pos;
                self.skip_value();
                if self.err.is_some() {
                    return None;
                }
                let text = &self.data[start..self.pos];
                if let Some(v) = parse_int(text) {
                    return Some(v);
                }
                let what =
                    cat(&["the number ", &String::from_utf8_lossy(text), " is not an integer that fits 64 bits"]);
                self.type_error(start, &what);
            }
            Kind::Null => self.skip_value(),
            _ => self.mismatch(Kind::Number),
        }
        None
    }

    /// object consumes an object and calls member with the decoder and each
    /// key (unquoted). member reads the key's value with one of the reading
    /// methods; a value it leaves unread is skipped. null calls member
    /// never; another kind is a type mismatch.
    pub fn object<F: FnMut(&mut Decoder<'a>, &[u8])>(&mut self, mut member: F) {
        match self.peek() {
            Kind::Object => {}
            Kind::Null => return self.skip_value(),
            _ => return self.mismatch(Kind::Object),
        }
        self.pos += 1;
        if !self.enter(b'{') {
            return;
        }
        let data = self.data;
        let mut pos = skip_space(data, self.pos);
        if data.get(pos) == Some(&b'}') {
            self.pos = pos + 1;
            self.leave();
            return;
        }
        loop {
            if data.get(pos) != Some(&b'"') {
                self.pos = pos;
                self.syntax("looking for an object key");
                return;
            }
            let quoted = pos;
            let (end, flags) = scan_string(data, quoted);
            self.pos = end;
            if flags & STRING_BAD != 0 {
                self.syntax("in a string literal");
                return;
            }
            let raw = &data[quoted + 1..end - 1];
            let plain = flags == 0 || flags == STRING_HIGH && std::str::from_utf8(raw).is_ok();
            pos = skip_space(data, self.pos);
            if data.get(pos) != Some(&b':') {
                self.pos = pos;
                self.syntax("after an object key");
                return;
            }
            self.pos = skip_space(data, pos + 1);
            let at = self.pos;
            if plain {
                member(self, raw);
            } else {
                // The buffer is lent to this member; a nested object with an
                // escaped key uses one of its own.
                let mut key = std::mem::take(&mut self.key);
                key.clear();
                append_unquoted(&mut key, &data[quoted..end]);
                member(self, &key);
                if key.capacity() > self.key.capacity() {
                    self.key = key;
                }
            }
            if self.err.is_some() {
                return;
            }
            if self.pos == at {
                self.skip_value();
                if self.err.is_some() {
                    return;
                }
            }
            pos = skip_space(data, self.pos);
            match data.get(pos) {
                Some(b'}') => {
                    self.pos = pos + 1;
                    self.leave();
                    return;
                }
                Some(b',') => pos = skip_space(data, pos + 1),
                _ => {
                    self.pos = pos;
                    self.syntax("after an object member");
                    return;
                }
            }
        }
    }

    /// array consumes an array and calls elem with the decoder for each
    /// element, which elem reads with one of the reading methods; an
    /// element it leaves unread is skipped. null calls elem never; another
    /// kind is a type mismatch.
    pub fn array<F: FnMut(&mut Decoder<'a>)>(&mut self, mut elem: F) {
        match self.peek() {
            Kind::Array => {}
            Kind::Null => return self.skip_value(),
            _ => return self.mismatch(Kind::Array),
        }
        self.pos += 1;
        if !self.enter(b'[') {
            return;
        }
        let data = self.data;
        self.pos = skip_space(data, self.pos);
        if data.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.leave();
            return;
        }
        loop {
            let at = self.pos;
            elem(self);
            if self.err.is_some() {
                return;
            }
            if self.pos == at {
                self.skip_value();
                if self.err.is_some() {
                    return;
                }
            }
            let pos = skip_space(data, self.pos);
            match data.get(pos) {
                Some(b']') => {
                    self.pos = pos + 1;
                    self.leave();
                    return;
                }
                Some(b',') => self.pos = skip_space(data, pos + 1),
                _ => {
                    self.pos = pos;
                    self.syntax("after an array element");
                    return;
                }
            }
        }
    }

    /// enter records an open container of the reading methods, which count
    /// toward the nesting limit like the ones skip walks.
    #[inline(always)]
    fn enter(&mut self, c: u8) -> bool {
        if self.stack.depth >= MAX_DEPTH {
            let msg =
                cat(&["nesting at offset ", &num(self.pos - 1), " exceeds the limit of ", &num(MAX_DEPTH), " levels"]);
            self.fail(msg);
            return false;
        }
        self.stack.push(c);
        true
    }

    #[inline(always)]
    fn leave(&mut self) {
        self.stack.pop();
    }

    fn fail(&mut self, message: String) {
        if self.err.is_none() {
            self.err = Some(Error { message });
        }
    }

    /// syntax records a syntax error at the current offset.
    fn syntax(&mut self, place: &str) {
        if self.err.is_some() {
            return;
        }
        let msg = match self.data.get(self.pos) {
            None => cat(&["the input ends at offset ", &num(self.pos), " ", place, "; the JSON text is incomplete"]),
            // The byte is quoted in single quotes, escaped (see quote_byte).
            Some(&c) => cat(&["invalid character ", &quote_byte(c), " at offset ", &num(self.pos), " ", place]),
        };
        self.fail(msg);
    }

    /// mismatch skips the next value, a kind other than want.
    fn mismatch(&mut self, want: Kind) {
        let got = self.peek();
        let at = self.pos;
        self.skip_value();
        if self.err.is_none() {
            let what = cat(&["found ", got.name(), ", want ", want.name()]);
            self.type_error(at, &what);
        }
    }

    fn type_error(&mut self, at: usize, what: &str) {
        if self.type_err.is_none() {
            self.type_err = Some(Error { message: cat(&["value at offset ", &num(at), ": ", what]) });
        }
    }

    /// skip_value consumes and validates the next value, containers
    /// included, without recursion: the open containers are kept on the
    /// stack.
    fn skip_value(&mut self) {
        if self.err.is_some() {
            return;
        }
        let data = self.data;
        let mut pos = self.pos;
        // A scalar, what a reader mostly leaves unread, needs none of the
        // container walk below (a bad string is left to it, which reports
        // the error).
        let start = skip_space(data, pos);
        match data.get(start) {
            Some(b'"') => {
                let (end, flags) = scan_string(data, start);
                if flags & STRING_BAD == 0 {
                    self.pos = end;
                    return;
                }
            }
            Some(b't') | Some(b'f') | Some(b'n') => {
                if let Some(p) = self.literal(data, start) {
                    self.pos = p;
                }
                return;
            }
            Some(b'-') | Some(b'0'..=b'9') => {
                if let Some(p) = self.number(data, start) {
                    self.pos = p;
                }
                return;
            }
            _ => {}
        }
        let base = self.stack.depth;
        loop {
            // A value starts here.
            pos = skip_space(data, pos);
            let c = match data.get(pos) {
                Some(&c) => c,
                None => {
                    self.pos = pos;
                    self.syntax("looking for the beginning of a value");
                    return;
                }
            };
            match c {
                b'"' => {
                    let (end, flags) = scan_string(data, pos);
                    if flags & STRING_BAD != 0 {
                        self.pos = end;
                        self.syntax("in a string literal");
                        return;
                    }
                    pos = end;
                }
                b'{' | b'[' => {
                    self.pos = pos + 1;
                    if !self.enter(c) {
                        return;
                    }
                    pos = skip_space(data, pos + 1);
                    if data.get(pos) == Some(&(c + 2)) {
                        // '}' and ']' follow '{' and '[' by two
                        pos += 1;
                        self.leave();
                    } else {
                        if c == b'{' {
                            match self.member_key(data, pos) {
                                Some(p) => pos = p,
                                None => return,
                            }
                        }
                        continue;
                    }
                }
                b't' | b'f' | b'n' => match self.literal(data, pos) {
                    Some(p) => pos = p,
                    None => return,
                },
                b'-' | b'0'..=b'9' => match self.number(data, pos) {
                    Some(p) => pos = p,
                    None => return,
                },
                _ => {
                    self.pos = pos;
                    self.syntax("looking for the beginning of a value");
                    return;
                }
            }
            // A value ended; close the containers it completes.
            loop {
                let top = match self.stack.top() {
                    Some(top) if self.stack.depth > base => top,
                    _ => {
                        self.pos = pos;
                        return;
                    }
                };
                pos = skip_space(data, pos);
                let c = match data.get(pos) {
                    Some(&c) => c,
                    None => {
                        self.pos = pos;
                        self.syntax("inside an unclosed object or array");
                        return;
                    }
                };
                if c == b',' {
                    pos += 1;
                    if top == b'{' {
                        match self.member_key(data, skip_space(data, pos)) {
                            Some(p) => pos = p,
                            None => return,
                        }
                    }
                    break;
                }
                if c == top + 2 {
                    pos += 1;
                    self.leave();
                    continue;
                }
                self.pos = pos;
                self.syntax(if top == b'{' { "after an object member" } else { "after an array element" });
                return;
            }
        }
    }

    /// member_key consumes an object key at pos and its colon and returns
    /// the offset after them, None after recording a syntax error.
    fn member_key(&mut self, data: &[u8], pos: usize) -> Option<usize> {
        if data.get(pos) != Some(&b'"') {
            self.pos = pos;
            self.syntax("looking for an object key");
            return None;
        }
        let (end, flags) = scan_string(data, pos);
        if flags & STRING_BAD != 0 {
            self.pos = end;
            self.syntax("in a string literal");
            return None;
        }
        let pos = skip_space(data, end);
        if data.get(pos) != Some(&b':') {
            self.pos = pos;
            self.syntax("after an object key");
            return None;
        }
        Some(pos + 1)
    }

    /// literal consumes true, false or null at pos (its first letter
    /// checked) and returns the offset after it, None after recording a
    /// syntax error.
    fn literal(&mut self, data: &[u8], mut pos: usize) -> Option<usize> {
        let want: &'static str = match data[pos] {
            b't' => "true",
            b'f' => "false",
            _ => "null",
        };
        // The whole literal at once (slice patterns compile to byte
        // compares; `==` would call memcmp, a byte loop in wasm); the loop
        // below finds where a wrong one goes wrong.
        let whole = match data[pos] {
            b't' => matches!(data.get(pos..pos + 4), Some(b"true")),
            b'f' => matches!(data.get(pos..pos + 5), Some(b"false")),
            _ => matches!(data.get(pos..pos + 4), Some(b"null")),
        };
        if whole {
            return Some(pos + want.len());
        }
        for &w in want.as_bytes() {
            if data.get(pos) != Some(&w) {
                self.pos = pos;
                self.syntax(&cat(&["in the literal ", want]));
                return None;
            }
            pos += 1;
        }
        Some(pos)
    }

    /// number consumes a number in JSON's grammar,
    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns the
    /// offset after it, None after recording a syntax error.
    fn number(&mut self, data: &[u8], pos: usize) -> Option<usize> {
        match number_end(data, pos) {
            Ok(end) => Some(end),
            Err((at, place)) => {
                self.pos = at;
                self.syntax(place);
                None
            }
        }
    }
}

/// INLINE_DEPTH is how many open containers Stack holds without
/// allocating.
const INLINE_DEPTH: usize = 64;

/// Stack holds the open containers, b'{' or b'[': the first INLINE_DEPTH
/// as bits (set for '{'), deeper ones in a vector, so a decoder allocates
/// only for unusually deep texts.
#[derive(Default)]
struct Stack {
    depth: usize,
    bits: [u64; INLINE_DEPTH / 64],
    deep: Vec<u8>,
}

impl Stack {
    #[inline]
    fn push(&mut self, c: u8) {
        let i = self.depth;
        if i < INLINE_DEPTH {
            let bit = 1u64 << (i % 64);
            if c == b'{' {
                self.bits[i / 64] |= bit;
            } else {
                self.bits[i / 64] &= !bit;
            }
        } else {
            self.deep.push(c);
        }
        self.depth += 1;
    }

    #[inline]
    fn pop(&mut self) {
        if self.depth > INLINE_DEPTH {
            self.deep.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    #[inline]
    fn top(&self) -> Option<u8> {
        let i = self.depth.checked_sub(1)?;
        if i < INLINE_DEPTH {
            return Some(if self.bits[i / 64] & (1u64 << (i % 64)) != 0 { b'{' } else { b'[' });
        }
        self.deep.last().copied()
    }

    fn clear(&mut self) {
        self.depth = 0;
        self.deep.clear();
    }
}

/// Str is a JSON string as it appears in the input, quotes and escapes
/// included, borrowing the input; nil (the default) when the value was
/// null, absent or of another kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Str<'a> {
    raw: Option<&'a [u8]>,
    escaped: bool, // the string holds a backslash escape
    high: bool,    // the string holds a byte above ASCII
}

impl<'a> Str<'a> {
    /// raw returns the string as it appears in the input, quotes included;
    /// None when s is nil.
    #[inline]
    pub fn raw(&self) -> Option<&'a [u8]> {
        self.raw
    }

    /// is_nil reports whether s is nil (null, absent or a mismatch).
    #[inline]
    pub fn is_nil(&self) -> bool {
        self.raw.is_none()
    }

    /// empty reports whether s is nil or "".
    #[inline]
    pub fn empty(&self) -> bool {
        self.raw.map_or(0, |r| r.len()) <= 2
    }

    /// at reads the string literal that starts at data[pos] and returns
    /// it with the offset after its closing quote; None when no valid
    /// string literal starts there (a [`Decoder`] tells why). It is the
    /// scan `Decoder::str` does, for readers of their own.
    #[inline]
    pub fn at(data: &'a [u8], pos: usize) -> Option<(Str<'a>, usize)> {
        if data.get(pos) != Some(&b'"') {
            return None;
        }
        let (end, flags) = scan_string(data, pos);
        if flags & STRING_BAD != 0 {
            return None;
        }
        Some((
            Str {
                raw: Some(data.get(pos..end)?),
                escaped: flags & STRING_ESCAPED != 0,
                high: flags & STRING_HIGH != 0,
            },
            end,
        ))
    }

    /// plain returns the content of s (between the quotes) when it holds
    /// no escape, so that it needs no unquoting beyond, possibly, invalid
    /// UTF-8; None when s is nil or escaped.
    #[inline]
    pub fn plain(&self) -> Option<&'a [u8]> {
        match self.raw {
            Some(q) if q.len() >= 2 && !self.escaped => Some(&q[1..q.len() - 1]),
            _ => None,
        }
    }

    /// unquoted returns s unquoted: escapes resolved, each invalid UTF-8
    /// byte and each lone surrogate replaced by U+FFFD; "" when s is nil.
    /// A string without escapes and with valid UTF-8 is borrowed, not
    /// copied.
    pub fn unquoted(&self) -> Cow<'a, str> {
        let q = match self.raw {
            Some(q) if q.len() >= 2 => q,
            _ => return Cow::Borrowed(""),
        };
        let content = &q[1..q.len() - 1];
        if let Some(plain) = self.plain() {
            if !self.high {
                // SAFETY: the scan saw no byte above ASCII in the string,
                // and ASCII is UTF-8. (Validating it again is a byte loop
                // in wasm.)
                return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(plain) });
            }
            if let Ok(s) = std::str::from_utf8(plain) {
                return Cow::Borrowed(s);
            }
        }
        let mut out = Vec::with_capacity(content.len());
        append_unquoted(&mut out, q);
        // append_unquoted writes only valid UTF-8.
        Cow::Owned(String::from_utf8(out).unwrap_or_default())
    }

    /// string returns s unquoted as a new String (see unquoted).
    pub fn string(&self) -> String {
        self.unquoted().into_owned()
    }

    /// bytes returns s unquoted as a new vector; None when s is nil, empty
    /// but Some for "".
    pub fn bytes(&self) -> Option<Vec<u8>> {
        self.raw?;
        Some(self.unquoted().into_owned().into_bytes())
    }

    /// equal reports whether s unquoted is v.
    pub fn equal(&self, v: &str) -> bool {
        self.unquoted() == v
    }
}

/// skip_space returns the offset of the first non-whitespace byte at or
/// after pos. The first byte is tested before any loop: compact JSON has
/// no whitespace, and in the plugin every loop entered pays a fuel charge.
#[inline(always)]
fn skip_space(data: &[u8], pos: usize) -> usize {
    match data.get(pos) {
        Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') => skip_more_space(data, pos + 1),
        _ => pos,
    }
}

/// skip_more_space is skip_space's loop.
fn skip_more_space(data: &[u8], mut pos: usize) -> usize {
    while let Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') = data.get(pos) {
        pos += 1;
    }
    pos
}

/// number_end reads the number in JSON's grammar,
/// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, that starts at
/// data[pos] and returns the offset after it; else the offset of the byte
/// where it goes wrong and where in a number that is (the place of a
/// [`Decoder`]'s syntax error). It is the scan a Decoder does, for readers
/// of their own.
#[inline(always)]
pub fn number_end(data: &[u8], mut pos: usize) -> Result<usize, (usize, &'static str)> {
    if data.get(pos) == Some(&b'-') {
        pos += 1;
    }
    match data.get(pos) {
        Some(b'0') => pos += 1,
        Some(b'1'..=b'9') => pos = skip_digits(data, pos + 1),
        _ => return Err((pos, "in a number, looking for a digit")),
    }
    if data.get(pos) == Some(&b'.') {
        let start = pos + 1;
        pos = skip_digits(data, start);
        if pos == start {
            return Err((pos, "after the decimal point in a number"));
        }
    }
    if let Some(b'e') | Some(b'E') = data.get(pos) {
        pos += 1;
        if let Some(b'+') | Some(b'-') = data.get(pos) {
            pos += 1;
        }
        let start = pos;
        pos = skip_digits(data, start);
        if pos == start {
            return Err((pos, "in the exponent of a number"));
        }
    }
    Ok(pos)
}

/// skip_digits returns the offset of the first byte at or after pos that
/// is not an ASCII digit, testing eight bytes per step (a timestamp is
/// two steps, not ten loop turns).
#[inline]
fn skip_digits(data: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = data.get(pos..pos + 8) {
        let w = word(chunk);
        // A digit is 0x30..=0x39: its high nibble is 3, also after adding
        // 6. A byte that is not one leaves a nonzero nibble; a carry out
        // of such a byte only disturbs bytes above it.
        let other = ((w & 0xf0f0_f0f0_f0f0_f0f0) ^ 0x3030_3030_3030_3030)
            | ((w.wrapping_add(0x0606_0606_0606_0606) & 0xf0f0_f0f0_f0f0_f0f0) ^ 0x3030_3030_3030_3030);
        if other != 0 {
            return pos + (other.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while let Some(b'0'..=b'9') = data.get(pos) {
        pos += 1;
    }
    pos
}

// What scan_string found in a string's content.
const STRING_ESCAPED: u8 = 1; // a backslash escape
const STRING_HIGH: u8 = 2; // a byte above ASCII
const STRING_BAD: u8 = 4; // a syntax error (the offset returned is where)

// Masks for testing eight bytes at once.
const ONES: u64 = 0x0101010101010101;
const HIGHS: u64 = 0x8080808080808080;

/// below returns, for the eight bytes of w, a mask with the top bit of
/// each byte set that is below n (n <= 0x80); bytes above 0x7f never
/// count. Bits above the lowest set one may be false (a borrow), so only
/// the lowest set bit is to be read: it marks the first such byte.
#[inline(always)]
fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(ONES * n as u64) & !w & HIGHS
}

/// equal_bytes is below for the bytes of w equal to c.
#[inline(always)]
fn equal_bytes(w: u64, c: u8) -> u64 {
    below(w ^ (ONES * c as u64), 1)
}

/// word reads eight bytes (b holds at least eight) little-endian.
#[inline(always)]
fn word(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    u64::from_le_bytes(a)
}

/// string_stop marks the bytes of w a string scan must look at: '"',
/// '\\' and control characters (read its lowest set bit only).
#[inline(always)]
fn string_stop(w: u64) -> u64 {
    equal_bytes(w, b'"') | equal_bytes(w, b'\\') | below(w, 0x20)
}

/// high_before is STRING_HIGH if a byte of w before the first one stop
/// marks is above ASCII, else 0.
#[inline(always)]
fn high_before(w: u64, stop: u64) -> u8 {
    let before = ((stop & stop.wrapping_neg()) >> 7).wrapping_sub(1);
    if w & HIGHS & before != 0 {
        STRING_HIGH
    } else {
        0
    }
}

/// scan_string scans the string whose opening quote is at pos and returns
/// the offset after its closing quote and what its content holds; with
/// STRING_BAD the offset is that of the offending byte (data.len() when
/// the input ends inside the string).
///
/// It reads eight bytes per step and jumps to the first one that needs a
/// look ('"', '\\' or a control character), so a plain run costs one
/// step per word, not per byte, also in wasm (where a byte loop pays a
/// bounds check and, in the plugin, a fuel charge per byte); bytes above
/// ASCII are noted per word without stopping.
#[inline]
fn scan_string(data: &[u8], mut pos: usize) -> (usize, u8) {
    let mut flags = 0;
    pos += 1;
    // The first word is tested before any loop: most keys and many values
    // end in it, and in the plugin every loop entered pays a fuel charge.
    if let Some(chunk) = data.get(pos..pos + 8) {
        let w = word(chunk);
        let stop = string_stop(w);
        if stop != 0 {
            flags = high_before(w, stop);
            pos += (stop.trailing_zeros() / 8) as usize;
            if data.get(pos) == Some(&b'"') {
                return (pos + 1, flags);
            }
        } else {
            if w & HIGHS != 0 {
                flags = STRING_HIGH;
            }
            pos += 8;
        }
    }
    loop {
        // Where the build has wasm SIMD, 16 bytes per loop turn first; the
        // word loop below then starts at the stop byte (or the tail).
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_load, v128_or};
            let (quote, backslash, space) = (u8x16_splat(b'"'), u8x16_splat(b'\\'), u8x16_splat(0x20));
            while let Some(b) = data.get(pos..pos + 16) {
                // SAFETY: b holds 16 bytes, read as one unaligned vector.
                let v = unsafe { v128_load(b.as_ptr() as *const v128) };
                let stop =
                    u8x16_bitmask(v128_or(v128_or(u8x16_eq(v, quote), u8x16_eq(v, backslash)), u8x16_lt(v, space)))
                        as u32;
                let high = u8x16_bitmask(v) as u32; // bytes above ASCII
                if stop != 0 {
                    if high & ((stop & stop.wrapping_neg()) - 1) != 0 {
                        flags |= STRING_HIGH;
                    }
                    pos += stop.trailing_zeros() as usize;
                    break;
                }
                if high != 0 {
                    flags |= STRING_HIGH;
                }
                pos += 16;
            }
        }
        while let Some(chunk) = data.get(pos..pos + 8) {
            let w = word(chunk);
            let stop = string_stop(w);
            if stop != 0 {
                flags |= high_before(w, stop);
                pos += (stop.trailing_zeros() / 8) as usize;
                break;
            }
            if w & HIGHS != 0 {
                flags |= STRING_HIGH;
            }
            pos += 8;
        }
        let c = match data.get(pos) {
            Some(&c) => c,
            None => return (data.len(), flags | STRING_BAD),
        };
        match c {
            b'"' => return (pos + 1, flags),
            b'\\' => {
                flags |= STRING_ESCAPED;
                pos += 1;
                match data.get(pos) {
                    Some(b'"') | Some(b'\\') | Some(b'/') | Some(b'b') | Some(b'f') | Some(b'n') | Some(b'r')
                    | Some(b't') => pos += 1,
                    Some(b'u') => {
                        for _ in 0..4 {
                            pos += 1;
                            match data.get(pos) {
                                Some(c) if c.is_ascii_hexdigit() => {}
                                _ => return (pos, flags | STRING_BAD),
                            }
                        }
                        pos += 1;
                    }
                    _ => return (pos, flags | STRING_BAD),
                }
            }
            0..=0x1f => return (pos, flags | STRING_BAD),
            0x80..=0xff => {
                flags |= STRING_HIGH;
                pos += 1;
            }
            _ => pos += 1,
        }
    }
}

/// same_bytes reports whether a and b hold the same bytes, comparing
/// eight at a time (slice equality calls memcmp, a byte loop in wasm):
/// the readers' check that a chunk begins as the last one did, and the
/// Responses decoder's item id lookup.
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut x, mut y) = (a.chunks_exact(8), b.chunks_exact(8));
    for (p, q) in (&mut x).zip(&mut y) {
        let (mut u, mut v) = ([0u8; 8], [0u8; 8]);
        u.copy_from_slice(p);
        v.copy_from_slice(q);
        if u64::from_le_bytes(u) != u64::from_le_bytes(v) {
            return false;
        }
    }
    x.remainder().iter().zip(y.remainder()).all(|(p, q)| p == q)
}

/// parse_int parses a JSON number (already validated) as an i64; None for
/// a fraction, an exponent or an overflow.
fn parse_int(b: &[u8]) -> Option<i64> {
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    let mut u: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() || u > (1u64 << 63) / 10 {
            return None;
        }
        u = u * 10 + (c - b'0') as u64;
        if u > 1u64 << 63 {
            return None;
        }
    }
    if neg {
        return Some((u as i64).wrapping_neg()); // -(1<<63) wraps to itself, the minimum
    }
    if u > i64::MAX as u64 {
        return None;
    }
    Some(u as i64)
}

const REPLACEMENT: &[u8] = "\u{fffd}".as_bytes();

/// append_lossy appends in, each byte of invalid UTF-8 replaced by U+FFFD
/// (one per byte, not one per invalid sequence).
fn append_lossy(dst: &mut Vec<u8>, mut input: &[u8]) {
    loop {
        match std::str::from_utf8(input) {
            Ok(_) => return dst.extend_from_slice(input),
            Err(e) => {
                let (valid, rest) = input.split_at(e.valid_up_to());
                dst.extend_from_slice(valid);
                dst.extend_from_slice(REPLACEMENT);
                input = &rest[1..];
            }
        }
    }
}

/// append_unquoted appends the content of the validated string literal q
/// (quotes included) to dst, resolving escapes (a lone surrogate escape
/// becomes U+FFFD).
fn append_unquoted(dst: &mut Vec<u8>, q: &[u8]) {
    let input = &q[1..q.len() - 1];
    let mut i = 0;
    while i < input.len() {
        let run = input[i..].iter().position(|&c| c == b'\\').map_or(input.len(), |n| i + n);
        append_lossy(dst, &input[i..run]);
        i = run;
        if i >= input.len() {
            break;
        }
        let e = input.get(i + 1).copied().unwrap_or(b'\\');
        i += 2;
        match e {
            b'b' => dst.push(8),
            b'f' => dst.push(12),
            b'n' => dst.push(b'\n'),
            b'r' => dst.push(b'\r'),
            b't' => dst.push(b'\t'),
            b'u' => {
                let mut r = hex4(input.get(i..).unwrap_or_default());
                i += 4;
                if (0xd800..0xe000).contains(&r) {
                    let rest = input.get(i..).unwrap_or_default();
                    if rest.len() >= 6 && rest[0] == b'\\' && rest[1] == b'u' {
                        let r2 = hex4(&rest[2..]);
                        if (0xd800..0xdc00).contains(&r) && (0xdc00..0xe000).contains(&r2) {
                            i += 6;
                            push_char(dst, 0x10000 + ((r - 0xd800) << 10) + (r2 - 0xdc00));
                            continue;
                        }
                    }
                    r = 0xfffd;
                }
                push_char(dst, r);
            }
            _ => dst.push(e), // '"', '\\', '/'
        }
    }
}

fn push_char(dst: &mut Vec<u8>, r: u32) {
    let c = char::from_u32(r).unwrap_or('\u{fffd}');
    let mut b = [0u8; 4];
    dst.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
}

fn hex4(b: &[u8]) -> u32 {
    let mut r = 0;
    for &c in b.iter().take(4) {
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => c.wrapping_sub(b'A').wrapping_add(10),
        };
        r = r << 4 | (v as u32 & 0xf);
    }
    r
}

/// quote_byte quotes the byte c, read as a Latin-1 character, in single
/// quotes for an error message: printable characters as themselves, `'`
/// and `\` backslash-escaped, \a \b \f \n \r \t \v, \xNN for other
/// control bytes and DEL, \u00NN for U+0080..=U+00A0 and U+00AD.
fn quote_byte(c: u8) -> String {
    let body: String = match c {
        b'\'' => "\\'".into(),
        b'\\' => "\\\\".into(),
        7 => "\\a".into(),
        8 => "\\b".into(),
        12 => "\\f".into(),
        b'\n' => "\\n".into(),
        b'\r' => "\\r".into(),
        b'\t' => "\\t".into(),
        11 => "\\v".into(),
        0..=0x1f | 0x7f => cat(&["\\x", &hex(c, 2)]),
        0x80..=0xa0 | 0xad => cat(&["\\u", &hex(c, 4)]),
        _ => char::from(c).to_string(),
    };
    cat(&["'", &body, "'"])
}

/// cat joins parts (the error messages are built without core::fmt, which
/// would add ~11 KB to every plugin using the reader).
fn cat(parts: &[&str]) -> String {
    parts.concat()
}

/// num is n in decimal.
fn num(n: usize) -> String {
    let mut b = Vec::new();
    crate::write::append_uint(&mut b, n as u64);
    String::from_utf8(b).unwrap_or_default()
}

/// hex is c in lower-case hexadecimal, zero-padded to width digits.
fn hex(c: u8, width: usize) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(width);
    for i in (0..width).rev() {
        s.push(if i < 2 { DIGITS[usize::from(c >> (4 * i)) & 15] as char } else { '0' });
    }
    s
}

const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// html_safe reports whether the ASCII byte c stands unescaped in a JSON
/// string: the printable ones except '"', '\\' and, escaped for HTML,
/// '<', '>' and '&'.
fn html_safe(c: u8) -> bool {
    (0x20..0x80).contains(&c) && !matches!(c, b'"' | b'\\' | b'<' | b'>' | b'&')
}

/// decode_rune returns the character at the start of b (non-empty) and its
/// length, or U+FFFD and 1 where b does not start with valid UTF-8.
fn decode_rune(b: &[u8]) -> (u32, usize) {
    let c0 = b[0];
    if c0 < 0x80 {
        return (c0 as u32, 1);
    }
    let (n, lo, hi) = match c0 {
        0xc2..=0xdf => (2, 0x80, 0xbf),
        0xe0 => (3, 0xa0, 0xbf),
        0xe1..=0xec | 0xee..=0xef => (3, 0x80, 0xbf),
        0xed => (3, 0x80, 0x9f),
        0xf0 => (4, 0x90, 0xbf),
        0xf1..=0xf3 => (4, 0x80, 0xbf),
        0xf4 => (4, 0x80, 0x8f),
        _ => return (0xfffd, 1),
    };
    if b.len() < n || b[1] < lo || b[1] > hi || b[2..n].iter().any(|&c| !(0x80..=0xbf).contains(&c)) {
        return (0xfffd, 1);
    }
    let mut r = (c0 as u32) & (0x7f >> n);
    for &c in &b[1..n] {
        r = r << 6 | (c as u32 & 0x3f);
    }
    (r, n)
}

/// append_quote appends s to dst as a JSON string, escaped as every
/// request body escapes strings: '"' and '\\' with a backslash;
/// \b, \f, \n, \r and \t in short form; other control characters, '<',
/// '>' and '&' as \u00XX; U+2028 and U+2029 as \u2028 and \u2029; each
/// byte of invalid UTF-8 as \ufffd.
pub fn append_quote(dst: &mut Vec<u8>, s: &[u8]) {
    dst.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c < 0x80 {
            if html_safe(c) {
                i += 1;
                continue;
            }
            dst.extend_from_slice(&s[start..i]);
            match c {
                b'"' | b'\\' => dst.extend_from_slice(&[b'\\', c]),
                8 => dst.extend_from_slice(b"\\b"),
                12 => dst.extend_from_slice(b"\\f"),
                b'\n' => dst.extend_from_slice(b"\\n"),
                b'\r' => dst.extend_from_slice(b"\\r"),
                b'\t' => dst.extend_from_slice(b"\\t"),
                _ => dst.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX_DIGITS[(c >> 4) as usize],
                    HEX_DIGITS[(c & 0xf) as usize],
                ]),
            }
            i += 1;
            start = i;
            continue;
        }
        let (r, n) = decode_rune(&s[i..]);
        if r == 0xfffd && n == 1 {
            dst.extend_from_slice(&s[start..i]);
            dst.extend_from_slice(b"\\ufffd");
        } else if r == 0x2028 || r == 0x2029 {
            dst.extend_from_slice(&s[start..i]);
            dst.extend_from_slice(&[b'\\', b'u', b'2', b'0', b'2', HEX_DIGITS[(r & 0xf) as usize]]);
        } else {
            i += n;
            continue;
        }
        i += n;
        start = i;
    }
    dst.extend_from_slice(&s[start..]);
    dst.push(b'"');
}

/// append_compact appends the valid JSON text src to dst without
/// insignificant whitespace, and with '<', '>', '&', U+2028 and U+2029 in
/// strings escaped as in append_quote. src should be valid JSON (as the
/// Decoder accepts it); on other input it does not panic.
pub fn append_compact(dst: &mut Vec<u8>, src: &[u8]) {
    let mut in_string = false;
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        i += 1;
        if !in_string {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => continue,
                b'"' => in_string = true,
                _ => {}
            }
            dst.push(c);
            continue;
        }
        match c {
            b'"' => in_string = false,
            b'\\' => {
                dst.push(c);
                if let Some(&e) = src.get(i) {
                    dst.push(e);
                    i += 1;
                }
                continue;
            }
            b'<' | b'>' | b'&' => {
                dst.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX_DIGITS[(c >> 4) as usize],
                    HEX_DIGITS[(c & 0xf) as usize],
                ]);
                continue;
            }
            0xe2 if i + 1 < src.len() && src[i] == 0x80 && src[i + 1] & !1 == 0xa8 => {
                dst.extend_from_slice(&[b'\\', b'u', b'2', b'0', b'2', HEX_DIGITS[(src[i + 1] & 0xf) as usize]]);
                i += 2;
                continue;
            }
            _ => {}
        }
        dst.push(c);
    }
}

/// CURSOR_DEPTH is how many containers [`Cursor::skip`] and
/// [`Cursor::value`] follow open at once (one bit each of a u64); a
/// deeper one gives up. Far below [`MAX_DEPTH`], so what the cursor
/// accepts the Decoder accepts.
const CURSOR_DEPTH: u32 = 64;

/// Cursor reads data forward from pos without callbacks: the provider
/// decoders' fast readers, one each, that take the texts servers send
/// nearly always and give up on anything else. Every method returns None
/// where the fast path gives up (a syntax error, a kind the method does
/// not take, an escaped key, an integer the general reader must judge);
/// it never accepts a text the [`Decoder`] rejects, so the caller reads
/// the text again with the Decoder after None. The small methods are
/// inlined so that the cursor lives in registers; the walk of a skipped
/// container is not. A reader starts one as `Cursor { data, pos: 0 }`.
pub struct Cursor<'a> {
    /// data is the whole text read.
    pub data: &'a [u8],
    /// pos is the offset of the next byte to read.
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    /// space skips whitespace, testing the first byte before any loop.
    #[inline(always)]
    pub fn space(&mut self) {
        if let Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') = self.data.get(self.pos) {
            self.pos += 1;
            while let Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') = self.data.get(self.pos) {
                self.pos += 1;
            }
        }
    }

    /// peek returns the next byte after whitespace.
    #[inline(always)]
    pub fn peek(&mut self) -> Option<u8> {
        self.space();
        self.data.get(self.pos).copied()
    }

    /// open consumes the opening byte of a container and reports whether
    /// a member follows; an empty container is consumed whole (false).
    #[inline(always)]
    pub fn open(&mut self, open: u8, close: u8) -> Option<bool> {
        if self.peek()? != open {
            return None;
        }
        self.pos += 1;
        if self.peek()? == close {
            self.pos += 1;
            return Some(false);
        }
        Some(true)
    }

    /// next consumes what follows a member or element: a comma (true,
    /// another follows) or close (false, the container ended).
    #[inline(always)]
    pub fn next(&mut self, close: u8) -> Option<bool> {
        let c = self.peek()?;
        self.pos += 1;
        if c == b',' {
            Some(true)
        } else if c == close {
            Some(false)
        } else {
            None
        }
    }

    /// member reads an object key, escaped or not, and its colon, and
    /// returns the key as it appears in the text; pos is then right after
    /// the colon.
    #[inline(always)]
    pub fn member(&mut self) -> Option<Str<'a>> {
        self.space();
        let (k, end) = Str::at(self.data, self.pos)?;
        self.pos = end;
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        Some(k)
    }

    /// key reads an object key and its colon and returns the key's
    /// content; an escaped key gives up (the general reader unescapes it
    /// before matching). A key with bytes above ASCII is returned raw: it
    /// matches no field name either way.
    #[inline(always)]
    pub fn key(&mut self) -> Option<&'a [u8]> {
        self.member()?.plain()
    }

    /// str reads a string, or null as the nil Str; another kind gives up
    /// (a type error is the general reader's).
    #[inline(always)]
    pub fn str(&mut self) -> Option<Str<'a>> {
        if self.peek()? == b'"' {
            let (s, end) = Str::at(self.data, self.pos)?;
            self.pos = end;
            return Some(s);
        }
        self.null()??;
        Some(Str::default())
    }

    /// bool reads true or false, null as false.
    #[inline(always)]
    pub fn bool(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' if matches!(self.data.get(self.pos..self.pos + 4), Some(b"true")) => {
                self.pos += 4;
                Some(true)
            }
            b'f' if matches!(self.data.get(self.pos..self.pos + 5), Some(b"false")) => {
                self.pos += 5;
                Some(false)
            }
            _ => {
                self.null()??;
                Some(false)
            }
        }
    }

    /// null reads null and returns its text, Some(None) when another
    /// value follows (left unread), None when the text ends.
    #[inline(always)]
    pub fn null(&mut self) -> Option<Option<&'a [u8]>> {
        if self.peek()? != b'n' {
            return Some(None);
        }
        let text = self.data.get(self.pos..self.pos + 4)?;
        if !matches!(text, b"null") {
            return None;
        }
        self.pos += 4;
        Some(Some(text))
    }

    /// scalar skips a string, number, true, false or null; a container
    /// gives up.
    #[inline(always)]
    pub fn scalar(&mut self) -> Option<()> {
        let c = self.peek()?;
        let p = self.pos;
        let n = match c {
            b'"' => {
                self.pos = Str::at(self.data, p)?.1;
                return Some(());
            }
            // Slice patterns: byte compares, where == would call memcmp.
            b't' if matches!(self.data.get(p..p + 4), Some(b"true")) => 4,
            b'f' if matches!(self.data.get(p..p + 5), Some(b"false")) => 5,
            b'n' if matches!(self.data.get(p..p + 4), Some(b"null")) => 4,
            _ => {
                self.number()?;
                return Some(());
            }
        };
        self.pos += n;
        Some(())
    }

    /// number skips a number in JSON's grammar and returns its text.
    #[inline(always)]
    pub fn number(&mut self) -> Option<&'a [u8]> {
        let start = self.pos;
        self.pos = number_end(self.data, start).ok()?;
        self.data.get(start..self.pos)
    }

    /// int reads an integer of at most 18 digits (null gives None);
    /// anything else gives up (the general reader decides whether it is a
    /// type error).
    #[inline(always)]
    pub fn int(&mut self) -> Option<Option<i64>> {
        if self.null()?.is_some() {
            return Some(None);
        }
        let text = self.number()?;
        let (neg, digits) = match text.split_first()? {
            (b'-', rest) => (true, rest),
            _ => (false, text),
        };
        if digits.len() > 18 {
            return None;
        }
        let mut v: i64 = 0;
        for &c in digits {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + (c - b'0') as i64;
        }
        Some(Some(if neg { -v } else { v }))
    }

    /// value skips a value of any kind, validating it as the Decoder's
    /// skip does, and returns its text (as [`Decoder::raw`] does): a scalar
    /// inline, a container with [`Cursor::container`].
    #[inline(always)]
    pub fn value(&mut self) -> Option<&'a [u8]> {
        let c = self.peek()?;
        let start = self.pos;
        if c == b'{' || c == b'[' {
            self.container()?;
        } else {
            self.scalar()?;
        }
        self.data.get(start..self.pos)
    }

    /// skip is value without its text, in one call: where a decoder skips
    /// a value in a dozen places, inlining it there made the plugin larger
    /// and no faster in wasm.
    #[inline(never)]
    pub fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' | b'[' => self.container(),
            _ => self.scalar(),
        }
    }

    /// container skips the array or object at pos, validating it as the
    /// Decoder does, without recursion: the open containers are bits of a
    /// u64 (set for an object), so more than [`CURSOR_DEPTH`] open at once
    /// give up. Not inlined: containers are rarer than scalars in what the
    /// readers skip.
    #[inline(never)]
    fn container(&mut self) -> Option<()> {
        let (mut objects, mut depth) = (0u64, 0u32);
        loop {
            // A value starts here.
            match self.peek()? {
                c @ (b'{' | b'[') => {
                    if depth == CURSOR_DEPTH {
                        return None;
                    }
                    self.pos += 1;
                    let object = c == b'{';
                    let close = c + 2; // '}' and ']' follow '{' and '[' by two
                    if self.peek()? != close {
                        objects = objects << 1 | object as u64;
                        depth += 1;
                        if object {
                            self.member()?;
                        }
                        continue;
                    }
                    self.pos += 1;
                }
                _ => self.scalar()?,
            }
            // A value ended; close the containers it completes.
            loop {
                if depth == 0 {
                    return Some(());
                }
                let object = objects & 1 != 0;
                if self.next(if object { b'}' } else { b']' })? {
                    if object {
                        self.member()?;
                    }
                    break;
                }
                objects >>= 1;
                depth -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip_all(input: &[u8]) -> Result<(), String> {
        let mut d = Decoder::new(input);
        d.skip();
        d.finish().map_err(|e| e.to_string())
    }

    #[test]
    fn validity_and_syntax_errors() {
        let ends =
            |at: usize, place: &str| format!("the input ends at offset {} {}; the JSON text is incomplete", at, place);
        let bad = |c: &str, at: usize, place: &str| format!("invalid character {} at offset {} {}", c, at, place);
        let cases: Vec<(&str, &[u8], Result<(), String>)> = vec![
            ("empty input", b"", Err(ends(0, "looking for the beginning of a value"))),
            ("whitespace only", b" \t\r\n", Err(ends(4, "looking for the beginning of a value"))),
            ("null", b"null", Ok(())),
            ("true with spaces", b" true ", Ok(())),
            ("false", b"false", Ok(())),
            ("truncated literal", b"tru", Err(ends(3, "in the literal true"))),
            ("misspelt literal", b"nul1", Err(bad("'1'", 3, "in the literal null"))),
            ("truncated false", b"fals", Err(ends(4, "in the literal false"))),
            ("zero", b"0", Ok(())),
            ("negative fraction exponent", b"-12.5e+3", Ok(())),
            ("leading zero", b"01", Err(bad("'1'", 1, "after the top-level value"))),
            ("bare minus", b"-", Err(ends(1, "in a number, looking for a digit"))),
            ("minus and a letter", b"-x", Err(bad("'x'", 1, "in a number, looking for a digit"))),
            ("fraction without digits", b"1.", Err(ends(2, "after the decimal point in a number"))),
            ("fraction with a letter", b"1.x", Err(bad("'x'", 2, "after the decimal point in a number"))),
            ("exponent without digits", b"1e+", Err(ends(3, "in the exponent of a number"))),
            ("int64 overflow", b"9223372036854775808", Ok(())),
            ("string", "\"h\u{e9}llo\"".as_bytes(), Ok(())),
            ("escapes", br#""a\"b\\c\/d\b\f\n\r\t""#, Ok(())),
            ("surrogate pair", br#""\ud83d\ude00""#, Ok(())),
            ("invalid utf-8", b"\"a\xffb\"", Ok(())),
            ("bad escape", br#""\x""#, Err(bad("'x'", 2, "in a string literal"))),
            ("short unicode escape", br#""\u12""#, Err(bad("'\"'", 5, "in a string literal"))),
            ("raw control character", b"\"a\nb\"", Err(bad("'\\n'", 2, "in a string literal"))),
            ("unterminated string", b"\"abc", Err(ends(4, "in a string literal"))),
            ("unterminated after a high byte", b"\"a\xe9", Err(ends(3, "in a string literal"))),
            ("empty object", b"{}", Ok(())),
            ("empty array", b"[ ]", Ok(())),
            ("nested", br#"{"a":[1,{"b":null}],"c":{"d":"e"}}"#, Ok(())),
            ("trailing comma in object", br#"{"a":1,}"#, Err(bad("'}'", 7, "looking for an object key"))),
            ("trailing comma in array", b"[1,]", Err(bad("']'", 3, "looking for the beginning of a value"))),
            ("missing colon", br#"{"a" 1}"#, Err(bad("'1'", 5, "after an object key"))),
            ("key without a value", br#"{"a"}"#, Err(bad("'}'", 4, "after an object key"))),
            ("unquoted key", b"{a:1}", Err(bad("'a'", 1, "looking for an object key"))),
            ("unclosed array", b"[1,2", Err(ends(4, "inside an unclosed object or array"))),
            ("unclosed after a comma", b"[1,2,", Err(ends(5, "looking for the beginning of a value"))),
            ("mismatched close", b"[1}", Err(bad("'}'", 2, "after an array element"))),
            ("missing comma in array", b"[1 2]", Err(bad("'2'", 3, "after an array element"))),
            ("missing comma in object", br#"{"a":1 "b"}"#, Err(bad("'\"'", 7, "after an object member"))),
            ("two values", b"1 2", Err(bad("'2'", 2, "after the top-level value"))),
            ("trailing garbage", b"{} x", Err(bad("'x'", 3, "after the top-level value"))),
            ("delete", b"\x7f", Err(bad("'\\x7f'", 0, "looking for the beginning of a value"))),
            ("nul", b"\x00", Err(bad("'\\x00'", 0, "looking for the beginning of a value"))),
            ("no-break space", b"\xa0", Err(bad("'\\u00a0'", 0, "looking for the beginning of a value"))),
            ("latin-1 letter", b"\xe9", Err(bad("'\u{e9}'", 0, "looking for the beginning of a value"))),
            ("apostrophe", b"'x'", Err(bad("'\\''", 0, "looking for the beginning of a value"))),
            ("backslash", b"\\", Err(bad("'\\\\'", 0, "looking for the beginning of a value"))),
        ];
        for (name, input, want) in cases {
            assert_eq!(skip_all(input), want, "{}: skip+finish({:?})", name, String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn depth_limit() {
        for (depth, ok) in [(MAX_DEPTH, true), (MAX_DEPTH + 1, false)] {
            let mut input = vec![b'['; depth];
            input.extend(vec![b']'; depth]);
            let want =
                if ok { Ok(()) } else { Err("nesting at offset 10000 exceeds the limit of 10000 levels".to_string()) };
            assert_eq!(skip_all(&input), want, "depth {}", depth);
            // The reading methods count toward the same limit.
            fn nest(d: &mut Decoder) {
                d.array(|d| nest(d));
            }
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn(move || {
                    let mut d = Decoder::new(&input);
                    nest(&mut d);
                    assert_eq!(d.finish().map_err(|e| e.to_string()), want, "depth {} through array", depth);
                })
                .unwrap()
                .join()
                .unwrap();
        }
    }

    #[test]
    fn deep_mixed_nesting() {
        // 300 levels, '[' and '{' alternating, across the stack's inline
        // part and into its vector.
        let mut open = Vec::new();
        let mut close = Vec::new();
        for i in 0..300 {
            if i % 2 == 0 {
                open.push(b'[');
                close.insert(0, b']');
            } else {
                open.extend_from_slice(b"{\"k\":");
                close.insert(0, b'}');
            }
        }
        let mut good = open.clone();
        good.push(b'1');
        good.extend_from_slice(&close);
        assert_eq!(skip_all(&good), Ok(()));
        // A wrong closer at each depth is named as the container it meets.
        for depth in [1, 255, 256, 257, 300] {
            let mut bad = good.clone();
            let at = open.len() + 1 + 300 - depth;
            bad[at] = if bad[at] == b']' { b'}' } else { b']' };
            let place = if good[at] == b'}' { "after an object member" } else { "after an array element" };
            let want = format!("invalid character '{}' at offset {} {}", bad[at] as char, at, place);
            assert_eq!(skip_all(&bad), Err(want), "wrong closer at depth {}", depth);
        }
    }

    #[derive(Debug, Default, PartialEq)]
    struct Chunk {
        id: String,
        text: String,
        index: Option<i64>,
        done: bool,
        raw: String,
        empty: bool,
        encrypted: bool,
    }

    fn read_chunk(input: &str) -> (Chunk, Result<(), Error>) {
        let mut d = Decoder::new(input.as_bytes());
        let mut got = Chunk::default();
        d.object(|d, key| match key {
            b"id" => got.id = d.str().string(),
            b"delta" => d.object(|d, key| {
                if key == b"text" {
                    got.text = d.str().string();
                }
            }),
            b"index" => got.index = d.int(),
            b"done" => got.done = d.bool(),
            b"usage" => got.raw = String::from_utf8_lossy(d.raw().unwrap_or_default()).into_owned(),
            b"empty" => got.empty = d.str().empty(),
            b"type" => got.encrypted = d.str().equal("enc"),
            _ => {}
        });
        let err = d.finish();
        (got, err)
    }

    #[test]
    fn reading_methods() {
        let cases: Vec<(&str, &str, Chunk, &str)> = vec![
            (
                "fields of every kind",
                r#"{"id":"r1","delta":{"text":"a\u00e9\n"},"index":3,"done":true,"usage":{"n":[1,2]},"empty":"","type":"enc"}"#,
                Chunk {
                    id: "r1".into(),
                    text: "a\u{e9}\n".into(),
                    index: Some(3),
                    done: true,
                    raw: r#"{"n":[1,2]}"#.into(),
                    empty: true,
                    encrypted: true,
                },
                "",
            ),
            (
                "nulls read as absent",
                r#"{"id":null,"delta":null,"index":null,"done":null,"usage":null,"empty":null}"#,
                Chunk { raw: "null".into(), empty: true, ..Chunk::default() },
                "",
            ),
            (
                "unknown keys are skipped",
                r#"{"x":{"deep":[{"y":[]}]},"id":"a","z":[true,false,null]}"#,
                Chunk { id: "a".into(), ..Chunk::default() },
                "",
            ),
            (
                "a string where an integer belongs is a type error",
                r#"{"index":"3","id":"still read"}"#,
                Chunk { id: "still read".into(), ..Chunk::default() },
                "value at offset 9: found string, want number",
            ),
            (
                "a fraction where an integer belongs is a type error",
                r#"{"index":1.5}"#,
                Chunk::default(),
                "value at offset 9: the number 1.5 is not an integer that fits 64 bits",
            ),
            (
                "a syntax error wins over an earlier type error",
                r#"{"index":"3","id":"a",}"#,
                Chunk { id: "a".into(), ..Chunk::default() },
                "invalid character '}' at offset 22 looking for an object key",
            ),
            (
                "truncated text",
                r#"{"id":"a""#,
                Chunk { id: "a".into(), ..Chunk::default() },
                "the input ends at offset 9 after an object member; the JSON text is incomplete",
            ),
        ];
        for (name, input, want, want_err) in cases {
            let (got, err) = read_chunk(input);
            assert_eq!(got, want, "{}", name);
            assert_eq!(err.err().map(|e| e.to_string()).unwrap_or_default(), want_err, "{}", name);
        }
    }

    #[test]
    fn skip_digits_stops_at_the_first_non_digit() {
        for len in 0..20 {
            for other in [b'/', b':', b'.', b'e', 0x00, 0xff, 0xfa, 0x30 + 0x80] {
                for at in 0..=len {
                    let mut s = vec![b'7'; len];
                    if at < len {
                        s[at] = other;
                    }
                    let want = s.iter().position(|c| !c.is_ascii_digit()).unwrap_or(len);
                    assert_eq!(skip_digits(&s, 0), want, "{:?}", s);
                }
            }
        }
        // A carry out of a byte above the first non-digit is no match.
        assert_eq!(skip_digits(b"12\xff9\xfa99999999", 0), 2);
    }

    #[test]
    fn ints() {
        let not_int = |n: &str| Err(format!("value at offset 1: the number {} is not an integer that fits 64 bits", n));
        let cases: Vec<(&str, Option<i64>, Result<(), String>)> = vec![
            ("12", Some(12), Ok(())),
            ("-0", Some(0), Ok(())),
            ("null", None, Ok(())),
            ("9223372036854775807", Some(i64::MAX), Ok(())),
            ("-9223372036854775808", Some(i64::MIN), Ok(())),
            ("9223372036854775808", None, not_int("9223372036854775808")),
            ("-9223372036854775809", None, not_int("-9223372036854775809")),
            ("99999999999999999999", None, not_int("99999999999999999999")),
            ("1.5", None, not_int("1.5")),
            ("1e2", None, not_int("1e2")),
            ("\"x\"", None, Err("value at offset 1: found string, want number".into())),
            ("true", None, Err("value at offset 1: found boolean, want number".into())),
            (
                "1.",
                None,
                Err("the input ends at offset 3 after the decimal point in a number; the JSON text is incomplete"
                    .into()),
            ),
        ];
        for (input, want, want_err) in cases {
            let text = format!(" {}", input);
            let mut d = Decoder::new(text.as_bytes());
            assert_eq!(d.int(), want, "int({})", input);
            assert_eq!(d.finish().map_err(|e| e.to_string()), want_err, "int({})", input);
        }
    }

    #[test]
    fn mismatches() {
        let inputs = [
            ("\"x\"", Kind::Str),
            ("[1]", Kind::Array),
            ("{}", Kind::Object),
            ("true", Kind::Bool),
            ("12", Kind::Number),
        ];
        for (input, kind) in inputs {
            for want in [Kind::Str, Kind::Bool, Kind::Object, Kind::Array] {
                let mut d = Decoder::new(input.as_bytes());
                match want {
                    Kind::Str => assert!(d.str().is_nil() == (kind != Kind::Str)),
                    Kind::Bool => assert!(d.bool() == (kind == Kind::Bool)),
                    Kind::Object => d.object(|_, _| {}),
                    _ => d.array(|_| {}),
                }
                let expect = if kind == want {
                    Ok(())
                } else {
                    Err(format!("value at offset 0: found {}, want {}", kind, want))
                };
                assert_eq!(d.finish().map_err(|e| e.to_string()), expect, "{} read as {}", input, want);
            }
        }
    }

    #[test]
    fn peek_kinds() {
        let cases: [(&[u8], Kind); 10] = [
            (b" {", Kind::Object),
            (b"[", Kind::Array),
            (b"\"", Kind::Str),
            (b"t", Kind::Bool),
            (b"f", Kind::Bool),
            (b"n", Kind::Null),
            (b"-", Kind::Number),
            (b"7", Kind::Number),
            (b"x", Kind::Invalid),
            (b"  ", Kind::Invalid),
        ];
        for (input, want) in cases {
            let mut d = Decoder::new(input);
            assert_eq!(d.peek(), want, "peek({:?})", input);
        }
    }

    #[test]
    fn unquoting() {
        let cases: [(&str, &[u8], &str); 11] = [
            ("plain", br#""abc""#, "abc"),
            ("empty", br#""""#, ""),
            ("escapes", br#""a\"b\\c\/d\b\f\n\r\t""#, "a\"b\\c/d\u{8}\u{c}\n\r\t"),
            ("unicode escape", br#""\u00e9\u4e16""#, "\u{e9}\u{4e16}"),
            ("surrogate pair", br#""\ud83d\ude00""#, "\u{1f600}"),
            ("lone high surrogate", br#""\ud83dx""#, "\u{fffd}x"),
            ("high surrogate before a non-surrogate escape", br#""\ud83d\u0041""#, "\u{fffd}A"),
            ("lone low surrogate", br#""\ude00\ud83d""#, "\u{fffd}\u{fffd}"),
            ("invalid utf-8, a replacement per byte", b"\"a\xe6\x80b\xff\"", "a\u{fffd}\u{fffd}b\u{fffd}"),
            ("encoded surrogate", b"\"\xed\xa0\x80\\n\"", "\u{fffd}\u{fffd}\u{fffd}\n"),
            ("valid multi-byte next to an escape", "\"\u{e9}\\t\u{4e16}\"".as_bytes(), "\u{e9}\t\u{4e16}"),
        ];
        for (name, input, want) in cases {
            let mut d = Decoder::new(input);
            let s = d.str();
            assert_eq!(d.finish(), Ok(()), "{}", name);
            assert_eq!(s.raw(), Some(input), "{}", name);
            assert_eq!(s.unquoted(), want, "{}", name);
            assert_eq!(s.string(), want, "{}", name);
            assert_eq!(s.bytes(), Some(want.as_bytes().to_vec()), "{}", name);
            assert!(s.equal(want), "{}", name);
            assert!(!s.equal("something else"), "{}", name);
            assert_eq!(s.empty(), input.len() == 2, "{}", name);
            let borrowed = matches!(s.unquoted(), Cow::Borrowed(_));
            assert_eq!(borrowed, !input.contains(&b'\\') && std::str::from_utf8(input).is_ok(), "{}: borrowed", name);
        }
    }

    #[test]
    fn nil_strings() {
        for input in ["null", "1", "x"] {
            let mut d = Decoder::new(input.as_bytes());
            let s = d.str();
            assert!(s.is_nil() && s.empty() && s.raw().is_none() && s.bytes().is_none() && s.equal(""), "{}", input);
            assert_eq!(s.string(), "", "{}", input);
        }
        let s = Decoder::new(b"\"\"").str();
        assert!(!s.is_nil() && s.empty());
        assert_eq!(s.bytes(), Some(Vec::new()));
    }

    #[test]
    fn keys() {
        let input = b"{\"plain\":1,\"\\u0061\\n\":{\"\\u00e9\":2,\"x\\ud800\":3},\"h\\u00e9\":[{\"\\/\":4}],\"caf\xc3\xa9\":5,\"bad\xff\":6}";
        let mut keys = Vec::new();
        let mut d = Decoder::new(input);
        fn walk(d: &mut Decoder, keys: &mut Vec<Vec<u8>>) {
            match d.peek() {
                Kind::Object => d.object(|d, key| {
                    let outer = key.to_vec();
                    walk(d, keys);
                    // A nested escaped key leaves this one intact.
                    assert_eq!(key, &outer[..]);
                    keys.push(outer);
                }),
                Kind::Array => d.array(|d| walk(d, keys)),
                _ => {}
            }
        }
        walk(&mut d, &mut keys);
        assert_eq!(d.finish(), Ok(()));
        let want: Vec<&[u8]> = vec![
            b"plain",
            "\u{e9}".as_bytes(),
            "x\u{fffd}".as_bytes(),
            b"a\n",
            b"/",
            "h\u{e9}".as_bytes(),
            "caf\u{e9}".as_bytes(),
            "bad\u{fffd}".as_bytes(),
        ];
        assert_eq!(keys, want);
    }

    #[test]
    fn unread_values_are_skipped_and_validated() {
        let mut d = Decoder::new(br#"{"a":[1,{"b":2}],"c":"d"} "#);
        let mut seen = 0;
        d.object(|d, _| {
            seen += 1;
            assert!(!d.null());
        });
        assert_eq!((seen, d.finish()), (2, Ok(())));
        let mut d = Decoder::new(br#"[[1,tru],2]"#);
        let mut n = 0;
        d.array(|_| n += 1);
        assert_eq!(n, 1);
        assert_eq!(d.finish().unwrap_err().to_string(), "invalid character ']' at offset 7 in the literal true");
    }

    #[test]
    fn after_a_syntax_error_reads_are_empty() {
        let mut d = Decoder::new(b"[1,x] \"s\" true 3 null");
        d.skip();
        assert_eq!(d.peek(), Kind::Invalid);
        assert!(d.str().is_nil());
        assert!(!d.bool());
        assert_eq!(d.int(), None);
        assert!(!d.null());
        assert_eq!(d.raw(), None);
        let mut called = false;
        d.object(|_, _| called = true);
        d.array(|_| called = true);
        assert!(!called);
        assert_eq!(
            d.finish().unwrap_err().to_string(),
            "invalid character 'x' at offset 3 looking for the beginning of a value"
        );
    }

    #[test]
    fn raw_and_reset() {
        let mut d = Decoder::new(b" {\"a\" : [1, \"x\"]} ");
        assert_eq!(d.raw(), Some(&b"{\"a\" : [1, \"x\"]}"[..]));
        assert_eq!(d.finish(), Ok(()));
        d.reset(b"nul");
        assert_eq!(d.raw(), None);
        assert!(d.finish().is_err());
        d.reset(b"true");
        assert!(d.bool());
        assert_eq!(d.finish(), Ok(()), "reset forgets the earlier error");
    }

    fn quote(s: &[u8]) -> String {
        let mut out = Vec::new();
        append_quote(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn append_quote_escapes_as_json_marshal() {
        let cases: [(&[u8], &str); 9] = [
            (b"abc", r#""abc""#),
            (br#"a"b\c"#, r#""a\"b\\c""#),
            (b"\x08\x0c\n\r\t", r#""\b\f\n\r\t""#),
            (b"\x00\x1f\x7f", "\"\\u0000\\u001f\x7f\""),
            (b"<a&b>", r#""\u003ca\u0026b\u003e""#),
            ("\u{2028}\u{2029}".as_bytes(), r#""\u2028\u2029""#),
            (b"a\xffb\xc3", r#""a\ufffdb\ufffd""#),
            (b"\xe6\x80(\xed\xa0\x80", r#""\ufffd\ufffd(\ufffd\ufffd\ufffd""#),
            ("\u{e9}\u{4e16}\u{1f600}".as_bytes(), "\"\u{e9}\u{4e16}\u{1f600}\""),
        ];
        for (input, want) in cases {
            assert_eq!(quote(input), want, "append_quote({:?})", input);
        }
    }

    #[test]
    fn append_compact_writes_as_json_marshal() {
        let cases: [(&[u8], &[u8]); 7] = [
            (b" { \"a\" :\t[1 ,\n2 ] }\r\n", br#"{"a":[1,2]}"#),
            (br#""a b""#, br#""a b""#),
            (br#""a\"b\\""#, br#""a\"b\\""#),
            (br#"{"k":"<&>"}"#, br#"{"k":"\u003c\u0026\u003e"}"#),
            ("\"\u{2028}\u{2029}\"".as_bytes(), br#""\u2028\u2029""#),
            (b"\"\xe2\x80\"", b"\"\xe2\x80\""),
            (b"\"a\\", b"\"a\\"), // not JSON (Go's panics here); no panic
        ];
        for (input, want) in cases {
            let mut out = b"prefix".to_vec();
            append_compact(&mut out, input);
            assert_eq!(&out[6..], want, "append_compact({:?})", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn decode_rune_reads_as_go() {
        let cases: [(&[u8], (u32, usize)); 9] = [
            (b"a", (0x61, 1)),
            ("\u{e9}".as_bytes(), (0xe9, 2)),
            ("\u{fffd}".as_bytes(), (0xfffd, 3)),
            ("\u{10ffff}".as_bytes(), (0x10ffff, 4)),
            (b"\xc0\x80", (0xfffd, 1)),
            (b"\xe0\x9f\xbf", (0xfffd, 1)),
            (b"\xed\xa0\x80", (0xfffd, 1)),
            (b"\xf4\x90\x80\x80", (0xfffd, 1)),
            (b"\xf0\x9f\x98", (0xfffd, 1)),
        ];
        for (input, want) in cases {
            assert_eq!(decode_rune(input), want, "{:?}", input);
        }
    }

    /// scan_string_by_bytes is scan_string one byte at a time: the
    /// reference the word and SIMD paths are held to.
    fn scan_string_by_bytes(data: &[u8], pos: usize) -> (usize, u8) {
        let mut flags = 0;
        let mut i = pos + 1;
        while i < data.len() {
            match data[i] {
                b'"' => return (i + 1, flags),
                b'\\' => {
                    flags |= STRING_ESCAPED;
                    i += 1;
                    match data.get(i) {
                        Some(b'"') | Some(b'\\') | Some(b'/') | Some(b'b') | Some(b'f') | Some(b'n') | Some(b'r')
                        | Some(b't') => i += 1,
                        Some(b'u') => {
                            for _ in 0..4 {
                                i += 1;
                                match data.get(i) {
                                    Some(c) if c.is_ascii_hexdigit() => {}
                                    _ => return (i, flags | STRING_BAD),
                                }
                            }
                            i += 1;
                        }
                        _ => return (i, flags | STRING_BAD),
                    }
                }
                0..=0x1f => return (i, flags | STRING_BAD),
                0x80..=0xff => {
                    flags |= STRING_HIGH;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        (data.len(), flags | STRING_BAD)
    }

    /// Every string of up to 70 bytes with one or two special bytes (a
    /// quote, a backslash escape, a control byte, a byte above ASCII) at
    /// every pair of offsets, after every start offset, scans as byte by
    /// byte — natively (the word path) and, in a wasm test build with
    /// SIMD, the SIMD path.
    #[test]
    fn scan_string_matches_a_byte_scan() {
        let specials: [&[u8]; 6] = [b"\"", b"\\n", b"\\u00e9", b"\x01", b"\xc3\xa9", b"\\x"];
        let mut n = 0;
        for start in 0..3 {
            for len in 0..70 {
                for (a, sa) in specials.iter().enumerate() {
                    for at in (0..len).step_by(3) {
                        for sb in specials.iter().skip(a) {
                            for later in [at + 1, at + 9, at + 17, len] {
                                let mut data = vec![b' '; start];
                                data.push(b'"');
                                let mut body = vec![b'a'; len];
                                if later < len {
                                    body.splice(later..later + 1, sb.iter().copied());
                                }
                                body.splice(at..at + 1, sa.iter().copied());
                                data.extend_from_slice(&body);
                                data.push(b'"');
                                data.extend_from_slice(b"tail");
                                assert_eq!(
                                    scan_string(&data, start),
                                    scan_string_by_bytes(&data, start),
                                    "{:?} from {}",
                                    String::from_utf8_lossy(&data),
                                    start
                                );
                                n += 1;
                            }
                        }
                    }
                }
                let mut data = vec![b'"'];
                data.extend(std::iter::repeat(b'x').take(len));
                assert_eq!(scan_string(&data, 0), scan_string_by_bytes(&data, 0), "unterminated, {} bytes", len);
            }
        }
        assert!(n > 10_000, "{} cases", n);
    }

    #[test]
    fn same_compares_every_byte() {
        let a = b"rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9";
        assert!(same_bytes(a, a));
        for i in 0..a.len() {
            let mut b = *a;
            b[i] ^= 1;
            assert!(!same_bytes(a, &b), "byte {}", i);
        }
        assert!(!same_bytes(&a[..8], &a[..9]));
        assert!(same_bytes(b"", b""));
    }

    /// cursor_texts are values the cursor reads whole (true) or gives up
    /// on (false) at the top level.
    const CURSOR_TEXTS: &[(&str, &str, bool)] = &[
        ("string", r#""a\"b\u00e9 é""#, true),
        ("number", "-0.5e+10", true),
        ("literals", "[true,false,null]", true),
        ("spaced object", " { \"a\" : [ 1 , { } , [ ] ] ,\n\"\\u0062\" : \"x\" } ", true),
        ("nested", r#"{"a":{"b":[{"c":[[{"d":null}]]}]}}"#, true),
        ("empty containers", r#"[{},[],"",0]"#, true),
        ("leading zero", "01", false),
        ("trailing comma", "[1,]", false),
        ("missing colon", r#"{"a" 1}"#, false),
        ("mismatched close", r#"{"a":[1}]"#, false),
        ("bad literal", "nul", false),
        ("truncated", r#"{"a":"b"#, false),
        ("control character", "\"a\u{1}\"", false),
        ("key not a string", "{a:1}", false),
    ];

    /// The cursor's value and skip read what the Decoder's skip reads,
    /// and give up on what it rejects: for each text and each truncation
    /// and one-byte change of it, a value read through to the end of the
    /// text is one the Decoder accepts, with the same text.
    #[test]
    fn cursor_value_reads_as_the_decoder() {
        for &(name, text, whole) in CURSOR_TEXTS {
            let data = text.as_bytes();
            let mut r = Cursor { data, pos: 0 };
            let got = r.value();
            r.space();
            assert_eq!(got.is_some() && r.pos == data.len(), whole, "{}: read whole", name);
            if whole {
                assert_eq!(got, Some(text.trim().as_bytes()), "{}: text", name);
            }
            for n in 0..data.len() {
                for variant in [
                    data[..n].to_vec(),
                    [&data[..n], b"\"", &data[n + 1..]].concat(),
                    [&data[..n], b"]", &data[n + 1..]].concat(),
                    [&data[..n], b",", &data[n + 1..]].concat(),
                ] {
                    let mut r = Cursor { data: &variant, pos: 0 };
                    let value = r.value();
                    r.space();
                    let value_end = r.pos;
                    let mut s = Cursor { data: &variant, pos: 0 };
                    let skipped = s.skip();
                    s.space();
                    assert_eq!(
                        (value.is_some(), value_end),
                        (skipped.is_some(), s.pos),
                        "{}: value and skip differ on {:?}",
                        name,
                        String::from_utf8_lossy(&variant)
                    );
                    if value.is_some() && value_end == variant.len() {
                        assert!(
                            skip_all(&variant).is_ok(),
                            "{}: cursor read {:?}, the Decoder rejects it",
                            name,
                            String::from_utf8_lossy(&variant)
                        );
                    }
                }
            }
        }
    }

    /// The cursor follows CURSOR_DEPTH open containers and gives up on
    /// one more, empty or not, anywhere in a value.
    #[test]
    fn cursor_depth() {
        let nest = |n: usize, inner: &str| "[".repeat(n) + inner + &"]".repeat(n);
        let limit = CURSOR_DEPTH as usize;
        for (name, text, ok) in [
            ("at the limit", nest(limit, ""), true),
            ("at the limit, scalar inside", nest(limit, "1"), true),
            ("one deeper", nest(limit + 1, ""), false),
            ("one deeper inside an object", format!(r#"{{"a":{}}}"#, nest(limit, "")), false),
            ("at the limit inside an object", format!(r#"{{"a":{}}}"#, nest(limit - 1, "")), true),
        ] {
            assert!(skip_all(text.as_bytes()).is_ok(), "{}: the Decoder rejects it", name);
            let mut r = Cursor { data: text.as_bytes(), pos: 0 };
            assert_eq!(r.value().is_some(), ok, "{}: value", name);
            let mut r = Cursor { data: text.as_bytes(), pos: 0 };
            assert_eq!(r.skip().is_some(), ok, "{}: skip", name);
        }
    }

    /// The cursor's typed reads take their kind or null and give up on
    /// anything else.
    #[test]
    fn cursor_reads_typed_values() {
        struct Case {
            name: &'static str,
            text: &'static str,
            read: fn(&mut Cursor) -> Option<String>,
            want: Option<&'static str>,
        }
        let int = |r: &mut Cursor| r.int().map(|v| format!("{:?}", v));
        let string = |r: &mut Cursor| r.str().map(|s| format!("{:?}", s.raw()));
        let boolean = |r: &mut Cursor| r.bool().map(|b| b.to_string());
        let key = |r: &mut Cursor| r.key().map(|k| String::from_utf8_lossy(k).into_owned());
        let member = |r: &mut Cursor| r.member().map(|k| format!("{:?}", k.raw()));
        let null = |r: &mut Cursor| r.null().map(|n| format!("{:?}", n));
        let open = |r: &mut Cursor| r.open(b'{', b'}').map(|m| m.to_string());
        let next = |r: &mut Cursor| r.next(b']').map(|m| m.to_string());
        let cases = [
            Case { name: "int", text: " -123", read: int, want: Some("Some(-123)") },
            Case { name: "int null", text: "null", read: int, want: Some("None") },
            Case {
                name: "int 18 digits",
                text: "999999999999999999",
                read: int,
                want: Some("Some(999999999999999999)"),
            },
            Case { name: "int 19 digits", text: "1000000000000000000", read: int, want: None },
            Case { name: "int fraction", text: "1.0", read: int, want: None },
            Case { name: "int exponent", text: "1e2", read: int, want: None },
            Case { name: "int string", text: "\"1\"", read: int, want: None },
            Case { name: "str", text: r#" "a\nb""#, read: string, want: Some(r#"Some([34, 97, 92, 110, 98, 34])"#) },
            Case { name: "str null", text: "null", read: string, want: Some("None") },
            Case { name: "str number", text: "1", read: string, want: None },
            Case { name: "bool true", text: "true", read: boolean, want: Some("true") },
            Case { name: "bool false", text: "false", read: boolean, want: Some("false") },
            Case { name: "bool null", text: "null", read: boolean, want: Some("false") },
            Case { name: "bool string", text: "\"true\"", read: boolean, want: None },
            Case { name: "bool truncated", text: "tru", read: boolean, want: None },
            Case { name: "key", text: " \"id\" : 1", read: key, want: Some("id") },
            Case { name: "key escaped", text: r#""\u0069d":1"#, read: key, want: None },
            Case { name: "key no colon", text: "\"id\" 1", read: key, want: None },
            Case {
                name: "member escaped",
                text: r#""\u0069d":1"#,
                read: member,
                want: Some(r#"Some([34, 92, 117, 48, 48, 54, 57, 100, 34])"#),
            },
            Case { name: "null", text: " null", read: null, want: Some("Some([110, 117, 108, 108])") },
            Case { name: "null other value", text: "1", read: null, want: Some("None") },
            Case { name: "null bad", text: "nil", read: null, want: None },
            Case { name: "null at end", text: " ", read: null, want: None },
            Case { name: "open empty", text: " { } ", read: open, want: Some("false") },
            Case { name: "open member", text: "{\"a\"", read: open, want: Some("true") },
            Case { name: "open other", text: "[", read: open, want: None },
            Case { name: "next comma", text: " ,", read: next, want: Some("true") },
            Case { name: "next close", text: "]", read: next, want: Some("false") },
            Case { name: "next other close", text: "}", read: next, want: None },
        ];
        for c in &cases {
            let mut r = Cursor { data: c.text.as_bytes(), pos: 0 };
            assert_eq!((c.read)(&mut r).as_deref(), c.want, "{}", c.name);
        }
    }
}
