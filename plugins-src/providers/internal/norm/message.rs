//! message is the Rust port of the request half of the Go package norm
//! beside it (message.go, request.go, assemble.go): the conversation a
//! request is built from ([`Content`], [`Message`]), the provider-neutral
//! [`Request`], the [`HttpRequest`] template a builder returns, and the
//! [`Assembler`] that folds a stream of events into an
//! [`AssistantMessage`].
//!
//! It is a module of its own so that the stream decoders, which need only
//! norm.rs, do not need jsonout. Inclusion: a crate root includes norm.rs
//! as `crate::norm`, plugins-src/internal/jsonout/jsonout.rs as
//! `crate::jsonout`, and this file, by convention as `crate::norm_message`:
//!
//! ```ignore
//! #[path = "…/norm/norm.rs"] mod norm;
//! #[path = "…/jsonout/jsonout.rs"] mod jsonout;
//! #[path = "…/norm/message.rs"] mod norm_message;
//! ```
//!
//! As in norm.rs, strings are `String`, byte and JSON fields `Vec<u8>`,
//! counts `i64` (Go int) and a Go nil pointer an `Option`. The Go tests
//! beside it compare the assembler with Go's through testdata/driver.rs.

use crate::norm::{Error, Event, StopReason, Usage};

/// Content is one block of a message. The set is closed.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(Text),
    Thinking(Thinking),
    Image(Image),
    ToolCall(ToolCall),
    Other(Other),
}

impl Content {
    /// go_type is the Go type's name as `%T` writes it ("norm.Text", …).
    pub fn go_type(&self) -> &'static str {
        match self {
            Content::Text(_) => "norm.Text",
            Content::Thinking(_) => "norm.Thinking",
            Content::Image(_) => "norm.Image",
            Content::ToolCall(_) => "norm.ToolCall",
            Content::Other(_) => "norm.Other",
        }
    }
}

/// Text is plain text. `signature` is an opaque token some vendors attach
/// to text (Gemini); it is meaningful only to `producer`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Text {
    pub text: String,
    pub signature: Vec<u8>,
    pub producer: String,
    pub item_id: String,
    pub phase: String,
}

/// Thinking is model reasoning. `signature` and `encrypted` are opaque
/// payloads kept byte-exact for `producer`; `redacted` marks reasoning
/// whose text the vendor withheld (`encrypted` then carries it). `format`
/// and `item_id` are vendor metadata needed to send the block back.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Thinking {
    pub text: String,
    pub signature: Vec<u8>,
    pub encrypted: Vec<u8>,
    pub redacted: bool,
    pub format: String,
    pub item_id: String,
    pub producer: String,
}

/// Image is an inline image.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Image {
    pub media_type: String,
    pub data: Vec<u8>,
}

/// ToolCall is a request from the model to run a tool. `arguments` is
/// valid JSON as the vendor sent it; when it was not, `arguments_error`
/// says why, `arguments` holds the raw text as a JSON string, and the call
/// must never be executed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Vec<u8>,
    pub arguments_error: String,
    pub signature: Vec<u8>,
    pub item_id: String,
    pub producer: String,
}

/// Other is a vendor block the client does not act on, kept verbatim
/// (`raw`, JSON) to be sent back to the same producer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Other {
    pub type_: String,
    pub raw: Vec<u8>,
    pub producer: String,
}

/// Message is one conversation message. The set is closed.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    User(UserMessage),
    Assistant(AssistantMessage),
    ToolResult(ToolResultMessage),
}

/// UserMessage is input from the person.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UserMessage {
    pub content: Vec<Content>,
}

/// AssistantMessage is one provider response, assembled from its events.
/// Exactly one of `stop` and `error` is set once the stream is over (Go:
/// `Stop` is "" until then).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssistantMessage {
    pub content: Vec<Content>,
    pub provider: String,
    pub model: String,
    pub response_id: String,
    pub stop: Option<StopReason>,
    pub stop_raw: String,
    pub usage: Usage,
    pub error: Option<Box<Error>>,
}

impl AssistantMessage {
    /// tool_calls returns the message's tool calls in order.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.content.iter().filter_map(|c| match c {
            Content::ToolCall(tc) => Some(tc),
            _ => None,
        })
    }
}

/// ToolResultMessage answers the tool call with id `call_id`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolResultMessage {
    pub call_id: String,
    pub name: String,
    pub content: Vec<Content>,
    pub is_error: bool,
}

/// user_text returns a user message with one text block.
pub fn user_text(s: &str) -> UserMessage {
    UserMessage { content: vec![Content::Text(Text { text: s.to_string(), ..Text::default() })] }
}

/// The thinking levels (Go: `norm.ThinkingLevel`, an open string type:
/// a builder names an unknown level in its error). THINKING_DEFAULT, the
/// empty string, sends no thinking configuration at all and leaves the
/// choice to the vendor.
pub const THINKING_DEFAULT: &str = "";
pub const THINKING_OFF: &str = "off";
pub const THINKING_MINIMAL: &str = "minimal";
pub const THINKING_LOW: &str = "low";
pub const THINKING_MEDIUM: &str = "medium";
pub const THINKING_HIGH: &str = "high";
pub const THINKING_XHIGH: &str = "xhigh";

/// Tool advertises a tool. `parameters` is a JSON Schema object.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tool {
    pub name: String,
    pub description: String,
    pub parameters: Vec<u8>,
}

/// Request is the provider-neutral description of one model request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Request {
    /// model is the vendor's model id.
    pub model: String,
    /// system is the system prompt; empty means none.
    pub system: String,
    /// messages is the conversation so far, oldest first.
    pub messages: Vec<Message>,
    /// tools are the tools the model may call; empty means none (Go: nil).
    pub tools: Vec<Tool>,
    /// max_tokens bounds the output; 0 means the builder's default.
    pub max_tokens: i64,
    /// thinking selects the reasoning effort: one of the THINKING_*
    /// levels, or another string a builder refuses.
    pub thinking: String,
    /// thinking_budget, when positive, overrides the token budget derived
    /// from `thinking` for APIs that take a budget (Anthropic, Gemini 2.5).
    pub thinking_budget: i64,
    /// cache_key, when set, asks for prompt caching keyed by it (usually
    /// the session id). Empty sends no caching hints.
    pub cache_key: String,
}

/// Header is one request header. When `secret_ref` is set the host
/// appends the plaintext of the named credential to `value` at the effect
/// boundary (so `value` is a prefix such as "Bearer "); the codec never
/// sees the secret.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub secret_ref: String,
}

impl Header {
    /// new is the header name: value, with the credential secret_ref ("" for
    /// none) appended to value by the host.
    pub fn new(name: &str, value: &str, secret_ref: &str) -> Header {
        Header { name: name.to_string(), value: value.to_string(), secret_ref: secret_ref.to_string() }
    }
}

/// HttpRequest is a request template (Go: `norm.HTTPRequest`): `path` is
/// relative to the provider's base URL (it may carry a query); `body` is
/// JSON.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpRequest {
    pub method: String,
    pub path: String,
    pub headers: Vec<Header>,
    pub body: Vec<u8>,
}

/// Assembler folds a stream of events into an [`AssistantMessage`]. The
/// default Assembler is ready to use.
#[derive(Debug, Default)]
pub struct Assembler {
    msg: AssistantMessage,
    /// args are the open tool calls: block index and arguments so far.
    args: Vec<(usize, String)>,
    terminal: bool,
}

impl Assembler {
    /// add applies `e`. It fails, with Go's message naming the event and
    /// the index, when the stream breaks the event protocol: content after
    /// the terminal event, a gap in the block indexes, or an event of
    /// another kind than the block at its index. A failed add changes
    /// nothing.
    pub fn add(&mut self, e: &Event) -> Result<(), String> {
        if self.terminal {
            return Err(format!(
                "norm: {} after the terminal event; a stream has exactly one done or error",
                event_type(e)
            ));
        }
        match e {
            Event::Start(s) => {
                self.msg.provider.clone_from(&s.provider);
                self.msg.model.clone_from(&s.model);
                self.msg.response_id.clone_from(&s.response_id);
            }
            Event::TextDelta(d) => {
                let producer = &self.msg.provider;
                let fresh = || {
                    Content::Text(Text {
                        producer: producer.clone(),
                        item_id: d.item_id.clone(),
                        phase: d.phase.clone(),
                        ..Text::default()
                    })
                };
                match block(&mut self.msg.content, d.index, fresh)? {
                    Content::Text(t) => {
                        t.text.push_str(&d.text);
                        t.signature.extend_from_slice(&d.signature);
                    }
                    b => return Err(mismatch(e, d.index, b)),
                }
            }
            Event::ThinkingDelta(d) => {
                let producer = &self.msg.provider;
                let fresh = || Content::Thinking(Thinking { producer: producer.clone(), ..Thinking::default() });
                match block(&mut self.msg.content, d.index, fresh)? {
                    Content::Thinking(t) => {
                        t.text.push_str(&d.text);
                        t.signature.extend_from_slice(&d.signature);
                        t.encrypted.extend_from_slice(&d.encrypted);
                        t.redacted = t.redacted || d.redacted;
                        if !d.format.is_empty() {
                            t.format.clone_from(&d.format);
                        }
                        if !d.item_id.is_empty() {
                            t.item_id.clone_from(&d.item_id);
                        }
                    }
                    b => return Err(mismatch(e, d.index, b)),
                }
            }
            Event::ToolCallStart(s) => {
                if s.index != self.msg.content.len() {
                    return Err(format!(
                        "norm: toolcall_start at index {}, want {} (the next block)",
                        s.index,
                        self.msg.content.len()
                    ));
                }
                self.msg.content.push(Content::ToolCall(ToolCall {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    item_id: s.item_id.clone(),
                    producer: self.msg.provider.clone(),
                    ..ToolCall::default()
                }));
                self.args.push((s.index, String::new()));
            }
            Event::ToolCallDelta(d) => match self.args.iter_mut().find(|(i, _)| *i == d.index) {
                Some((_, sb)) => sb.push_str(&d.arguments),
                None => {
                    return Err(format!("norm: toolcall_delta for index {}, which is not an open tool call", d.index))
                }
            },
            Event::ToolCallEnd(d) => match self.args.iter().position(|(i, _)| *i == d.index) {
                Some(at) => self.close_call(at, &d.signature),
                None => {
                    return Err(format!("norm: toolcall_end for index {}, which is not an open tool call", d.index))
                }
            },
            Event::OtherBlock(o) => {
                if o.index != self.msg.content.len() {
                    return Err(format!(
                        "norm: other block at index {}, want {} (the next block)",
                        o.index,
                        self.msg.content.len()
                    ));
                }
                self.msg.content.push(Content::Other(Other {
                    type_: o.type_.clone(),
                    raw: o.raw.clone(),
                    producer: self.msg.provider.clone(),
                }));
            }
            Event::Done(d) => {
                self.close_all();
                self.msg.stop = Some(d.reason);
                self.msg.stop_raw.clone_from(&d.raw);
                self.msg.usage = d.usage;
                self.terminal = true;
            }
            Event::StreamError(s) => {
                self.close_all();
                self.msg.error = Some(s.err.clone());
                self.msg.stop_raw.clone_from(&s.raw);
                self.msg.usage = s.usage;
                self.terminal = true;
            }
        }
        Ok(())
    }

    /// message returns the message assembled so far. Tool calls still open
    /// are reported with the arguments received so far, validated.
    pub fn message(&self) -> AssistantMessage {
        let mut m = self.msg.clone();
        for (i, sb) in &self.args {
            if let Some(Content::ToolCall(tc)) = m.content.get_mut(*i) {
                let (args, err) = finish_arguments(sb);
                tc.arguments = args;
                tc.arguments_error = err;
            }
        }
        m
    }

    fn close_all(&mut self) {
        while !self.args.is_empty() {
            self.close_call(self.args.len() - 1, &[]);
        }
    }

    fn close_call(&mut self, at: usize, sig: &[u8]) {
        let (i, sb) = self.args.swap_remove(at);
        if let Some(Content::ToolCall(tc)) = self.msg.content.get_mut(i) {
            let (args, err) = finish_arguments(&sb);
            tc.arguments = args;
            tc.arguments_error = err;
            tc.signature.extend_from_slice(sig);
        }
    }
}

/// event_type is the Go type's name of the event as `%T` writes it.
fn event_type(e: &Event) -> &'static str {
    match e {
        Event::Start(_) => "norm.Start",
        Event::TextDelta(_) => "norm.TextDelta",
        Event::ThinkingDelta(_) => "norm.ThinkingDelta",
        Event::ToolCallStart(_) => "norm.ToolCallStart",
        Event::ToolCallDelta(_) => "norm.ToolCallDelta",
        Event::ToolCallEnd(_) => "norm.ToolCallEnd",
        Event::OtherBlock(_) => "norm.OtherBlock",
        Event::Done(_) => "norm.Done",
        Event::StreamError(_) => "norm.StreamError",
    }
}

/// block returns the block at `i`, first appending `fresh()` when `i` is
/// the next index.
fn block<F: FnOnce() -> Content>(content: &mut Vec<Content>, i: usize, fresh: F) -> Result<&mut Content, String> {
    if i == content.len() {
        content.push(fresh());
    }
    let n = content.len();
    match content.get_mut(i) {
        Some(b) => Ok(b),
        None => Err(format!("norm: delta at index {}, but only {} blocks exist; indexes must not skip", i, n)),
    }
}

fn mismatch(e: &Event, i: usize, b: &Content) -> String {
    format!("norm: {} at index {}, but that block is a {}", event_type(e), i, b.go_type())
}

/// is_go_space is unicode.IsSpace.
fn is_go_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{b}'
            | '\u{c}'
            | '\r'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// finish_arguments validates assembled tool-call arguments as Go's
/// `norm.FinishArguments`: empty or all-space text is the empty object;
/// text that is not a JSON object is returned as a JSON string (as
/// encoding/json marshals it) with a reason, so the call is never executed.
/// It returns the arguments and the reason ("" when they are valid).
pub fn finish_arguments(raw: &str) -> (Vec<u8>, String) {
    let t = raw.trim_matches(is_go_space);
    if t.is_empty() {
        return (b"{}".to_vec(), String::new());
    }
    let mut q = Vec::with_capacity(raw.len() + 2);
    if crate::jsonout::append_raw(&mut q, raw.as_bytes()).is_err() {
        q.clear();
        crate::jsonscan::append_quote(&mut q, raw.as_bytes());
        return (q, format!("arguments are not valid JSON ({} bytes; cut off by a length stop?)", raw.len()));
    }
    if !t.starts_with('{') {
        q.clear();
        crate::jsonscan::append_quote(&mut q, raw.as_bytes());
        // A valid JSON value starts with an ASCII byte; %q of it is that
        // byte in quotes, with `"` escaped.
        let first = if t.starts_with('"') { "\\\"" } else { &t[..1] };
        return (q, format!("arguments are JSON but not an object (starts with \"{}\")", first));
    }
    (raw.as_bytes().to_vec(), String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::*;

    fn assemble(events: &[Event]) -> (AssistantMessage, Vec<String>) {
        let mut a = Assembler::default();
        let errs = events.iter().filter_map(|e| a.add(e).err()).collect();
        (a.message(), errs)
    }

    #[test]
    fn blocks_signatures_and_arguments_assemble() {
        let events: Vec<Event> = vec![
            Start { provider: "p".into(), model: "m".into(), response_id: "r".into() }.into(),
            ThinkingDelta { index: 0, text: "a".into(), ..ThinkingDelta::default() }.into(),
            ThinkingDelta { index: 0, text: "b".into(), signature: b"s1".to_vec(), ..ThinkingDelta::default() }.into(),
            ThinkingDelta { index: 0, signature: b"s2".to_vec(), format: "f".into(), ..ThinkingDelta::default() }.into(),
            TextDelta { index: 1, text: "hi".into(), item_id: "msg_1".into(), ..TextDelta::default() }.into(),
            TextDelta { index: 1, text: "!".into(), item_id: "ignored".into(), ..TextDelta::default() }.into(),
            ToolCallStart { index: 2, id: "c".into(), name: "f".into(), ..ToolCallStart::default() }.into(),
            ToolCallDelta { index: 2, arguments: "{\"a\":".into() }.into(),
            ToolCallDelta { index: 2, arguments: "1}".into() }.into(),
            ToolCallEnd { index: 2, signature: b"ts".to_vec() }.into(),
            OtherBlock { index: 3, type_: "x".into(), raw: b"{}".to_vec() }.into(),
            Done { reason: StopReason::ToolUse, raw: "tool_use".into(), usage: Usage { input: Some(1), ..Usage::default() }, ..Done::default() }
                .into(),
        ];
        let (m, errs) = assemble(&events);
        assert!(errs.is_empty(), "{:?}", errs);
        assert_eq!(
            m.content[0],
            Content::Thinking(Thinking {
                text: "ab".into(),
                signature: b"s1s2".to_vec(),
                format: "f".into(),
                producer: "p".into(),
                ..Thinking::default()
            })
        );
        assert_eq!(
            m.content[1],
            Content::Text(Text { text: "hi!".into(), item_id: "msg_1".into(), producer: "p".into(), ..Text::default() })
        );
        let calls: Vec<&ToolCall> = m.tool_calls().collect();
        assert_eq!(calls.len(), 1);
        assert_eq!((&calls[0].arguments[..], &calls[0].arguments_error[..], &calls[0].signature[..]), (&b"{\"a\":1}"[..], "", &b"ts"[..]));
        assert_eq!((m.stop, &m.stop_raw[..], m.error.is_none()), (Some(StopReason::ToolUse), "tool_use", true));
    }

    #[test]
    fn protocol_errors_match_go() {
        let td = |index: usize| Event::TextDelta(TextDelta { index, text: "x".into(), ..TextDelta::default() });
        let cases: Vec<(Vec<Event>, &str)> = vec![
            (vec![td(1)], "norm: delta at index 1, but only 0 blocks exist; indexes must not skip"),
            (
                vec![td(0), ThinkingDelta { index: 0, ..ThinkingDelta::default() }.into()],
                "norm: norm.ThinkingDelta at index 0, but that block is a norm.Text",
            ),
            (vec![ToolCallDelta { index: 0, arguments: "{}".into() }.into()], "norm: toolcall_delta for index 0, which is not an open tool call"),
            (vec![ToolCallEnd { index: 3, signature: vec![] }.into()], "norm: toolcall_end for index 3, which is not an open tool call"),
            (vec![ToolCallStart { index: 1, ..ToolCallStart::default() }.into()], "norm: toolcall_start at index 1, want 0 (the next block)"),
            (vec![OtherBlock { index: 2, ..OtherBlock::default() }.into()], "norm: other block at index 2, want 0 (the next block)"),
            (vec![Done::default().into(), td(0)], "norm: norm.TextDelta after the terminal event; a stream has exactly one done or error"),
        ];
        for (events, want) in cases {
            let (_, errs) = assemble(&events);
            assert_eq!(errs, vec![want.to_string()]);
        }
    }

    #[test]
    fn open_calls_close_at_the_terminal_event() {
        let events: Vec<Event> = vec![
            ToolCallStart { index: 0, id: "c".into(), ..ToolCallStart::default() }.into(),
            ToolCallDelta { index: 0, arguments: "{\"a\":\"b".into() }.into(),
            ToolCallStart { index: 1, id: "d".into(), ..ToolCallStart::default() }.into(),
        ];
        let mut a = Assembler::default();
        for e in &events {
            a.add(e).unwrap();
        }
        let open = a.message();
        assert_eq!(open.tool_calls().map(|t| &t.arguments[..]).collect::<Vec<_>>(), vec![&b"\"{\\\"a\\\":\\\"b\""[..], &b"{}"[..]]);
        a.add(&truncated("c", "w", Usage::default()).into()).unwrap();
        let m = a.message();
        assert_eq!(m.tool_calls().next().map(|t| t.arguments_error.as_str()), Some("arguments are not valid JSON (7 bytes; cut off by a length stop?)"));
        assert_eq!(m.error.as_ref().map(|e| e.kind), Some(ErrorKind::Truncated));
        assert_eq!(m.stop, None);
    }

    #[test]
    fn finish_arguments_matches_go() {
        let cases: [(&str, &str, &str); 7] = [
            ("", "{}", ""),
            (" \u{a0}\u{3000}\n", "{}", ""),
            (" {\"a\": [1, 2]} ", " {\"a\": [1, 2]} ", ""),
            ("[1]", "\"[1]\"", "arguments are JSON but not an object (starts with \"[\")"),
            (" \"s\"", "\" \\\"s\\\"\"", "arguments are JSON but not an object (starts with \"\\\"\")"),
            ("{<", "\"{\\u003c\"", "arguments are not valid JSON (2 bytes; cut off by a length stop?)"),
            ("\u{a0}{}", "\"\u{a0}{}\"", "arguments are not valid JSON (4 bytes; cut off by a length stop?)"),
        ];
        for (raw, args, err) in cases.iter() {
            let (a, e) = finish_arguments(raw);
            assert_eq!((String::from_utf8_lossy(&a).as_ref(), e.as_str()), (*args, *err), "raw {:?}", raw);
        }
        assert_eq!(user_text("hi").content, vec![Content::Text(Text { text: "hi".into(), ..Text::default() })]);
    }
}
