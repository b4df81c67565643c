//! fastread reads the events a Responses stream is nearly all made of —
//! the text, reasoning and argument deltas: compact JSON, unescaped keys,
//! scalar members — into a [`WireEvent`] without the general reader's
//! callbacks: one cursor whose offset stays in a register. It is the
//! decoder's fast path in wasm, where every call, every loop entered (a
//! fuel charge) and every load and store of a reader kept in memory (a
//! bounds check) costs.
//!
//! It never decides anything the general reader ([`WireEvent::read`])
//! would decide differently: where a text is not what it expects (a
//! syntax error, a type the field does not take, an escaped key, an item,
//! response or error object, any other nested value but an empty one, an
//! integer it would have to think about) it gives up with None, and the
//! decoder reads the text again with `WireEvent::read`, which accepts or
//! rejects it exactly as Go does. What it reads it reads as
//! `WireEvent::read` does (tested in this file and by the decoder's
//! differential tests and fuzz targets against Go).
//!
//! The events of one stream share no prefix worth remembering (the
//! sequence number follows the type), so unlike openaichat's fast reader
//! this one keeps no memo between events.

use super::WireEvent;
use crate::jsonscan::{number_end, Str};

/// read reads data as `WireEvent::read` does, or returns None: read it
/// with `WireEvent::read`.
pub(super) fn read(data: &[u8]) -> Option<WireEvent<'_>> {
    let mut r = Cursor { data, pos: 0 };
    let (mut typ, mut item_id, mut delta, mut message) = (Str::default(), Str::default(), Str::default(), Str::default());
    let mut summary = 0i64;
    let (mut item, mut code) = (None, None);
    let mut more = r.open(b'{', b'}')?;
    while more {
        match r.key()? {
            b"type" => typ = r.str()?,
            b"item_id" => item_id = r.str()?,
            b"summary_index" => summary = r.int()?.unwrap_or(0),
            b"delta" => delta = r.str()?,
            b"message" => message = r.str()?,
            // Raw values: kept as text, "null" when null.
            b"code" => code = Some(r.scalar()?),
            b"item" => item = Some(r.null()??),
            // A null error is no error, a null response no response (and
            // anything else is the general reader's).
            b"error" | b"response" => {
                r.null()??;
            }
            _ => r.skip()?,
        }
        more = r.next(b'}')?;
    }
    r.space();
    if r.pos != data.len() {
        return None;
    }
    Some(WireEvent {
        typ: typ.unquoted(),
        item_id: item_id.unquoted(),
        summary_index: summary,
        delta: delta.string(),
        item,
        response: None,
        error: None,
        code,
        message: message.string(),
    })
}

/// Cursor reads data forward from pos. Every method returns None where
/// the fast path gives up; its methods are inlined so that the cursor
/// lives in registers.
struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// space skips whitespace, testing the first byte before any loop.
    #[inline(always)]
    fn space(&mut self) {
        if let Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') = self.data.get(self.pos) {
            self.pos += 1;
            while let Some(b' ') | Some(b'\t') | Some(b'\n') | Some(b'\r') = self.data.get(self.pos) {
                self.pos += 1;
            }
        }
    }

    /// peek returns the next byte after whitespace.
    #[inline(always)]
    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.data.get(self.pos).copied()
    }

    /// open consumes the opening byte of a container and reports whether
    /// a member follows; an empty container is consumed whole (false).
    #[inline(always)]
    fn open(&mut self, open: u8, close: u8) -> Option<bool> {
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

    /// next consumes what follows a member: a comma (true, another
    /// follows) or close (false, the container ended).
    #[inline(always)]
    fn next(&mut self, close: u8) -> Option<bool> {
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

    /// key reads an object key and its colon, leaving the cursor on the
    /// value; an escaped key gives up (the general reader unescapes it
    /// before matching). A key with bytes above ASCII is returned raw: it
    /// matches no field name either way.
    #[inline(always)]
    fn key(&mut self) -> Option<&'a [u8]> {
        self.space();
        let (k, end) = Str::at(self.data, self.pos)?;
        self.pos = end;
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        self.space();
        k.plain()
    }

    /// str reads a string, or null as the nil Str; another kind gives up
    /// (a type error is the general reader's).
    #[inline(always)]
    fn str(&mut self) -> Option<Str<'a>> {
        if self.peek()? == b'"' {
            let (s, end) = Str::at(self.data, self.pos)?;
            self.pos = end;
            return Some(s);
        }
        self.null()??;
        Some(Str::default())
    }

    /// null reads null and returns its text, Some(None) when another
    /// value follows (left unread), None when the text ends.
    #[inline(always)]
    fn null(&mut self) -> Option<Option<&'a [u8]>> {
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

    /// scalar reads a string, number, true, false or null and returns
    /// its text; a container gives up.
    #[inline(always)]
    fn scalar(&mut self) -> Option<&'a [u8]> {
        let c = self.peek()?;
        let p = self.pos;
        let n = match c {
            b'"' => {
                self.pos = Str::at(self.data, p)?.1;
                return self.data.get(p..self.pos);
            }
            // Slice patterns: byte compares, where == would call memcmp.
            b't' if matches!(self.data.get(p..p + 4), Some(b"true")) => 4,
            b'f' if matches!(self.data.get(p..p + 5), Some(b"false")) => 5,
            b'n' if matches!(self.data.get(p..p + 4), Some(b"null")) => 4,
            _ => return self.number(),
        };
        self.pos += n;
        self.data.get(p..self.pos)
    }

    /// skip skips a scalar or an empty array or object (the output text
    /// deltas' `"logprobs":[]`); any other container gives up.
    #[inline(always)]
    fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'[' => {
                if self.open(b'[', b']')? {
                    return None;
                }
            }
            b'{' => {
                if self.open(b'{', b'}')? {
                    return None;
                }
            }
            _ => {
                self.scalar()?;
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
    /// anything else gives up (the general reader decides whether it is a
    /// type error).
    #[inline(always)]
    fn int(&mut self) -> Option<Option<i64>> {
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
}

#[cfg(test)]
mod tests {
    use super::super::{WireError, WireEvent};
    use super::read;

    /// error renders an error object as the decoder uses it.
    fn error(w: &Option<WireError>) -> String {
        match w {
            Some(w) => format!("{{message {:?} type {:?} code {:?}}}", w.message, w.typ, w.code),
            None => "none".to_string(),
        }
    }

    /// text renders what a reader read, field by field.
    fn text(ev: &WireEvent) -> String {
        let mut s = format!(
            "type {:?} item_id {:?} summary {} delta {:?} item {:?} error {} code {:?} message {:?}\n",
            ev.typ, ev.item_id, ev.summary_index, ev.delta, ev.item, error(&ev.error), ev.code, ev.message
        );
        if let Some(r) = &ev.response {
            s.push_str(&format!(
                "response id {:?} model {:?} status {:?} usage {:?} incomplete {:?} error {}\n",
                r.id, r.model, r.status, r.usage, r.incomplete_reason, error(&r.error)
            ));
        }
        s
    }

    /// Where the fast reader reads a text, it reads what WireEvent::read
    /// reads; it gives up on what it must not decide.
    #[test]
    fn reads_as_the_general_reader() {
        struct Case {
            name: &'static str,
            data: &'static str,
            fast: bool,
        }
        let cases = [
            Case { name: "summary delta", data: r#"{"type":"response.reasoning_summary_text.delta","sequence_number":4,"item_id":"rs_0183","output_index":0,"summary_index":0,"delta":"**Calcul","obfuscation":"2ajSAGID"}"#, fast: true },
            Case { name: "arguments delta", data: r#"{"type":"response.function_call_arguments.delta","sequence_number":40,"item_id":"fc_0183","output_index":1,"delta":"{\"","obfuscation":"hKtg6o5cWUSdCa"}"#, fast: true },
            Case { name: "text delta", data: r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_0183","output_index":0,"content_index":0,"delta":"The","logprobs":[],"obfuscation":"o6siFnnjPfOpq"}"#, fast: true },
            Case { name: "text done", data: r#"{"type":"response.output_text.done","sequence_number":12,"item_id":"msg_0","output_index":0,"content_index":0,"text":"The final result","logprobs":[ ]}"#, fast: true },
            Case { name: "spaces everywhere", data: " {\"type\" : \"response.refusal.delta\" ,\n\"item_id\" : \"m\" , \"delta\" : \"no\" , \"x\" : { } } \r\n", fast: true },
            Case { name: "escapes and utf-8 in values", data: r#"{"type":"response.output_text.delta","item_id":"a\"b","delta":"\u00e9t\u00e9 é\n\ud800"}"#, fast: true },
            Case { name: "utf-8 key matches nothing", data: r#"{"tÿpe":"x","type":"y"}"#, fast: true },
            Case { name: "numbers and literals skipped", data: r#"{"a":-0.5e+10,"b":true,"c":false,"d":null,"e":0,"f":12.25E-3,"type":"t"}"#, fast: true },
            Case { name: "summary index", data: r#"{"type":"response.reasoning_summary_text.delta","summary_index":-12,"delta":"x"}"#, fast: true },
            Case { name: "null summary index after one", data: r#"{"summary_index":3,"summary_index":null}"#, fast: true },
            Case { name: "null fields", data: r#"{"type":null,"item_id":null,"delta":null,"message":null,"item":null,"error":null,"response":null,"code":null}"#, fast: true },
            Case { name: "flat error event", data: r#"{"type":"error","code":"rate_limit_exceeded","message":"Please try again in 1.5s","param":null}"#, fast: true },
            Case { name: "number code", data: r#"{"type":"error","code":-429.5,"message":"m"}"#, fast: true },
            Case { name: "literal code", data: r#"{"type":"error","code":true}"#, fast: true },
            Case { name: "duplicate fields, last wins", data: r#"{"type":"a","type":"b","delta":"x","delta":null,"item_id":"i","item_id":"j"}"#, fast: true },
            Case { name: "empty object", data: "{}", fast: true },
            Case { name: "response object", data: r#"{"type":"response.completed","response":{"id":"r","status":"completed"}}"#, fast: false },
            Case { name: "item object", data: r#"{"type":"response.output_item.added","item":{"id":"rs","type":"reasoning"}}"#, fast: false },
            Case { name: "error object", data: r#"{"type":"error","error":{"message":"m","code":"c"}}"#, fast: false },
            Case { name: "code object", data: r#"{"type":"error","code":{"a":1}}"#, fast: false },
            Case { name: "summary part", data: r#"{"type":"response.reasoning_summary_part.added","item_id":"rs","summary_index":0,"part":{"type":"summary_text","text":""}}"#, fast: false },
            Case { name: "logprobs", data: r#"{"type":"response.output_text.delta","delta":"x","logprobs":[{"token":"x"}]}"#, fast: false },
            Case { name: "escaped key", data: r#"{"\u0074ype":"x"}"#, fast: false },
            Case { name: "wrong type", data: r#"{"delta":5}"#, fast: false },
            Case { name: "error string", data: r#"{"error":"x"}"#, fast: false },
            Case { name: "fraction summary index", data: r#"{"summary_index":1.5}"#, fast: false },
            Case { name: "huge summary index", data: r#"{"summary_index":9223372036854775807}"#, fast: false },
            Case { name: "leading zero", data: r#"{"a":01}"#, fast: false },
            Case { name: "trailing comma", data: r#"{"a":1,}"#, fast: false },
            Case { name: "trailing text", data: r#"{"a":1} x"#, fast: false },
            Case { name: "truncated", data: r#"{"type":"abc"#, fast: false },
            Case { name: "bad literal", data: r#"{"a":nul}"#, fast: false },
            Case { name: "not an object", data: "null", fast: false },
            Case { name: "control character", data: "{\"delta\":\"a\u{1}\"}", fast: false },
        ];
        for c in &cases {
            let data = c.data.as_bytes();
            let want = WireEvent::read(data);
            let got = read(data);
            assert_eq!(got.is_some(), c.fast, "{}: fast path taken", c.name);
            if let Some(got) = &got {
                match &want {
                    Ok(want) => assert_eq!(text(got), text(want), "{}", c.name),
                    Err(e) => panic!("{}: the fast path read a text the general reader rejects ({})", c.name, e),
                }
            }
            // Every prefix and every one-byte change reads the same or
            // gives up.
            for n in 0..data.len() {
                for variant in [
                    data[..n].to_vec(),
                    [&data[..n], b"\"", &data[n + 1..]].concat(),
                    [&data[..n], b" ", &data[n..]].concat(),
                    [&data[..n], b"1", &data[n + 1..]].concat(),
                    [&data[..n], b"\\", &data[n + 1..]].concat(),
                    [&data[..n], b"}", &data[n + 1..]].concat(),
                    [&data[..n], b"\xff", &data[n + 1..]].concat(),
                ] {
                    if let Some(got) = read(&variant) {
                        match WireEvent::read(&variant) {
                            Ok(want) => assert_eq!(text(&got), text(&want), "{}: variant {:?}", c.name, String::from_utf8_lossy(&variant)),
                            Err(e) => panic!("{}: variant {:?} read fast, rejected by the general reader ({})", c.name, String::from_utf8_lossy(&variant), e),
                        }
                    }
                }
            }
        }
    }
}
