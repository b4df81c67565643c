//! gemini is the Gemini API codec: the streamGenerateContent?alt=sse
//! decoder in this file (with its fast reader, streamed partial arguments,
//! usage and error object in the submodules), the request builder
//! ([`build`]) and the failure classifier ([`classify`]).
//!
//! ```ignore
//! let mut d = gemini::Decoder::new("google");
//! let mut events = Vec::new();
//! for chunk in body {
//!     d.feed(chunk, &mut events);
//! }
//! d.close(&mut events);
//! ```
//!
//! A string made from raw JSON text (a call's args, a streamed
//! numberValue) has each byte of invalid UTF-8 replaced by U+FFFD; an
//! error object's code outside 0..=65535 gives http_status 0 (it still
//! classifies by the full code).

pub mod build;
pub mod classify;
mod fastread;
mod partial;
mod status;
mod usage;

use crate::norm::{self, ErrorKind, Event, StopReason};
use crate::sse;
use smith_json::read::{self, Kind, Str};

use crate::format::{Format, Provider};
use partial::{PartialArg, StreamCall};
use usage::UsageState;

/// MAX_ERROR_TEXT bounds the non-SSE text collected while waiting for a
/// bare JSON error object to complete (real ones are a few hundred bytes).
const MAX_ERROR_TEXT: usize = 64 << 10;

/// FORMAT is the Gemini API (generateContent) and the provider that
/// speaks it.
pub const FORMAT: Format = Format {
    api: "gemini",
    providers: || {
        vec![Provider {
            name: "google",
            display: "Google Gemini",
            base_url: "https://generativelanguage.googleapis.com",
            base_url_env: "GEMINI_BASE_URL",
            key_env: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
            ..Provider::default()
        }]
    },
    decoder: |provider| Box::new(Decoder::new(provider)),
    build: |r, _, secret| build::build_request(r, secret),
    classify: |status, h, body| classify::classify_response(status, h, body),
};

/// Decoder decodes one streamGenerateContent?alt=sse body (see
/// norm::Decoder). Create it with [`Decoder::new`].
pub struct Decoder {
    framer: sse::Framer,
    st: State,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Text,
    Thinking,
}

struct State {
    provider: String,
    em: norm::Emitter,
    started: bool,
    response_id: String,
    cur: Option<(usize, BlockKind)>, // the block text/thought parts continue
    calls: u64,
    any_call: bool,
    streaming: Option<StreamCall>, // a Vertex call whose arguments are streaming
    stop_raw: String,
    block_raw: String, // promptFeedback.blockReason
    usage: UsageState,
    text: Vec<u8>,              // non-SSE text lines, a JSON error object in the making
    parts: Vec<(usize, usize)>, // the first candidate's parts, as ranges of the chunk
    kind: Vec<u8>,              // the type of the part being read
    fast: Vec<Part<'static>>,   // the fast reader's parts, empty between chunks
}

impl Decoder {
    /// new returns a decoder whose events name provider (for example
    /// "google") as the producer of thought signatures.
    pub fn new(provider: &str) -> Decoder {
        Decoder {
            framer: sse::Framer::default(),
            st: State {
                provider: provider.to_owned(),
                em: norm::Emitter::default(),
                started: false,
                response_id: String::new(),
                cur: None,
                calls: 0,
                any_call: false,
                streaming: None,
                stop_raw: String::new(),
                block_raw: String::new(),
                usage: UsageState::default(),
                text: Vec::new(),
                parts: Vec::new(),
                kind: Vec::new(),
                fast: Vec::new(),
            },
        }
    }
}

impl norm::Decoder for Decoder {
    fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>) {
        let st = &mut self.st;
        self.framer.feed(chunk, |it| st.item(it));
        st.em.drain_into(out);
    }

    /// close ends the body. Gemini streams have no terminal event: the
    /// response is complete when the body ends after a chunk with a
    /// finishReason (or a promptFeedback.blockReason) and no error
    /// followed.
    fn close(&mut self, out: &mut Vec<Event>) {
        let st = &mut self.st;
        self.framer.close(|it| st.item(it));
        st.finish();
        st.em.drain_into(out);
    }
}

/// Chunk is what the decoder uses of one chunk; its strings borrow the
/// event's data.
#[derive(Default)]
struct Chunk<'a> {
    candidates: usize, // in the last candidates array
    has_content: bool, // the first candidate's content is an object
    finish_reason: Str<'a>,
    has_feedback: bool, // promptFeedback is an object
    block_reason: Str<'a>,
    usage: Option<&'a [u8]>,
    counts: Option<[Option<i64>; 5]>, // usage's counts, when the fast reader read them
    model_version: Str<'a>,
    response_id: Str<'a>,
    err: Option<&'a [u8]>,
}

/// push_decimal appends n in decimal, as fmt writes it.
fn push_decimal(s: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        s.push(d as char);
    }
}

/// recycle empties parts and returns its buffer for the parts of another
/// chunk (collecting a vector's own iterator into a vector of the same
/// layout reuses its allocation).
fn recycle<'b>(mut parts: Vec<Part<'_>>) -> Vec<Part<'b>> {
    parts.clear();
    parts.into_iter().map(|_| Part::default()).collect()
}

/// offset returns where part, a slice of data, starts in it.
fn range_in(data: &[u8], part: &[u8]) -> (usize, usize) {
    let start = (part.as_ptr() as usize).wrapping_sub(data.as_ptr() as usize);
    (start, start + part.len())
}

/// read_chunk parses a chunk's data, keeping the first candidate's parts
/// in parts. It reads the whole text and reports a syntax error anywhere
/// in it before a field of the wrong type.
fn read_chunk<'a>(data: &'a [u8], parts: &mut Vec<(usize, usize)>) -> Result<Chunk<'a>, read::Error> {
    let mut c = Chunk::default();
    parts.clear();
    let mut s = read::Decoder::new(data);
    s.object(|s, key| match key {
        b"candidates" => {
            c.candidates = 0;
            c.has_content = false;
            c.finish_reason = Str::default();
            parts.clear();
            s.array(|s| {
                let first = c.candidates == 0;
                c.candidates += 1;
                s.object(|s, key| match key {
                    b"content" => {
                        let has = s.peek() == Kind::Object;
                        if first {
                            c.has_content = has;
                        }
                        s.object(|s, key| {
                            if key == b"parts" {
                                if first {
                                    parts.clear();
                                }
                                s.array(|s| {
                                    let raw = s.raw();
                                    if let (true, Some(raw)) = (first, raw) {
                                        parts.push(range_in(data, raw));
                                    }
                                });
                            }
                        });
                    }
                    b"finishReason" => {
                        let v = s.str();
                        if first {
                            c.finish_reason = v;
                        }
                    }
                    _ => {}
                });
            });
        }
        b"promptFeedback" => {
            c.has_feedback = s.peek() == Kind::Object;
            s.object(|s, key| {
                if key == b"blockReason" {
                    c.block_reason = s.str();
                }
            });
        }
        b"usageMetadata" => c.usage = s.raw(),
        b"modelVersion" => c.model_version = s.str(),
        b"responseId" => c.response_id = s.str(),
        b"error" => c.err = s.raw(),
        _ => {}
    });
    s.finish()?;
    Ok(c)
}

/// Part is a content part: text, thought, signature, or a function call.
#[derive(Debug, Default)]
struct Part<'a> {
    text: Str<'a>,
    thought: bool,
    signature: Str<'a>,
    call: bool, // functionCall is an object
    fc: WireCall<'a>,
    has_kind: bool, // kind (the name of the first member other than thoughtSignature) was set
}

/// WireCall is a part's functionCall.
#[derive(Debug, Default)]
struct WireCall<'a> {
    id: String,
    name: String,
    args: Option<&'a [u8]>, // raw
    will_continue: bool,
    partial_args: Vec<PartialArg<'a>>,
}

/// read_part parses raw into a Part, the name of its first member other
/// than thoughtSignature into kind. A part that is not an object, or has
/// a field of the wrong type, is an error.
fn read_part<'a>(raw: &'a [u8], kind: &mut Vec<u8>) -> Result<Part<'a>, read::Error> {
    let mut p = Part::default();
    kind.clear();
    let mut s = read::Decoder::new(raw);
    s.object(|s, key| {
        if !p.has_kind && key != b"thoughtSignature" {
            kind.extend_from_slice(key);
            p.has_kind = true;
        }
        match key {
            b"text" => p.text = s.str(),
            b"thought" => p.thought = s.bool(),
            b"thoughtSignature" => p.signature = s.str(),
            b"functionCall" => {
                p.call = s.peek() == Kind::Object;
                read_call(s, &mut p.fc);
            }
            _ => {}
        }
    });
    s.finish()?;
    Ok(p)
}

fn read_call<'a>(s: &mut read::Decoder<'a>, fc: &mut WireCall<'a>) {
    s.object(|s, key| match key {
        b"id" => fc.id = s.str().string(),
        b"name" => fc.name = s.str().string(),
        b"args" => fc.args = s.raw(),
        b"willContinue" => fc.will_continue = s.bool(),
        b"partialArgs" => {
            fc.partial_args.clear();
            s.array(|s| {
                let mut a = PartialArg::default();
                read_partial(s, &mut a);
                fc.partial_args.push(a);
            });
        }
        _ => {}
    });
}

fn read_partial<'a>(s: &mut read::Decoder<'a>, a: &mut PartialArg<'a>) {
    s.object(|s, key| match key {
        b"jsonPath" => a.json_path = s.str().string(),
        b"stringValue" => {
            let v = s.str();
            a.string_value = if v.is_nil() { None } else { Some(v.string()) };
        }
        b"numberValue" => a.number_value = s.raw(),
        b"boolValue" => {
            a.bool_value = None;
            if !s.null() {
                a.bool_value = Some(s.bool());
            }
        }
        b"willContinue" => a.will_continue = s.bool(),
        _ => {}
    });
}

/// is_json reports whether text is one JSON value, as json.Valid does.
fn is_json(text: &[u8]) -> bool {
    let mut s = read::Decoder::new(text);
    s.skip();
    s.finish().is_ok()
}

/// has_non_space reports whether s holds a rune other than Unicode white
/// space (bytes.TrimSpace would leave something); invalid UTF-8 is not
/// space.
fn has_non_space(s: &[u8]) -> bool {
    match std::str::from_utf8(s) {
        Ok(v) => v.chars().any(|c| !c.is_whitespace()),
        Err(_) => true,
    }
}

fn finish_reason(raw: &str) -> Option<StopReason> {
    Some(match raw {
        "STOP" => StopReason::End,
        "MAX_TOKENS" => StopReason::Length,
        "SAFETY"
        | "RECITATION"
        | "BLOCKLIST"
        | "PROHIBITED_CONTENT"
        | "SPII"
        | "LANGUAGE"
        | "IMAGE_SAFETY"
        | "IMAGE_PROHIBITED_CONTENT"
        | "IMAGE_RECITATION"
        | "IMAGE_OTHER"
        | "NO_IMAGE" => StopReason::Refusal,
        _ => return None,
    })
}

fn malformed(message: String) -> norm::Error {
    norm::Error { kind: ErrorKind::Malformed, message, ..norm::Error::default() }
}

impl State {
    fn item(&mut self, it: sse::Item) {
        if self.em.ended() {
            return;
        }
        if it.kind == sse::Kind::Text {
            // Gemini may append a bare (pretty-printed) JSON error object
            // outside the SSE framing; collect lines until it parses.
            self.text.extend_from_slice(it.data);
            self.text.push(b'\n');
            if self.text.len() > MAX_ERROR_TEXT {
                let mut m = String::from(
                    "gemini: more than 65536 bytes of non-SSE text in the body, not a JSON error object: ",
                );
                smith_text::quote::quote(&mut m, smith_text::quote::prefix(&self.text, 120));
                self.fail(malformed(m));
                return;
            }
            if is_json(&self.text) {
                let e = status::error_object(0, &self.text);
                self.fail(e);
                self.text.clear();
            }
            return;
        }
        if it.done {
            return;
        }
        let data = it.data;
        // The usual chunk is read by the fast reader (fastread.rs), its
        // parts and usage with it; anything else is read again by the
        // general reader, which decides.
        let mut fast = recycle(std::mem::take(&mut self.fast));
        let mut c = Chunk::default();
        if fastread::read(&mut c, data, &mut fast).is_some() {
            if self.chunk_head(data, &c) {
                if c.candidates > 0 && c.has_content {
                    for p in &fast {
                        self.known_part(p);
                    }
                }
                self.chunk_tail(&c);
            }
            self.fast = recycle(fast);
            return;
        }
        self.fast = recycle(fast);
        let mut parts = std::mem::take(&mut self.parts);
        match read_chunk(data, &mut parts) {
            Err(err) => {
                let mut m = String::from("gemini: chunk is not JSON (");
                m.push_str(&err.to_string());
                m.push_str("): ");
                smith_text::quote::quote(&mut m, smith_text::quote::prefix(data, 80));
                self.fail(malformed(m));
            }
            Ok(c) => self.chunk(data, &c, &parts),
        }
        self.parts = parts;
    }

    fn chunk(&mut self, data: &[u8], c: &Chunk, parts: &[(usize, usize)]) {
        if !self.chunk_head(data, c) {
            return;
        }
        if c.candidates > 0 && c.has_content {
            for &(a, b) in parts {
                if let Some(raw) = data.get(a..b) {
                    self.part(raw);
                }
            }
        }
        self.chunk_tail(c);
    }

    /// chunk_head handles what comes before a chunk's parts: an error
    /// (false: the stream ended), the start, usage and a block reason.
    fn chunk_head(&mut self, data: &[u8], c: &Chunk) -> bool {
        if let Some(err) = c.err {
            if !matches!(err, b"null") {
                let e = status::error_object(0, data);
                self.fail(e);
                return false;
            }
        }
        if !self.started {
            self.started = true;
            self.response_id = c.response_id.string();
            let model = c.model_version.string();
            self.em.emit(norm::Start { provider: self.provider.clone(), model, response_id: self.response_id.clone() });
        }
        match (c.counts, c.usage) {
            (Some(counts), Some(raw)) => self.usage.take(raw, counts),
            _ => self.usage.merge(c.usage),
        }
        if c.has_feedback && !c.block_reason.empty() {
            self.block_raw = c.block_reason.string();
        }
        true
    }

    /// chunk_tail handles what comes after a chunk's parts: the first
    /// candidate's finishReason.
    fn chunk_tail(&mut self, c: &Chunk) {
        if c.candidates > 0 && !c.finish_reason.empty() {
            self.stop_raw = c.finish_reason.string();
        }
    }

    /// part handles one content part; a part that is not an object of the
    /// known shape is ignored. A part of another kind (inline data, code)
    /// is sent back whole, typed by the name of its first member other
    /// than thoughtSignature.
    fn part(&mut self, raw: &[u8]) {
        let mut kind = std::mem::take(&mut self.kind);
        if let Ok(p) = read_part(raw, &mut kind) {
            self.handle_part(raw, &p, &kind);
        }
        self.kind = kind;
    }

    fn handle_part(&mut self, raw: &[u8], p: &Part, kind: &[u8]) {
        if !self.known_part(p) {
            let type_ = if p.has_kind { String::from_utf8_lossy(kind).into_owned() } else { String::from("part") };
            self.cur = None;
            let index = self.em.open();
            self.em.emit(norm::OtherBlock { index, type_, raw: raw.to_vec() });
        }
    }

    /// known_part handles a function-call or text part and reports
    /// whether p is one; a part of another kind is left to the caller.
    fn known_part(&mut self, p: &Part) -> bool {
        let sig = if p.signature.empty() { None } else { p.signature.bytes() };
        if p.call {
            self.function_call(&p.fc, sig);
        } else if !p.text.is_nil() {
            let thinking = p.thought;
            if !p.text.empty() {
                let index = self.open(if thinking { BlockKind::Thinking } else { BlockKind::Text });
                let text = p.text.string();
                if thinking {
                    self.em.emit(norm::ThinkingDelta { index, text, ..norm::ThinkingDelta::default() });
                } else {
                    self.em.emit(norm::TextDelta { index, text, ..norm::TextDelta::default() });
                }
            }
            if let Some(signature) = sig {
                // A signature on a trailing empty text part belongs to the
                // text before it; with no text before, it gets its own
                // block so it is still sent back.
                let index = self.open(if thinking { BlockKind::Thinking } else { BlockKind::Text });
                if thinking {
                    self.em.emit(norm::ThinkingDelta { index, signature, ..norm::ThinkingDelta::default() });
                } else {
                    self.em.emit(norm::TextDelta { index, signature, ..norm::TextDelta::default() });
                }
            }
        } else {
            return false;
        }
        true
    }

    fn open(&mut self, kind: BlockKind) -> usize {
        match self.cur {
            Some((index, k)) if k == kind => index,
            _ => {
                let index = self.em.open();
                self.cur = Some((index, kind));
                index
            }
        }
    }

    fn call_id(&mut self, id: &str) -> String {
        self.calls += 1;
        if !id.is_empty() {
            return id.to_owned();
        }
        // Gemini 2.5 gives calls no id; a made-up one pairs the result.
        // Written by hand: format! is a detour through dyn Write in wasm.
        let mut id = String::with_capacity(self.response_id.len() + 16);
        id.push_str("gemini_");
        id.push_str(&self.response_id);
        id.push('_');
        push_decimal(&mut id, self.calls);
        id
    }

    fn function_call(&mut self, fc: &WireCall, sig: Option<Vec<u8>>) {
        self.cur = None;
        self.any_call = true;
        let args_len = fc.args.map_or(0, <[u8]>::len);
        if self.streaming.is_some() && fc.name.is_empty() && fc.partial_args.is_empty() && !fc.will_continue {
            self.end_streaming(); // the empty functionCall {} ends a streamed call
        } else if self.streaming.is_some() && !fc.partial_args.is_empty() {
            if let Some(s) = self.streaming.as_mut() {
                s.add(&mut self.em, &fc.partial_args);
            }
        } else if fc.will_continue && args_len == 0 {
            if self.streaming.is_some() {
                self.end_streaming();
            }
            let index = self.em.open();
            let id = self.call_id(&fc.id);
            self.em.emit(norm::ToolCallStart { index, id, name: fc.name.clone(), ..norm::ToolCallStart::default() });
            let mut s = StreamCall::new(index, sig.unwrap_or_default());
            if !fc.partial_args.is_empty() {
                s.add(&mut self.em, &fc.partial_args);
            }
            self.streaming = Some(s);
        } else {
            let index = self.em.open();
            let id = self.call_id(&fc.id);
            self.em.emit(norm::ToolCallStart { index, id, name: fc.name.clone(), ..norm::ToolCallStart::default() });
            let arguments = match fc.args {
                Some(a) if !a.is_empty() && !matches!(a, b"null") => smith_text::quote::lossy(a),
                _ => String::from("{}"),
            };
            self.em.emit(norm::ToolCallDelta { index, arguments });
            self.em.emit(norm::ToolCallEnd { index, signature: sig.unwrap_or_default() });
        }
    }

    fn end_streaming(&mut self) {
        if let Some(mut s) = self.streaming.take() {
            s.flush(&mut self.em, true);
            self.em.emit(norm::ToolCallEnd { index: s.index, signature: s.sig });
        }
    }

    fn fail(&mut self, mut e: norm::Error) {
        if !e.retryable {
            e.retryable = e.kind.retryable();
        }
        let usage = self.usage.result();
        self.em.end(norm::StreamError {
            err: Box::new(e),
            raw: self.stop_raw.clone(),
            usage,
            usage_raw: self.usage.raw.clone(),
        });
    }

    /// finish ends the stream at the end of the body, unless it ended.
    fn finish(&mut self) {
        if self.em.ended() {
            return;
        }
        if has_non_space(&self.text) {
            let mut m = String::from("gemini: the body ended with non-SSE text that is not a JSON error object: ");
            smith_text::quote::quote(&mut m, smith_text::quote::prefix(&self.text, 120));
            self.fail(malformed(m));
            return;
        }
        if self.streaming.is_some() {
            self.end_streaming();
        }
        let usage = self.usage.result();
        let usage_raw = self.usage.raw.clone();
        if !self.block_raw.is_empty() {
            let raw = self.block_raw.clone();
            self.em.end(norm::Done { reason: StopReason::Refusal, raw, usage, usage_raw });
            return;
        }
        if self.stop_raw.is_empty() {
            let mut e = norm::truncated("gemini", "a chunk with a finishReason arrived", usage);
            e.usage_raw = usage_raw;
            self.em.end(e);
            return;
        }
        let raw = self.stop_raw.clone();
        match finish_reason(&raw) {
            None => {
                let e = norm::Error {
                    kind: ErrorKind::Server,
                    message: format!("gemini: the model stopped with finishReason {}", raw),
                    provider_type: raw,
                    ..norm::Error::default()
                };
                self.fail(e);
            }
            Some(StopReason::End) if self.any_call => {
                self.em.end(norm::Done { reason: StopReason::ToolUse, raw, usage, usage_raw });
            }
            Some(reason) => self.em.end(norm::Done { reason, raw, usage, usage_raw }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::Decoder as _;

    fn decode(chunks: &[&[u8]]) -> Vec<Event> {
        let mut d = Decoder::new("google");
        let mut out = Vec::new();
        for c in chunks {
            d.feed(c, &mut out);
        }
        d.close(&mut out);
        d.close(&mut out);
        out
    }

    const CALLS: &[u8] = b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"},{\"text\":\"\",\"thoughtSignature\":\"czE=\"},{\"functionCall\":{\"name\":\"f\",\"args\":{\"x\":1}}}]}}],\"responseId\":\"r\"}\n\ndata: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"g\",\"id\":\"c2\"}}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":4,\"candidatesTokenCount\":2}}\n\n";

    #[test]
    fn push_decimal_writes_as_fmt() {
        for n in [0, 7, 10, 99, 1234567890, u64::MAX] {
            let mut s = String::from("x");
            push_decimal(&mut s, n);
            assert_eq!(s, format!("x{}", n));
        }
    }

    #[test]
    fn calls_get_ids_and_stop_is_tool_use() {
        let ev = decode(&[CALLS]);
        let ids: Vec<&str> = ev
            .iter()
            .filter_map(|e| match e {
                Event::ToolCallStart(s) => Some(s.id.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(ids, ["gemini_r_1", "c2"]);
        // The trailing empty part's signature (kept as sent) joins the text.
        assert!(matches!(&ev[2], Event::TextDelta(t) if t.index == 0 && t.text.is_empty() && t.signature == b"czE="));
        match ev.last() {
            Some(Event::Done(d)) => {
                assert_eq!((d.reason, d.raw.as_str()), (StopReason::ToolUse, "STOP"));
                assert_eq!((d.usage.input, d.usage.output), (Some(4), Some(2)));
            }
            other => panic!("last event {:?}", other),
        }
    }

    #[test]
    fn ends_with_an_error_or_truncation() {
        let ev = decode(&[
            b"data: {\"candidates\":[]}\n\n{\n \"error\": {\"code\": 503,\n \"status\": \"UNAVAILABLE\"}\n}\n",
        ]);
        match ev.last() {
            Some(Event::StreamError(e)) => {
                assert_eq!((e.err.kind, e.err.http_status, e.err.retryable), (ErrorKind::Overloaded, 503, true))
            }
            other => panic!("last event {:?}", other),
        }
        let ev = decode(&[b"data: {}\n\n"]);
        assert!(matches!(ev.last(), Some(Event::StreamError(e)) if e.err.kind == ErrorKind::Truncated));
        let ev = decode(&[b"data: {\"candidates\":[}\n\n"]);
        match ev.last() {
            Some(Event::StreamError(e)) => assert_eq!(
                e.err.message,
                "gemini: chunk is not JSON (invalid character '}' at offset 15 looking for the beginning of a value): \"{\\\"candidates\\\":[}\""
            ),
            other => panic!("last event {:?}", other),
        }
        let ev = decode(&[b"data: {\"candidates\":[{\"finishReason\":\"STOP\"}]}\n\n\xffoops"]);
        assert!(
            matches!(ev.last(), Some(Event::StreamError(e)) if e.err.kind == ErrorKind::Malformed && e.err.message.ends_with("object: \"\\xffoops\\n\""))
        );
        assert_eq!(ev.iter().filter(|e| matches!(e, Event::Done(_) | Event::StreamError(_))).count(), 1);
    }
}
