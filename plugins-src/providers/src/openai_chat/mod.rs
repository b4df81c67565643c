//! openai_chat is the OpenAI Chat Completions codec (OpenAI's own API and
//! the OpenAI-compatible servers): the streaming decoder in this file, the
//! request builder ([`build`], shaped by [`quirks`]) and the failure
//! classifier ([`response`]). The decoder tolerates every recorded server
//! variant without configuration — reasoning in reasoning_content,
//! reasoning, reasoning_text, reasoning_details or typed content parts;
//! tool calls with or without an index; usage on the finish chunk, on a
//! choices-less chunk, twice or never; an optional [DONE] — and emits the
//! same events for a body however it is cut into chunks.
//!
//! ```ignore
//! let mut d = openai_chat::Decoder::new("deepseek");
//! let mut events = Vec::new();
//! for chunk in body {
//!     events.clear();
//!     d.feed(chunk, &mut events);
//!     handle(&events);
//! }
//! ```

pub mod anyjson;
pub mod build;
mod classify;
mod fastread;
pub mod quirks;
pub mod response;
mod usage;

use crate::format::{Format, Provider};
use crate::norm::{self, Emitter, ErrorKind, Event, StopReason, StreamError};
use crate::sse;
use quirks::Quirks;
use smith_json::read::{Decoder as Scan, Error as ScanError, Kind, Str};
use std::collections::BTreeMap;

/// CODEC names the decoder in its messages.
const CODEC: &str = "openaichat";

/// FORMAT is the OpenAI Chat Completions API and the providers that speak
/// it: OpenAI's own endpoint and any OpenAI-compatible server (no default
/// base URL, an optional key, `max_tokens` and no prompt_cache_key unless
/// its configuration's quirks say otherwise).
pub const FORMAT: Format = Format {
    api: "openai-chat",
    providers: || {
        vec![
            Provider {
                name: "openai-chat",
                display: "OpenAI (Chat Completions)",
                base_url: "https://api.openai.com/v1",
                base_url_env: "OPENAI_BASE_URL",
                key_env: &["OPENAI_API_KEY"],
                ..Provider::default()
            },
            Provider {
                name: "openai-compatible",
                display: "OpenAI-compatible server",
                key_env: &[crate::format::OPTIONAL_KEY],
                quirks: Quirks {
                    max_tokens_field: "max_tokens".to_string(),
                    no_prompt_cache_key: true,
                    ..Quirks::default()
                },
                ..Provider::default()
            },
        ]
    },
    decoder: |provider| Box::new(Decoder::new(provider)),
    build: build::build_request,
    classify: |status, h, body| response::classify_response(status, h, body),
};

/// Decoder decodes one Chat Completions event stream. Create it with
/// [`Decoder::new`]; it is used by one thread at a time. Once its buffers
/// are warm it allocates only what the events it emits hold.
pub struct Decoder {
    framer: sse::Framer,
    st: State,
}

/// Block is the kind of block text and thinking deltas go to.
#[derive(Clone, Copy, PartialEq)]
enum Block {
    None,
    Text,
    Thinking,
}

/// State is the decoder apart from its framer, so the framer's callback
/// can borrow it.
struct State {
    provider: String,
    em: Emitter,
    started: bool,
    id: String,
    model: String,
    cur: Option<usize>, // the block text/thinking deltas go to
    cur_kind: Block,
    calls: BTreeMap<Vec<u8>, usize>, // tool-call key → block index (no HashMap: its random keys would import WASI random_get)
    open: Vec<bool>,                 // by block index: a tool call not yet ended
    open_count: usize,
    last_call: Vec<u8>,
    anon_calls: i64,
    stop_raw: String,
    usage_raw: Vec<u8>,
    key: Vec<u8>, // the tool-call key being looked up
    bufs: Bufs,
    prefix: fastread::Prefix, // how the last chunk began (the fast reader's)
}

/// Bufs are the chunk's vectors, kept between events; they hold nothing
/// between events, so their element lifetimes are 'static.
#[derive(Default)]
struct Bufs {
    choices: Vec<Choice<'static>>,
    details: Vec<Detail<'static>>,
    calls: Vec<ToolCall<'static>>,
    parts: Vec<Part<'static>>,
    thinking: Vec<u8>,
}

/// recycle empties v and returns its allocation for elements of another
/// lifetime (the in-place collection reuses it: the layouts are equal).
fn recycle<A, B>(mut v: Vec<A>) -> Vec<B> {
    v.clear();
    v.into_iter().map(|_| -> B { unreachable!() }).collect()
}

/// Chunk is one stream chunk as read from the wire; its strings and raw
/// values borrow the event's data. A raw value is None when absent and
/// "null" when null, as a json.RawMessage would hold it. The reasoning
/// details and tool calls of every choice are in details and calls, each
/// delta naming its range.
#[derive(Default)]
struct Chunk<'a> {
    id: Str<'a>,
    model: Str<'a>,
    choices: Vec<Choice<'a>>,
    details: Vec<Detail<'a>>,
    calls: Vec<ToolCall<'a>>,
    usage: Option<&'a [u8]>,
    groq_usage: Option<&'a [u8]>, // x_groq.usage
    err: Option<&'a [u8]>,
}

#[derive(Default, Clone, Copy)]
struct Choice<'a> {
    delta: Delta<'a>,
    finish_reason: Str<'a>,
    usage: Option<&'a [u8]>,
}

#[derive(Default, Clone, Copy)]
struct Delta<'a> {
    content: Option<&'a [u8]>, // a string, null, or (Mistral Magistral) an array of typed parts
    content_str: Str<'a>,      // content when it is a string, read once
    reasoning_content: Str<'a>,
    reasoning: Str<'a>,
    reasoning_text: Str<'a>,
    details: (usize, usize),
    calls: (usize, usize),
    refusal: Str<'a>,
}

#[derive(Default, Clone, Copy)]
struct Detail<'a> {
    typ: Str<'a>,
    text: Str<'a>,
    summary: Str<'a>,
    signature: Str<'a>,
    data: Str<'a>,
    format: Str<'a>,
}

#[derive(Default, Clone, Copy)]
struct ToolCall<'a> {
    index: Option<i64>,
    id: Str<'a>,
    name: Str<'a>,
    args: Str<'a>,
}

/// Part is one typed part of a delta's content array; thinking is the
/// range in Bufs::thinking of its thinking entries' texts, joined.
#[derive(Default, Clone, Copy)]
struct Part<'a> {
    typ: Str<'a>,
    text: Str<'a>,
    thinking: (usize, usize),
}

impl<'a> Chunk<'a> {
    /// read parses data into c (emptied first). It reads the whole text
    /// and reports a syntax error anywhere in it before a field of the
    /// wrong type.
    fn read(&mut self, data: &'a [u8]) -> Result<(), ScanError> {
        self.id = Str::default();
        self.model = Str::default();
        self.choices.clear();
        self.details.clear();
        self.calls.clear();
        self.usage = None;
        self.groq_usage = None;
        self.err = None;
        let Chunk { id, model, choices, details, calls, usage, groq_usage, err } = self;
        let mut s = Scan::new(data);
        s.object(|s, key| match key {
            b"id" => *id = s.str(),
            b"model" => *model = s.str(),
            b"choices" => {
                choices.clear();
                s.array(|s| {
                    choices.push(Choice::default());
                    if let Some(ch) = choices.last_mut() {
                        read_choice(s, ch, details, calls);
                    }
                });
            }
            b"usage" => *usage = s.raw(),
            b"x_groq" => s.object(|s, key| {
                if key == b"usage" {
                    *groq_usage = s.raw();
                }
            }),
            b"error" => *err = s.raw(),
            _ => {}
        });
        s.finish()
    }
}

fn read_choice<'a>(
    s: &mut Scan<'a>,
    ch: &mut Choice<'a>,
    details: &mut Vec<Detail<'a>>,
    calls: &mut Vec<ToolCall<'a>>,
) {
    s.object(|s, key| match key {
        b"delta" => read_delta(s, &mut ch.delta, details, calls),
        b"finish_reason" => ch.finish_reason = s.str(),
        b"usage" => ch.usage = s.raw(),
        _ => {}
    });
}

fn read_delta<'a>(s: &mut Scan<'a>, d: &mut Delta<'a>, details: &mut Vec<Detail<'a>>, calls: &mut Vec<ToolCall<'a>>) {
    s.object(|s, key| match key {
        b"content" => {
            // A string is kept as the scan read it (its text is what raw
            // would return), so it is not scanned again.
            if s.peek() == Kind::Str {
                d.content_str = s.str();
                d.content = d.content_str.raw();
            } else {
                d.content_str = Str::default();
                d.content = s.raw();
            }
        }
        b"reasoning_content" => d.reasoning_content = s.str(),
        b"reasoning" => d.reasoning = s.str(),
        b"reasoning_text" => d.reasoning_text = s.str(),
        b"reasoning_details" => {
            let start = details.len();
            s.array(|s| {
                details.push(Detail::default());
                if let Some(rd) = details.last_mut() {
                    s.object(|s, key| match key {
                        b"type" => rd.typ = s.str(),
                        b"text" => rd.text = s.str(),
                        b"summary" => rd.summary = s.str(),
                        b"signature" => rd.signature = s.str(),
                        b"data" => rd.data = s.str(),
                        b"format" => rd.format = s.str(),
                        _ => {}
                    });
                }
            });
            d.details = (start, details.len());
        }
        b"tool_calls" => {
            let start = calls.len();
            s.array(|s| {
                calls.push(ToolCall::default());
                if let Some(tc) = calls.last_mut() {
                    s.object(|s, key| match key {
                        b"index" => tc.index = s.int(),
                        b"id" => tc.id = s.str(),
                        b"function" => s.object(|s, key| match key {
                            b"name" => tc.name = s.str(),
                            b"arguments" => tc.args = s.str(),
                            _ => {}
                        }),
                        _ => {}
                    });
                }
            });
            d.calls = (start, calls.len());
        }
        b"refusal" => d.refusal = s.str(),
        _ => {}
    });
}

impl Decoder {
    /// new returns a decoder whose events name provider (for example
    /// "openai" or "openrouter") as the producer of opaque payloads.
    pub fn new(provider: &str) -> Decoder {
        Decoder {
            framer: sse::Framer::default(),
            st: State {
                provider: provider.to_owned(),
                em: Emitter::default(),
                started: false,
                id: String::new(),
                model: String::new(),
                cur: None,
                cur_kind: Block::None,
                calls: BTreeMap::new(),
                open: Vec::new(),
                open_count: 0,
                last_call: Vec::new(),
                anon_calls: 0,
                stop_raw: String::new(),
                usage_raw: Vec::new(),
                key: Vec::new(),
                bufs: Bufs::default(),
                prefix: fastread::Prefix::default(),
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

    /// close ends the body: a body that ended after a finish_reason is
    /// complete even without [DONE]; otherwise it is truncated.
    fn close(&mut self, out: &mut Vec<Event>) {
        let st = &mut self.st;
        self.framer.close(|it| st.item(it));
        st.finish();
        st.em.drain_into(out);
    }
}

impl State {
    fn item(&mut self, it: sse::Item) {
        if self.em.ended() {
            return;
        }
        if it.kind == sse::Kind::Text {
            let mut message = String::from("openaichat: unexpected non-SSE line ");
            smith_text::quote::quote(&mut message, smith_text::quote::prefix(it.data, 80));
            message.push_str(" in the event stream");
            return self.fail(error(ErrorKind::Malformed, message));
        }
        if it.done {
            return self.finish();
        }
        let mut c = Chunk {
            choices: recycle(std::mem::take(&mut self.bufs.choices)),
            details: recycle(std::mem::take(&mut self.bufs.details)),
            calls: recycle(std::mem::take(&mut self.bufs.calls)),
            ..Chunk::default()
        };
        // The fast reader reads the usual chunk; what it gives up on is
        // read again by the general one.
        let read = match fastread::read(&mut c, it.data, &mut self.prefix) {
            Some(()) => Ok(()),
            None => c.read(it.data),
        };
        match read {
            Ok(()) => self.chunk(&c),
            Err(e) => {
                let mut message = format!("openaichat: chunk is not JSON ({}): ", e);
                smith_text::quote::quote(&mut message, smith_text::quote::prefix(it.data, 80));
                self.fail(error(ErrorKind::Malformed, message));
            }
        }
        self.bufs.choices = recycle(c.choices);
        self.bufs.details = recycle(c.details);
        self.bufs.calls = recycle(c.calls);
    }

    fn chunk(&mut self, c: &Chunk) {
        if self.id.is_empty() && !c.id.empty() {
            self.id = c.id.string();
        }
        if self.model.is_empty() && !c.model.empty() {
            self.model = c.model.string();
        }
        if !self.started && (!self.id.is_empty() || !c.choices.is_empty()) {
            self.started = true;
            let start = norm::Start {
                provider: self.provider.clone(),
                model: self.model.clone(),
                response_id: self.id.clone(),
            };
            self.em.emit(start);
        }
        if let Some(raw) = c.err {
            if !is_null(raw) {
                self.set_usage(c.usage);
                return self.fail(classify::stream_error(raw));
            }
        }
        for ch in &c.choices {
            self.delta(&ch.delta, c);
            if !ch.finish_reason.empty() {
                self.stop_raw.clear();
                self.stop_raw.push_str(&ch.finish_reason.unquoted());
                self.end_calls();
            }
            self.set_usage(ch.usage);
        }
        self.set_usage(c.groq_usage);
        self.set_usage(c.usage);
        if self.stop_raw == "error" {
            let mut e = error(
                ErrorKind::Server,
                "openaichat: the server ended the stream with finish_reason \"error\" and no error object".into(),
            );
            e.retryable = true;
            self.fail(e);
        }
    }

    #[inline]
    fn set_usage(&mut self, raw: Option<&[u8]>) {
        if let Some(raw) = raw {
            if !is_null(raw) {
                self.usage_raw.clear();
                self.usage_raw.extend_from_slice(raw);
            }
        }
    }

    fn delta(&mut self, w: &Delta, c: &Chunk) {
        let mut reasoning = w.reasoning_content;
        if reasoning.empty() {
            reasoning = w.reasoning;
        }
        if reasoning.empty() {
            reasoning = w.reasoning_text;
        }
        if !reasoning.empty() {
            self.thinking(norm::ThinkingDelta { text: reasoning.string(), ..norm::ThinkingDelta::default() });
        }
        for rd in c.details.get(w.details.0..w.details.1).unwrap_or(&[]) {
            let mut t = norm::ThinkingDelta { format: rd.format.string(), ..norm::ThinkingDelta::default() };
            let mut any = false;
            if reasoning.empty() {
                let text = if rd.text.empty() { rd.summary } else { rd.text };
                t.text = text.string();
                any = !t.text.is_empty();
            }
            if !rd.signature.empty() {
                t.signature = rd.signature.unquoted().into_owned().into_bytes();
                any = true;
            }
            if !rd.data.empty() && rd.typ.equal("reasoning.encrypted") {
                t.encrypted = rd.data.unquoted().into_owned().into_bytes();
                any = true;
            }
            if any {
                self.thinking(t);
            }
        }
        self.content(w.content, w.content_str);
        if !w.refusal.empty() {
            self.text(w.refusal.string());
        }
        for tc in c.calls.get(w.calls.0..w.calls.1).unwrap_or(&[]) {
            self.tool_call(tc);
        }
    }

    /// tool_call handles one tool_calls entry. Entries are matched to
    /// their call by index, else by id, else they continue the last call.
    fn tool_call(&mut self, tc: &ToolCall) {
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        if let Some(index) = tc.index {
            key.push(b'i');
            append_int(&mut key, index);
        } else if !tc.id.empty() {
            key.extend_from_slice(b"id:");
            key.extend_from_slice(tc.id.unquoted().as_bytes());
        } else if !self.last_call.is_empty() {
            key.extend_from_slice(&self.last_call);
        } else {
            self.anon_calls = self.anon_calls.wrapping_add(1);
            key.extend_from_slice(b"anon");
            append_int(&mut key, self.anon_calls);
        }
        let idx = match self.calls.get(&key[..]) {
            Some(&idx) => idx,
            None => {
                let idx = self.em.open();
                self.calls.insert(key.clone(), idx);
                if self.open.len() <= idx {
                    self.open.resize(idx + 1, false);
                }
                self.open[idx] = true;
                self.open_count += 1;
                self.em.emit(norm::ToolCallStart {
                    index: idx,
                    id: tc.id.string(),
                    name: tc.name.string(),
                    item_id: String::new(),
                });
                idx
            }
        };
        if self.last_call != key {
            self.last_call.clear();
            self.last_call.extend_from_slice(&key);
        }
        self.key = key;
        self.cur = None;
        if !tc.args.empty() && self.open.get(idx) == Some(&true) {
            self.em.emit(norm::ToolCallDelta { index: idx, arguments: tc.args.string() });
        }
    }

    /// content handles delta.content: a string, null, or (Mistral
    /// Magistral) an array of typed parts; parts of another shape are
    /// ignored.
    fn content(&mut self, raw: Option<&[u8]>, text: Str) {
        let raw = match raw {
            Some(raw) if !raw.is_empty() && !is_null(raw) => raw,
            _ => return,
        };
        if raw[0] == b'"' {
            if !text.empty() {
                self.text(text.string());
            }
            return;
        }
        let mut s = Scan::new(raw);
        let mut parts: Vec<Part> = recycle(std::mem::take(&mut self.bufs.parts));
        let thinking = &mut self.bufs.thinking;
        thinking.clear();
        s.array(|s| {
            parts.push(Part::default());
            if let Some(p) = parts.last_mut() {
                s.object(|s, key| match key {
                    b"type" => p.typ = s.str(),
                    b"text" => p.text = s.str(),
                    b"thinking" => {
                        let start = thinking.len();
                        s.array(|s| {
                            s.object(|s, key| {
                                if key == b"text" {
                                    thinking.extend_from_slice(s.str().unquoted().as_bytes());
                                }
                            })
                        });
                        p.thinking = (start, thinking.len());
                    }
                    _ => {}
                });
            }
        });
        if s.finish().is_ok() {
            for p in &parts {
                if p.typ.equal("text") {
                    if !p.text.empty() {
                        self.text(p.text.string());
                    }
                } else if p.typ.equal("thinking") {
                    let text = self.bufs.thinking.get(p.thinking.0..p.thinking.1).unwrap_or(&[]);
                    if !text.is_empty() {
                        let text = String::from_utf8_lossy(text).into_owned();
                        self.thinking(norm::ThinkingDelta { text, ..norm::ThinkingDelta::default() });
                    }
                }
            }
        }
        self.bufs.parts = recycle(parts);
    }

    fn text(&mut self, text: String) {
        let index = match self.cur {
            Some(i) if self.cur_kind == Block::Text => i,
            _ => self.open_block(Block::Text),
        };
        self.em.emit(norm::TextDelta { index, text, ..norm::TextDelta::default() });
    }

    fn thinking(&mut self, mut t: norm::ThinkingDelta) {
        t.index = match self.cur {
            Some(i) if self.cur_kind == Block::Thinking => i,
            _ => self.open_block(Block::Thinking),
        };
        self.em.emit(t);
    }

    fn open_block(&mut self, kind: Block) -> usize {
        let i = self.em.open();
        self.cur = Some(i);
        self.cur_kind = kind;
        i
    }

    /// end_calls ends the open tool calls in index order.
    fn end_calls(&mut self) {
        if self.open_count == 0 {
            return;
        }
        self.open_count = 0;
        for (index, open) in self.open.iter_mut().enumerate() {
            if *open {
                *open = false;
                self.em.emit(norm::ToolCallEnd { index, signature: Vec::new() });
            }
        }
    }

    fn finish(&mut self) {
        if self.em.ended() {
            return;
        }
        let u = usage::usage(&self.usage_raw);
        if self.stop_raw.is_empty() {
            let mut e = norm::truncated(CODEC, "a finish_reason arrived", u);
            e.usage_raw = self.usage_raw.clone();
            return self.em.end(e);
        }
        self.end_calls();
        let reason = match self.stop_raw.as_str() {
            "stop" | "end_turn" => StopReason::End,
            "tool_calls" | "function_call" => StopReason::ToolUse,
            "length" => StopReason::Length,
            "content_filter" => StopReason::Refusal,
            _ => {
                let mut message = String::from("openaichat: unknown finish_reason ");
                smith_text::quote::quote(&mut message, self.stop_raw.as_bytes());
                return self.fail(error(ErrorKind::Server, message));
            }
        };
        let done = norm::Done { reason, raw: self.stop_raw.clone(), usage: u, usage_raw: self.usage_raw.clone() };
        self.em.end(done);
    }

    fn fail(&mut self, mut e: norm::Error) {
        if !e.retryable {
            e.retryable = e.kind.retryable();
        }
        let ev = StreamError {
            err: Box::new(e),
            raw: self.stop_raw.clone(),
            usage: usage::usage(&self.usage_raw),
            usage_raw: self.usage_raw.clone(),
        };
        self.em.end(ev);
    }
}

/// error returns an error of kind with message and the kind's retry hint.
fn error(kind: ErrorKind, message: String) -> norm::Error {
    norm::Error { kind, message, retryable: kind.retryable(), ..norm::Error::default() }
}

/// is_null reports whether the raw value raw is null. (A slice pattern
/// compiles to a few byte compares; `==` calls memcmp, a byte loop in
/// wasm.)
fn is_null(raw: &[u8]) -> bool {
    matches!(raw, b"null")
}

/// append_int appends v in decimal (a leading '-' when negative).
fn append_int(dst: &mut Vec<u8>, v: i64) {
    if v < 0 {
        dst.push(b'-');
    }
    let mut n = v.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    dst.extend_from_slice(&digits[i..]);
}
