//! The argument reader: a strict JSON decoder for the flat argument objects
//! the tools take, with the messages the model sees when they are wrong.
//!
//! The host has already validated the arguments against the tool's schema,
//! so this reader is defensive rather than general: it walks one JSON text
//! without recursion, binds the properties the tool names (strings,
//! integers, booleans and, for edit, a list of objects) and skips every
//! other value after checking its syntax. Its messages name the offset and
//! the offending character, as the system plugins' JSON reader does.

use crate::output::itoa;
use crate::quote::quote_rune;
use std::borrow::Cow;

/// MAX_DEPTH is the nesting limit of arrays and objects (encoding/json's).
const MAX_DEPTH: usize = 10000;

/// Kind is the type of a JSON value, told by its first byte.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Invalid,
    Null,
    Bool,
    Number,
    Str,
    Object,
    Array,
}

impl Kind {
    /// name returns the kind's JSON name, as messages use it.
    fn name(self) -> &'static str {
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

/// Slot is where a field's value goes.
pub(crate) enum Slot<'f> {
    Str(&'f mut String),
    Int(&'f mut i64),
    Bool(&'f mut bool),
    /// A list: the function is called with the reader at each element.
    List(&'f mut dyn FnMut(&mut Reader) -> Result<(), String>),
}

/// Field binds one property name to where its value goes; seen, when set,
/// becomes true once the property is present and not null.
pub(crate) struct Field<'f> {
    pub name: &'static str,
    pub slot: Slot<'f>,
    pub seen: Option<&'f mut bool>,
}

/// str_field binds name to a string.
pub(crate) fn str_field<'f>(name: &'static str, v: &'f mut String) -> Field<'f> {
    Field { name, slot: Slot::Str(v), seen: None }
}

/// int_field binds name to an integer.
pub(crate) fn int_field<'f>(name: &'static str, v: &'f mut i64) -> Field<'f> {
    Field { name, slot: Slot::Int(v), seen: None }
}

/// bool_field binds name to a boolean.
pub(crate) fn bool_field<'f>(name: &'static str, v: &'f mut bool) -> Field<'f> {
    Field { name, slot: Slot::Bool(v), seen: None }
}

/// decode reads args, a JSON object, into fields. A property no field
/// names is skipped (the host's schema check refuses those first); null
/// leaves the field unchanged. The error is the invalid-arguments message
/// telling the model what was wrong.
pub(crate) fn decode(tool: &str, args: &[u8], fields: &mut [Field]) -> Result<(), String> {
    let mut r = Reader::new(args);
    match r.peek() {
        Kind::Object => r.object(&mut |r: &mut Reader, key: &str| {
            for f in fields.iter_mut() {
                if f.name == key {
                    return r.into(f);
                }
            }
            Ok(()) // left unread: skipped
        }),
        Kind::Invalid => r.skip(), // records the syntax error (or the empty input)
        k => {
            r.err = Some(kind_error("the arguments", "must be a JSON object", k));
            r.skip();
        }
    }
    // A syntax error anywhere comes first, then a type mismatch, then the
    // first property the tool could not use.
    let err = match r.finish() {
        Some(e) => Some(e),
        None => r.err.take(),
    };
    match err {
        None => Ok(()),
        Some(msg) => {
            let mut s = String::with_capacity(tool.len() + msg.len() + 96);
            s.push_str(tool);
            s.push_str(": arguments are not valid: ");
            s.push_str(&msg);
            s.push_str("; send a JSON object matching the tool's schema");
            Err(s)
        }
    }
}

/// quoted returns a property name in double quotes, as messages name it.
fn quoted(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    s.push('"');
    s.push_str(name);
    s.push('"');
    s
}

/// kind_error describes a property of the wrong kind.
fn kind_error(name: &str, want: &str, got: Kind) -> String {
    let mut s = String::from(name);
    s.push(' ');
    s.push_str(want);
    s.push_str(", not ");
    s.push_str(got.name());
    s
}

/// Reader reads one JSON text. Each reading method consumes the next
/// value; after the first syntax error the rest do nothing. err keeps the
/// first property a field could not use.
pub(crate) struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// The first syntax error.
    syntax_err: Option<String>,
    /// The first container of the wrong kind.
    type_err: Option<String>,
    /// The open containers, '{' or '['.
    stack: Vec<u8>,
    /// The first property a field could not use.
    pub err: Option<String>,
}

/// is_space reports JSON's whitespace.
fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'
}

fn skip_space(data: &[u8], mut pos: usize) -> usize {
    while pos < data.len() && is_space(data[pos]) {
        pos += 1;
    }
    pos
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, pos: 0, syntax_err: None, type_err: None, stack: Vec::new(), err: None }
    }

    /// finish checks that only whitespace follows the value read and
    /// returns the first syntax error, else the first type mismatch.
    fn finish(&mut self) -> Option<String> {
        if self.syntax_err.is_none() {
            self.pos = skip_space(self.data, self.pos);
            if self.pos < self.data.len() {
                self.syntax("after the top-level value");
            }
        }
        match self.syntax_err.take() {
            Some(e) => Some(e),
            None => self.type_err.take(),
        }
    }

    /// peek returns the kind of the next value without consuming it;
    /// Invalid after an error or at the end of the input.
    pub(crate) fn peek(&mut self) -> Kind {
        if self.syntax_err.is_some() {
            return Kind::Invalid;
        }
        self.pos = skip_space(self.data, self.pos);
        match self.data.get(self.pos) {
            None => Kind::Invalid,
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b'"') => Kind::Str,
            Some(b't') | Some(b'f') => Kind::Bool,
            Some(b'n') => Kind::Null,
            Some(&c) if c == b'-' || c.is_ascii_digit() => Kind::Number,
            Some(_) => Kind::Invalid,
        }
    }

    /// fail records err unless an error came first.
    fn fail(&mut self, err: String) {
        if self.syntax_err.is_none() {
            self.syntax_err = Some(err);
        }
    }

    /// syntax records a syntax error at the current offset.
    fn syntax(&mut self, where_: &str) {
        let mut s = String::new();
        if self.pos >= self.data.len() {
            s.push_str("the input ends at offset ");
            s.push_str(&itoa(self.pos as i64));
            s.push(' ');
            s.push_str(where_);
            s.push_str("; the JSON text is incomplete");
        } else {
            s.push_str("invalid character ");
            quote_rune(&mut s, self.data[self.pos] as u32);
            s.push_str(" at offset ");
            s.push_str(&itoa(self.pos as i64));
            s.push(' ');
            s.push_str(where_);
        }
        self.fail(s);
    }

    /// mismatch skips the next value, a kind other than want.
    fn mismatch(&mut self, want: Kind) {
        let got = self.peek();
        let at = self.pos;
        self.skip();
        if self.syntax_err.is_none() && self.type_err.is_none() {
            let mut s = String::from("value at offset ");
            s.push_str(&itoa(at as i64));
            s.push_str(": found ");
            s.push_str(got.name());
            s.push_str(", want ");
            s.push_str(want.name());
            self.type_err = Some(s);
        }
    }

    /// enter records an open container; false past the nesting limit.
    fn enter(&mut self, c: u8) -> bool {
        if self.stack.len() >= MAX_DEPTH {
            let mut s = String::from("nesting at offset ");
            s.push_str(&itoa(self.pos as i64 - 1));
            s.push_str(" exceeds the limit of ");
            s.push_str(&itoa(MAX_DEPTH as i64));
            s.push_str(" levels");
            self.fail(s);
            return false;
        }
        self.stack.push(c);
        true
    }

    fn leave(&mut self) {
        self.stack.pop();
    }

    /// null consumes the next value and reports true if it is null; any
    /// other value is left unread.
    fn null(&mut self) -> bool {
        if self.peek() != Kind::Null {
            return false;
        }
        self.skip();
        self.syntax_err.is_none()
    }

    /// string consumes a string (peek said Str) and returns it unquoted;
    /// "" after a syntax error.
    fn string(&mut self) -> String {
        let start = self.pos;
        let (end, flags) = scan_string(self.data, start);
        self.pos = end;
        if flags & STRING_BAD != 0 {
            self.syntax("in a string literal");
            return String::new();
        }
        unquote(&self.data[start + 1..end - 1])
    }

    /// raw consumes the next value and returns its text; None after an
    /// error.
    fn raw(&mut self) -> Option<&'a [u8]> {
        if self.syntax_err.is_some() {
            return None;
        }
        self.pos = skip_space(self.data, self.pos);
        let start = self.pos;
        self.skip();
        if self.syntax_err.is_some() {
            return None;
        }
        Some(&self.data[start..self.pos])
    }

    /// object consumes an object, calling member with each key while no
    /// property has failed; member reads the value (an unread one is
    /// skipped). null calls member never; another kind is a type mismatch.
    pub(crate) fn object(&mut self, member: &mut dyn FnMut(&mut Reader, &str) -> Result<(), String>) {
        match self.peek() {
            Kind::Object => {}
            Kind::Null => return self.skip(),
            _ => return self.mismatch(Kind::Object),
        }
        self.pos += 1;
        if !self.enter(b'{') {
            return;
        }
        let data = self.data;
        let mut pos = skip_space(data, self.pos);
        if pos < data.len() && data[pos] == b'}' {
            self.pos = pos + 1;
            return self.leave();
        }
        loop {
            let key = match self.read_key(pos) {
                Some(k) => k,
                None => return,
            };
            pos = skip_space(data, self.pos);
            if pos >= data.len() || data[pos] != b':' {
                self.pos = pos;
                return self.syntax("after an object key");
            }
            self.pos = skip_space(data, pos + 1);
            let at = self.pos;
            if self.err.is_none() {
                if let Err(e) = member(self, &key) {
                    self.err = Some(e);
                }
            }
            if self.syntax_err.is_some() {
                return;
            }
            if self.pos == at {
                self.skip();
                if self.syntax_err.is_some() {
                    return;
                }
            }
            pos = skip_space(data, self.pos);
            if pos < data.len() && data[pos] == b'}' {
                self.pos = pos + 1;
                return self.leave();
            }
            if pos >= data.len() || data[pos] != b',' {
                self.pos = pos;
                return self.syntax("after an object member");
            }
            pos = skip_space(data, pos + 1);
        }
    }

    /// array consumes an array, calling elem for each element while no
    /// property has failed; an element elem leaves unread is skipped.
    fn array(&mut self, elem: &mut dyn FnMut(&mut Reader) -> Result<(), String>) {
        match self.peek() {
            Kind::Array => {}
            Kind::Null => return self.skip(),
            _ => return self.mismatch(Kind::Array),
        }
        self.pos += 1;
        if !self.enter(b'[') {
            return;
        }
        let data = self.data;
        self.pos = skip_space(data, self.pos);
        if self.pos < data.len() && data[self.pos] == b']' {
            self.pos += 1;
            return self.leave();
        }
        loop {
            let at = self.pos;
            if self.err.is_none() {
                if let Err(e) = elem(self) {
                    self.err = Some(e);
                }
            }
            if self.syntax_err.is_some() {
                return;
            }
            if self.pos == at {
                self.skip();
                if self.syntax_err.is_some() {
                    return;
                }
            }
            let pos = skip_space(data, self.pos);
            if pos < data.len() && data[pos] == b']' {
                self.pos = pos + 1;
                return self.leave();
            }
            if pos >= data.len() || data[pos] != b',' {
                self.pos = pos;
                return self.syntax("after an array element");
            }
            self.pos = skip_space(data, pos + 1);
        }
    }

    /// read_key reads the object key at pos and returns it unquoted;
    /// self.pos ends after it.
    fn read_key(&mut self, pos: usize) -> Option<Cow<'a, str>> {
        let data = self.data;
        if pos >= data.len() || data[pos] != b'"' {
            self.pos = pos;
            self.syntax("looking for an object key");
            return None;
        }
        let (end, flags) = scan_string(data, pos);
        self.pos = end;
        if flags & STRING_BAD != 0 {
            self.syntax("in a string literal");
            return None;
        }
        let raw = &data[pos + 1..end - 1];
        if !raw.contains(&b'\\') {
            if let Ok(k) = std::str::from_utf8(raw) {
                return Some(Cow::Borrowed(k));
            }
        }
        Some(Cow::Owned(unquote(raw)))
    }

    /// into decodes the next value into f; null leaves f as it is. The
    /// error says why the value does not fit.
    pub(crate) fn into(&mut self, f: &mut Field) -> Result<(), String> {
        if self.null() {
            return Ok(());
        }
        if let Some(seen) = f.seen.as_mut() {
            **seen = true;
        }
        let k = self.peek();
        let name = f.name;
        match &mut f.slot {
            Slot::Str(v) => {
                if k != Kind::Str {
                    return Err(kind_error(&quoted(name), "must be a string", k));
                }
                **v = self.string();
            }
            Slot::Int(v) => {
                if k != Kind::Number {
                    return Err(kind_error(&quoted(name), "must be an integer", k));
                }
                if let Some(tok) = self.raw() {
                    **v = integer(name, tok)?;
                }
            }
            Slot::Bool(v) => {
                if k != Kind::Bool {
                    return Err(kind_error(&quoted(name), "must be true or false", k));
                }
                let t = self.data[self.pos] == b't';
                self.skip();
                **v = t && self.syntax_err.is_none();
            }
            Slot::List(each) => {
                if k != Kind::Array {
                    return Err(kind_error(&quoted(name), "must be a list", k));
                }
                self.array(*each);
            }
        }
        Ok(())
    }

    /// skip consumes and validates the next value, containers included,
    /// without recursion: the open containers are kept on the stack.
    pub(crate) fn skip(&mut self) {
        if self.syntax_err.is_some() {
            return;
        }
        let data = self.data;
        let mut pos = self.pos;
        let base = self.stack.len();
        'value: loop {
            // A value starts here.
            pos = skip_space(data, pos);
            if pos >= data.len() {
                self.pos = pos;
                return self.syntax("looking for the beginning of a value");
            }
            let c = data[pos];
            match c {
                b'"' => {
                    let (end, flags) = scan_string(data, pos);
                    if flags & STRING_BAD != 0 {
                        self.pos = end;
                        return self.syntax("in a string literal");
                    }
                    pos = end;
                }
                b'{' | b'[' => {
                    self.pos = pos + 1;
                    if !self.enter(c) {
                        return;
                    }
                    pos = skip_space(data, pos + 1);
                    if pos < data.len() && data[pos] == c + 2 {
                        // '}' and ']' follow '{' and '[' by two
                        pos += 1;
                        self.leave();
                    } else {
                        if c == b'{' {
                            match self.member_key(pos) {
                                Some(p) => pos = p,
                                None => return,
                            }
                        }
                        continue 'value;
                    }
                }
                b't' | b'f' | b'n' => match self.literal(pos) {
                    Some(p) => pos = p,
                    None => return,
                },
                b'-' | b'0'..=b'9' => match self.number(pos) {
                    Some(p) => pos = p,
                    None => return,
                },
                _ => {
                    self.pos = pos;
                    return self.syntax("looking for the beginning of a value");
                }
            }
            // A value ended; close the containers it completes.
            loop {
                if self.stack.len() == base {
                    self.pos = pos;
                    return;
                }
                pos = skip_space(data, pos);
                if pos >= data.len() {
                    self.pos = pos;
                    return self.syntax("inside an unclosed object or array");
                }
                let top = self.stack[self.stack.len() - 1];
                let c = data[pos];
                if c == b',' {
                    pos += 1;
                    if top == b'{' {
                        match self.member_key(skip_space(data, pos)) {
                            Some(p) => pos = p,
                            None => return,
                        }
                    }
                    continue 'value;
                }
                if c == top + 2 {
                    pos += 1;
                    self.leave();
                    continue;
                }
                self.pos = pos;
                return self.syntax(if top == b'{' { "after an object member" } else { "after an array element" });
            }
        }
    }

    /// member_key consumes an object key at pos and its colon and returns
    /// the offset after them; None after recording a syntax error.
    fn member_key(&mut self, pos: usize) -> Option<usize> {
        let data = self.data;
        if pos >= data.len() || data[pos] != b'"' {
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
        if pos >= data.len() || data[pos] != b':' {
            self.pos = pos;
            self.syntax("after an object key");
            return None;
        }
        Some(pos + 1)
    }

    /// literal consumes true, false or null at pos (its first letter
    /// checked) and returns the offset after it.
    fn literal(&mut self, mut pos: usize) -> Option<usize> {
        let (want, where_): (&[u8], &str) = match self.data[pos] {
            b't' => (b"true", "in the literal true"),
            b'f' => (b"false", "in the literal false"),
            _ => (b"null", "in the literal null"),
        };
        for &w in want {
            if pos >= self.data.len() || self.data[pos] != w {
                self.pos = pos;
                self.syntax(where_);
                return None;
            }
            pos += 1;
        }
        Some(pos)
    }

    /// number consumes a number in JSON's grammar,
    /// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and returns the
    /// offset after it.
    fn number(&mut self, mut pos: usize) -> Option<usize> {
        let data = self.data;
        let digit = |p: usize| p < data.len() && data[p].is_ascii_digit();
        if data[pos] == b'-' {
            pos += 1;
        }
        if pos < data.len() && data[pos] == b'0' {
            pos += 1;
        } else if digit(pos) {
            while digit(pos) {
                pos += 1;
            }
        } else {
            self.pos = pos;
            self.syntax("in a number, looking for a digit");
            return None;
        }
        if pos < data.len() && data[pos] == b'.' {
            pos += 1;
            let start = pos;
            while digit(pos) {
                pos += 1;
            }
            if pos == start {
                self.pos = pos;
                self.syntax("after the decimal point in a number");
                return None;
            }
        }
        if pos < data.len() && (data[pos] == b'e' || data[pos] == b'E') {
            pos += 1;
            if pos < data.len() && (data[pos] == b'+' || data[pos] == b'-') {
                pos += 1;
            }
            let start = pos;
            while digit(pos) {
                pos += 1;
            }
            if pos == start {
                self.pos = pos;
                self.syntax("in the exponent of a number");
                return None;
            }
        }
        Some(pos)
    }
}

/// STRING_BAD marks a string with a syntax error.
const STRING_BAD: u8 = 1;

/// scan_string scans the string whose opening quote is at pos and returns
/// the offset after its closing quote; with STRING_BAD the offset is that
/// of the offending byte (the input's length when it ends inside the
/// string).
fn scan_string(data: &[u8], mut pos: usize) -> (usize, u8) {
    pos += 1;
    loop {
        let c = match data.get(pos) {
            None => return (data.len(), STRING_BAD),
            Some(&c) => c,
        };
        match c {
            b'"' => return (pos + 1, 0),
            0..=0x1f => return (pos, STRING_BAD),
            b'\\' => {
                pos += 1;
                match data.get(pos) {
                    None => return (pos, STRING_BAD),
                    Some(b'"') | Some(b'\\') | Some(b'/') | Some(b'b') | Some(b'f') | Some(b'n') | Some(b'r')
                    | Some(b't') => pos += 1,
                    Some(b'u') => {
                        for _ in 0..4 {
                            pos += 1;
                            if pos >= data.len() || !data[pos].is_ascii_hexdigit() {
                                return (pos, STRING_BAD);
                            }
                        }
                        pos += 1;
                    }
                    Some(_) => return (pos, STRING_BAD),
                }
            }
            _ => pos += 1,
        }
    }
}

/// hex4 reads four hexadecimal digits (validated by scan_string).
fn hex4(b: &[u8]) -> u32 {
    let mut r = 0;
    for &c in &b[..4] {
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => c - b'A' + 10,
        };
        r = r << 4 | v as u32;
    }
    r
}

/// REPLACEMENT is what invalid UTF-8 and lone surrogates become.
const REPLACEMENT: char = '\u{FFFD}';

/// unquote returns the content of a validated string literal (quotes
/// removed) with its escapes resolved; each byte of invalid UTF-8 and each
/// lone surrogate becomes U+FFFD, as encoding/json decodes them.
fn unquote(s: &[u8]) -> String {
    if !s.contains(&b'\\') {
        if let Ok(v) = std::str::from_utf8(s) {
            return v.to_string();
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'\\' {
            let e = s[i + 1];
            i += 2;
            match e {
                b'b' => out.push('\u{8}'),
                b'f' => out.push('\u{c}'),
                b'n' => out.push('\n'),
                b'r' => out.push('\r'),
                b't' => out.push('\t'),
                b'u' => {
                    let r = hex4(&s[i..]);
                    i += 4;
                    if (0xd800..0xe000).contains(&r) {
                        if s.len() - i >= 6 && s[i] == b'\\' && s[i + 1] == b'u' {
                            let r2 = hex4(&s[i + 2..]);
                            if (0xd800..0xdc00).contains(&r) && (0xdc00..0xe000).contains(&r2) {
                                i += 6;
                                let v = 0x10000 + ((r - 0xd800) << 10 | (r2 - 0xdc00));
                                out.push(char::from_u32(v).unwrap_or(REPLACEMENT));
                                continue;
                            }
                        }
                        out.push(REPLACEMENT);
                    } else {
                        out.push(char::from_u32(r).unwrap_or(REPLACEMENT));
                    }
                }
                _ => out.push(e as char), // '"', '\\', '/'
            }
        } else if c < 0x80 {
            out.push(c as char);
            i += 1;
        } else {
            let n = utf8_len(c);
            match s.get(i..i + n).map(std::str::from_utf8) {
                Some(Ok(v)) if n > 0 => {
                    out.push_str(v);
                    i += n;
                }
                _ => {
                    out.push(REPLACEMENT);
                    i += 1;
                }
            }
        }
    }
    out
}

/// utf8_len is the length of the UTF-8 sequence a leading byte starts; 0
/// for a byte that starts none.
fn utf8_len(c: u8) -> usize {
    match c {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => 0,
    }
}

/// integer converts a JSON number token to an integer. Like the host's
/// schema check, it takes a whole number written with a fraction or an
/// exponent (3.0, 1e3) as an integer.
fn integer(name: &str, tok: &[u8]) -> Result<i64, String> {
    let s = std::str::from_utf8(tok).unwrap_or("");
    if let Ok(n) = s.parse::<i64>() {
        return Ok(n);
    }
    const LIMIT: f64 = (1u64 << 53) as f64;
    match s.parse::<f64>() {
        Ok(f) if f.fract() == 0.0 && (-LIMIT..=LIMIT).contains(&f) => Ok(f as i64),
        _ => {
            let mut m = quoted(name);
            m.push_str(" must be a whole number between -2^53 and 2^53, not ");
            m.push_str(s);
            Err(m)
        }
    }
}
