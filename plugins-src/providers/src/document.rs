//! document reads the request-snapshot's document, Smith's
//! provider-neutral JSON request: the Rust port of guest/document.go
//! (Document and its request method), which stays its oracle (the Go
//! tests in internal/guest compare the two through
//! normtrace.RequestTrace and [`trace_request`]).
//!
//! The document is read as Go's encoding/json reads it into those types:
//! keys match field names case-insensitively (as encoding/json folds
//! them: ASCII case, ſ for s and the Kelvin sign for k), of a repeated key
//! the last wins (an object or array decoded again merges into what is
//! there, as Go does for a map, a pointer's struct and a slice's
//! elements), null leaves a field as it was (nil for a slice, map or
//! pointer), byte fields are standard base64 with padding (line breaks
//! skipped) or an array of numbers, a RawMessage field keeps its value's
//! exact text, and a value of the wrong type fails the document.
//!
//! Errors: the guest's own errors (an unknown role or block type, and the
//! `messages[i]` / `content[i]` that locate an error) are Go's texts byte
//! for byte. A JSON syntax or type error says the same thing as Go's in
//! substance with jsonscan's words ("guest: request document is not valid
//! JSON: jsonscan: …", or "guest: messages[i] of the request document:
//! jsonscan: …"); Go's guest names the provider in the first, which
//! [`fault_text`] adds. Of several errors, a syntax error anywhere wins
//! (as in Go); otherwise a type error may be reported before an invalid
//! base64 value that precedes it (Go reports the first in the text).
//!
//! Strings Go would carry as arbitrary bytes (the item id, phase, format
//! and block type framed in a signature, see norm.rs's unpack_meta) have
//! each byte of invalid UTF-8 replaced by U+FFFD, as Go's
//! `string([]rune(s))` does.
//!
//! Inclusion: the crate root includes this file as `crate::document`,
//! with `crate::jsonscan`, `crate::norm`, `crate::norm_message`,
//! `crate::quirks` and `crate::quote`.

use std::collections::BTreeMap;

use crate::jsonscan::{Decoder, Kind};
use crate::norm_message::{
    AssistantMessage, Content, Image, Message, Other, Request, Text, Thinking, Tool, ToolCall, ToolResultMessage,
    UserMessage,
};
use crate::quirks::Quirks;

/// Document is a parsed request document: the request for the snapshot's
/// model, the base URL overrides from configuration (`base_url`) and from
/// a flag (`base_url_flag`), the host's *_BASE_URL variables
/// (`environment`), and an openai-chat server's quirk flags (`quirks`,
/// None when the document has none).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    pub request: Request,
    pub base_url: String,
    pub base_url_flag: String,
    pub environment: BTreeMap<String, String>,
    pub quirks: Option<Quirks>,
}

/// JSON_ERROR starts the error of a document that is not valid JSON (or
/// holds a value of the wrong type outside the messages).
const JSON_ERROR: &str = "guest: request document is not valid JSON: ";

/// parse reads `doc` and returns the document with its request for
/// `model`, or the error Go's guest gives for it (see the module
/// documentation).
pub fn parse(doc: &[u8], model: &str) -> Result<Document, String> {
    let mut d = Decoder::new(doc);
    let mut raw = RawDocument::default();
    d.object(|d, key| raw.member(d, key));
    if let Err(e) = d.finish() {
        return Err(format!("{}{}", JSON_ERROR, e));
    }
    let mut r = Request {
        model: model.to_string(),
        system: raw.system,
        max_tokens: raw.max_output_tokens,
        thinking: raw.thinking,
        thinking_budget: raw.thinking_budget,
        cache_key: raw.cache_key,
        ..Request::default()
    };
    raw.tools.buf.truncate(raw.tools.len);
    r.tools = raw
        .tools
        .buf
        .into_iter()
        .map(|t| Tool { name: t.name, description: t.description, parameters: t.parameters })
        .collect();
    r.messages.reserve(raw.messages.len());
    for (i, m) in raw.messages.iter().enumerate() {
        let msg = parse_message(m).map_err(|e| format!("guest: messages[{}] of the request document: {}", i, e))?;
        r.messages.push(msg);
    }
    Ok(Document {
        request: r,
        base_url: raw.base_url,
        base_url_flag: raw.base_url_flag,
        environment: raw.environment.unwrap_or_default(),
        quirks: raw.quirks,
    })
}

/// fault_text returns a parse error as Go's guest words it for
/// `provider`: an invalid document's error names the provider.
pub fn fault_text(provider: &str, err: String) -> String {
    match err.strip_prefix(JSON_ERROR) {
        Some(rest) => {
            let mut s = String::from("guest: request document for ");
            crate::quote::quote(&mut s, provider.as_bytes());
            s.push_str(" is not valid JSON: ");
            s.push_str(rest);
            s
        }
        None => err,
    }
}

/// field returns the index of the field of `names` that `key` names.
fn field(key: &[u8], names: &[&str]) -> Option<usize> {
    names.iter().position(|n| key == n.as_bytes()).or_else(|| names.iter().position(|n| crate::retryhint::equal_fold(key, n.as_bytes())))
}

/// Slice is a Go slice being decoded into: `buf` holds every element its
/// backing array has had written (elements past `len` stay, as Go's
/// decoder reuses them when a later array is longer).
#[derive(Debug, Default)]
struct Slice<T> {
    buf: Vec<T>,
    len: usize,
}

impl<T: Default> Slice<T> {
    /// decode reads null (the nil slice), an array (each element decoded
    /// into the one already there by `elem`), or records a type mismatch.
    fn decode<'a, F: FnMut(&mut Decoder<'a>, &mut T)>(&mut self, d: &mut Decoder<'a>, mut elem: F) {
        if d.peek() == Kind::Null {
            d.skip();
            self.buf.clear();
            self.len = 0;
            return;
        }
        let mut i = 0;
        let buf = &mut self.buf;
        d.array(|d| {
            if i >= buf.len() {
                buf.push(T::default());
            }
            elem(d, &mut buf[i]);
            i += 1;
        });
        self.len = i;
        if i == 0 {
            self.buf.clear();
        }
    }

    fn items(&self) -> &[T] {
        &self.buf[..self.len.min(self.buf.len())]
    }
}

/// string decodes a Go string field: a string sets it, null leaves it.
fn string(d: &mut Decoder<'_>, v: &mut String) {
    let s = d.str();
    if !s.is_nil() {
        *v = s.string();
    }
}

/// boolean decodes a Go bool field: a boolean sets it, null leaves it.
fn boolean(d: &mut Decoder<'_>, v: &mut bool) {
    if d.peek() == Kind::Null {
        d.skip();
    } else {
        *v = d.bool();
    }
}

/// int decodes a Go int field: an integer sets it, null leaves it.
fn int(d: &mut Decoder<'_>, v: &mut i64) {
    if let Some(n) = d.int() {
        *v = n;
    }
}

/// raw_message decodes a json.RawMessage field: the value's exact text
/// ("null" for null).
fn raw_message(d: &mut Decoder<'_>, v: &mut Vec<u8>) {
    if let Some(r) = d.raw() {
        v.clear();
        v.extend_from_slice(r);
    }
}

/// bytes decodes a Go []byte field: a base64 string, an array of numbers
/// 0–255, or null (nil). A bad value is recorded in `err` (the first
/// one), as Go's decoder saves it and goes on.
fn bytes(d: &mut Decoder<'_>, v: &mut Slice<u8>, err: &mut Option<String>) {
    match d.peek() {
        Kind::Str => {
            let s = d.str();
            match decode_base64(s.unquoted().as_bytes()) {
                Ok(b) => {
                    v.len = b.len();
                    v.buf = b;
                }
                Err(e) => keep(err, e),
            }
        }
        Kind::Array => v.decode(d, |d, c| match d.peek() {
            Kind::Null => d.skip(),
            Kind::Number => {
                let text = d.raw().unwrap_or_default();
                match parse_u8(text) {
                    Some(n) => *c = n,
                    None => keep(err, format!("cannot unmarshal number {} into a byte", String::from_utf8_lossy(text))),
                }
            }
            // A mismatch: jsonscan records it.
            _ => {
                d.int();
            }
        }),
        // null clears; another kind is a mismatch jsonscan records.
        _ => v.decode(d, |_, _| {}),
    }
}

fn keep(err: &mut Option<String>, e: String) {
    if err.is_none() {
        *err = Some(e);
    }
}

/// parse_u8 parses a uint8 as strconv.ParseUint does: decimal digits only.
fn parse_u8(text: &[u8]) -> Option<u8> {
    if text.is_empty() || text.len() > 3 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = text.iter().fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'));
    u8::try_from(n).ok()
}

/// decode_base64 decodes standard base64 with padding as Go's
/// base64.StdEncoding.Decode does: CR and LF are skipped anywhere, the
/// unused bits of the last quantum are not checked, and the error names
/// the offset as Go's CorruptInputError does.
fn decode_base64(src: &[u8]) -> Result<Vec<u8>, String> {
    let corrupt = |at: usize| format!("illegal base64 data at input byte {}", at);
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    while si < src.len() {
        let mut q = [0u8; 4];
        let mut j = 0;
        let mut dlen = 4;
        let mut trailing = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(corrupt(si - j));
            }
            let c = src[si];
            si += 1;
            if let Some(v) = base64_value(c) {
                q[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' || j < 2 {
                return Err(corrupt(si - 1));
            }
            if j == 2 {
                while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                    si += 1;
                }
                if si == src.len() {
                    return Err(corrupt(src.len()));
                }
                if src[si] != b'=' {
                    return Err(corrupt(si - 1));
                }
                si += 1;
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                trailing = Some(si);
            }
            dlen = j;
            break;
        }
        let val = u32::from(q[0]) << 18 | u32::from(q[1]) << 12 | u32::from(q[2]) << 6 | u32::from(q[3]);
        let three = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
        out.extend_from_slice(&three[..dlen - 1]);
        if let Some(at) = trailing {
            return Err(corrupt(at));
        }
        if dlen < 4 {
            break;
        }
    }
    Ok(out)
}

fn base64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// RawDocument is Go's Document as json.Unmarshal fills it.
#[derive(Default)]
struct RawDocument<'a> {
    system: String,
    messages: Vec<&'a [u8]>,
    tools: Slice<RawTool>,
    max_output_tokens: i64,
    thinking: String,
    thinking_budget: i64,
    cache_key: String,
    base_url: String,
    base_url_flag: String,
    environment: Option<BTreeMap<String, String>>,
    quirks: Option<Quirks>,
}

#[derive(Default)]
struct RawTool {
    name: String,
    description: String,
    parameters: Vec<u8>,
}

const DOCUMENT_FIELDS: [&str; 11] = [
    "system",
    "messages",
    "tools",
    "max_output_tokens",
    "thinking",
    "thinking_budget",
    "cache_key",
    "base_url",
    "base_url_flag",
    "environment",
    "quirks",
];

impl<'a> RawDocument<'a> {
    fn member(&mut self, d: &mut Decoder<'a>, key: &[u8]) {
        match field(key, &DOCUMENT_FIELDS) {
            Some(0) => string(d, &mut self.system),
            Some(1) => {
                // []json.RawMessage: every element replaced, null kept as
                // "null".
                if d.peek() == Kind::Null {
                    d.skip();
                    self.messages.clear();
                    return;
                }
                let mut msgs = Vec::new();
                let mut array = false;
                if d.peek() == Kind::Array {
                    array = true;
                }
                d.array(|d| {
                    if let Some(r) = d.raw() {
                        msgs.push(r);
                    }
                });
                if array {
                    self.messages = msgs;
                }
            }
            Some(2) => self.tools.decode(d, |d, t| {
                d.object(|d, key| match field(key, &["name", "description", "parameters"]) {
                    Some(0) => string(d, &mut t.name),
                    Some(1) => string(d, &mut t.description),
                    Some(2) => raw_message(d, &mut t.parameters),
                    _ => {}
                })
            }),
            Some(3) => int(d, &mut self.max_output_tokens),
            Some(4) => string(d, &mut self.thinking),
            Some(5) => int(d, &mut self.thinking_budget),
            Some(6) => string(d, &mut self.cache_key),
            Some(7) => string(d, &mut self.base_url),
            Some(8) => string(d, &mut self.base_url_flag),
            Some(9) => {
                if d.peek() == Kind::Null {
                    d.skip();
                    self.environment = None;
                    return;
                }
                if d.peek() != Kind::Object {
                    d.object(|_, _| {}); // records the mismatch
                    return;
                }
                let env = self.environment.get_or_insert_with(BTreeMap::new);
                d.object(|d, key| {
                    let mut v = String::new();
                    string(d, &mut v);
                    env.insert(String::from_utf8_lossy(key).into_owned(), v);
                });
            }
            Some(10) => {
                if d.peek() == Kind::Null {
                    d.skip();
                    self.quirks = None;
                    return;
                }
                if d.peek() != Kind::Object {
                    d.object(|_, _| {});
                    return;
                }
                let q = self.quirks.get_or_insert_with(Quirks::default);
                d.object(|d, key| quirk(d, key, q));
            }
            _ => {}
        }
    }
}

const QUIRK_FIELDS: [&str; 11] = [
    "developer_role",
    "max_tokens_field",
    "no_stream_usage",
    "thinking_format",
    "echo_reasoning",
    "reasoning_details",
    "usage_include",
    "tool_result_name",
    "no_strict",
    "no_prompt_cache_key",
    "max_tool_call_id_len",
];

/// quirk decodes one member of openaichat.Quirks (JSON names of quirks.go).
fn quirk(d: &mut Decoder<'_>, key: &[u8], q: &mut Quirks) {
    match field(key, &QUIRK_FIELDS) {
        Some(0) => boolean(d, &mut q.developer_role),
        Some(1) => string(d, &mut q.max_tokens_field),
        Some(2) => boolean(d, &mut q.no_stream_usage),
        Some(3) => string(d, &mut q.thinking_format),
        Some(4) => string(d, &mut q.echo_reasoning),
        Some(5) => boolean(d, &mut q.reasoning_details),
        Some(6) => boolean(d, &mut q.usage_include),
        Some(7) => boolean(d, &mut q.tool_result_name),
        Some(8) => boolean(d, &mut q.no_strict),
        Some(9) => boolean(d, &mut q.no_prompt_cache_key),
        Some(10) => int(d, &mut q.max_tool_call_id_len),
        _ => {}
    }
}

/// RawMessage is Go's docMessage as json.Unmarshal fills it.
#[derive(Default)]
struct RawMessage {
    role: String,
    content: Slice<RawBlock>,
    provider: String,
    model: String,
    response_id: String,
    call_id: String,
    name: String,
    is_error: bool,
}

/// RawBlock is Go's docBlock as json.Unmarshal fills it.
#[derive(Default)]
struct RawBlock {
    type_: String,
    text: String,
    signature: Slice<u8>,
    encrypted: Slice<u8>,
    redacted: bool,
    producer: String,
    format: String,
    item_id: String,
    phase: String,
    media_type: String,
    data: Slice<u8>,
    id: String,
    name: String,
    arguments: Vec<u8>,
    arguments_text: String,
}

const MESSAGE_FIELDS: [&str; 8] =
    ["role", "content", "provider", "model", "response_id", "call_id", "name", "is_error"];

const BLOCK_FIELDS: [&str; 15] = [
    "type",
    "text",
    "signature",
    "encrypted",
    "redacted",
    "producer",
    "format",
    "item_id",
    "phase",
    "media_type",
    "data",
    "id",
    "name",
    "arguments",
    "arguments_text",
];

fn block(d: &mut Decoder<'_>, key: &[u8], b: &mut RawBlock, err: &mut Option<String>) {
    match field(key, &BLOCK_FIELDS) {
        Some(0) => string(d, &mut b.type_),
        Some(1) => string(d, &mut b.text),
        Some(2) => bytes(d, &mut b.signature, err),
        Some(3) => bytes(d, &mut b.encrypted, err),
        Some(4) => boolean(d, &mut b.redacted),
        Some(5) => string(d, &mut b.producer),
        Some(6) => string(d, &mut b.format),
        Some(7) => string(d, &mut b.item_id),
        Some(8) => string(d, &mut b.phase),
        Some(9) => string(d, &mut b.media_type),
        Some(10) => bytes(d, &mut b.data, err),
        Some(11) => string(d, &mut b.id),
        Some(12) => string(d, &mut b.name),
        Some(13) => raw_message(d, &mut b.arguments),
        Some(14) => string(d, &mut b.arguments_text),
        _ => {}
    }
}

/// parse_message decodes one element of the document's messages (valid
/// JSON) and converts it, as Go's json.Unmarshal into a docMessage and its
/// norm method.
fn parse_message(raw: &[u8]) -> Result<Message, String> {
    let mut d = Decoder::new(raw);
    let mut m = RawMessage::default();
    let mut err = None;
    d.object(|d, key| match field(key, &MESSAGE_FIELDS) {
        Some(0) => string(d, &mut m.role),
        Some(1) => {
            let e = &mut err;
            m.content.decode(d, |d, b| d.object(|d, key| block(d, key, b, e)));
        }
        Some(2) => string(d, &mut m.provider),
        Some(3) => string(d, &mut m.model),
        Some(4) => string(d, &mut m.response_id),
        Some(5) => string(d, &mut m.call_id),
        Some(6) => string(d, &mut m.name),
        Some(7) => boolean(d, &mut m.is_error),
        _ => {}
    });
    d.finish().map_err(|e| e.to_string())?;
    if let Some(e) = err {
        return Err(e);
    }
    let mut content = Vec::with_capacity(m.content.len);
    for (i, b) in m.content.items().iter().enumerate() {
        content.push(convert_block(b, &m.provider).map_err(|e| format!("content[{}]: {}", i, e))?);
    }
    match m.role.as_str() {
        "user" => Ok(Message::User(UserMessage { content })),
        "assistant" => Ok(Message::Assistant(AssistantMessage {
            content,
            provider: m.provider,
            model: m.model,
            response_id: m.response_id,
            ..AssistantMessage::default()
        })),
        "tool_result" => Ok(Message::ToolResult(ToolResultMessage {
            call_id: m.call_id,
            name: m.name,
            content,
            is_error: m.is_error,
        })),
        _ => {
            let mut e = String::from("unknown role ");
            crate::quote::quote(&mut e, m.role.as_bytes());
            e.push_str("; want user, assistant or tool_result");
            Err(e)
        }
    }
}

/// or returns a, or b when a is empty.
fn or(a: &str, b: &[u8]) -> String {
    if a.is_empty() {
        crate::quote::lossy(b)
    } else {
        a.to_string()
    }
}

fn convert_block(b: &RawBlock, provider: &str) -> Result<Content, String> {
    let producer = if b.producer.is_empty() { provider.to_string() } else { b.producer.clone() };
    let (meta, sig) = crate::norm::unpack_meta(b.signature.items());
    let sig = sig.to_vec();
    match b.type_.as_str() {
        "text" => {
            if !meta.other.is_empty() {
                return Ok(Content::Other(Other { type_: crate::quote::lossy(meta.other), raw: sig, producer }));
            }
            Ok(Content::Text(Text {
                text: b.text.clone(),
                signature: sig,
                producer,
                item_id: or(&b.item_id, meta.item),
                phase: or(&b.phase, meta.phase),
            }))
        }
        "thinking" => Ok(Content::Thinking(Thinking {
            text: b.text.clone(),
            signature: sig,
            encrypted: b.encrypted.items().to_vec(),
            redacted: b.redacted,
            format: or(&b.format, meta.format),
            item_id: or(&b.item_id, meta.item),
            producer,
        })),
        "image" => Ok(Content::Image(Image { media_type: b.media_type.clone(), data: b.data.items().to_vec() })),
        "tool_call" => {
            let arguments = if !b.arguments_text.is_empty() {
                b.arguments_text.as_bytes().to_vec()
            } else if b.arguments.is_empty() {
                b"{}".to_vec()
            } else {
                b.arguments.clone()
            };
            Ok(Content::ToolCall(ToolCall {
                id: b.id.clone(),
                name: b.name.clone(),
                arguments,
                arguments_error: String::new(),
                signature: sig,
                item_id: or(&b.item_id, meta.item),
                producer,
            }))
        }
        _ => {
            let mut e = String::from("unknown block type ");
            crate::quote::quote(&mut e, b.type_.as_bytes());
            e.push_str("; want text, thinking, image or tool_call");
            Err(e)
        }
    }
}

/// trace_request returns `r` as text exactly as Go's
/// normtrace.RequestTrace writes the equal Go request: a "Request" line
/// with the scalar fields, each message as a line of its type and fields
/// followed by a line per block indented by two spaces, and a line per
/// tool; every field " Name=value", strings and bytes quoted as Go's
/// strconv.QuoteToASCII quotes them.
pub fn trace_request(r: &Request) -> String {
    let mut b = String::new();
    b.push_str("Request");
    s(&mut b, "Model", r.model.as_bytes());
    s(&mut b, "System", r.system.as_bytes());
    n(&mut b, "MaxTokens", r.max_tokens);
    s(&mut b, "Thinking", r.thinking.as_bytes());
    n(&mut b, "ThinkingBudget", r.thinking_budget);
    s(&mut b, "CacheKey", r.cache_key.as_bytes());
    b.push('\n');
    for m in &r.messages {
        let content = match m {
            Message::User(u) => {
                b.push_str("UserMessage");
                &u.content
            }
            Message::Assistant(a) => {
                b.push_str("AssistantMessage");
                s(&mut b, "Provider", a.provider.as_bytes());
                s(&mut b, "Model", a.model.as_bytes());
                s(&mut b, "ResponseID", a.response_id.as_bytes());
                s(&mut b, "Stop", a.stop.map_or("", |r| r.as_str()).as_bytes());
                s(&mut b, "StopRaw", a.stop_raw.as_bytes());
                b.push_str(" Usage=");
                crate::norm::append_usage(&mut b, &a.usage);
                b.push_str(" Error=");
                match &a.error {
                    Some(e) => crate::norm::append_error(&mut b, e),
                    None => b.push_str("nil"),
                }
                &a.content
            }
            Message::ToolResult(t) => {
                b.push_str("ToolResultMessage");
                s(&mut b, "CallID", t.call_id.as_bytes());
                s(&mut b, "Name", t.name.as_bytes());
                flag(&mut b, "IsError", t.is_error);
                &t.content
            }
        };
        b.push('\n');
        for c in content {
            b.push_str("  ");
            trace_content(&mut b, c);
            b.push('\n');
        }
    }
    for t in &r.tools {
        b.push_str("Tool");
        s(&mut b, "Name", t.name.as_bytes());
        s(&mut b, "Description", t.description.as_bytes());
        s(&mut b, "Parameters", &t.parameters);
        b.push('\n');
    }
    b
}

fn trace_content(b: &mut String, c: &Content) {
    match c {
        Content::Text(t) => {
            b.push_str("Text");
            s(b, "Text", t.text.as_bytes());
            s(b, "Signature", &t.signature);
            s(b, "Producer", t.producer.as_bytes());
            s(b, "ItemID", t.item_id.as_bytes());
            s(b, "Phase", t.phase.as_bytes());
        }
        Content::Thinking(t) => {
            b.push_str("Thinking");
            s(b, "Text", t.text.as_bytes());
            s(b, "Signature", &t.signature);
            s(b, "Encrypted", &t.encrypted);
            flag(b, "Redacted", t.redacted);
            s(b, "Format", t.format.as_bytes());
            s(b, "ItemID", t.item_id.as_bytes());
            s(b, "Producer", t.producer.as_bytes());
        }
        Content::Image(i) => {
            b.push_str("Image");
            s(b, "MediaType", i.media_type.as_bytes());
            s(b, "Data", &i.data);
        }
        Content::ToolCall(t) => {
            b.push_str("ToolCall");
            s(b, "ID", t.id.as_bytes());
            s(b, "Name", t.name.as_bytes());
            s(b, "Arguments", &t.arguments);
            s(b, "ArgumentsError", t.arguments_error.as_bytes());
            s(b, "Signature", &t.signature);
            s(b, "ItemID", t.item_id.as_bytes());
            s(b, "Producer", t.producer.as_bytes());
        }
        Content::Other(o) => {
            b.push_str("Other");
            s(b, "Type", o.type_.as_bytes());
            s(b, "Raw", &o.raw);
            s(b, "Producer", o.producer.as_bytes());
        }
    }
}

fn s(b: &mut String, name: &str, v: &[u8]) {
    b.push(' ');
    b.push_str(name);
    b.push('=');
    crate::norm::quote_ascii(b, v);
}

fn n(b: &mut String, name: &str, v: i64) {
    b.push(' ');
    b.push_str(name);
    b.push('=');
    b.push_str(&v.to_string());
}

fn flag(b: &mut String, name: &str, v: bool) {
    b.push(' ');
    b.push_str(name);
    b.push('=');
    b.push_str(if v { "true" } else { "false" });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(doc: &str) -> Document {
        match parse(doc.as_bytes(), "m") {
            Ok(d) => d,
            Err(e) => panic!("parse {:?}: {}", doc, e),
        }
    }

    fn failure(doc: &str) -> String {
        match parse(doc.as_bytes(), "m") {
            Ok(d) => panic!("parse {:?} succeeded: {:?}", doc, d),
            Err(e) => e,
        }
    }

    #[test]
    fn keys_fold_as_encoding_json_folds_them() {
        let d = parsed(
            "{\"SYSTEM\":\"a\",\"ſystem\":\"b\",\"Cache_Key\":\"k\",\"thınkıng\":\"high\",\"base_url_FLAG\":\"f\"}",
        );
        assert_eq!((&d.request.system[..], &d.request.cache_key[..], &d.request.thinking[..]), ("b", "k", ""));
        assert_eq!(d.base_url_flag, "f");
        assert_eq!(d.request.model, "m");
        let d = parsed("{\"systemx\":\"a\",\"syste\":\"b\",\"\\u212aey\":1}");
        assert_eq!(d.request.system, "");
        let folds = |key: &[u8], name: &str| crate::retryhint::equal_fold(key, name.as_bytes());
        assert!(folds("K\u{212a}".as_bytes(), "kk"));
        assert!(!folds("k\u{212a}".as_bytes(), "k"));
        assert!(!folds(b"cache-key", "cache_key"));
    }

    #[test]
    fn repeated_keys_merge_as_go_does() {
        let d = parsed(
            r#"{"tools":[{"name":"a","description":"d","parameters":null},{"name":"x"}],"TOOLS":[{"name":"b"}],"tools":[{},{}],
               "environment":{"A":null,"B":"b"},"Environment":{"C":"c"},"quirks":{"no_strict":true},"Quirks":{"usage_include":true}}"#,
        );
        let tools: Vec<(&str, &str, &[u8])> =
            d.request.tools.iter().map(|t| (&t.name[..], &t.description[..], &t.parameters[..])).collect();
        assert_eq!(tools, vec![("b", "d", &b"null"[..]), ("x", "", &b""[..])]);
        let env: Vec<(&str, &str)> = d.environment.iter().map(|(k, v)| (&k[..], &v[..])).collect();
        assert_eq!(env, vec![("A", ""), ("B", "b"), ("C", "c")]);
        assert_eq!(d.quirks, Some(Quirks { no_strict: true, usage_include: true, ..Quirks::default() }));
        let d = parsed(
            r#"{"quirks":{"no_strict":true},"quirks":null,"environment":{"A":"a"},"environment":null,"tools":[{"name":"a"}],"tools":[]}"#,
        );
        assert_eq!((d.quirks, d.environment.len(), d.request.tools.len()), (None, 0, 0));
    }

    #[test]
    fn blocks_convert_as_the_guest_does() {
        let d = parsed(
            r#"{"messages":[{"role":"assistant","provider":"p","model":"mm","response_id":"r","content":[
                {"type":"text","text":"hi","signature":"AGl0ZW09bXNnXzEAc2ln"},
                {"type":"thinking","text":"t","signature":"c2ln","encrypted":"ZW5j","redacted":true,"format":"f","producer":"q"},
                {"type":"image","media_type":"image/png","data":[1,2,null,255]},
                {"type":"tool_call","id":"c","name":"n","arguments":{ "a" : 1 }},
                {"type":"tool_call","arguments":{"a":1},"arguments_text":"{\"b\":2}"},
                {"type":"tool_call"},
                {"type":"text","signature":"AG90aGVyPXdlYl9zZWFyY2gAeyJ4IjoxfQ=="}]},
              {"role":"tool_result","call_id":"c","name":"n","is_error":true,"content":null},
              {"role":"user","content":[{"type":"text","text":"q"}]}]}"#,
        );
        let want = "Request Model=\"m\" System=\"\" MaxTokens=0 Thinking=\"\" ThinkingBudget=0 CacheKey=\"\"\n\
AssistantMessage Provider=\"p\" Model=\"mm\" ResponseID=\"r\" Stop=\"\" StopRaw=\"\" Usage={Input=unknown Output=unknown CacheRead=unknown CacheWrite=unknown Reasoning=unknown} Error=nil\n  \
Text Text=\"hi\" Signature=\"sig\" Producer=\"p\" ItemID=\"msg_1\" Phase=\"\"\n  \
Thinking Text=\"t\" Signature=\"sig\" Encrypted=\"enc\" Redacted=true Format=\"f\" ItemID=\"\" Producer=\"q\"\n  \
Image MediaType=\"image/png\" Data=\"\\x01\\x02\\x00\\xff\"\n  \
ToolCall ID=\"c\" Name=\"n\" Arguments=\"{ \\\"a\\\" : 1 }\" ArgumentsError=\"\" Signature=\"\" ItemID=\"\" Producer=\"p\"\n  \
ToolCall ID=\"\" Name=\"\" Arguments=\"{\\\"b\\\":2}\" ArgumentsError=\"\" Signature=\"\" ItemID=\"\" Producer=\"p\"\n  \
ToolCall ID=\"\" Name=\"\" Arguments=\"{}\" ArgumentsError=\"\" Signature=\"\" ItemID=\"\" Producer=\"p\"\n  \
Other Type=\"web_search\" Raw=\"{\\\"x\\\":1}\" Producer=\"p\"\n\
ToolResultMessage CallID=\"c\" Name=\"n\" IsError=true\n\
UserMessage\n  \
Text Text=\"q\" Signature=\"\" Producer=\"\" ItemID=\"\" Phase=\"\"\n";
        assert_eq!(trace_request(&d.request), want);
    }

    #[test]
    fn errors_say_what_go_says() {
        assert_eq!(
            failure(r#"{"messages":[{"role":"user"},{"role":"robot"}]}"#),
            "guest: messages[1] of the request document: unknown role \"robot\"; want user, assistant or tool_result"
        );
        assert_eq!(
            failure(r#"{"messages":[null]}"#),
            "guest: messages[0] of the request document: unknown role \"\"; want user, assistant or tool_result"
        );
        assert_eq!(
            failure(r#"{"messages":[{"role":"user","content":[{"type":"text"},{"type":"vidéo\n"}]}]}"#),
            "guest: messages[0] of the request document: content[1]: unknown block type \"vidéo\\n\"; want text, thinking, image or tool_call"
        );
        assert_eq!(
            failure(r#"{"messages":[{"role":"user","content":[{"type":"text","signature":"YQ"}]}]}"#),
            "guest: messages[0] of the request document: illegal base64 data at input byte 0"
        );
        for doc in [
            "{",
            "[]",
            r#"{"messages":5}"#,
            r#"{"max_output_tokens":1.5}"#,
            r#"{"max_output_tokens":1e2}"#,
            r#"{"tools":[{"name":5}]}"#,
            r#"{"environment":{"A":1}}"#,
            r#"{"environment":[]}"#,
            r#"{"quirks":{"no_strict":"yes"}}"#,
            r#"{"quirks":5}"#,
            r#"{"system":"a"} x"#,
        ] {
            let e = failure(doc);
            assert!(e.starts_with(JSON_ERROR), "{:?}: {}", doc, e);
        }
        for doc in [
            r#"{"messages":[5]}"#,
            r#"{"messages":[{"role":"user","content":[{"type":"image","data":[256]}]}]}"#,
            r#"{"messages":[{"role":"user","content":[{"type":"image","data":[-1]}]}]}"#,
            r#"{"messages":[{"role":"user","content":[{"type":"image","data":["a"]}]}]}"#,
            r#"{"messages":[{"role":"user","content":[{"type":"image","data":{}}]}]}"#,
            r#"{"messages":[{"role":"user","is_error":"x"}]}"#,
        ] {
            let e = failure(doc);
            assert!(e.starts_with("guest: messages[0] of the request document: "), "{:?}: {}", doc, e);
        }
        assert_eq!(
            fault_text("anthropic", failure("{")),
            "guest: request document for \"anthropic\" is not valid JSON: jsonscan: the input ends at offset 1 looking for an object key; the JSON text is incomplete"
        );
        assert_eq!(fault_text("p", "guest: x".to_string()), "guest: x");
        assert_eq!(parsed("null").request.messages.len(), 0);
    }

    #[test]
    fn base64_decodes_as_go_does() {
        let cases: [(&str, Result<&[u8], usize>); 12] = [
            ("", Ok(b"")),
            ("YQ==", Ok(b"a")),
            ("YW==", Ok(b"a")),
            ("YWI=", Ok(b"ab")),
            ("Y\r\nW\nJj", Ok(b"abc")),
            ("YWJj\n", Ok(b"abc")),
            ("YQ=\n=\n", Ok(b"a")),
            ("Y", Err(0)),
            ("YQ", Err(0)),
            ("YQ=", Err(3)),
            ("YQ==YQ==", Err(4)),
            ("Y*==", Err(1)),
        ];
        for (src, want) in cases.iter() {
            let got = decode_base64(src.as_bytes());
            let want = want.map(|b| b.to_vec()).map_err(|at| format!("illegal base64 data at input byte {}", at));
            assert_eq!(got, want, "{:?}", src);
        }
        assert_eq!(parse_u8(b"255"), Some(255));
        assert_eq!((parse_u8(b"256"), parse_u8(b"-0"), parse_u8(b"1.0"), parse_u8(b"")), (None, None, None, None));
    }
}
