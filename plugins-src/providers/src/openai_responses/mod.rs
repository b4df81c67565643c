//! openai_responses is the OpenAI Responses API codec: the streaming
//! decoder in this file and the request builder ([`build`]); failed
//! responses are classified by [`crate::openai_chat::response`], as the two
//! APIs share the error envelope.
//!
//! The decoder reads output items (reasoning summaries and their
//! encrypted_content, kept byte-exact from output_item.done; messages with
//! their phase; function calls keyed by call_id; any other item as an
//! opaque block), the terminal response.* event and "error" events, which
//! fail the stream when it ends.
//!
//! ```ignore
//! let mut d = openai_responses::Decoder::new("openai");
//! let mut events = Vec::new();
//! for chunk in body {
//!     d.feed(chunk, &mut events);
//! }
//! d.close(&mut events);
//! ```

pub mod build;
mod fastread;
mod items;
mod replay;

use std::borrow::Cow;

use crate::format::{Format, Provider};
use crate::norm::{self, Emitter, ErrorKind, Event, StopReason, Usage};
use crate::retry;
use crate::sse;
use smith_json::read::{Decoder as Json, Kind, Str};
use smith_text::quote::{prefix, quote};

/// CODEC names the decoder in its messages.
const CODEC: &str = "openairesp";

/// FORMAT is the OpenAI Responses API and the provider that speaks it.
pub const FORMAT: Format = Format {
    api: "openai-responses",
    providers: || {
        vec![Provider {
            name: "openai",
            display: "OpenAI (Responses)",
            base_url: "https://api.openai.com/v1",
            base_url_env: "OPENAI_BASE_URL",
            key_env: &["OPENAI_API_KEY"],
            ..Provider::default()
        }]
    },
    decoder: |provider| Box::new(Decoder::new(provider)),
    build: |r, _, secret| build::build_request(r, secret),
    classify: |status, h, body| crate::openai_chat::response::classify_response(status, h, body),
};

/// Decoder decodes one Responses API event stream. Create it with
/// [`Decoder::new`].
pub struct Decoder {
    framer: sse::Framer,
    state: State,
}

/// State is everything but the framer, so the framer's callback can
/// borrow it.
struct State {
    provider: String,
    em: Emitter,
    started: bool,
    items: items::Items, // by item id
    any_call: bool,
    pending: Option<norm::Error>, // an "error" event, reported when the response ends
    usage_raw: Vec<u8>,
}

struct ItemState {
    typ: String,
    index: Option<usize>, // the block index, None until the first event
    summary: i64,         // summary_index of the last reasoning delta
    got_args: bool,
    phase: String,     // message phase, from output_item.added
    item_id_out: bool, // the block's first event (which carries item_id) was emitted
}

impl Decoder {
    /// new returns a decoder whose events name provider (for example
    /// "openai") as the producer of encrypted reasoning.
    pub fn new(provider: &str) -> Decoder {
        Decoder {
            framer: sse::Framer::default(),
            state: State {
                provider: provider.to_string(),
                em: Emitter::default(),
                started: false,
                items: items::Items::default(),
                any_call: false,
                pending: None,
                usage_raw: Vec::new(),
            },
        }
    }
}

impl norm::Decoder for Decoder {
    fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>) {
        let st = &mut self.state;
        self.framer.feed(chunk, |it| st.item(it));
        st.em.drain_into(out);
    }

    /// close ends the body: without a terminal response event the stream
    /// is truncated (or failed, when an error event arrived).
    fn close(&mut self, out: &mut Vec<Event>) {
        let st = &mut self.state;
        self.framer.close(|it| st.item(it));
        if !st.em.ended() {
            let usage = usage(&st.usage_raw);
            match st.pending.take() {
                Some(e) => st.em.end(norm::StreamError {
                    err: Box::new(e),
                    raw: String::new(),
                    usage,
                    usage_raw: st.usage_raw.clone(),
                }),
                None => {
                    let mut e = norm::truncated(
                        CODEC,
                        "a response.completed, response.incomplete or response.failed event",
                        usage,
                    );
                    e.usage_raw = st.usage_raw.clone();
                    st.em.end(e);
                }
            }
        }
        st.em.drain_into(out);
    }
}

impl State {
    fn item(&mut self, it: sse::Item) {
        if self.em.ended() {
            return;
        }
        if it.kind == sse::Kind::Text {
            let mut m = String::from("openairesp: unexpected non-SSE line ");
            quote(&mut m, prefix(it.data, 80));
            m.push_str(" in the event stream");
            return self.fail(malformed(m), "");
        }
        if it.done {
            return;
        }
        // The fast reader reads the usual event; what it gives up on is
        // read again by the general one.
        let read = match fastread::read(it.data) {
            Some(ev) => Ok(ev),
            None => WireEvent::read(it.data),
        };
        let ev = match read {
            Ok(ev) => ev,
            Err(err) => {
                let mut m = String::from("openairesp: event ");
                quote(&mut m, it.name);
                m.push_str(": payload is not JSON (");
                m.push_str(&err);
                m.push_str("): ");
                quote(&mut m, prefix(it.data, 80));
                return self.fail(malformed(m), "");
            }
        };
        if ev.response.is_some() && !self.started {
            self.started = true;
            let r = ev.response.as_ref().map(|r| (r.model.clone(), r.id.clone())).unwrap_or_default();
            self.em.emit(norm::Start { provider: self.provider.clone(), model: r.0, response_id: r.1 });
        }
        // Byte patterns: a few compares each, where a str pattern calls
        // memcmp (a byte loop in wasm); one item lookup per delta (see
        // items.rs).
        let em = &mut self.em;
        match ev.typ.as_bytes() {
            b"response.output_item.added" => self.item_added(ev.item),
            b"response.output_text.delta" | b"response.refusal.delta" => {
                let st = self.items.state(&ev.item_id, "message");
                if !ev.delta.is_empty() {
                    let index = *st.index.get_or_insert_with(|| em.open());
                    let mut td = norm::TextDelta { index, text: ev.delta, ..norm::TextDelta::default() };
                    if !st.item_id_out {
                        td.item_id = ev.item_id.to_string();
                        td.phase = st.phase.clone();
                        st.item_id_out = true;
                    }
                    em.emit(td);
                }
            }
            typ @ (b"response.reasoning_summary_text.delta" | b"response.reasoning_text.delta") => {
                let summary_delta = matches!(typ, b"response.reasoning_summary_text.delta");
                let st = self.items.state(&ev.item_id, "reasoning");
                let mut text = ev.delta;
                if summary_delta && ev.summary_index != st.summary {
                    st.summary = ev.summary_index;
                    text.insert_str(0, "\n\n"); // summary parts are paragraphs
                }
                if !text.is_empty() {
                    let index = *st.index.get_or_insert_with(|| em.open());
                    let mut td = norm::ThinkingDelta { index, text, ..norm::ThinkingDelta::default() };
                    if !st.item_id_out {
                        td.item_id = ev.item_id.to_string();
                        st.item_id_out = true;
                    }
                    em.emit(td);
                }
            }
            b"response.function_call_arguments.delta" => {
                if let Some(st) = self.items.get(&ev.item_id) {
                    if matches!(st.typ.as_bytes(), b"function_call") {
                        st.got_args = true;
                        let index = *st.index.get_or_insert_with(|| em.open());
                        em.emit(norm::ToolCallDelta { index, arguments: ev.delta });
                    }
                }
            }
            b"response.output_item.done" => self.item_done(ev.item),
            b"error" => {
                let w = match ev.error {
                    Some(w) => w,
                    None => {
                        WireError { code: ev.code.map(|c| c.to_vec()), message: ev.message, ..WireError::default() }
                    }
                };
                self.pending = Some(classify(&w));
            }
            b"response.completed" | b"response.done" | b"response.incomplete" | b"response.failed" => self.terminal(ev),
            _ => {}
        }
    }

    /// state returns the state of item id, made with type typ if new.
    fn state(&mut self, id: &str, typ: &str) -> &mut ItemState {
        self.items.state(id, typ)
    }

    /// index_of returns the block index of item id (which has a state),
    /// opening the block on first use.
    fn index_of(&mut self, id: &str) -> usize {
        let em = &mut self.em;
        match self.items.get(id) {
            Some(st) => *st.index.get_or_insert_with(|| em.open()),
            None => em.open(),
        }
    }

    fn item_added(&mut self, raw: Option<&[u8]>) {
        let it = match read_item(raw.unwrap_or(b"")) {
            Ok(it) => it,
            Err(_) => return,
        };
        self.state(&it.id, &it.typ).phase = it.phase;
        if it.typ == "function_call" {
            self.any_call = true;
            let index = self.index_of(&it.id);
            self.em.emit(norm::ToolCallStart { index, id: it.call_id, name: it.name, item_id: it.id });
        }
    }

    fn item_done(&mut self, raw: Option<&[u8]>) {
        let raw = raw.unwrap_or(b"");
        let it = match read_item(raw) {
            Ok(it) => it,
            Err(_) => return,
        };
        let announced = self.state(&it.id, &it.typ).index.is_some();
        match it.typ.as_str() {
            "message" => {}
            "reasoning" => {
                // encrypted_content differs between .added and .done; the
                // .done value is the one to send back.
                if let Some(enc) = it.encrypted_content.filter(|e| !e.is_empty()) {
                    let index = self.index_of(&it.id);
                    let mut td =
                        norm::ThinkingDelta { index, encrypted: enc.into_bytes(), ..norm::ThinkingDelta::default() };
                    if let Some(st) = self.items.get(&it.id) {
                        if !st.item_id_out {
                            td.item_id = it.id.clone();
                            st.item_id_out = true;
                        }
                    }
                    self.em.emit(td);
                }
            }
            "function_call" => {
                if !announced {
                    self.any_call = true;
                    let index = self.index_of(&it.id);
                    self.em.emit(norm::ToolCallStart {
                        index,
                        id: it.call_id.clone(),
                        name: it.name.clone(),
                        item_id: it.id.clone(),
                    });
                }
                let index = self.index_of(&it.id);
                let got_args = self.items.get(&it.id).map_or(false, |st| st.got_args);
                if !got_args && !it.arguments.is_empty() {
                    self.em.emit(norm::ToolCallDelta { index, arguments: it.arguments.clone() });
                }
                self.em.emit(norm::ToolCallEnd { index, signature: Vec::new() });
            }
            _ => {
                let index = self.index_of(&it.id);
                self.em.emit(norm::OtherBlock { index, type_: it.typ.clone(), raw: raw.to_vec() });
            }
        }
        self.items.remove(&it.id);
    }

    fn terminal(&mut self, ev: WireEvent) {
        let r = match ev.response {
            Some(r) => r,
            None => {
                let m = format!("openairesp: {} without a response object", ev.typ);
                return self.fail(malformed(m), "");
            }
        };
        if let Some(u) = r.usage.filter(|u| !u.is_empty() && !matches!(*u, b"null")) {
            self.usage_raw.clear();
            self.usage_raw.extend_from_slice(u);
        }
        let u = usage(&self.usage_raw);
        let done = |reason: StopReason, raw: &str, usage_raw: &[u8]| norm::Done {
            reason,
            raw: raw.to_string(),
            usage: u,
            usage_raw: usage_raw.to_vec(),
        };
        match r.status.as_str() {
            "completed" | "" => {
                let reason = if self.any_call { StopReason::ToolUse } else { StopReason::End };
                let d = done(reason, "completed", &self.usage_raw);
                self.em.end(d);
            }
            "incomplete" => {
                let why = r.incomplete_reason.unwrap_or_default();
                match why.as_str() {
                    "max_output_tokens" => {
                        let d = done(StopReason::Length, "incomplete", &self.usage_raw);
                        self.em.end(d);
                    }
                    "content_filter" => {
                        let d = done(StopReason::Refusal, "incomplete", &self.usage_raw);
                        self.em.end(d);
                    }
                    _ => {
                        let mut m = String::from("openairesp: response incomplete for reason ");
                        quote(&mut m, why.as_bytes());
                        let e = norm::Error {
                            kind: ErrorKind::Server,
                            message: m,
                            retryable: false,
                            ..norm::Error::default()
                        };
                        self.fail(e, "incomplete");
                    }
                }
            }
            status => {
                // failed, cancelled
                let e = match (self.pending.clone(), &r.error) {
                    (Some(e), _) => e,
                    (None, Some(w)) => classify(w),
                    (None, None) => norm::Error {
                        kind: ErrorKind::Server,
                        retryable: true,
                        message: format!("openairesp: response {} without an error object", status),
                        ..norm::Error::default()
                    },
                };
                self.fail(e, status);
            }
        }
    }

    fn fail(&mut self, e: norm::Error, raw: &str) {
        self.em.end(norm::StreamError {
            err: Box::new(e),
            raw: raw.to_string(),
            usage: usage(&self.usage_raw),
            usage_raw: self.usage_raw.clone(),
        });
    }
}

/// read_item reads an output item with the fast reader, and what it gives
/// up on with the general one.
fn read_item(raw: &[u8]) -> Result<WireItem, ()> {
    match fastread::item(raw) {
        Some(it) => Ok(it),
        None => WireItem::read(raw),
    }
}

/// malformed is a malformed-stream error with message m.
fn malformed(m: String) -> norm::Error {
    norm::Error { kind: ErrorKind::Malformed, message: m, retryable: false, ..norm::Error::default() }
}

// ---- usage ----

/// usage normalizes the terminal response's usage: input_tokens includes
/// cached tokens; output_tokens includes reasoning; the API has no cache
/// write count (caching is automatic and free to write), so it is a known
/// 0. A usage object that is not valid, or has a count that is not an
/// integer, is unknown whole.
pub fn usage(raw: &[u8]) -> Usage {
    if raw.is_empty() {
        return Usage::default();
    }
    // A count is (value, reported); an absent one is (0, false).
    let (mut input, mut output, mut cached, mut reasoning) =
        ((0i64, false), (0i64, false), (0i64, false), (0i64, false));
    let mut s = Json::new(raw);
    // details reads an *_details member: null clears its count, an object
    // sets what it names.
    fn details(s: &mut Json, dst: &mut (i64, bool), name: &[u8]) {
        if s.null() {
            *dst = (0, false);
            return;
        }
        s.object(|s, key| {
            if key == name {
                let n = s.int();
                *dst = (n.unwrap_or(0), n.is_some());
            }
        });
    }
    s.object(|s, key| match key {
        b"input_tokens" => {
            let n = s.int();
            input = (n.unwrap_or(0), n.is_some());
        }
        b"output_tokens" => {
            let n = s.int();
            output = (n.unwrap_or(0), n.is_some());
        }
        b"input_tokens_details" => details(s, &mut cached, b"cached_tokens"),
        b"output_tokens_details" => details(s, &mut reasoning, b"reasoning_tokens"),
        _ => {}
    });
    if s.finish().is_err() {
        return Usage::default();
    }
    Usage {
        input: if input.1 { Some(input.0.wrapping_sub(cached.0)) } else { None },
        output: if output.1 { Some(output.0) } else { None },
        cache_read: Some(cached.0),
        cache_write: Some(0),
        reasoning: if reasoning.1 { Some(reasoning.0) } else { None },
    }
}

// ---- the wire ----

/// WireEvent is one Responses API stream event; its raw values borrow the
/// event's data and are None when absent ("null" when null).
struct WireEvent<'a> {
    typ: Cow<'a, str>,
    item_id: Cow<'a, str>,
    summary_index: i64,
    delta: String,
    item: Option<&'a [u8]>,
    response: Option<WireResponse<'a>>, // None when absent or null
    // The error event: nested (recorded) or flat (documented).
    error: Option<WireError>,
    code: Option<&'a [u8]>,
    message: String,
}

/// WireResponse is the response object of the response.* events.
#[derive(Default)]
struct WireResponse<'a> {
    id: String,
    model: String,
    status: String,
    usage: Option<&'a [u8]>,
    incomplete_reason: Option<String>, // None when incomplete_details is absent or not an object
    error: Option<WireError>,
}

impl<'a> WireEvent<'a> {
    /// read parses data. It reads the whole text and reports a syntax error
    /// anywhere in it before a field of the wrong type; the error objects
    /// are read by [`wire_error`].
    fn read(data: &'a [u8]) -> Result<WireEvent<'a>, String> {
        let (mut typ, mut item_id, mut delta, mut message) =
            (Str::default(), Str::default(), Str::default(), Str::default());
        let mut summary = 0i64;
        let (mut item, mut code, mut err_raw, mut resp_err_raw) = (None, None, None, None);
        let mut has_response = false;
        let mut r_usage: Option<&'a [u8]> = None;
        let mut has_incomplete = false;
        let (mut id, mut model, mut status, mut reason) =
            (Str::default(), Str::default(), Str::default(), Str::default());
        let mut s = Json::new(data);
        s.object(|s, key| match key {
            b"type" => typ = s.str(),
            b"item_id" => item_id = s.str(),
            b"summary_index" => summary = s.int().unwrap_or(0),
            b"delta" => delta = s.str(),
            b"item" => item = s.raw(),
            b"code" => code = s.raw(),
            b"message" => message = s.str(),
            b"error" => err_raw = s.raw(),
            b"response" => {
                has_response = s.peek() == Kind::Object;
                s.object(|s, key| match key {
                    b"id" => id = s.str(),
                    b"model" => model = s.str(),
                    b"status" => status = s.str(),
                    b"usage" => r_usage = s.raw(),
                    b"incomplete_details" => {
                        has_incomplete = s.peek() == Kind::Object;
                        s.object(|s, key| {
                            if key == b"reason" {
                                reason = s.str();
                            }
                        });
                    }
                    b"error" => resp_err_raw = s.raw(),
                    _ => {}
                });
            }
            _ => {}
        });
        s.finish().map_err(|e| e.to_string())?;
        let error = wire_error(err_raw)?;
        let r_error = wire_error(resp_err_raw)?;
        let response = if has_response {
            Some(WireResponse {
                id: id.string(),
                model: model.string(),
                status: status.string(),
                usage: r_usage,
                incomplete_reason: if has_incomplete { Some(reason.string()) } else { None },
                error: r_error,
            })
        } else {
            None
        };
        Ok(WireEvent {
            typ: typ.unquoted(),
            item_id: item_id.unquoted(),
            summary_index: summary,
            delta: delta.string(),
            item,
            response,
            error,
            code,
            message: message.string(),
        })
    }
}

/// WireItem is an output item of response.output_item.added and .done.
#[derive(Default)]
struct WireItem {
    typ: String,
    id: String,
    call_id: String,
    name: String,
    arguments: String,
    phase: String,
    encrypted_content: Option<String>,
}

impl WireItem {
    /// read parses an item object (null reads as the zero item).
    fn read(raw: &[u8]) -> Result<WireItem, ()> {
        let (mut typ, mut id, mut call_id, mut name) = (Str::default(), Str::default(), Str::default(), Str::default());
        let (mut args, mut phase, mut enc) = (Str::default(), Str::default(), Str::default());
        let mut s = Json::new(raw);
        s.object(|s, key| match key {
            b"type" => typ = s.str(),
            b"id" => id = s.str(),
            b"call_id" => call_id = s.str(),
            b"name" => name = s.str(),
            b"arguments" => args = s.str(),
            b"phase" => phase = s.str(),
            b"encrypted_content" => enc = s.str(),
            _ => {}
        });
        s.finish().map_err(|_| ())?;
        Ok(WireItem {
            typ: typ.string(),
            id: id.string(),
            call_id: call_id.string(),
            name: name.string(),
            arguments: args.string(),
            phase: phase.string(),
            encrypted_content: if enc.is_nil() { None } else { Some(enc.string()) },
        })
    }
}

// ---- the error object ----

/// WireError is the error object of the OpenAI APIs; code is a JSON value
/// (a string at OpenAI), None when absent.
#[derive(Default)]
struct WireError {
    message: String,
    typ: String,
    code: Option<Vec<u8>>,
}

/// wire_error reads an error object; None for an absent or null one. raw
/// is a value of a text already validated. Keys match ignoring ASCII case,
/// the last of repeated keys wins, null leaves a field as it was, and the
/// first value of the wrong kind is the error, "json: cannot unmarshal
/// KIND into Go struct field WireError.NAME of type string" (a raw value
/// that is not an object: "… into Go value of type openaichat.WireError").
fn wire_error(raw: Option<&[u8]>) -> Result<Option<WireError>, String> {
    let raw = match raw {
        Some(r) if !r.is_empty() && !matches!(r, b"null") => r,
        _ => return Ok(None),
    };
    let mut w = WireError::default();
    let mut first_err: Option<String> = None;
    let mut s = Json::new(raw);
    let top = s.peek();
    if top != Kind::Object {
        return Err(format!("json: cannot unmarshal {} into Go value of type openaichat.WireError", json_kind(top)));
    }
    s.object(|s, key| {
        let field = match fold_field(key) {
            Some(f) => f,
            None => return,
        };
        match field {
            "code" => w.code = s.raw().map(|r| r.to_vec()),
            "param" => {}
            _ => match s.peek() {
                Kind::Str => {
                    let v = s.str().string();
                    if field == "message" {
                        w.message = v;
                    } else {
                        w.typ = v;
                    }
                }
                Kind::Null => s.skip(),
                k => {
                    if first_err.is_none() {
                        first_err = Some(format!(
                            "json: cannot unmarshal {} into Go struct field WireError.{} of type string",
                            json_kind(k),
                            field
                        ));
                    }
                    s.skip();
                }
            },
        }
    });
    // The text was validated with the whole event.
    s.finish().map_err(|e| e.to_string())?;
    match first_err {
        Some(e) => Err(e),
        None => Ok(Some(w)),
    }
}

/// json_kind names a value's kind in the type errors ("bool", "number",
/// "string", "array", "object", "null").
fn json_kind(k: Kind) -> &'static str {
    match k {
        Kind::Bool => "bool",
        Kind::Number => "number",
        Kind::Str => "string",
        Kind::Array => "array",
        Kind::Object => "object",
        Kind::Null => "null",
        Kind::Invalid => "invalid",
    }
}

/// fold_field returns the WireError field a key names, matched ignoring
/// ASCII case.
fn fold_field(key: &[u8]) -> Option<&'static str> {
    const FIELDS: [&str; 4] = ["message", "type", "code", "param"];
    FIELDS.iter().copied().find(|f| crate::retry::equal_fold(key, f.as_bytes()))
}

/// code_string returns the code as text: a JSON string unquoted, other
/// values as their JSON text, "" when absent or null. That text may hold
/// invalid UTF-8 inside a nested string; each invalid byte becomes U+FFFD.
fn code_string(code: &Option<Vec<u8>>) -> String {
    let raw = match code {
        Some(r) if !r.is_empty() => r,
        _ => return String::new(),
    };
    let mut s = Json::new(raw);
    if s.peek() == Kind::Str || s.peek() == Kind::Null {
        let v = s.str();
        if s.finish().is_ok() {
            return v.string();
        }
    }
    smith_text::quote::lossy(raw)
}

/// classify maps an in-stream OpenAI-style error (status 0) to a kind, as
/// crate::openai_chat's classifier does: the code and type first, then the
/// code as a status.
fn classify(w: &WireError) -> norm::Error {
    let code = code_string(&w.code);
    let mut kind = None;
    for s in [code.as_str(), w.typ.as_str()] {
        if let Some(k) = kind_by_code(s) {
            kind = Some(k);
            break;
        }
    }
    let mut kind = kind.unwrap_or_else(|| by_status(&code));
    if kind == ErrorKind::InvalidRequest && is_overflow(&w.message) {
        kind = ErrorKind::ContextOverflow;
    }
    let ptype = if w.typ.is_empty() { code.clone() } else { w.typ.clone() };
    let mut e = norm::Error {
        kind,
        message: w.message.clone(),
        retryable: kind.retryable(),
        provider_type: ptype,
        ..norm::Error::default()
    };
    if kind == ErrorKind::RateLimit {
        e.retry_after = retry::from_message(w.message.as_bytes());
    }
    if !code.is_empty() && code != e.provider_type {
        e.code = code;
    }
    e
}

fn kind_by_code(s: &str) -> Option<ErrorKind> {
    Some(match s {
        "insufficient_quota" | "billing_hard_limit_reached" | "usage_limit_reached" | "usage_not_included" => {
            ErrorKind::Quota
        }
        "invalid_api_key" | "authentication_error" | "permission_error" => ErrorKind::Auth,
        "context_length_exceeded" | "exceed_context_size_error" => ErrorKind::ContextOverflow,
        "rate_limit_exceeded" | "slow_down" => ErrorKind::RateLimit,
        "model_not_found" => ErrorKind::NotFound,
        "previous_response_not_found" => ErrorKind::InvalidRequest,
        "server_error" => ErrorKind::Server,
        "server_is_overloaded" => ErrorKind::Overloaded,
        _ => return None,
    })
}

/// by_status is the kind a code that is a status number implies (an
/// in-stream error has no HTTP status).
fn by_status(code: &str) -> ErrorKind {
    match code {
        "401" | "403" => ErrorKind::Auth,
        "402" => ErrorKind::Quota,
        "404" => ErrorKind::NotFound,
        "429" => ErrorKind::RateLimit,
        "503" | "529" => ErrorKind::Overloaded,
        "" => ErrorKind::Server,
        c if c.starts_with('5') => ErrorKind::Server,
        _ => ErrorKind::InvalidRequest,
    }
}

/// is_overflow reports whether a message says the context is too long,
/// compared in lower case (ASCII letters lowered, and U+0130 and the
/// Kelvin sign U+212A lowered to i and k; any other char matches nothing).
fn is_overflow(msg: &str) -> bool {
    let mut m = Vec::with_capacity(msg.len());
    for c in msg.chars() {
        match c {
            '\u{130}' => m.push(b'i'),
            '\u{212a}' => m.push(b'k'),
            c if c.is_ascii() => m.push((c as u8).to_ascii_lowercase()),
            _ => m.push(0x80), // no pattern holds it
        }
    }
    let has = |p: &[u8]| m.windows(p.len()).any(|w| w == p);
    has(b"context length") || has(b"context window") || has(b"maximum context") || has(b"too many tokens")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::Decoder as _;

    fn run(body: &str) -> Vec<Event> {
        let mut d = Decoder::new("openai");
        let mut out = Vec::new();
        d.feed(body.as_bytes(), &mut out);
        d.close(&mut out);
        out
    }

    #[test]
    fn text_then_completed() {
        let out = run(concat!(
            "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\",\"model\":\"m\"}}\n\n",
            "data: {\"type\":\"response.output_item.added\",\"item\":{\"type\":\"message\",\"id\":\"msg\",\"phase\":\"final_answer\"}}\n\n",
            "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg\",\"delta\":\"Hi\"}\n\n",
            "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg\",\"delta\":\"!\"}\n\n",
            "data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":",
            "{\"input_tokens\":10,\"input_tokens_details\":{\"cached_tokens\":4},\"output_tokens\":3}}}\n\n",
        ));
        assert_eq!(out.len(), 4);
        assert_eq!(
            out[0],
            Event::Start(norm::Start { provider: "openai".into(), model: "m".into(), response_id: "r1".into() })
        );
        match &out[1] {
            Event::TextDelta(t) => {
                assert_eq!((t.index, &*t.text, &*t.item_id, &*t.phase), (0, "Hi", "msg", "final_answer"))
            }
            e => panic!("{:?}", e),
        }
        match &out[2] {
            Event::TextDelta(t) => assert_eq!((&*t.text, &*t.item_id), ("!", "")),
            e => panic!("{:?}", e),
        }
        match &out[3] {
            Event::Done(d) => {
                assert_eq!(d.reason, StopReason::End);
                assert_eq!(d.usage.input, Some(6));
                assert_eq!(d.usage.cache_read, Some(4));
                assert_eq!(d.usage.cache_write, Some(0));
                assert_eq!(d.usage.reasoning, None);
            }
            e => panic!("{:?}", e),
        }
    }

    #[test]
    fn function_call_and_truncation() {
        let out = run(concat!(
            "data: {\"type\":\"response.output_item.done\",\"item\":{\"type\":\"function_call\",\"id\":\"fc\",\"call_id\":\"c\",\"name\":\"f\",\"arguments\":\"{}\"}}\n\n",
        ));
        assert_eq!(out.len(), 4);
        assert_eq!(
            out[0],
            Event::ToolCallStart(norm::ToolCallStart {
                index: 0,
                id: "c".into(),
                name: "f".into(),
                item_id: "fc".into()
            })
        );
        assert_eq!(out[1], Event::ToolCallDelta(norm::ToolCallDelta { index: 0, arguments: "{}".into() }));
        match &out[3] {
            Event::StreamError(e) => assert_eq!(e.err.kind, ErrorKind::Truncated),
            e => panic!("{:?}", e),
        }
    }

    #[test]
    fn error_event_fails_at_the_end() {
        let out = run(concat!(
            "data: {\"type\":\"error\",\"code\":\"rate_limit_exceeded\",\"message\":\"Please try again in 1.5s\"}\n\n",
            "data: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\"}}\n\n",
        ));
        match &out[1] {
            Event::StreamError(e) => {
                assert_eq!(e.err.kind, ErrorKind::RateLimit);
                assert_eq!(e.err.retry_after, 1_500_000_000);
                assert_eq!(e.raw, "failed");
            }
            e => panic!("{:?}", e),
        }
    }

    #[test]
    fn wire_error_reads_message_type_and_code() {
        let w = wire_error(Some(br#"{"MESSAGE":"a","Me\u017fsage":"b","code":42,"type":null}"#)).unwrap().unwrap();
        assert_eq!((&*w.message, &*w.typ, code_string(&w.code).as_str()), ("a", "", "42"));
        assert_eq!(
            wire_error(Some(br#"{"type":1,"message":[]}"#)).err().unwrap(),
            "json: cannot unmarshal number into Go struct field WireError.type of type string"
        );
        assert_eq!(
            wire_error(Some(b"\"x\"")).err().unwrap(),
            "json: cannot unmarshal string into Go value of type openaichat.WireError"
        );
        assert!(wire_error(Some(b"null")).unwrap().is_none());
    }

    #[test]
    fn invalid_utf8_becomes_one_replacement_per_byte() {
        assert_eq!(code_string(&Some(b"[\"\xf0\x9f\x98\"]".to_vec())), "[\"\u{fffd}\u{fffd}\u{fffd}\"]");
        assert_eq!(code_string(&Some(b"\"x\"".to_vec())), "x");
    }

    #[test]
    fn overflow_and_status_codes() {
        // The Kelvin sign lowers to k and U+0130 to i.
        assert!(is_overflow("Too many to\u{212a}ens"));
        assert!(is_overflow("context w\u{130}ndow"));
        assert!(is_overflow("CONTEXT LENGTH exceeded"));
        assert!(!is_overflow("context\u{a0}length"));
        assert_eq!(by_status("502"), ErrorKind::Server);
        assert_eq!(by_status("400"), ErrorKind::InvalidRequest);
    }
}
