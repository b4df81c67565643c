//! toy-provider-rust is the provider example of docs/plugins.md in Rust:
//! the codec of docs/examples/provider-go, with the same request bodies
//! and events byte for byte, for "toy", a made-up vendor whose server takes
//!
//! ```text
//! POST {base-url}/chat
//! {"model": "...", "system": "...", "tools": [{"name": "...", "description": "...", "schema": {...}}],
//!  "messages": [{"role": "user", "text": "..."},
//!               {"role": "assistant", "text": "...", "calls": [{"id": "...", "name": "...", "arguments": "{...}"}]},
//!               {"role": "tool_result", "id": "...", "text": "..."}]}
//! ```
//!
//! and answers one JSON object per line: `{"text": "..."}` for each piece
//! of the answer, `{"call": {"id": "...", "name": "...", "arguments":
//! "{...}"}}` for each tool call, then `{"done": "end"|"tool_use"|"length",
//! "input": N, "output": N}`. A codec is pure computation: it turns Smith's
//! request document into a request template (secrets stay references),
//! decodes the response chunk by chunk, and classifies a failed response;
//! the host sends the request.
//!
//! It needs no crates: the bindings are Smith's wit/rust/smith_plugin.rs,
//! and the JSON is written by the `push_*` functions and read by the small
//! [`Reader`] below. The wasm exports are compiled only for wasm32, so the
//! tests run natively. Build it and run its tests with rustc alone (the
//! target is wasm32-wasip1 since Rust 1.78):
//!
//! ```text
//! rustc --edition 2021 --crate-type cdylib --crate-name toy_provider_rust --target wasm32-wasi \
//!     -C opt-level=s -C panic=abort -C strip=symbols -o toy-provider-rust.wasm src/lib.rs
//! rustc --edition 2021 --test -o /tmp/toy-tests src/lib.rs && /tmp/toy-tests
//! ```

// The bindings, from the repository's wit/rust; a plugin of your own keeps
// the copy `smith plugin new` writes beside its lib.rs: `mod smith_plugin;`.
#[path = "../../../../wit/rust/smith_plugin.rs"]
mod smith_plugin;

use smith_plugin::contrib::{
    Contributions, DeclareOptions, ModelDefinition, ProviderDefinition, RegistrationFault,
};
use smith_plugin::provider::{
    BlockEnd, BuildOptions, ClassifyOptions, CodecFault, ContentDelta, DecodeOptions, Failure,
    HeaderTemplate, HttpMethod, RequestSnapshot, RequestTemplate, ResponseEnd, ResponseStart,
    SecretReference, StopReason, StreamEvent, TemplatePart, ToolCallStart, Usage,
};
use smith_plugin::types::FailureKind;

/// Plugin implements the exported interfaces.
pub struct Plugin;

#[cfg(target_arch = "wasm32")]
crate::export_contrib!(Plugin);
#[cfg(target_arch = "wasm32")]
crate::export_provider!(Plugin);

impl smith_plugin::contrib::Guest for Plugin {
    /// declare_contributions declares the provider, its optional key (the
    /// `?`), and the one model it serves.
    fn declare_contributions(_: DeclareOptions) -> Result<Contributions, RegistrationFault> {
        Ok(Contributions {
            providers: vec![ProviderDefinition {
                name: "toy".to_string(),
                display_name: "Toy".to_string(),
                secret_names: vec!["toy-key?".to_string()],
                options: vec![],
            }],
            models: vec![ModelDefinition {
                provider: "toy".to_string(),
                name: "echo-1".to_string(),
                display_name: "Toy Echo 1".to_string(),
                context_window: 8192,
                output_limit: 1024,
                supports_tools: true,
                supports_images: false,
            }],
            ..Contributions::default()
        })
    }
}

impl smith_plugin::provider::Guest for Plugin {
    /// Decoder is the type of the `decoder` resource: the host creates one
    /// per response with `GuestDecoder::new`.
    type Decoder = Decoder;

    /// build_request turns the document into the vendor's request.
    fn build_request(s: RequestSnapshot, _: BuildOptions) -> Result<RequestTemplate, CodecFault> {
        if s.provider != "toy" {
            return Err(CodecFault::UnknownProvider(s.provider));
        }
        let d = Document::read(&s.document).map_err(CodecFault::UnsupportedRequest)?;
        // --base-url beats the provider's block in smith.kdl.
        let chosen = if d.base_url_flag.is_empty() {
            &d.base_url
        } else {
            &d.base_url_flag
        };
        let base = chosen.strip_suffix('/').unwrap_or(chosen);
        let base = if base.is_empty() {
            "http://127.0.0.1:8089"
        } else {
            base
        };
        let literal = |s: &str| TemplatePart::Literal(s.to_string());
        Ok(RequestTemplate {
            method: HttpMethod::Post,
            url: vec![literal(&format!("{}/chat", base))],
            headers: vec![
                HeaderTemplate {
                    name: "content-type".to_string(),
                    value: vec![literal("application/json")],
                },
                // The host puts the key's value here; without a key it
                // leaves the header out, since the secret is optional.
                HeaderTemplate {
                    name: "authorization".to_string(),
                    value: vec![
                        literal("Bearer "),
                        TemplatePart::Secret(SecretReference {
                            name: "toy-key?".to_string(),
                        }),
                    ],
                },
            ],
            body: request_body(&s.model, &d).into_bytes(),
        })
    }

    /// classify_failure says what a response with an error status means.
    fn classify_failure(body: Vec<u8>, o: ClassifyOptions) -> Failure {
        let kind = match o.status {
            401 | 403 => FailureKind::Auth,
            429 => FailureKind::RateLimit,
            400..=499 => FailureKind::InvalidRequest,
            _ => FailureKind::Server,
        };
        Failure {
            kind,
            message: lossy(&body).trim().to_string(),
            retryable: o.status >= 500 || o.status == 429,
            http_status: Some(o.status),
            ..Failure::default()
        }
    }
}

/// Document is the part of Smith's request document this codec reads.
#[derive(Debug, Default)]
struct Document {
    system: String,
    base_url: String,
    base_url_flag: String,
    tools: Vec<DocTool>,
    messages: Vec<DocMessage>,
}

#[derive(Debug, Default)]
struct DocTool {
    name: String,
    description: String,
    parameters: String, // the JSON Schema's text, "" when absent
}

#[derive(Debug, Default)]
struct DocMessage {
    role: String,
    call_id: String,
    content: Vec<DocBlock>,
}

#[derive(Debug, Default)]
struct DocBlock {
    kind: String, // "type": text, thinking, image, tool_call
    text: String,
    id: String,
    name: String,
    arguments_text: String,
}

impl Document {
    /// read reads the document. As Go's encoding/json does, it skips the
    /// members it does not know (the document has more, such as
    /// max_output_tokens), reads a null as absent, and fails on a text that
    /// is not JSON or a value of the wrong kind.
    fn read(text: &str) -> Result<Document, String> {
        let mut r = Reader::new(text);
        let mut d = Document::default();
        r.object(|r, key| {
            match key {
                "system" => d.system = r.string()?,
                "base_url" => d.base_url = r.string()?,
                "base_url_flag" => d.base_url_flag = r.string()?,
                "tools" => d.tools = r.array(DocTool::read)?,
                "messages" => d.messages = r.array(DocMessage::read)?,
                _ => drop(r.skip()?),
            }
            Ok(())
        })?;
        r.end()?;
        Ok(d)
    }
}

impl DocTool {
    fn read(r: &mut Reader) -> Result<DocTool, String> {
        let mut t = DocTool::default();
        r.object(|r, key| {
            match key {
                "name" => t.name = r.string()?,
                "description" => t.description = r.string()?,
                "parameters" => t.parameters = r.skip()?.to_string(),
                _ => drop(r.skip()?),
            }
            Ok(())
        })?;
        Ok(t)
    }
}

impl DocMessage {
    fn read(r: &mut Reader) -> Result<DocMessage, String> {
        let mut m = DocMessage::default();
        r.object(|r, key| {
            match key {
                "role" => m.role = r.string()?,
                "call_id" => m.call_id = r.string()?,
                "content" => m.content = r.array(DocBlock::read)?,
                _ => drop(r.skip()?),
            }
            Ok(())
        })?;
        Ok(m)
    }
}

impl DocBlock {
    fn read(r: &mut Reader) -> Result<DocBlock, String> {
        let mut b = DocBlock::default();
        r.object(|r, key| {
            match key {
                "type" => b.kind = r.string()?,
                "text" => b.text = r.string()?,
                "id" => b.id = r.string()?,
                "name" => b.name = r.string()?,
                "arguments_text" => b.arguments_text = r.string()?,
                _ => drop(r.skip()?),
            }
            Ok(())
        })?;
        Ok(b)
    }
}

/// request_body writes the vendor's request for model: its members in the
/// Go example's order, `system`, `tools`, a message's `id` and `calls` left
/// out when empty.
fn request_body(model: &str, d: &Document) -> String {
    let mut b = String::from("{");
    push_key(&mut b, "model");
    push_string(&mut b, model);
    if !d.system.is_empty() {
        push_key(&mut b, "system");
        push_string(&mut b, &d.system);
    }
    if !d.tools.is_empty() {
        push_key(&mut b, "tools");
        b.push('[');
        for t in &d.tools {
            push_comma(&mut b);
            b.push('{');
            push_key(&mut b, "name");
            push_string(&mut b, &t.name);
            push_key(&mut b, "description");
            push_string(&mut b, &t.description);
            push_key(&mut b, "schema");
            push_raw(&mut b, &t.parameters);
            b.push('}');
        }
        b.push(']');
    }
    push_key(&mut b, "messages");
    b.push('[');
    for m in &d.messages {
        // The vendor takes a message's text blocks as one text and its tool
        // calls apart; other blocks (thinking, images) it does not take.
        let mut text = String::new();
        let mut calls = Vec::new();
        for c in &m.content {
            match c.kind.as_str() {
                "text" => text.push_str(&c.text),
                "tool_call" => calls.push(c),
                _ => {}
            }
        }
        push_comma(&mut b);
        b.push('{');
        push_key(&mut b, "role");
        push_string(&mut b, &m.role);
        if !m.call_id.is_empty() {
            push_key(&mut b, "id");
            push_string(&mut b, &m.call_id);
        }
        push_key(&mut b, "text");
        push_string(&mut b, &text);
        if !calls.is_empty() {
            push_key(&mut b, "calls");
            b.push('[');
            for c in calls {
                push_comma(&mut b);
                b.push('{');
                push_key(&mut b, "id");
                push_string(&mut b, &c.id);
                push_key(&mut b, "name");
                push_string(&mut b, &c.name);
                push_key(&mut b, "arguments");
                push_string(&mut b, &c.arguments_text);
                b.push('}');
            }
            b.push(']');
        }
        b.push('}');
    }
    b.push_str("]}");
    b
}

/// Decoder decodes one response's lines; a line split across chunks waits
/// for the rest.
#[derive(Debug, Default)]
pub struct Decoder {
    started: bool,            // the start event is out
    partial: Vec<u8>,         // the bytes of a line not yet ended
    blocks: u32,              // content blocks so far: text, then each call
    in_text: bool,            // a text block is open
    end: Option<ResponseEnd>, // from the done line
}

impl smith_plugin::provider::GuestDecoder for Decoder {
    /// new starts decoding one response.
    fn new(_: DecodeOptions) -> Self {
        Decoder::default()
    }

    /// decode_chunk returns the events of the lines chunk completes. A
    /// line is read as Go reads it, bytes that are not UTF-8 as U+FFFD
    /// ([`lossy`]); a blank line is skipped.
    fn decode_chunk(&mut self, chunk: Vec<u8>) -> Result<Vec<StreamEvent>, CodecFault> {
        self.partial.extend_from_slice(&chunk);
        let mut out = Vec::new();
        if !self.started {
            // A stream begins with its start; this vendor sends no response id.
            self.started = true;
            out.push(StreamEvent::Start(ResponseStart::default()));
        }
        while let Some(n) = self.partial.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = self.partial.drain(..=n).collect();
            let raw = lossy(&raw[..n]);
            if raw.trim().is_empty() {
                continue;
            }
            let l = Line::read(&raw)
                .map_err(|_| CodecFault::MalformedResponse(format!("not a JSON line: {}", raw)))?;
            self.line(l, &mut out);
        }
        Ok(out)
    }

    /// finish ends the response with its done event.
    fn finish(&mut self) -> Result<Vec<StreamEvent>, CodecFault> {
        match &self.end {
            Some(end) => Ok(vec![StreamEvent::Done(end.clone())]),
            None => Err(CodecFault::MalformedResponse(
                "the response ended before its done line".to_string(),
            )),
        }
    }
}

impl Decoder {
    /// line appends the events of one line to out.
    fn line(&mut self, l: Line, out: &mut Vec<StreamEvent>) {
        if let Some(text) = l.text {
            if !self.in_text {
                self.in_text = true;
                self.blocks += 1;
            }
            let index = self.blocks - 1;
            out.push(StreamEvent::TextDelta(ContentDelta { index, text }));
        } else if let Some(call) = l.call {
            // A call is a block of its own: its start, its arguments (in one
            // delta here; a vendor may send them in pieces), its end.
            self.close_text(out);
            let index = self.blocks;
            self.blocks += 1;
            out.push(StreamEvent::ToolCallStart(ToolCallStart {
                index,
                id: call.id,
                name: call.name,
            }));
            out.push(StreamEvent::ToolCallDelta(ContentDelta {
                index,
                text: call.arguments,
            }));
            out.push(StreamEvent::BlockEnd(BlockEnd {
                index,
                ..BlockEnd::default()
            }));
        } else if !l.done.is_empty() {
            self.close_text(out);
            let reason = match l.done.as_str() {
                "tool_use" => StopReason::ToolUse,
                "length" => StopReason::Length,
                _ => StopReason::End,
            };
            self.end = Some(ResponseEnd {
                reason,
                raw_stop: Some(l.done),
                raw_usage: None,
            });
            out.push(StreamEvent::Usage(Usage {
                input: l.input,
                output: l.output,
                ..Usage::default()
            }));
        }
    }

    /// close_text ends the open text block, if any.
    fn close_text(&mut self, out: &mut Vec<StreamEvent>) {
        if self.in_text {
            self.in_text = false;
            out.push(StreamEvent::BlockEnd(BlockEnd {
                index: self.blocks - 1,
                ..BlockEnd::default()
            }));
        }
    }
}

/// Line is one line of the response; a member that is absent or null is
/// None (or empty).
#[derive(Debug, Default)]
struct Line {
    text: Option<String>,
    call: Option<Call>,
    done: String,
    input: Option<u64>,
    output: Option<u64>,
}

#[derive(Debug, Default)]
struct Call {
    id: String,
    name: String,
    arguments: String,
}

impl Line {
    fn read(text: &str) -> Result<Line, String> {
        let mut r = Reader::new(text);
        let mut l = Line::default();
        r.object(|r, key| {
            match key {
                "text" => l.text = r.nullable(Reader::string)?,
                "call" => l.call = r.nullable(Call::read)?,
                "done" => l.done = r.string()?,
                "input" => l.input = r.nullable(Reader::uint)?,
                "output" => l.output = r.nullable(Reader::uint)?,
                _ => drop(r.skip()?),
            }
            Ok(())
        })?;
        r.end()?;
        Ok(l)
    }
}

impl Call {
    fn read(r: &mut Reader) -> Result<Call, String> {
        let mut c = Call::default();
        r.object(|r, key| {
            match key {
                "id" => c.id = r.string()?,
                "name" => c.name = r.string()?,
                "arguments" => c.arguments = r.string()?,
                _ => drop(r.skip()?),
            }
            Ok(())
        })?;
        Ok(c)
    }
}

/// lossy returns bytes as text, each byte that is not part of a UTF-8
/// character replaced by U+FFFD, as Go's decoder reads such bytes in a
/// string (one U+FFFD per byte, where String::from_utf8_lossy writes one
/// per broken sequence).
fn lossy(mut bytes: &[u8]) -> String {
    let mut out = String::new();
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, bad) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let n = e.error_len().unwrap_or(bad.len());
                out.extend(std::iter::repeat('\u{fffd}').take(n));
                bytes = &bad[n..];
            }
        }
    }
}

// Writing JSON. The body is written as Go's encoding/json writes the Go
// example's request, so that both send the same bytes.

/// push_comma separates a member or element from the one before it: a comma
/// unless it is the first of its object or array.
fn push_comma(b: &mut String) {
    if !b.ends_with('{') && !b.ends_with('[') {
        b.push(',');
    }
}

/// push_key starts an object member: `"key":`, after a comma if need be.
fn push_key(b: &mut String, key: &str) {
    push_comma(b);
    push_string(b, key);
    b.push(':');
}

/// push_string appends s as a JSON string, escaped as Go escapes it: `\"`,
/// `\\`, `\b` `\f` `\n` `\r` `\t`, `\u00XX` for the other control
/// characters, and `\u003c` `\u003e` `\u0026` `\u2028` `\u2029` for `<`,
/// `>`, `&` and the two line separators (Go's HTML-safe JSON).
fn push_string(b: &mut String, s: &str) {
    b.push('"');
    for c in s.chars() {
        match c {
            '"' => b.push_str("\\\""),
            '\\' => b.push_str("\\\\"),
            '\u{8}' => b.push_str("\\b"),
            '\u{c}' => b.push_str("\\f"),
            '\n' => b.push_str("\\n"),
            '\r' => b.push_str("\\r"),
            '\t' => b.push_str("\\t"),
            '\0'..='\u{1f}' | '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                b.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => b.push(c),
        }
    }
    b.push('"');
}

/// push_raw appends a value's JSON text (checked by [`Reader::skip`]) as Go
/// writes a json.RawMessage: compacted, with `<`, `>`, `&`, U+2028 and
/// U+2029 escaped in its strings, the rest of them as they are; "" (an
/// absent value) is null.
fn push_raw(b: &mut String, json: &str) {
    if json.is_empty() {
        b.push_str("null");
        return;
    }
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        match c {
            ' ' | '\t' | '\n' | '\r' if !in_string => continue,
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                b.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => b.push(c),
        }
        // Track whether c is inside a string: a quote toggles it, but not
        // one escaped by a backslash.
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            in_string = !in_string;
        }
    }
}

// Reading JSON.

/// fold returns an object's key as Go's encoding/json matches it with the
/// names of a struct's fields, which ignores case: in lower case, with the
/// two letters that Unicode folds to ASCII ones, ſ and the Kelvin sign K,
/// as s and k. Smith and the vendor write their keys in lower case; a key
/// in another case is taken as Go takes it.
fn fold(key: &str) -> String {
    key.chars()
        .map(|c| match c {
            '\u{17f}' => 's',
            '\u{212a}' => 'k',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// MAX_DEPTH is how deep the arrays and objects of a text a [`Reader`]
/// reads may nest. Go's decoder, which does not recurse, takes 10000
/// levels; the Reader recurses, and a wasm engine's call stack is small
/// (Smith's interpreter allows about 2000 calls), so it stops well before.
/// Smith's documents nest a few levels.
const MAX_DEPTH: usize = 1000;

/// Reader reads a JSON text the way a decoder into known types does: the
/// caller says what it expects next — an object (whose members it is
/// handed one by one), an array, a string, a number — and skips what it
/// does not know. Every byte is checked against JSON's grammar, skipped
/// values too, so a text that is not JSON is an error.
struct Reader<'a> {
    text: &'a str,
    pos: usize,   // the offset of the next byte to read
    depth: usize, // the arrays and objects open at pos
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text,
            pos: 0,
            depth: 0,
        }
    }

    /// error says what is wrong where.
    fn error(&self, what: &str) -> String {
        format!("{} at offset {}", what, self.pos)
    }

    /// peek skips whitespace and returns the next byte, if any.
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(self.pos) {
            self.pos += 1;
        }
        bytes.get(self.pos).copied()
    }

    /// eat consumes token (punctuation or a literal) if it comes next.
    fn eat(&mut self, token: &str) -> bool {
        self.peek();
        let next = self.text[self.pos..].starts_with(token);
        if next {
            self.pos += token.len();
        }
        next
    }

    /// expect consumes token, which must come next.
    fn expect(&mut self, token: &str) -> Result<(), String> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(&format!("expected {}", token)))
        }
    }

    /// end checks that nothing but whitespace follows the value read.
    fn end(&mut self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("unexpected text after the value")),
        }
    }

    /// open consumes the bracket opening an array or object.
    fn open(&mut self, bracket: &str) -> Result<(), String> {
        self.expect(bracket)?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("too deeply nested"));
        }
        Ok(())
    }

    /// object reads an object, calling member with each key (unescaped and
    /// [`fold`]ed) for it to read the value; null is an object without
    /// members.
    fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &str) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.eat("null") {
            return Ok(());
        }
        self.open("{")?;
        if !self.eat("}") {
            loop {
                let key = fold(&self.quoted()?);
                self.expect(":")?;
                member(self, &key)?;
                if self.eat("}") {
                    break;
                }
                self.expect(",")?;
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// array reads an array, each element with element; null is empty.
    fn array<T>(
        &mut self,
        mut element: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut out = Vec::new();
        if self.eat("null") {
            return Ok(out);
        }
        self.open("[")?;
        if !self.eat("]") {
            loop {
                out.push(element(self)?);
                if self.eat("]") {
                    break;
                }
                self.expect(",")?;
            }
        }
        self.depth -= 1;
        Ok(out)
    }

    /// nullable reads null as None, another value with read.
    fn nullable<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T, String>,
    ) -> Result<Option<T>, String> {
        if self.eat("null") {
            Ok(None)
        } else {
            read(self).map(Some)
        }
    }

    /// string reads a string; null is "".
    fn string(&mut self) -> Result<String, String> {
        if self.eat("null") {
            Ok(String::new())
        } else {
            self.quoted()
        }
    }

    /// quoted reads a string (not null), unescaping it.
    fn quoted(&mut self) -> Result<String, String> {
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string"));
        }
        self.pos += 1;
        let mut out = String::new();
        loop {
            let c = match self.text[self.pos..].chars().next() {
                Some(c) => c,
                None => return Err(self.error("unterminated string")),
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let escape = self.text.as_bytes().get(self.pos).copied();
                    self.pos += 1;
                    out.push(match escape {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => self.unicode_escape()?,
                        _ => return Err(self.error("invalid escape")),
                    });
                }
                '\0'..='\u{1f}' => return Err(self.error("control character in a string")),
                c => out.push(c),
            }
        }
    }

    /// unicode_escape reads the XXXX of a `\uXXXX` escape, with the
    /// `\uXXXX` that follows it when the two are a UTF-16 surrogate pair
    /// (such as `\ud83d\ude00`, 😀). A surrogate without its other half is
    /// no character: it reads as U+FFFD, as in Go.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let hex = |at: usize| {
            let digits = self.text.get(at..at + 4)?;
            if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None; // from_str_radix would take a sign
            }
            u32::from_str_radix(digits, 16).ok()
        };
        let mut code = hex(self.pos).ok_or_else(|| self.error("invalid \\u escape"))?;
        let mut len = 4;
        if (0xd800..0xdc00).contains(&code) && self.text[self.pos + 4..].starts_with("\\u") {
            if let Some(low @ 0xdc00..=0xdfff) = hex(self.pos + 6) {
                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                len = 10;
            }
        }
        self.pos += len;
        Ok(char::from_u32(code).unwrap_or('\u{fffd}'))
    }

    /// uint reads a number that is a whole u64 (not 3.0, -1 or 1e2: Go
    /// reads none of them into a uint64).
    fn uint(&mut self) -> Result<u64, String> {
        let n = self.number()?;
        n.parse()
            .map_err(|_| self.error(&format!("{} is not a uint64", n)))
    }

    /// number reads a number and returns its text: an optional minus, an
    /// integer without leading zeros, an optional fraction and exponent.
    fn number(&mut self) -> Result<&'a str, String> {
        self.peek();
        let (bytes, start) = (self.text.as_bytes(), self.pos);
        let digits = |r: &mut Self| {
            let from = r.pos;
            while bytes.get(r.pos).map_or(false, u8::is_ascii_digit) {
                r.pos += 1;
            }
            r.pos > from
        };
        if bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let mut ok = if bytes.get(self.pos) == Some(&b'0') {
            self.pos += 1;
            true
        } else {
            digits(self)
        };
        if bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            ok &= digits(self);
        }
        if let Some(b'e' | b'E') = bytes.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = bytes.get(self.pos) {
                self.pos += 1;
            }
            ok &= digits(self);
        }
        if !ok {
            return Err(self.error("expected a value"));
        }
        Ok(&self.text[start..self.pos])
    }

    /// skip reads a value of any kind and returns its text.
    fn skip(&mut self) -> Result<&'a str, String> {
        let next = self.peek();
        let start = self.pos;
        match next {
            Some(b'{') => self.object(|r, _| r.skip().map(drop))?,
            Some(b'[') => drop(self.array(|r| r.skip().map(drop))?),
            Some(b'"') => drop(self.quoted()?),
            _ if self.eat("true") || self.eat("false") || self.eat("null") => {}
            _ => drop(self.number()?),
        }
        Ok(&self.text[start..self.pos])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith_plugin::contrib::Guest as _;
    use smith_plugin::provider::{Guest, GuestDecoder};

    fn build(provider: &str, document: &str) -> Result<RequestTemplate, CodecFault> {
        let s = RequestSnapshot {
            provider: provider.to_string(),
            model: "echo-1".to_string(),
            document: document.to_string(),
        };
        Plugin::build_request(s, BuildOptions::default())
    }

    fn body(document: &str) -> String {
        String::from_utf8(build("toy", document).expect("build").body).unwrap()
    }

    // A codec is plain Rust: its request building and decoding run natively.
    #[test]
    fn builds_the_request() {
        let doc = r#"{"system":"be brief","base_url":"http://127.0.0.1:9/","messages":[
         {"role":"user","content":[{"type":"text","text":"hi"}]},
         {"role":"assistant","content":[{"type":"tool_call","id":"c1","name":"ls","arguments_text":"{}"}]},
         {"role":"tool_result","call_id":"c1","content":[{"type":"text","text":"a.txt"}]}]}"#;
        let t = build("toy", doc).expect("build");
        assert_eq!(
            t.url,
            vec![TemplatePart::Literal("http://127.0.0.1:9/chat".to_string())]
        );
        assert_eq!(t.method, HttpMethod::Post);
        let want = r#"{"model":"echo-1","system":"be brief","messages":[{"role":"user","text":"hi"},{"role":"assistant","text":"","calls":[{"id":"c1","name":"ls","arguments":"{}"}]},{"role":"tool_result","id":"c1","text":"a.txt"}]}"#;
        assert_eq!(String::from_utf8(t.body).unwrap(), want);
        assert_eq!(
            build("other", "{}"),
            Err(CodecFault::UnknownProvider("other".to_string()))
        );
    }

    #[test]
    fn writes_json_as_go_does() {
        // Unknown members and null are skipped; the schema is compacted,
        // its strings kept but for <, > and &; a text block's escapes
        // (incl. a surrogate pair and a lone half) are read and strings
        // written with Go's escapes.
        let doc = concat!(
            r#"{"max_output_tokens":100,"quirks":{"a":[1.5e-3,true,null]},"system":null,"#,
            r#""tools":[{"name":"ls","description":"Lists <files> & more.","#,
            r#""parameters":{ "type" : "object", "x": [ "a b\"<c>\u00e9" , -0.5E+2 ] }},"#,
            r#"{"name":"now","description":""}],"#,
            r#""messages":[{"role":"user","content":[{"type":"text","text":"\ud83d\ude00 \ud83d \u00e9\/\b\f\n\r\t\u0001\u007f\u2028"},"#,
            r#"{"type":"thinking","text":"not sent"},{"type":"text","text":" more"}]}]}"#
        );
        let want = concat!(
            r#"{"model":"echo-1","tools":[{"name":"ls","description":"Lists \u003cfiles\u003e \u0026 more.","#,
            r#""schema":{"type":"object","x":["a b\"\u003cc\u003e\u00e9",-0.5E+2]}},"#,
            r#"{"name":"now","description":"","schema":null}],"#,
            "\"messages\":[{\"role\":\"user\",\"text\":\"\u{1F600} \u{FFFD} \u{e9}/\\b\\f\\n\\r\\t\\u0001\u{7f}\\u2028 more\"}]}"
        );
        assert_eq!(body(doc), want);
        assert_eq!(body("null"), r#"{"model":"echo-1","messages":[]}"#);
        // Keys are matched as Go matches them, without case; the last wins.
        assert_eq!(
            body(r#"{"SYSTEM":"a","ſystem":"b"}"#),
            r#"{"model":"echo-1","system":"b","messages":[]}"#
        );
        let t = build("toy", r#"{"base_url":"/"}"#).unwrap();
        assert_eq!(
            t.url,
            vec![TemplatePart::Literal(
                "http://127.0.0.1:8089/chat".to_string()
            )]
        );
    }

    #[test]
    fn refuses_what_is_not_a_document() {
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        for doc in [
            "",
            "[]",
            r#"{"system":1}"#,
            r#"{"tools":{}}"#,
            r#"{"system":"a"} x"#,
            r#"{"system":"a",}"#,
            r#"{"system":"\x"}"#,
            r#"{"system":"\u12"}"#,
            r#"{"system":"\u+123"}"#,
            "{\"system\":\"a\nb\"}",
            r#"{"max_output_tokens":01}"#,
            r#"{"max_output_tokens":1.}"#,
            r#"{"max_output_tokens":-}"#,
            r#"{"quirks":nul}"#,
            &format!(r#"{{"quirks":{}}}"#, deep),
        ] {
            match build("toy", doc) {
                Err(CodecFault::UnsupportedRequest(_)) => {}
                other => panic!("{:?}: {:?}", doc, other),
            }
        }
    }

    /// events decodes chunks and finishes, returning the events' cases
    /// space-separated, or the fault.
    fn events(chunks: &[&str]) -> Result<String, CodecFault> {
        let mut d = Decoder::new(DecodeOptions::default());
        let mut out = Vec::new();
        for c in chunks {
            out.extend(d.decode_chunk(c.as_bytes().to_vec())?);
        }
        out.extend(d.finish()?);
        let cases: Vec<&str> = out.iter().map(case).collect();
        Ok(cases.join(" "))
    }

    fn case(e: &StreamEvent) -> &'static str {
        match e {
            StreamEvent::Start(_) => "start",
            StreamEvent::TextDelta(_) => "text-delta",
            StreamEvent::ThinkingDelta(_) => "thinking-delta",
            StreamEvent::ToolCallStart(_) => "tool-call-start",
            StreamEvent::ToolCallDelta(_) => "tool-call-delta",
            StreamEvent::BlockEnd(_) => "block-end",
            StreamEvent::Usage(_) => "usage",
            StreamEvent::Done(_) => "done",
            StreamEvent::Failure(_) => "failure",
            StreamEvent::Unknown(_) => "unknown",
        }
    }

    #[test]
    fn decodes() {
        let ok = |s: &str| Ok(s.to_string());
        let fault = |s: &str| Err(CodecFault::MalformedResponse(s.to_string()));
        assert_eq!(
            events(&[
                r#"{"text":"he"#,
                "llo\"}\n{\"done\":\"end\",\"input\":3,\"output\":1}\n"
            ]),
            ok("start text-delta block-end usage done")
        );
        assert_eq!(
            events(&["{\"call\":{\"id\":\"c1\",\"name\":\"ls\",\"arguments\":\"{}\"}}\n{\"done\":\"tool_use\"}\n"]),
            ok("start tool-call-start tool-call-delta block-end usage done")
        );
        assert_eq!(
            events(&["{\"text\":\"hi\"}\n"]),
            fault("the response ended before its done line")
        );
        assert_eq!(events(&["oops\n"]), fault("not a JSON line: oops"));
        assert_eq!(
            events(&["{\"Text\":\"a\"}\n\n{\"DONE\":\"end\"}\n"]),
            ok("start text-delta block-end usage done")
        );
        assert_eq!(
            events(&["{\"input\":3.0,\"done\":\"end\"}\n"]),
            fault("not a JSON line: {\"input\":3.0,\"done\":\"end\"}")
        );
    }

    #[test]
    fn decodes_the_events() {
        let mut d = Decoder::new(DecodeOptions::default());
        // A character split across chunks, a blank line, a null text.
        let mut got = d.decode_chunk(b"{\"text\":\"h\xc3".to_vec()).unwrap();
        got.extend(
            d.decode_chunk(b"\xa9\"}\r\n \n{\"text\":null,\"x\":[{}]}\n".to_vec())
                .unwrap(),
        );
        got.extend(
            d.decode_chunk(
                b"{\"call\":{\"id\":\"c1\",\"name\":\"ls\",\"arguments\":\"{}\"}}\n".to_vec(),
            )
            .unwrap(),
        );
        got.extend(
            d.decode_chunk(b"{\"done\":\"length\",\"output\":7}\n".to_vec())
                .unwrap(),
        );
        got.extend(d.finish().unwrap());
        let end = |index| {
            StreamEvent::BlockEnd(BlockEnd {
                index,
                ..BlockEnd::default()
            })
        };
        assert_eq!(
            got,
            vec![
                StreamEvent::Start(ResponseStart::default()),
                StreamEvent::TextDelta(ContentDelta {
                    index: 0,
                    text: "hé".to_string()
                }),
                end(0),
                StreamEvent::ToolCallStart(ToolCallStart {
                    index: 1,
                    id: "c1".to_string(),
                    name: "ls".to_string()
                }),
                StreamEvent::ToolCallDelta(ContentDelta {
                    index: 1,
                    text: "{}".to_string()
                }),
                end(1),
                StreamEvent::Usage(Usage {
                    output: Some(7),
                    ..Usage::default()
                }),
                StreamEvent::Done(ResponseEnd {
                    reason: StopReason::Length,
                    raw_stop: Some("length".to_string()),
                    raw_usage: None
                }),
            ]
        );
    }

    #[test]
    fn classifies_failures() {
        let classify = |status| {
            let o = ClassifyOptions {
                status,
                ..ClassifyOptions::default()
            };
            let f = Plugin::classify_failure(b" no\n".to_vec(), o);
            assert_eq!((f.message.as_str(), f.http_status), ("no", Some(status)));
            (f.kind, f.retryable)
        };
        assert_eq!(classify(401), (FailureKind::Auth, false));
        assert_eq!(classify(403), (FailureKind::Auth, false));
        assert_eq!(classify(429), (FailureKind::RateLimit, true));
        assert_eq!(classify(404), (FailureKind::InvalidRequest, false));
        assert_eq!(classify(503), (FailureKind::Server, true));
    }

    #[test]
    fn declares_the_provider() {
        let c = Plugin::declare_contributions(DeclareOptions::default()).unwrap();
        assert_eq!(c.providers[0].secret_names, vec!["toy-key?".to_string()]);
        assert_eq!(
            (c.models[0].provider.as_str(), c.models[0].name.as_str()),
            ("toy", "echo-1")
        );
    }
}
