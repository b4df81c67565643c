//! message is the request side of the provider-neutral vocabulary: the
//! conversation a request is built from ([`Content`], [`Message`]), the
//! provider-neutral [`Request`] the request document is read into, and the
//! [`HttpRequest`] template a builder returns.
//!
//! Strings are `String`, byte and JSON fields `Vec<u8>` (empty means
//! absent), counts `i64`, and an optional value an `Option`.

use crate::norm::{Error, StopReason, Usage};

/// Content is one block of a message. The set is closed.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(Text),
    Thinking(Thinking),
    Image(Image),
    ToolCall(ToolCall),
    Other(Other),
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
/// Exactly one of `stop` and `error` is set once the stream is over.
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

/// The thinking levels (an open set of strings: a builder names an
/// unknown level in its error). THINKING_DEFAULT, the
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
    /// tools are the tools the model may call; empty means none.
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

/// HttpRequest is a request template: `path` is relative to the
/// provider's base URL (it may carry a query); `body` is JSON.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HttpRequest {
    pub method: String,
    pub path: String,
    pub headers: Vec<Header>,
    pub body: Vec<u8>,
}
