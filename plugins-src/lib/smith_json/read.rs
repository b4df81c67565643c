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

    /// finish checks that only whitespace follows the value read and
    /// returns the first syntax error, else the first type mismatch.
    pub fn finish(&mut self) -> Result<(), Error> {
        if self.err.is_none() {
            self.pos = skip_space(self.data, self.pos);
            if self.pos < self.data.len() {
                self.syntax::<()>(self.pos, "after the top-level value");
            }
        }
        self.err.as_ref().or(self.type_err.as_ref()).map_or(Ok(()), |e| Err(e.clone()))
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

    /// raw consumes the next value and returns its text, without the white
    /// space around it ("null" for null); None after an error.
    #[inline]
    pub fn raw(&mut self) -> Option<&'a [u8]> {
        let start = skip_space(self.data, self.pos);
        self.skip();
        self.err.is_none().then(|| &self.data[start..self.pos])
    }

    /// null consumes the next value and reports true if it is null; any
    /// other value is left unread.
    pub fn null(&mut self) -> bool {
        self.peek() == Kind::Null && {
            self.skip();
            self.err.is_none()
        }
    }

    /// str consumes a string and returns it quoted, as it appears in the
    /// input; null and a value of another kind (a type mismatch) give the
    /// nil Str.
    #[inline]
    pub fn str(&mut self) -> Str<'a> {
        match self.peek() {
            Kind::Str => match Str::at(self.data, self.pos) {
                Some((s, end)) => {
                    self.pos = end;
                    return s;
                }
                None => self.skip(), // records the syntax error
            },
            Kind::Null => self.skip(),
            _ => self.mismatch(Kind::Str),
        }
        Str::default()
    }

    /// bool consumes a boolean; null and a mismatch give false.
    pub fn bool(&mut self) -> bool {
        match self.peek() {
            Kind::Bool => {
                let v = self.data[self.pos] == b't';
                self.skip();
                return v && self.err.is_none();
            }
            Kind::Null => self.skip(),
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
                self.skip();
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
            Kind::Null => self.skip(),
            _ => self.mismatch(Kind::Number),
        }
        None
    }

    /// object consumes an object and calls member with the decoder and each
    /// key (unquoted). member reads the key's value with one of the reading
    /// methods; a value it leaves unread is skipped. null calls member
    /// never; another kind is a type mismatch.
    pub fn object<F: FnMut(&mut Decoder<'a>, &[u8])>(&mut self, member: F) {
        match self.peek() {
            Kind::Object => self.members(member).unwrap_or(()),
            Kind::Null => self.skip(),
            _ => self.mismatch(Kind::Object),
        }
    }

    /// members is object's loop over the members of the object at pos.
    fn members<F: FnMut(&mut Decoder<'a>, &[u8])>(&mut self, mut member: F) -> Option<()> {
        let data = self.data;
        self.enter(self.pos, b'{')?;
        let mut pos = skip_space(data, self.pos + 1);
        if data.get(pos) == Some(&b'}') {
            return self.close(pos);
        }
        loop {
            let (end, flags, colon) = self.member_key(data, pos)?;
            let (quoted, raw) = (&data[pos..end], &data[pos + 1..end - 1]);
            self.pos = skip_space(data, colon);
            let at = self.pos;
            if flags == 0 || flags == STRING_HIGH && std::str::from_utf8(raw).is_ok() {
                member(self, raw);
            } else {
                // The buffer is lent to this member; a nested object with an
                // escaped key uses one of its own.
                let mut key = std::mem::take(&mut self.key);
                key.clear();
                append_unquoted(&mut key, quoted);
                member(self, &key);
                if key.capacity() > self.key.capacity() {
                    self.key = key;
                }
            }
            pos = self.after_member(at)?;
            match data.get(pos) {
                Some(b'}') => return self.close(pos),
                Some(b',') => pos = skip_space(data, pos + 1),
                _ => return self.syntax(pos, "after an object member"),
            }
        }
    }

    /// array consumes an array and calls elem with the decoder for each
    /// element, which elem reads with one of the reading methods; an
    /// element it leaves unread is skipped. null calls elem never; another
    /// kind is a type mismatch.
    pub fn array<F: FnMut(&mut Decoder<'a>)>(&mut self, elem: F) {
        match self.peek() {
            Kind::Array => self.elements(elem).unwrap_or(()),
            Kind::Null => self.skip(),
            _ => self.mismatch(Kind::Array),
        }
    }

    /// elements is array's loop over the elements of the array at pos.
    fn elements<F: FnMut(&mut Decoder<'a>)>(&mut self, mut elem: F) -> Option<()> {
        let data = self.data;
        self.enter(self.pos, b'[')?;
        self.pos = skip_space(data, self.pos + 1);
        if data.get(self.pos) == Some(&b']') {
            return self.close(self.pos);
        }
        loop {
            let at = self.pos;
            elem(self);
            let pos = self.after_member(at)?;
            match data.get(pos) {
                Some(b']') => return self.close(pos),
                Some(b',') => self.pos = skip_space(data, pos + 1),
                _ => return self.syntax(pos, "after an array element"),
            }
        }
    }

    /// after_member skips the value at `at` if the callback left it unread
    /// and returns the offset of the byte after it and whitespace; None
    /// after an error.
    #[inline(always)]
    fn after_member(&mut self, at: usize) -> Option<usize> {
        if self.err.is_none() && self.pos == at {
            self.skip();
        }
        self.err.is_none().then(|| skip_space(self.data, self.pos))
    }

    /// enter records the container c opening at offset at; the reading
    /// methods' containers count toward the nesting limit like the ones
    /// skip walks.
    #[inline(always)]
    fn enter(&mut self, at: usize, c: u8) -> Option<()> {
        if self.stack.depth >= MAX_DEPTH {
            self.too_deep(at);
            return None;
        }
        self.stack.push(c);
        Some(())
    }

    /// close consumes the closing byte at pos of the innermost container.
    #[inline(always)]
    fn close(&mut self, pos: usize) -> Option<()> {
        self.pos = pos + 1;
        self.stack.pop();
        Some(())
    }

    /// too_deep records that the container opening at offset at nests
    /// deeper than MAX_DEPTH. Errors are built out of line, once, so that
    /// the reading loops inlined into each reader stay small.
    #[cold]
    #[inline(never)]
    fn too_deep(&mut self, at: usize) {
        self.fail(cat(&["nesting at offset ", &num(at), " exceeds the limit of ", &num(MAX_DEPTH), " levels"]));
    }

    /// fail records the syntax error message unless one came first.
    fn fail(&mut self, message: String) {
        if self.err.is_none() {
            self.err = Some(Error { message });
        }
    }

    /// syntax records a syntax error at offset at, where the text is at
    /// place (looking for a value, in a string literal, ...), and returns
    /// None for the caller to return.
    #[inline(always)]
    fn syntax<T>(&mut self, at: usize, place: &str) -> Option<T> {
        self.syntax_error(at, place);
        None
    }

    /// syntax_error is syntax's message, built out of line.
    #[cold]
    #[inline(never)]
    fn syntax_error(&mut self, at: usize, place: &str) {
        let msg = match self.data.get(at) {
            None => cat(&["the input ends at offset ", &num(at), " ", place, "; the JSON text is incomplete"]),
            Some(&c) => cat(&["invalid character ", &quote_byte(c), " at offset ", &num(at), " ", place]),
        };
        self.fail(msg)
    }

    /// mismatch skips the next value, a kind other than want.
    fn mismatch(&mut self, want: Kind) {
        let (got, at) = (self.peek(), self.pos);
        self.skip();
        if self.err.is_none() {
            self.type_error(at, &cat(&["found ", got.name(), ", want ", want.name()]));
        }
    }

    fn type_error(&mut self, at: usize, what: &str) {
        if self.type_err.is_none() {
            self.type_err = Some(Error { message: cat(&["value at offset ", &num(at), ": ", what]) });
        }
    }

    /// skip consumes the next value of any kind, validating it.
    pub fn skip(&mut self) {
        if self.err.is_none() {
            if let Some(end) = self.walk(self.data, self.pos) {
                self.pos = end;
            }
        }
    }

    /// walk validates the value after whitespace at pos and returns the
    /// offset after it; None after recording a syntax error. Containers are
    /// walked without recursion, the open ones kept on the stack.
    fn walk(&mut self, data: &[u8], mut pos: usize) -> Option<usize> {
        // A scalar, what a reader mostly leaves unread, needs none of the
        // container walk below (a bad string is left to it).
        let start = skip_space(data, pos);
        match data.get(start) {
            Some(b'"') => match scan_string(data, start) {
                (end, flags) if flags & STRING_BAD == 0 => return Some(end),
                _ => {}
            },
            Some(b't' | b'f' | b'n') => return self.literal(data, start),
            Some(b'-' | b'0'..=b'9') => return self.number(data, start),
            _ => {}
        }
        let base = self.stack.depth;
        loop {
            // A value starts here.
            pos = skip_space(data, pos);
            match data.get(pos) {
                Some(b'"') => pos = self.string(data, pos)?.0,
                Some(&c @ (b'{' | b'[')) => {
                    self.enter(pos, c)?;
                    pos = skip_space(data, pos + 1);
                    if data.get(pos) != Some(&(c + 2)) {
                        // '}' and ']' follow '{' and '[' by two
                        if c == b'{' {
                            pos = self.member_key(data, pos)?.2;
                        }
                        continue;
                    }
                    pos += 1;
                    self.stack.pop();
                }
                Some(b't' | b'f' | b'n') => pos = self.literal(data, pos)?,
                Some(b'-' | b'0'..=b'9') => pos = self.number(data, pos)?,
                _ => return self.syntax(pos, "looking for the beginning of a value"),
            }
            // A value ended; close the containers it completes.
            loop {
                let top = match self.stack.top() {
                    Some(top) if self.stack.depth > base => top,
                    _ => return Some(pos),
                };
                pos = skip_space(data, pos);
                match data.get(pos) {
                    None => return self.syntax(pos, "inside an unclosed object or array"),
                    Some(b',') if top == b'{' => {
                        pos = self.member_key(data, skip_space(data, pos + 1))?.2;
                        break;
                    }
                    Some(b',') => {
                        pos += 1;
                        break;
                    }
                    Some(&c) if c == top + 2 => {
                        pos += 1;
                        self.stack.pop();
                    }
                    _ if top == b'{' => return self.syntax(pos, "after an object member"),
                    _ => return self.syntax(pos, "after an array element"),
                }
            }
        }
    }

    /// string reads the string literal at pos and returns the offset after
    /// it and what scan_string found in it; None after recording a syntax
    /// error.
    fn string(&mut self, data: &[u8], pos: usize) -> Option<(usize, u8)> {
        match scan_string(data, pos) {
            (end, flags) if flags & STRING_BAD != 0 => self.syntax(end, "in a string literal"),
            found => Some(found),
        }
    }

    /// member_key reads the object key at pos and its colon and returns the
    /// offset after the key, what scan_string found in it and the offset
    /// after the colon; None after recording a syntax error.
    fn member_key(&mut self, data: &[u8], pos: usize) -> Option<(usize, u8, usize)> {
        if data.get(pos) != Some(&b'"') {
            return self.syntax(pos, "looking for an object key");
        }
        let (end, flags) = self.string(data, pos)?;
        let colon = skip_space(data, end);
        if data.get(colon) != Some(&b':') {
            return self.syntax(colon, "after an object key");
        }
        Some((end, flags, colon + 1))
    }

    /// literal consumes true, false or null at pos (its first letter
    /// checked) and returns the offset after it, None after recording a
    /// syntax error.
    fn literal(&mut self, data: &[u8], pos: usize) -> Option<usize> {
        // Slice patterns compile to byte compares; `==` would call memcmp,
        // a byte loop in wasm.
        let (want, whole) = match data[pos] {
            b't' => ("true", matches!(data.get(pos..pos + 4), Some(b"true"))),
            b'f' => ("false", matches!(data.get(pos..pos + 5), Some(b"false"))),
            _ => ("null", matches!(data.get(pos..pos + 4), Some(b"null"))),
        };
        if whole {
            return Some(pos + want.len());
        }
        let at = pos + want.bytes().zip(&data[pos..]).take_while(|(w, c)| w == *c).count();
        self.syntax(at, &cat(&["in the literal ", want]))
    }

    /// number consumes a number in JSON's grammar,
    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns the
    /// offset after it, None after recording a syntax error.
    fn number(&mut self, data: &[u8], pos: usize) -> Option<usize> {
        match number_end(data, pos) {
            Ok(end) => Some(end),
            Err((at, place)) => self.syntax(at, place),
        }
    }
}

/// Stack holds the open containers, b'{' or b'[': the first 64 as the
/// bits of a u64 (set for '{'), deeper ones in a vector, so a decoder
/// allocates only for unusually deep texts.
#[derive(Default)]
struct Stack {
    depth: usize,
    bits: u64,
    deep: Vec<u8>,
}

impl Stack {
    #[inline]
    fn push(&mut self, c: u8) {
        match self.depth {
            i @ 0..=63 => self.bits = self.bits & !(1 << i) | u64::from(c == b'{') << i,
            _ => self.deep.push(c),
        }
        self.depth += 1;
    }

    #[inline]
    fn pop(&mut self) {
        if self.depth > 64 {
            self.deep.pop();
        }
        self.depth = self.depth.saturating_sub(1);
    }

    #[inline]
    fn top(&self) -> Option<u8> {
        match self.depth.checked_sub(1)? {
            i @ 0..=63 => Some(if self.bits >> i & 1 != 0 { b'{' } else { b'[' }),
            _ => self.deep.last().copied(),
        }
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
        match scan_string(data, pos) {
            (_, flags) if flags & STRING_BAD != 0 => None,
            (end, flags) => {
                let (escaped, high) = (flags & STRING_ESCAPED != 0, flags & STRING_HIGH != 0);
                Some((Str { raw: Some(data.get(pos..end)?), escaped, high }, end))
            }
        }
    }

    /// plain returns the content of s (between the quotes) when it holds
    /// no escape, so that it needs no unquoting beyond, possibly, invalid
    /// UTF-8; None when s is nil or escaped.
    #[inline]
    fn plain(&self) -> Option<&'a [u8]> {
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
        let mut out = Vec::with_capacity(q.len());
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
        self.raw.map(|_| self.unquoted().into_owned().into_bytes())
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
/// where it goes wrong and the place for the syntax error.
#[inline(always)]
fn number_end(data: &[u8], mut pos: usize) -> Result<usize, (usize, &'static str)> {
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
/// It reads eight bytes per step (16 with wasm SIMD) and jumps to the
/// first one that needs a look ('"', '\\' or a control character): in
/// the plugin a byte loop pays a bounds check and a fuel charge per byte.
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
pub fn parse_int(b: &[u8]) -> Option<i64> {
    let (sign, digits) = match b {
        [b'-', rest @ ..] => (-1, rest),
        _ => (1, b),
    };
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(sign * i64::from(c - b'0'))?;
    }
    Some(v)
}

/// utf8_runs calls f with each run of valid UTF-8 in b (possibly empty)
/// and with None for each byte in between: one per byte, not one per
/// invalid sequence.
fn utf8_runs<F: FnMut(Option<&[u8]>)>(mut b: &[u8], mut f: F) {
    loop {
        match std::str::from_utf8(b) {
            Ok(_) => return f(Some(b)),
            Err(e) => {
                let (valid, rest) = b.split_at(e.valid_up_to());
                f(Some(valid));
                f(None);
                b = &rest[1..];
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
        utf8_runs(&input[i..run], |r| dst.extend_from_slice(r.unwrap_or("\u{fffd}".as_bytes())));
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
    let mut b = vec![b'\''];
    match c {
        b'\'' | b'\\' => b.extend_from_slice(&[b'\\', c]),
        7..=13 => b.extend_from_slice(&[b'\\', b"abtnvfr"[usize::from(c - 7)]]),
        0..=0x1f | 0x7f => {
            b.extend_from_slice(b"\\x");
            push_hex(&mut b, c.into(), 2);
        }
        0x80..=0xa0 | 0xad => {
            b.extend_from_slice(b"\\u");
            push_hex(&mut b, c.into(), 4);
        }
        _ => b.extend_from_slice(char::from(c).encode_utf8(&mut [0; 4]).as_bytes()),
    }
    b.push(b'\'');
    String::from_utf8(b).unwrap_or_default()
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

/// push_hex appends v in lower-case hexadecimal, zero-padded to width
/// digits.
fn push_hex(dst: &mut Vec<u8>, v: u32, width: usize) {
    dst.extend((0..width).rev().map(|i| b"0123456789abcdef"[(v >> (4 * i)) as usize & 15]));
}

/// append_quote appends s to dst as a JSON string: '"' and '\\' escaped
/// with a backslash, \b \f \n \r \t in short form, the other control
/// characters as \u00XX, U+2028 and U+2029 as \u2028 and \u2029 (line
/// terminators in JavaScript), each byte that does not begin valid UTF-8
/// as \ufffd, and every other character as itself.
pub fn append_quote(dst: &mut Vec<u8>, s: &[u8]) {
    dst.push(b'"');
    utf8_runs(s, |run| match run {
        Some(run) => append_escaped(dst, run),
        None => dst.extend_from_slice(b"\\ufffd"),
    });
    dst.push(b'"');
}

/// append_escaped is append_quote's escaping of the valid UTF-8 s.
fn append_escaped(dst: &mut Vec<u8>, s: &[u8]) {
    let mut start = 0;
    for (i, &c) in s.iter().enumerate() {
        let short = match c {
            b'"' | b'\\' => c,
            8 => b'b',
            12 => b'f',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0..=0x1f | 0xe2 => 0,
            _ => continue,
        };
        let (r, n) = match (c, s.get(i + 1..i + 3)) {
            (0xe2, Some(&[0x80, t @ (0xa8 | 0xa9)])) => (0x2000 | u32::from(t & 0x3f), 3),
            (0xe2, _) => continue,
            _ => (u32::from(c), 1),
        };
        dst.extend_from_slice(&s[start..i]);
        if short != 0 {
            dst.extend_from_slice(&[b'\\', short]);
        } else {
            dst.extend_from_slice(b"\\u");
            push_hex(dst, r, 4);
        }
        start = i + n;
    }
    dst.extend_from_slice(&s[start..]);
}

/// append_compact appends the JSON text src to dst without insignificant
/// whitespace, U+2028 and U+2029 in strings escaped as in append_quote and
/// all else as it was. src should be valid JSON (as the Decoder accepts
/// it); on other input it does not panic.
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
            0xe2 if i + 1 < src.len() && src[i] == 0x80 && src[i + 1] & !1 == 0xa8 => {
                dst.extend_from_slice(b"\\u202");
                push_hex(dst, u32::from(src[i + 1] & 0xf), 1);
                i += 2;
                continue;
            }
            _ => {}
        }
        dst.push(c);
    }
}

/// CURSOR_DEPTH is how many containers a [`Cursor`] follows open at once
/// (one bit each of a u64), far below [`MAX_DEPTH`].
const CURSOR_DEPTH: u32 = 64;

/// Cursor reads data forward from pos without callbacks, for the decoders'
/// fast paths: every method returns None where it gives up (a syntax
/// error, a kind it does not take, an escaped key, an integer the general
/// reader must judge), and it never accepts a text the [`Decoder`]
/// rejects, so after None the caller reads the text again with a Decoder.
/// The small methods are inlined so that the cursor lives in registers.
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
        self.pos = skip_space(self.data, self.pos);
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
        match self.peek()? {
            b'"' => self.pos = Str::at(self.data, self.pos)?.1,
            b't' | b'f' => {
                self.bool()?;
            }
            b'n' => {
                self.null()??;
            }
            _ => {
                self.number()?;
            }
        }
        Some(())
    }

    /// number skips a number in JSON's grammar and returns its text.
    #[inline(always)]
    fn number(&mut self) -> Option<&'a [u8]> {
        let start = self.pos;
        self.pos = number_end(self.data, start).ok()?;
        self.data.get(start..self.pos)
    }

    /// int reads an integer of at most 18 digits (null gives None);
    /// anything else gives up (the general reader judges it).
    #[inline(always)]
    pub fn int(&mut self) -> Option<Option<i64>> {
        if self.null()?.is_some() {
            return Some(None);
        }
        let text = self.number()?;
        if text.len() > 18 + usize::from(text[0] == b'-') {
            return None;
        }
        parse_int(text).map(Some)
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

    /// skip is value without its text, not inlined (a decoder skips values
    /// in a dozen places).
    #[inline(never)]
    pub fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' | b'[' => self.container(),
            _ => self.scalar(),
        }
    }

    /// container skips the array or object at pos, validating it as the
    /// Decoder does, without recursion: the open containers are the bits
    /// of a u64 (set for an object); more than [`CURSOR_DEPTH`] give up.
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

    fn check(input: &[u8]) -> Result<(), String> {
        let mut d = Decoder::new(input);
        d.skip();
        d.finish().map_err(|e| e.to_string())
    }

    fn ends(at: usize, place: &str) -> String {
        format!("the input ends at offset {} {}; the JSON text is incomplete", at, place)
    }

    fn bad(c: &str, at: usize, place: &str) -> String {
        format!("invalid character {} at offset {} {}", c, at, place)
    }

    #[test]
    fn validity_and_syntax_errors() {
        let value = "looking for the beginning of a value";
        let cases: &[(&[u8], Result<(), String>)] = &[
            (b"", Err(ends(0, value))),
            (b" \t\r\n", Err(ends(4, value))),
            (b" true ", Ok(())),
            (b"[null,false]", Ok(())),
            (b"tru", Err(ends(3, "in the literal true"))),
            (b"nul1", Err(bad("'1'", 3, "in the literal null"))),
            (b"-12.5e+3", Ok(())),
            (b"9223372036854775808", Ok(())),
            (b"01", Err(bad("'1'", 1, "after the top-level value"))),
            (b"-", Err(ends(1, "in a number, looking for a digit"))),
            (b"-x", Err(bad("'x'", 1, "in a number, looking for a digit"))),
            (b"1.x", Err(bad("'x'", 2, "after the decimal point in a number"))),
            (b"1e+", Err(ends(3, "in the exponent of a number"))),
            (br#""a\"b\\c\/d\b\f\n\r\t\ud83d\ude00 h\u00e9""#, Ok(())),
            (b"\"a\xffb\xc3\xa9\"", Ok(())),
            (br#""\x""#, Err(bad("'x'", 2, "in a string literal"))),
            (br#""\u12""#, Err(bad("'\"'", 5, "in a string literal"))),
            (b"\"a\nb\"", Err(bad("'\\n'", 2, "in a string literal"))),
            (b"\"a\xe9", Err(ends(3, "in a string literal"))),
            (br#"{"a":[1,{"b":null}],"c":{},"d":[ ]}"#, Ok(())),
            (br#"{"a":1,}"#, Err(bad("'}'", 7, "looking for an object key"))),
            (b"[1,]", Err(bad("']'", 3, value))),
            (br#"{"a" 1}"#, Err(bad("'1'", 5, "after an object key"))),
            (b"{a:1}", Err(bad("'a'", 1, "looking for an object key"))),
            (b"[1,2", Err(ends(4, "inside an unclosed object or array"))),
            (b"[1,2,", Err(ends(5, value))),
            (b"[1}", Err(bad("'}'", 2, "after an array element"))),
            (br#"{"a":1 "b"}"#, Err(bad("'\"'", 7, "after an object member"))),
            (b"{} x", Err(bad("'x'", 3, "after the top-level value"))),
            (b"\x7f", Err(bad("'\\x7f'", 0, value))),
            (b"\x00", Err(bad("'\\x00'", 0, value))),
            (b"\x07\x0b", Err(bad("'\\a'", 0, value))),
            (b"\x0b", Err(bad("'\\v'", 0, value))),
            (b"\xad", Err(bad("'\\u00ad'", 0, value))),
            (b"\xa0", Err(bad("'\\u00a0'", 0, value))),
            (b"\xe9", Err(bad("'\u{e9}'", 0, value))),
            (b"'", Err(bad("'\\''", 0, value))),
            (b"\\", Err(bad("'\\\\'", 0, value))),
        ];
        for (input, want) in cases {
            assert_eq!(&check(input), want, "{:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn depth_limit() {
        fn nest(d: &mut Decoder) {
            d.array(nest);
        }
        for depth in [MAX_DEPTH, MAX_DEPTH + 1] {
            let input = [vec![b'['; depth], vec![b']'; depth]].concat();
            let limit = "nesting at offset 10000 exceeds the limit of 10000 levels";
            let want = if depth == MAX_DEPTH { Ok(()) } else { Err(limit.to_string()) };
            assert_eq!(check(&input), want, "depth {}", depth);
            let read = move || {
                let mut d = Decoder::new(&input);
                nest(&mut d); // the reading methods count toward the same limit
                d.finish().map_err(|e| e.to_string())
            };
            let got = std::thread::Builder::new().stack_size(256 << 20).spawn(read).unwrap().join().unwrap();
            assert_eq!(got, want, "depth {} through array", depth);
        }
        // '[' and '{' alternating, 300 deep: a wrong closer at each depth
        // (the stack's bits, then its vector) is named by the container it
        // meets.
        let open: Vec<u8> = (0..300).flat_map(|i| if i % 2 == 0 { &b"["[..] } else { b"{\"k\":" }).copied().collect();
        let close: Vec<u8> = (0..300).rev().map(|i| if i % 2 == 0 { b']' } else { b'}' }).collect();
        let good = [&open[..], b"1", &close].concat();
        assert_eq!(check(&good), Ok(()));
        for depth in [1, 64, 65, 300] {
            let at = open.len() + 1 + 300 - depth;
            let (swap, place) = if good[at] == b'}' { (b']', "object member") } else { (b'}', "array element") };
            let mut input = good.clone();
            input[at] = swap;
            let want = bad(&format!("'{}'", swap as char), at, &format!("after an {}", place));
            assert_eq!(check(&input), Err(want), "depth {}", depth);
        }
    }

    #[test]
    fn reading_methods() {
        let cases = [
            (
                r#"{"id":"r1","delta":{"text":"a\u00e9\n"},"index":3,"done":true,"usage": {"n":[1, 2]} ,"x":"y"}"#,
                "id=r1 delta=\"a\u{e9}\\n\" index=Some(3) done=true usage={\"n\":[1, 2]}",
                "",
            ),
            (
                r#"{"id":null,"delta":null,"index":null,"done":null,"usage":null}"#,
                "id= delta=\"\" index=None done=false usage=null",
                "",
            ),
            (r#"{"x":{"deep":[{"y":[]}]},"id":"a","z":[true,false,null]}"#, "id=a", ""),
            (r#"{"x":[1,tru],"id":"a"}"#, "", "invalid character ']' at offset 11 in the literal true"),
            (r#"{"index":"3","id":"read"}"#, "index=None id=read", "value at offset 9: found string, want number"),
            (r#"{"index":1.5}"#, "index=None", "value at offset 9: the number 1.5 is not an integer that fits 64 bits"),
            (
                r#"{"index":"3","id":"a",}"#,
                "index=None id=a",
                "invalid character '}' at offset 22 looking for an object key",
            ),
            (r#"{"id":"a""#, "id=a", "the input ends at offset 9 after an object member; the JSON text is incomplete"),
        ];
        for (input, want, want_err) in cases {
            let mut d = Decoder::new(input.as_bytes());
            let mut got = Vec::new();
            d.object(|d, key| {
                let v = match key {
                    b"id" => d.str().string(),
                    b"delta" => {
                        let mut text = Str::default();
                        d.object(|d, _| text = d.str());
                        format!("{:?}", text.unquoted())
                    }
                    b"index" => format!("{:?}", d.int()),
                    b"done" => d.bool().to_string(),
                    b"usage" => String::from_utf8_lossy(d.raw().unwrap_or_default()).into_owned(),
                    _ => return,
                };
                got.push(format!("{}={}", String::from_utf8_lossy(key), v));
            });
            assert_eq!(got.join(" "), want, "{}", input);
            assert_eq!(d.finish().err().map(|e| e.to_string()).unwrap_or_default(), want_err, "{}", input);
        }
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
            ("true", None, Err("value at offset 1: found boolean, want number".into())),
            ("1.", None, Err(ends(3, "after the decimal point in a number"))),
        ];
        for (input, want, want_err) in cases {
            let text = format!(" {}", input);
            let mut d = Decoder::new(text.as_bytes());
            assert_eq!(d.int(), want, "int({})", input);
            assert_eq!(d.finish().map_err(|e| e.to_string()), want_err, "int({})", input);
        }
    }

    /// Each kind peeks as itself and, read as another kind, is a mismatch
    /// named by both; after a syntax error every read is empty.
    #[test]
    fn kinds_and_mismatches() {
        let kinds = [Kind::Str, Kind::Bool, Kind::Object, Kind::Array, Kind::Number];
        for (input, kind) in [(" \"x\"", Kind::Str), ("[1]", Kind::Array), ("{}", Kind::Object), ("false", Kind::Bool)]
        {
            assert_eq!(Decoder::new(input.as_bytes()).peek(), kind, "peek({})", input);
            for want in kinds.into_iter().filter(|&k| k != kind) {
                let mut d = Decoder::new(input.as_bytes());
                match want {
                    Kind::Str => assert!(d.str().is_nil()),
                    Kind::Bool => assert!(!d.bool()),
                    Kind::Object => d.object(|_, _| panic!("called")),
                    Kind::Array => d.array(|_| panic!("called")),
                    _ => assert_eq!(d.int(), None),
                }
                let at = input.len() - input.trim_start().len();
                let msg = format!("value at offset {}: found {}, want {}", at, kind, want);
                assert_eq!(d.finish().map_err(|e| e.to_string()), Err(msg), "{} read as {}", input, want);
            }
        }
        let peeks = [Kind::Null, Kind::Bool, Kind::Number, Kind::Number, Kind::Invalid, Kind::Invalid];
        for (input, kind) in ["n", "t", "-", "7", "x", "  "].into_iter().zip(peeks) {
            assert_eq!(Decoder::new(input.as_bytes()).peek(), kind, "peek({:?})", input);
        }
        let mut d = Decoder::new(b"[1,x] \"s\" true 3 null");
        d.skip();
        assert_eq!(
            (d.peek(), d.str(), d.bool(), d.int(), d.null(), d.raw()),
            (Kind::Invalid, Str::default(), false, None, false, None)
        );
        d.object(|_, _| panic!("called"));
        d.array(|_| panic!("called"));
        assert_eq!(check(b"[1,x]").unwrap_err(), d.finish().unwrap_err().to_string());
    }

    #[test]
    fn unquoting() {
        let cases: &[(&[u8], &str)] = &[
            (br#""abc""#, "abc"),
            (br#""""#, ""),
            (br#""a\"b\\c\/d\b\f\n\r\t""#, "a\"b\\c/d\u{8}\u{c}\n\r\t"),
            (br#""\u00e9\u4E16""#, "\u{e9}\u{4e16}"),
            (br#""\ud83d\ude00""#, "\u{1f600}"),
            (br#""\ud83dx""#, "\u{fffd}x"),
            (br#""\ud83d\u0041""#, "\u{fffd}A"),
            (br#""\ude00\ud83d""#, "\u{fffd}\u{fffd}"),
            (b"\"a\xe6\x80b\xff\"", "a\u{fffd}\u{fffd}b\u{fffd}"),
            (b"\"\xed\xa0\x80\\n\"", "\u{fffd}\u{fffd}\u{fffd}\n"),
            ("\"\u{e9}\\t\u{4e16}\"".as_bytes(), "\u{e9}\t\u{4e16}"),
        ];
        for &(input, want) in cases {
            let name = String::from_utf8_lossy(input);
            let mut d = Decoder::new(input);
            let s = d.str();
            assert_eq!((d.finish(), s.raw(), s.unquoted()), (Ok(()), Some(input), want.into()), "{}", name);
            assert_eq!((s.string(), s.bytes()), (want.to_string(), Some(want.as_bytes().to_vec())), "{}", name);
            assert!(s.equal(want) && !s.equal("other") && s.empty() == (input.len() == 2), "{}", name);
            let borrowed = matches!(s.unquoted(), Cow::Borrowed(_));
            assert_eq!(borrowed, !input.contains(&b'\\') && std::str::from_utf8(input).is_ok(), "{}: borrowed", name);
        }
        for input in ["null", "1", "x"] {
            let s = Decoder::new(input.as_bytes()).str();
            assert!(s.is_nil() && s.empty() && s.raw().is_none() && s.bytes().is_none() && s.equal(""), "{}", input);
        }
    }

    /// Object keys come unquoted, escaped ones through a buffer that a
    /// nested escaped key does not disturb.
    #[test]
    fn keys() {
        fn walk(d: &mut Decoder, keys: &mut Vec<String>) {
            match d.peek() {
                Kind::Object => d.object(|d, key| {
                    let outer = key.to_vec();
                    walk(d, keys);
                    assert_eq!(key, &outer[..]);
                    keys.push(String::from_utf8(outer).unwrap());
                }),
                Kind::Array => d.array(|d| walk(d, keys)),
                _ => d.skip(),
            }
        }
        let input = b"{\"plain\":1,\"\\u0061\\n\":{\"\\u00e9\":2,\"x\\ud800\":3},\"h\\u00e9\":[{\"\\/\":4}],\"caf\xc3\xa9\":5,\"bad\xff\":6}";
        let (mut keys, mut d) = (Vec::new(), Decoder::new(input));
        walk(&mut d, &mut keys);
        assert_eq!(d.finish(), Ok(()));
        assert_eq!(keys, ["plain", "\u{e9}", "x\u{fffd}", "a\n", "/", "h\u{e9}", "caf\u{e9}", "bad\u{fffd}"]);
    }

    /// The word-at-a-time scans stop where a byte loop would, with the
    /// special byte at every offset across three words.
    #[test]
    fn word_scans() {
        for at in 0..24 {
            let (plain, run) = (vec![b'a'; at], |tail: &[u8]| [b"\"", &vec![b'a'; at][..], tail].concat());
            assert_eq!(scan_string(&run(b"\"x"), 0), (at + 2, 0), "quote at {}", at);
            assert_eq!(scan_string(&run(b"\xc3\xa9\""), 0), (at + 4, STRING_HIGH), "high at {}", at);
            assert_eq!(scan_string(&run(b"\\u00e9\""), 0), (at + 8, STRING_ESCAPED), "escape at {}", at);
            assert_eq!(scan_string(&run(b"\x01\""), 0), (at + 1, STRING_BAD), "control at {}", at);
            assert_eq!(scan_string(&run(b"\\x\""), 0), (at + 2, STRING_ESCAPED | STRING_BAD), "bad escape at {}", at);
            assert_eq!(scan_string(&run(b""), 0), (at + 1, STRING_BAD), "unterminated at {}", at);
            assert_eq!(scan_string(&[&b"\"\xff"[..], &plain, b"\\n\""].concat(), 0).1, STRING_HIGH | STRING_ESCAPED);
            for other in [b'/', b':', b'.', 0x00, 0xff, 0xfa, 0xb0] {
                let digits = [&b"1234567890123456789012345"[..at], &[other], b"12"].concat();
                assert_eq!(skip_digits(&digits, 0), at, "{:?}", digits);
            }
        }
        let a = b"rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9";
        assert!(same_bytes(a, a) && same_bytes(b"", b"") && !same_bytes(&a[..8], &a[..9]));
        for i in 0..a.len() {
            let mut b = *a;
            b[i] ^= 1;
            assert!(!same_bytes(a, &b), "byte {}", i);
        }
    }

    /// The cursor reads whole what the Decoder accepts, or gives up; on
    /// each text, its truncations and one-byte changes, value and skip
    /// agree, and a value read to the end is one the Decoder accepts.
    #[test]
    fn cursor_agrees_with_the_decoder() {
        let nest = |n: usize, inner: &str| "[".repeat(n) + inner + &"]".repeat(n);
        let mut texts: Vec<(String, bool)> = [r#""a\"b\u00e9 é""#, "-0.5e+10", "[true,false,null]", r#"[{},[],"",0]"#]
            .iter()
            .chain(&[" { \"a\" : [ 1 , { } , [ ] ] ,\n\"\\u0062\" : \"x\" } ", r#"{"a":{"b":[{"c":[[{"d":null}]]}]}}"#])
            .map(|t| (t.to_string(), true))
            .collect();
        let rejected = ["01", "[1,]", r#"{"a" 1}"#, r#"{"a":[1}]"#, "nul", r#"{"a":"b"#, "\"a\u{1}\"", "{a:1}"];
        texts.extend(rejected.iter().map(|t| (t.to_string(), false)));
        // The cursor follows 64 open containers and gives up on one more.
        texts.extend([(nest(64, "1"), true), (format!(r#"{{"a":{}}}"#, nest(63, "")), true), (nest(65, ""), false)]);
        texts.push((format!(r#"{{"a":{}}}"#, nest(64, "")), false));
        for (text, whole) in &texts {
            let data = text.as_bytes();
            let mut r = Cursor { data, pos: 0 };
            let got = r.value();
            r.space();
            assert_eq!(
                got.filter(|_| r.pos == data.len()),
                Some(text.trim().as_bytes()).filter(|_| *whole),
                "{}",
                text
            );
            for n in 0..=data.len() {
                let mut variants = vec![data[..n].to_vec()];
                for c in [b'"', b']', b','].iter().filter(|_| n < data.len()) {
                    variants.push([&data[..n], &[*c], &data[n + 1..]].concat());
                }
                for variant in variants {
                    let (mut r, mut s) = (Cursor { data: &variant, pos: 0 }, Cursor { data: &variant, pos: 0 });
                    let (value, skipped) = (r.value(), s.skip());
                    r.space();
                    s.space();
                    let shown = String::from_utf8_lossy(&variant);
                    assert_eq!((value.is_some(), r.pos), (skipped.is_some(), s.pos), "value and skip on {:?}", shown);
                    if value.is_some() && r.pos == variant.len() {
                        assert_eq!(check(&variant), Ok(()), "the cursor read {:?}", shown);
                    }
                }
            }
        }
    }

    /// The cursor's typed reads take their kind or null and give up on
    /// anything else.
    #[test]
    fn cursor_reads() {
        type Read = fn(&mut Cursor) -> Option<String>;
        let int: Read = |r| r.int().map(|v| format!("{:?}", v));
        let string: Read = |r| r.str().map(|s| String::from_utf8_lossy(s.raw().unwrap_or(b"nil")).into_owned());
        let boolean: Read = |r| r.bool().map(|b| b.to_string());
        let key: Read = |r| r.key().map(|k| String::from_utf8_lossy(k).into_owned());
        let null: Read = |r| r.null().map(|n| format!("{:?}", n.map(String::from_utf8_lossy)));
        let open: Read = |r| r.open(b'{', b'}').map(|m| m.to_string());
        let next: Read = |r| r.next(b']').map(|m| m.to_string());
        let scalar: Read = |r| r.scalar().map(|()| r.pos.to_string());
        let cases: &[(&str, Read, Option<&str>)] = &[
            (" -123", int, Some("Some(-123)")),
            ("null", int, Some("None")),
            ("999999999999999999", int, Some("Some(999999999999999999)")),
            ("-999999999999999999", int, Some("Some(-999999999999999999)")),
            ("1000000000000000000", int, None),
            ("1.0", int, None),
            ("\"1\"", int, None),
            (r#" "a\nb""#, string, Some(r#""a\nb""#)),
            ("null", string, Some("nil")),
            ("1", string, None),
            ("true", boolean, Some("true")),
            ("false", boolean, Some("false")),
            ("null", boolean, Some("false")),
            ("\"true\"", boolean, None),
            ("tru", boolean, None),
            (" \"id\" : 1", key, Some("id")),
            (r#""\u0069d":1"#, key, None),
            ("\"id\" 1", key, None),
            (" null", null, Some("Some(\"null\")")),
            ("1", null, Some("None")),
            ("nil", null, None),
            (" ", null, None),
            (" { } ", open, Some("false")),
            ("{\"a\"", open, Some("true")),
            ("[", open, None),
            (" ,", next, Some("true")),
            ("]", next, Some("false")),
            ("}", next, None),
            (" 1.5e3,", scalar, Some("6")),
            ("[]", scalar, None),
        ];
        for &(text, read, want) in cases {
            assert_eq!(read(&mut Cursor { data: text.as_bytes(), pos: 0 }).as_deref(), want, "{:?}", text);
        }
    }

    #[test]
    fn quoting_and_compaction() {
        let quotes: &[(&[u8], &str)] = &[
            (b"abc <a&b>", r#""abc <a&b>""#),
            (br#"a"b\c/"#, r#""a\"b\\c/""#),
            (b"\x08\x0c\n\r\t\x00\x1f\x7f", "\"\\b\\f\\n\\r\\t\\u0000\\u001f\x7f\""),
            ("\u{2028}x\u{2029}\u{2027}".as_bytes(), "\"\\u2028x\\u2029\u{2027}\""),
            (b"a\xffb\xc3", r#""a\ufffdb\ufffd""#),
            (b"\xe6\x80(\xed\xa0\x80\xe2\x80", r#""\ufffd\ufffd(\ufffd\ufffd\ufffd\ufffd\ufffd""#),
            ("\u{e9}\u{4e16}\u{1f600}".as_bytes(), "\"\u{e9}\u{4e16}\u{1f600}\""),
        ];
        for &(input, want) in quotes {
            let mut out = Vec::new();
            append_quote(&mut out, input);
            assert_eq!(String::from_utf8(out).unwrap(), want, "append_quote({:?})", input);
        }
        let compacts: &[(&[u8], &[u8])] = &[
            (b" { \"a\" :\t[1 ,\n2 ] }\r\n", br#"{"a":[1,2]}"#),
            (br#"{"k":"a b <&>","e":"\"\\\u003c"}"#, br#"{"k":"a b <&>","e":"\"\\\u003c"}"#),
            ("\"\u{2028}\u{2029}\"".as_bytes(), br#""\u2028\u2029""#),
            (b"\"\xe2\x80\"", b"\"\xe2\x80\""),
            (b"\"a\\", b"\"a\\"),
        ];
        for &(input, want) in compacts {
            let mut out = b"prefix".to_vec();
            append_compact(&mut out, input);
            assert_eq!(&out[6..], want, "append_compact({:?})", String::from_utf8_lossy(input));
        }
    }
}
