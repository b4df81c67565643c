//! The JSON the commands read and write: a command's arguments object
//! ({"arguments": "..."}, read strictly, as encoding/json reads it) and
//! its details ({"prompt": "..."}).

/// MAX_DEPTH is the nesting encoding/json allows; deeper input is refused.
const MAX_DEPTH: usize = 10000;

/// arguments returns the string member "arguments" of the JSON object in
/// b ("" when absent or null), or why b is not such an object. Other
/// members may hold any JSON value; of repeated members the last counts,
/// as encoding/json decodes an object into a map.
pub(crate) fn arguments(b: &[u8]) -> Result<String, String> {
    let mut r = Reader { b, i: 0 };
    r.space();
    if r.peek() != Some(b'{') {
        return Err(r.fail("the arguments must be a JSON object"));
    }
    r.i += 1;
    let mut found: Result<String, String> = Ok(String::new());
    r.space();
    if r.peek() == Some(b'}') {
        r.i += 1;
    } else {
        loop {
            r.space();
            let key = r.string()?;
            r.space();
            r.expect(b':')?;
            r.space();
            if key == "arguments" {
                found = match r.peek() {
                    Some(b'"') => Ok(r.string()?),
                    Some(b'n') => {
                        r.literal(b"null")?;
                        Ok(String::new())
                    }
                    _ => {
                        let at = r.fail("\"arguments\" must be a string");
                        r.skip_value()?;
                        Err(at)
                    }
                };
            } else {
                r.skip_value()?;
            }
            r.space();
            match r.peek() {
                Some(b',') => r.i += 1,
                Some(b'}') => {
                    r.i += 1;
                    break;
                }
                _ => return Err(r.fail("expected ',' or '}' after an object member")),
            }
        }
    }
    r.space();
    if r.i != b.len() {
        return Err(r.fail("unexpected data after the object"));
    }
    found
}

/// Reader is a position in JSON text.
struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn fail(&self, what: &str) -> String {
        crate::text::cat(&[what, " (at byte ", &crate::text::utoa(self.i as u64), ")"])
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() != Some(c) {
            let mut what = String::from("expected '");
            what.push(c as char);
            what.push('\'');
            return Err(self.fail(&what));
        }
        self.i += 1;
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), String> {
        if !self.b[self.i..].starts_with(word) {
            return Err(self.fail("invalid literal"));
        }
        self.i += word.len();
        Ok(())
    }

    /// string reads a string, decoding escapes as encoding/json does (an
    /// unpaired surrogate becomes U+FFFD).
    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = match self.peek() {
                Some(c) => c,
                None => return Err(self.fail("unterminated string")),
            };
            match c {
                b'"' => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    let e = match self.peek() {
                        Some(e) => e,
                        None => return Err(self.fail("unterminated string")),
                    };
                    self.i += 1;
                    let simple = match e {
                        b'"' => Some(b'"'),
                        b'\\' => Some(b'\\'),
                        b'/' => Some(b'/'),
                        b'b' => Some(8),
                        b'f' => Some(12),
                        b'n' => Some(b'\n'),
                        b'r' => Some(b'\r'),
                        b't' => Some(b'\t'),
                        b'u' => None,
                        _ => return Err(self.fail("invalid escape in string")),
                    };
                    match simple {
                        Some(v) => out.push(v),
                        None => {
                            let r = self.unicode_escape()?;
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(r.encode_utf8(&mut buf).as_bytes());
                        }
                    }
                }
                0..=0x1f => return Err(self.fail("control character in string")),
                _ => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| self.fail("string is not valid UTF-8"))
    }

    /// unicode_escape reads the four hex digits after \u, and a low
    /// surrogate's escape after a high surrogate's.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let hi = self.hex4()?;
        if !(0xD800..0xE000).contains(&hi) {
            return Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'));
        }
        if hi < 0xDC00 && self.b[self.i..].starts_with(b"\\u") {
            let save = self.i;
            self.i += 2;
            let lo = self.hex4()?;
            if (0xDC00..0xE000).contains(&lo) {
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Ok(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            self.i = save;
        }
        Ok('\u{FFFD}')
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.fail("invalid \\u escape in string")),
            };
            v = v * 16 + d as u32;
            self.i += 1;
        }
        Ok(v)
    }

    /// skip_value skips one JSON value of any kind, checking it, without
    /// recursion (a stack of open containers, at most MAX_DEPTH deep).
    fn skip_value(&mut self) -> Result<(), String> {
        let mut open: Vec<u8> = Vec::new();
        loop {
            self.space();
            match self.peek() {
                Some(b'{') => {
                    // The arguments object is one level; encoding/json
                    // allows MAX_DEPTH in all.
                    if open.len() + 2 > MAX_DEPTH {
                        return Err(self.fail("nested too deeply"));
                    }
                    self.i += 1;
                    self.space();
                    if self.peek() == Some(b'}') {
                        self.i += 1;
                    } else {
                        open.push(b'}');
                        self.string()?;
                        self.space();
                        self.expect(b':')?;
                        continue;
                    }
                }
                Some(b'[') => {
                    if open.len() + 2 > MAX_DEPTH {
                        return Err(self.fail("nested too deeply"));
                    }
                    self.i += 1;
                    self.space();
                    if self.peek() == Some(b']') {
                        self.i += 1;
                    } else {
                        open.push(b']');
                        continue;
                    }
                }
                Some(b'"') => {
                    self.string()?;
                }
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.fail("expected a JSON value")),
            }
            // After a value: close containers or go on to the next element.
            loop {
                let close = match open.last() {
                    Some(&c) => c,
                    None => return Ok(()),
                };
                self.space();
                match self.peek() {
                    Some(b',') => {
                        self.i += 1;
                        if close == b'}' {
                            self.space();
                            self.string()?;
                            self.space();
                            self.expect(b':')?;
                        }
                        break;
                    }
                    Some(c) if c == close => {
                        self.i += 1;
                        open.pop();
                    }
                    _ => return Err(self.fail("expected ',' or a closing bracket")),
                }
            }
        }
    }

    /// number checks a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    fn number(&mut self) -> Result<(), String> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.fail("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.fail("invalid number"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
    }
}

/// prompt_details returns the details object {"prompt": text}.
pub(crate) fn prompt_details(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 16);
    s.push_str("{\"prompt\":");
    quote(&mut s, text);
    s.push('}');
    s
}

/// quote appends text as a JSON string.
fn quote(s: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                s.push_str("\\u00");
                s.push(HEX[(c as usize) >> 4] as char);
                s.push(HEX[(c as usize) & 15] as char);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}
