//! norm is the Rust port of the Go package beside it
//! (plugins-src/providers/internal/norm): the provider-neutral vocabulary
//! of the provider codecs. It holds the normalized stream events a decoder
//! emits ([`Event`]), token usage in which every count may be unknown
//! ([`Usage`]), classified errors ([`Error`], [`ErrorKind`]), the
//! [`Emitter`] every decoder collects its events with, the [`Framing`]
//! facts and the [`Decoder`] trait, the signature metadata frame
//! ([`pack_meta`], [`unpack_meta`]) and [`trace`], the text the
//! differential tests compare with the Go package normtrace.
//!
//! The Go package stays the oracle: the Go tests in this directory run this
//! module's tests and compare it with Go through testdata/driver.rs.
//!
//! Inclusion: a crate root includes it as `#[path = "…/norm.rs"] mod norm;`
//! and other modules refer to it as `crate::norm`. It uses std only and
//! builds with rustc 1.63 (edition 2021). Values are plain data: Send and
//! Sync, no interior mutability.
//!
//! Differences from Go, all forced by Rust and none visible in a trace:
//! strings are `String` (valid UTF-8; every Go string a decoder makes
//! comes from JSON decoded with U+FFFD replacement), byte fields are
//! `Vec<u8>` (no nil/empty distinction), an index is `usize`, a duration is
//! `u64` nanoseconds, an HTTP status `u16`, an [`Amount`] is
//! `Option<i64>`, a [`StreamError`] always has its [`Error`], and a
//! [`StopReason`] is one of the four Go constants (Go's zero value "" has
//! no Rust counterpart; no Go decoder emits it). A Go string the decoders
//! copy from raw bytes may hold invalid UTF-8, which a `String` cannot;
//! a port must replace it (the trace then shows the difference).
//!
//! The request half of the Go package (message.go, request.go,
//! assemble.go) is ported in message.rs beside this file, a module of its
//! own because it needs jsonout.

use std::fmt;

/// StopReason says why a provider ended a successful response (Go:
/// `norm.StopReason`, a string type with these four values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StopReason {
    #[default]
    End,
    ToolUse,
    Length,
    Refusal,
}

impl StopReason {
    /// as_str is the Go constant's value ("end", "tool_use", "length",
    /// "refusal").
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::End => "end",
            StopReason::ToolUse => "tool_use",
            StopReason::Length => "length",
            StopReason::Refusal => "refusal",
        }
    }
}

/// Event is one normalized stream event: Start, TextDelta, ThinkingDelta,
/// ToolCallStart, ToolCallDelta, ToolCallEnd, OtherBlock, then exactly one
/// terminal Done or StreamError. The set is closed.
///
/// Content events carry `index`, the position of their block in the
/// assembled message: an event either continues the block at `index` or,
/// when `index` equals the number of blocks so far, opens a new one.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Start(Start),
    TextDelta(TextDelta),
    ThinkingDelta(ThinkingDelta),
    ToolCallStart(ToolCallStart),
    ToolCallDelta(ToolCallDelta),
    ToolCallEnd(ToolCallEnd),
    OtherBlock(OtherBlock),
    Done(Done),
    StreamError(StreamError),
}

impl Event {
    /// is_terminal reports whether the event is Done or StreamError.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Event::Done(_) | Event::StreamError(_))
    }
}

/// Start opens a response. `provider` tags every opaque payload
/// (signatures, encrypted reasoning) of the response with its producer.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Start {
    pub provider: String,
    pub model: String,
    pub response_id: String,
}

/// TextDelta appends `text` (and `signature` bytes) to the text block at
/// `index`. `item_id` and `phase`, when set, name the vendor's output item
/// the block belongs to (Responses API) and are carried by the block's
/// first event.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextDelta {
    pub index: usize,
    pub text: String,
    pub signature: Vec<u8>,
    pub item_id: String,
    pub phase: String,
}

/// ThinkingDelta appends to the thinking block at `index`. `signature` and
/// `encrypted` are opaque payloads appended byte-exact; `redacted`, once
/// set, stays set for the block. `format` names the vendor encoding of
/// `signature` (for example OpenRouter's "anthropic-claude-v1"); `item_id`
/// names the vendor's reasoning item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ThinkingDelta {
    pub index: usize,
    pub text: String,
    pub signature: Vec<u8>,
    pub encrypted: Vec<u8>,
    pub redacted: bool,
    pub format: String,
    pub item_id: String,
}

/// ToolCallStart opens the tool-call block at `index`. `item_id` is the
/// vendor's item id when it differs from the call id (Responses API).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolCallStart {
    pub index: usize,
    pub id: String,
    pub name: String,
    pub item_id: String,
}

/// ToolCallDelta appends a fragment of the JSON arguments of the tool call
/// at `index`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolCallDelta {
    pub index: usize,
    pub arguments: String,
}

/// ToolCallEnd closes the tool call at `index`; its arguments are
/// complete. `signature` is an opaque token the vendor attached to the
/// call.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolCallEnd {
    pub index: usize,
    pub signature: Vec<u8>,
}

/// OtherBlock is a content block the client must not act on (for example
/// a server-executed tool call or its result). `raw` is the vendor's JSON
/// for the block, kept so the history can be sent back unchanged.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OtherBlock {
    pub index: usize,
    pub type_: String,
    pub raw: Vec<u8>,
}

/// Done ends a successful response. `raw` is the vendor's own stop value;
/// `usage_raw` is the vendor's last usage object, verbatim.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Done {
    pub reason: StopReason,
    pub raw: String,
    pub usage: Usage,
    pub usage_raw: Vec<u8>,
}

/// StreamError ends a failed response. `usage` holds what was reported
/// before the failure; `raw` is the vendor's stop or status value, if any.
/// The error is boxed to keep [`Event`] small (Go: a non-nil `*Error`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StreamError {
    pub err: Box<Error>,
    pub raw: String,
    pub usage: Usage,
    pub usage_raw: Vec<u8>,
}

macro_rules! event_from {
    ($($t:ident),*) => {$(
        impl From<$t> for Event {
            fn from(v: $t) -> Event {
                Event::$t(v)
            }
        }
    )*};
}

event_from!(Start, TextDelta, ThinkingDelta, ToolCallStart, ToolCallDelta, ToolCallEnd, OtherBlock, Done, StreamError);

/// Amount is a count a provider may or may not have reported (Go:
/// `norm.Amount`); None is unknown, which is not the same as Some(0).
pub type Amount = Option<i64>;

/// add returns a+b; the sum is unknown when either operand is unknown. It
/// wraps on overflow as Go's int64 addition does.
pub fn add(a: Amount, b: Amount) -> Amount {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.wrapping_add(b)),
        _ => None,
    }
}

/// Usage is the token accounting of one response. The default Usage is
/// entirely unknown. `input` counts uncached input tokens only; `output`
/// includes `reasoning`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub input: Amount,
    pub output: Amount,
    pub cache_read: Amount,
    pub cache_write: Amount,
    pub reasoning: Amount,
}

impl Usage {
    /// total returns input+cache_read+cache_write+output, unknown if any
    /// part is.
    pub fn total(&self) -> Amount {
        add(add(add(self.input, self.cache_read), self.cache_write), self.output)
    }

    /// is_known reports whether any field is known.
    pub fn is_known(&self) -> bool {
        self.input.is_some()
            || self.output.is_some()
            || self.cache_read.is_some()
            || self.cache_write.is_some()
            || self.reasoning.is_some()
    }
}

/// ErrorKind classifies why a request failed; callers branch on the kind,
/// never on message text. The default is Server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorKind {
    Auth,
    InvalidRequest,
    ContextOverflow,
    RateLimit,
    Quota,
    Overloaded,
    #[default]
    Server,
    NotFound,
    Transport,
    Truncated,
    Aborted,
    Malformed,
}

impl ErrorKind {
    /// as_str is the Go constant's value ("auth", "invalid_request", …).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Auth => "auth",
            ErrorKind::InvalidRequest => "invalid_request",
            ErrorKind::ContextOverflow => "context_overflow",
            ErrorKind::RateLimit => "rate_limit",
            ErrorKind::Quota => "quota",
            ErrorKind::Overloaded => "overloaded",
            ErrorKind::Server => "server",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Transport => "transport",
            ErrorKind::Truncated => "truncated",
            ErrorKind::Aborted => "aborted",
            ErrorKind::Malformed => "malformed",
        }
    }

    /// retryable reports the default retry hint of the kind: true for
    /// rate_limit, overloaded, server, transport and truncated.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            ErrorKind::RateLimit | ErrorKind::Overloaded | ErrorKind::Server | ErrorKind::Transport | ErrorKind::Truncated
        )
    }

    /// ALL lists every kind in Go declaration order.
    pub const ALL: [ErrorKind; 12] = [
        ErrorKind::Auth,
        ErrorKind::InvalidRequest,
        ErrorKind::ContextOverflow,
        ErrorKind::RateLimit,
        ErrorKind::Quota,
        ErrorKind::Overloaded,
        ErrorKind::Server,
        ErrorKind::NotFound,
        ErrorKind::Transport,
        ErrorKind::Truncated,
        ErrorKind::Aborted,
        ErrorKind::Malformed,
    ];
}

/// Error is a classified provider failure. Its Display text is Go's
/// `(*Error).Error()`: "KIND: MESSAGE" then " (PROVIDER_TYPE)",
/// " (http STATUS)" and " (request id ID)" for the fields that are set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Error {
    pub kind: ErrorKind,
    /// message is the vendor's explanation (never a secret).
    pub message: String,
    /// retryable is the retry hint: the vendor's own signal when it gave
    /// one (x-should-retry), otherwise the kind's default.
    pub retryable: bool,
    /// retry_after is how long to wait before retrying, in nanoseconds; 0
    /// means no hint.
    pub retry_after: u64,
    /// http_status is the response status, 0 for in-stream errors.
    pub http_status: u16,
    /// provider_type is the vendor's error type or status string.
    pub provider_type: String,
    /// code is the vendor's error code when it differs from provider_type.
    pub code: String,
    /// request_id is the vendor's request id.
    pub request_id: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.as_str())?;
        f.write_str(": ")?;
        f.write_str(&self.message)?;
        if !self.provider_type.is_empty() {
            write!(f, " ({})", self.provider_type)?;
        }
        if self.http_status != 0 {
            write!(f, " (http {})", self.http_status)?;
        }
        if !self.request_id.is_empty() {
            write!(f, " (request id {})", self.request_id)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// truncated returns the terminal event for a body that ended without a
/// stop signal; `codec` names the decoder and `what` names the missing
/// signal (Go: `norm.Truncated`).
pub fn truncated(codec: &str, what: &str, usage: Usage) -> StreamError {
    let mut message = String::with_capacity(codec.len() + what.len() + 80);
    message.push_str(codec);
    message.push_str(": the response body ended before ");
    message.push_str(what);
    message.push_str("; the answer is incomplete, retry the request");
    StreamError {
        err: Box::new(Error { kind: ErrorKind::Truncated, retryable: true, message, ..Error::default() }),
        raw: String::new(),
        usage,
        usage_raw: Vec::new(),
    }
}

/// Framing are the framing facts of a body (see the sse module's Stats).
/// `line_endings` is the Go name of the style: "", "LF", "CRLF", "CR" or
/// "mixed".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Framing {
    pub line_endings: &'static str,
    pub event_lines: bool,
    pub events: u64,
    pub comment_lines: u64,
    pub done: bool,
    pub non_sse: bool,
}

/// Decoder turns the raw chunks of one response body into normalized
/// events (Go: `norm.Decoder`).
///
/// `feed` consumes the next chunk, which may be split anywhere, and
/// APPENDS the events it completed to `out`; `close` ends the body and
/// appends the remaining events. Neither clears `out`: the caller owns it
/// and reuses its capacity (clear it between calls to get Go's "the events
/// of this call"), so a warm decoder allocates only what the events
/// themselves hold. Over the life of a decoder exactly one terminal event
/// is appended, by `feed` or by the first `close`; a later `close` appends
/// nothing. `framing` reports the framing facts of the body fed so far.
pub trait Decoder {
    fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>);
    fn close(&mut self, out: &mut Vec<Event>);
    fn framing(&self) -> Framing;
}

/// Emitter collects the events a decoder produces for one chunk and keeps
/// the invariants every decoder shares: block indexes are allocated in
/// order, and nothing is emitted after the one terminal event. The default
/// Emitter is ready.
///
/// A decoder emits into it and, at the end of `feed`/`close`, moves the
/// collected events into the caller's vector with [`Emitter::drain_into`]
/// (Go: `Reset`), which keeps both vectors' capacity.
#[derive(Debug, Default)]
pub struct Emitter {
    events: Vec<Event>,
    blocks: usize,
    ended: bool,
}

impl Emitter {
    /// drain_into moves the events collected so far to the end of `out`
    /// (the stream state stays). Into an empty `out` the two vectors are
    /// swapped rather than the events copied, so each keeps a capacity
    /// warm (not necessarily its own) and nothing allocates.
    #[inline]
    pub fn drain_into(&mut self, out: &mut Vec<Event>) {
        if out.is_empty() {
            std::mem::swap(out, &mut self.events);
        } else {
            out.append(&mut self.events);
        }
    }

    /// events returns the events collected since the last drain.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// open allocates the index of a new content block.
    #[inline]
    pub fn open(&mut self) -> usize {
        self.blocks += 1;
        self.blocks - 1
    }

    /// blocks returns how many block indexes were allocated.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// emit appends a non-terminal event; it is dropped after the terminal
    /// event.
    #[inline]
    pub fn emit<E: Into<Event>>(&mut self, ev: E) {
        if !self.ended {
            self.events.push(ev.into());
        }
    }

    /// end appends the terminal event (Done or StreamError) unless the
    /// stream already ended.
    pub fn end<E: Into<Event>>(&mut self, ev: E) {
        if !self.ended {
            self.ended = true;
            self.events.push(ev.into());
        }
    }

    /// ended reports whether the terminal event was emitted.
    #[inline]
    pub fn ended(&self) -> bool {
        self.ended
    }
}

/// Meta is vendor metadata of a content block that Smith's messages have
/// no field for (Go: `norm.Meta`). The runtime keeps a block's signature
/// opaque and returns it unchanged to the codec that made it, so the codec
/// frames Meta into the signature ([`pack_meta`]) and takes it out again
/// when the block is sent back ([`unpack_meta`]). The fields are bytes, as
/// Go strings are, so an unpacked frame is exact whatever it holds; empty
/// means unset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Meta<'a> {
    /// format names the vendor's encoding of a thinking signature (for
    /// example OpenRouter's "anthropic-claude-v1").
    pub format: &'a [u8],
    /// item is the vendor's output item id (Responses API: rs_…, msg_…,
    /// fc_…).
    pub item: &'a [u8],
    /// phase is a Responses message item's phase ("commentary",
    /// "final_answer").
    pub phase: &'a [u8],
    /// other, when set, marks the block as a vendor block the client does
    /// not act on and names its type; the payload is the block's JSON.
    pub other: &'a [u8],
}

impl<'a> Meta<'a> {
    /// is_zero reports whether every field is empty.
    pub fn is_zero(&self) -> bool {
        self.format.is_empty() && self.item.is_empty() && self.phase.is_empty() && self.other.is_empty()
    }
}

// A framed signature is a sequence of fields, each META_MARK + key + "=" +
// value + META_END, followed by the vendor's payload. Vendor signatures are
// base64 or JSON, so none starts with META_MARK; a signature without fields
// is the vendor's payload as is. Should a payload start with META_MARK, an
// empty field (META_MARK + META_END) ends the frame before it.
const META_MARK: u8 = 0;
const META_END: u8 = 0;

/// pack_meta returns `payload` with `m` framed in front of it, byte for
/// byte as Go's `norm.PackMeta`: with a zero `m` the payload unchanged
/// (unless it starts with a NUL byte); a field whose value holds a NUL byte
/// is left out. It allocates the result once.
pub fn pack_meta(m: &Meta<'_>, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    pack_meta_into(&mut out, m, payload);
    out
}

/// pack_meta_into appends what [`pack_meta`] returns to `out`.
pub fn pack_meta_into(out: &mut Vec<u8>, m: &Meta<'_>, payload: &[u8]) {
    let fenced = payload.first() == Some(&META_MARK);
    let fields: [(&[u8], &[u8]); 4] = [(b"format", m.format), (b"item", m.item), (b"phase", m.phase), (b"other", m.other)];
    let mut size = payload.len() + if fenced { 2 } else { 0 };
    for (key, value) in fields.iter() {
        if !value.is_empty() && !value.contains(&META_END) {
            size += key.len() + value.len() + 3;
        }
    }
    out.reserve(size);
    for (key, value) in fields.iter() {
        if value.is_empty() || value.contains(&META_END) {
            continue;
        }
        out.push(META_MARK);
        out.extend_from_slice(key);
        out.push(b'=');
        out.extend_from_slice(value);
        out.push(META_END);
    }
    if fenced {
        out.push(META_MARK);
        out.push(META_END);
    }
    out.extend_from_slice(payload);
}

/// unpack_meta splits a signature made by [`pack_meta`] into its metadata
/// and the vendor's payload, as Go's `norm.UnpackMeta`: a signature without
/// fields, or whose frame is malformed, is returned whole as the payload
/// with a zero Meta; fields of unknown keys are skipped, and of a repeated
/// key the last wins. Both results borrow from `sig`; nothing is allocated.
pub fn unpack_meta(sig: &[u8]) -> (Meta<'_>, &[u8]) {
    let mut m = Meta::default();
    let mut rest = sig;
    while rest.first() == Some(&META_MARK) {
        if rest.get(1) == Some(&META_END) {
            return (m, &rest[2..]);
        }
        let body = &rest[1..];
        let end = match body.iter().position(|&c| c == META_END) {
            Some(end) => end,
            None => return (Meta::default(), sig),
        };
        let field = &body[..end];
        let eq = match field.iter().position(|&c| c == b'=') {
            Some(eq) if eq > 0 => eq,
            _ => return (Meta::default(), sig),
        };
        let value = &field[eq + 1..];
        match &field[..eq] {
            b"format" => m.format = value,
            b"item" => m.item = value,
            b"phase" => m.phase = value,
            b"other" => m.other = value,
            _ => {}
        }
        rest = &body[end + 1..];
    }
    (m, rest)
}

/// trace returns the events as text, one line per event, exactly as the Go
/// package normtrace's Trace writes the equal Go events. Each line is the
/// event's Go type name, then its fields in Go declaration order as
/// " Name=value", then "\n". Strings, byte fields and string-typed values
/// (StopReason, ErrorKind) are quoted as Go's strconv.QuoteToASCII quotes
/// them; integers are decimal, bools true/false, retry_after is
/// nanoseconds, an Amount is its value or "unknown", and Usage and Error
/// are their fields in braces:
///
/// ```text
/// Start Provider="p" Model="m" ResponseID="r"
/// Done Reason="end" Raw="" Usage={Input=1 Output=unknown CacheRead=unknown CacheWrite=unknown Reasoning=unknown} UsageRaw=""
/// StreamError Err={Kind="server" Message="x" Retryable=true RetryAfter=0 HTTPStatus=0 ProviderType="" Code="" RequestID=""} Raw="" Usage={…} UsageRaw=""
/// ```
pub fn trace(events: &[Event]) -> String {
    let mut b = String::new();
    for ev in events {
        append_event(&mut b, ev);
    }
    b
}

/// append_event appends the trace line of `ev`, newline included, to `b`
/// (see [`trace`]).
pub fn append_event(b: &mut String, ev: &Event) {
    match ev {
        Event::Start(e) => {
            b.push_str("Start");
            tr_str(b, "Provider", e.provider.as_bytes());
            tr_str(b, "Model", e.model.as_bytes());
            tr_str(b, "ResponseID", e.response_id.as_bytes());
        }
        Event::TextDelta(e) => {
            b.push_str("TextDelta");
            tr_num(b, "Index", e.index as u64);
            tr_str(b, "Text", e.text.as_bytes());
            tr_str(b, "Signature", &e.signature);
            tr_str(b, "ItemID", e.item_id.as_bytes());
            tr_str(b, "Phase", e.phase.as_bytes());
        }
        Event::ThinkingDelta(e) => {
            b.push_str("ThinkingDelta");
            tr_num(b, "Index", e.index as u64);
            tr_str(b, "Text", e.text.as_bytes());
            tr_str(b, "Signature", &e.signature);
            tr_str(b, "Encrypted", &e.encrypted);
            tr_bool(b, "Redacted", e.redacted);
            tr_str(b, "Format", e.format.as_bytes());
            tr_str(b, "ItemID", e.item_id.as_bytes());
        }
        Event::ToolCallStart(e) => {
            b.push_str("ToolCallStart");
            tr_num(b, "Index", e.index as u64);
            tr_str(b, "ID", e.id.as_bytes());
            tr_str(b, "Name", e.name.as_bytes());
            tr_str(b, "ItemID", e.item_id.as_bytes());
        }
        Event::ToolCallDelta(e) => {
            b.push_str("ToolCallDelta");
            tr_num(b, "Index", e.index as u64);
            tr_str(b, "Arguments", e.arguments.as_bytes());
        }
        Event::ToolCallEnd(e) => {
            b.push_str("ToolCallEnd");
            tr_num(b, "Index", e.index as u64);
            tr_str(b, "Signature", &e.signature);
        }
        Event::OtherBlock(e) => {
            b.push_str("OtherBlock");
            tr_num(b, "Index", e.index as u64);
            tr_str(b, "Type", e.type_.as_bytes());
            tr_str(b, "Raw", &e.raw);
        }
        Event::Done(e) => {
            b.push_str("Done");
            tr_str(b, "Reason", e.reason.as_str().as_bytes());
            tr_str(b, "Raw", e.raw.as_bytes());
            tr_usage(b, &e.usage);
            tr_str(b, "UsageRaw", &e.usage_raw);
        }
        Event::StreamError(e) => {
            b.push_str("StreamError");
            tr_field(b, "Err");
            append_error(b, &e.err);
            tr_str(b, "Raw", e.raw.as_bytes());
            tr_usage(b, &e.usage);
            tr_str(b, "UsageRaw", &e.usage_raw);
        }
    }
    b.push('\n');
}

/// append_error appends the trace of `e` (Go: normtrace.AppendError): its
/// fields in braces, as in a StreamError line.
pub fn append_error(b: &mut String, e: &Error) {
    b.push_str("{Kind=");
    quote_ascii(b, e.kind.as_str().as_bytes());
    tr_str(b, "Message", e.message.as_bytes());
    tr_bool(b, "Retryable", e.retryable);
    tr_num(b, "RetryAfter", e.retry_after);
    tr_num(b, "HTTPStatus", u64::from(e.http_status));
    tr_str(b, "ProviderType", e.provider_type.as_bytes());
    tr_str(b, "Code", e.code.as_bytes());
    tr_str(b, "RequestID", e.request_id.as_bytes());
    b.push('}');
}

fn tr_field(b: &mut String, name: &str) {
    b.push(' ');
    b.push_str(name);
    b.push('=');
}

fn tr_str(b: &mut String, name: &str, v: &[u8]) {
    tr_field(b, name);
    quote_ascii(b, v);
}

fn tr_num(b: &mut String, name: &str, v: u64) {
    tr_field(b, name);
    push_u64(b, v);
}

fn tr_bool(b: &mut String, name: &str, v: bool) {
    tr_field(b, name);
    b.push_str(if v { "true" } else { "false" });
}

fn tr_amount(b: &mut String, a: Amount) {
    match a {
        Some(n) if n < 0 => {
            b.push('-');
            push_u64(b, n.unsigned_abs());
        }
        Some(n) => push_u64(b, n as u64),
        None => b.push_str("unknown"),
    }
}

fn tr_usage(b: &mut String, u: &Usage) {
    tr_field(b, "Usage");
    append_usage(b, u);
}

/// append_usage appends the trace of `u` (Go: normtrace.AppendUsage): its
/// amounts in braces, each a decimal value or "unknown".
pub fn append_usage(b: &mut String, u: &Usage) {
    b.push_str("{Input=");
    tr_amount(b, u.input);
    for (name, a) in [("Output", u.output), ("CacheRead", u.cache_read), ("CacheWrite", u.cache_write), ("Reasoning", u.reasoning)] {
        tr_field(b, name);
        tr_amount(b, a);
    }
    b.push('}');
}

/// push_u64 appends v in decimal without core::fmt.
fn push_u64(b: &mut String, mut v: u64) {
    let mut d = [0u8; 20];
    let mut i = d.len();
    loop {
        i -= 1;
        d[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &c in &d[i..] {
        b.push(c as char);
    }
}

const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// quote_ascii appends `s` quoted as Go's strconv.QuoteToASCII quotes it:
/// printable ASCII as is (`"` and `\` escaped), \a \b \f \n \r \t \v, \xNN
/// for other control bytes, DEL and each byte of invalid UTF-8, \uXXXX and
/// \UXXXXXXXX (lower-case hex) for every other rune.
pub fn quote_ascii(b: &mut String, s: &[u8]) {
    b.push('"');
    let mut rest = s;
    while !rest.is_empty() {
        let valid = match std::str::from_utf8(rest) {
            Ok(v) => v,
            Err(e) => match std::str::from_utf8(&rest[..e.valid_up_to()]) {
                Ok(v) => v,
                Err(_) => "",
            },
        };
        for c in valid.chars() {
            quote_rune(b, c);
        }
        rest = &rest[valid.len()..];
        if let Some((&bad, tail)) = rest.split_first() {
            // Go decodes an invalid sequence as RuneError of width 1.
            push_hex(b, "\\x", u32::from(bad), 2);
            rest = tail;
        }
    }
    b.push('"');
}

fn quote_rune(b: &mut String, c: char) {
    match c {
        '"' | '\\' => {
            b.push('\\');
            b.push(c);
        }
        ' '..='~' => b.push(c),
        '\u{7}' => b.push_str("\\a"),
        '\u{8}' => b.push_str("\\b"),
        '\u{c}' => b.push_str("\\f"),
        '\n' => b.push_str("\\n"),
        '\r' => b.push_str("\\r"),
        '\t' => b.push_str("\\t"),
        '\u{b}' => b.push_str("\\v"),
        '\0'..='\u{1f}' | '\u{7f}' => push_hex(b, "\\x", c as u32, 2),
        '\u{80}'..='\u{ffff}' => push_hex(b, "\\u", c as u32, 4),
        _ => push_hex(b, "\\U", c as u32, 8),
    }
}

fn push_hex(b: &mut String, prefix: &str, v: u32, digits: u32) {
    b.push_str(prefix);
    let mut shift = digits * 4;
    while shift > 0 {
        shift -= 4;
        b.push(LOWER_HEX[((v >> shift) & 0xf) as usize] as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_ascii_matches_go() {
        // Expected texts from Go's strconv.QuoteToASCII.
        let cases: [(&[u8], &str); 8] = [
            (b"", r#""""#),
            (b"a \"q\" \\ ~", r#""a \"q\" \\ ~""#),
            (b"\x07\x08\x0c\n\r\t\x0b\x00\x1f\x7f", r#""\a\b\f\n\r\t\v\x00\x1f\x7f""#),
            ("é€😀\u{fffd}".as_bytes(), r#""\u00e9\u20ac\U0001f600\ufffd""#),
            (b"\xff\xc3", r#""\xff\xc3""#),
            (b"\xe2\x82x", r#""\xe2\x82x""#),
            (b"\xed\xa0\x80", r#""\xed\xa0\x80""#),
            (b"\xf4\x90\x80\x80\xc0\xaf", r#""\xf4\x90\x80\x80\xc0\xaf""#),
        ];
        for (input, want) in cases.iter() {
            let mut got = String::new();
            quote_ascii(&mut got, input);
            assert_eq!(&got, want, "input {:?}", input);
        }
    }

    #[test]
    fn trace_lines() {
        let events = vec![
            Event::Start(Start { provider: "p".into(), model: "m\n".into(), response_id: "r".into() }),
            Event::ThinkingDelta(ThinkingDelta { index: 1, signature: vec![0, 0xff], redacted: true, ..ThinkingDelta::default() }),
            Event::Done(Done {
                reason: StopReason::ToolUse,
                usage: Usage { input: Some(-3), output: Some(0), ..Usage::default() },
                ..Done::default()
            }),
            Event::StreamError(truncated("c", "w", Usage::default())),
        ];
        let want = concat!(
            "Start Provider=\"p\" Model=\"m\\n\" ResponseID=\"r\"\n",
            "ThinkingDelta Index=1 Text=\"\" Signature=\"\\x00\\xff\" Encrypted=\"\" Redacted=true Format=\"\" ItemID=\"\"\n",
            "Done Reason=\"tool_use\" Raw=\"\" Usage={Input=-3 Output=0 CacheRead=unknown CacheWrite=unknown Reasoning=unknown} UsageRaw=\"\"\n",
            "StreamError Err={Kind=\"truncated\" Message=\"c: the response body ended before w; the answer is incomplete, retry the request\" ",
            "Retryable=true RetryAfter=0 HTTPStatus=0 ProviderType=\"\" Code=\"\" RequestID=\"\"} Raw=\"\" ",
            "Usage={Input=unknown Output=unknown CacheRead=unknown CacheWrite=unknown Reasoning=unknown} UsageRaw=\"\"\n",
        );
        assert_eq!(trace(&events), want);
        let mut n = String::new();
        push_u64(&mut n, u64::MAX);
        tr_amount(&mut n, Some(i64::MIN));
        assert_eq!(n, "18446744073709551615-9223372036854775808");
    }

    #[test]
    fn pack_meta_frames() {
        let cases: [(Meta<'_>, &[u8], &[u8]); 6] = [
            (Meta::default(), b"c2ln", b"c2ln"),
            (Meta { format: b"anthropic-claude-v1", ..Meta::default() }, b"c2ln", b"\0format=anthropic-claude-v1\0c2ln"),
            (Meta { item: b"msg_1", phase: b"commentary", ..Meta::default() }, b"", b"\0item=msg_1\0\0phase=commentary\0"),
            (Meta::default(), b"\0x", b"\0\0\0x"),
            (Meta { other: b"a\0b", ..Meta::default() }, b"p", b"p"),
            (Meta { other: b"a\0b", ..Meta::default() }, b"\0", b"\0\0\0"),
        ];
        for (m, payload, want) in cases.iter() {
            let got = pack_meta(m, payload);
            assert_eq!(&got[..], *want, "meta {:?} payload {:?}", m, payload);
            let (back, p) = unpack_meta(&got);
            assert_eq!(p, *payload);
            if !m.other.contains(&0) {
                assert_eq!(back, *m);
            }
        }
    }

    #[test]
    fn unpack_meta_malformed_and_unknown() {
        let cases: [(&[u8], Meta<'_>, &[u8]); 6] = [
            (b"\0format=x", Meta::default(), b"\0format=x"),
            (b"\0=x\0p", Meta::default(), b"\0=x\0p"),
            (b"\0novalue\0p", Meta::default(), b"\0novalue\0p"),
            (b"\0new=1\0\0item=i\0p", Meta { item: b"i", ..Meta::default() }, b"p"),
            (b"\0item=a\0\0item=b=c\0\0\0\0", Meta { item: b"b=c", ..Meta::default() }, b"\0"),
            (b"", Meta::default(), b""),
        ];
        for (sig, want, payload) in cases.iter() {
            let (m, p) = unpack_meta(sig);
            assert_eq!((m, p), (*want, *payload), "sig {:?}", sig);
        }
    }

    #[test]
    fn error_display_matches_go() {
        let cases: [(Error, &str); 3] = [
            (Error { kind: ErrorKind::Auth, message: "bad key".into(), ..Error::default() }, "auth: bad key"),
            (
                Error {
                    kind: ErrorKind::RateLimit,
                    message: "slow down".into(),
                    provider_type: "rate_limit_error".into(),
                    http_status: 429,
                    request_id: "req_1".into(),
                    ..Error::default()
                },
                "rate_limit: slow down (rate_limit_error) (http 429) (request id req_1)",
            ),
            (Error { kind: ErrorKind::Server, http_status: 500, ..Error::default() }, "server:  (http 500)"),
        ];
        for (e, want) in cases.iter() {
            assert_eq!(e.to_string(), *want);
        }
    }

    #[test]
    fn retryable_kinds() {
        let yes: Vec<&str> = ErrorKind::ALL.iter().filter(|k| k.retryable()).map(|k| k.as_str()).collect();
        assert_eq!(yes, ["rate_limit", "overloaded", "server", "transport", "truncated"]);
    }

    #[test]
    fn usage_unknown_stays_unknown() {
        let u = Usage::default();
        assert!(!u.is_known());
        assert_eq!(u.total(), None);
        let u = Usage { input: Some(3), output: Some(4), cache_read: Some(0), cache_write: Some(1), reasoning: None };
        assert!(u.is_known());
        assert_eq!(u.total(), Some(8));
        let u = Usage { cache_write: None, ..u };
        assert_eq!(u.total(), None);
        assert!(Usage { reasoning: Some(0), ..Usage::default() }.is_known());
        assert_eq!(add(Some(i64::MAX), Some(1)), Some(i64::MIN));
    }

    #[test]
    fn emitter_orders_and_ends_once() {
        let mut em = Emitter::default();
        assert_eq!(em.open(), 0);
        assert_eq!(em.open(), 1);
        assert_eq!(em.blocks(), 2);
        em.emit(TextDelta { index: 0, text: "a".into(), ..TextDelta::default() });
        em.end(Done::default());
        em.emit(ToolCallDelta { index: 1, arguments: "{}".into() });
        em.end(truncated("x", "y", Usage::default()));
        assert!(em.ended());
        assert_eq!(em.events().len(), 2);
        let mut out = vec![Event::Start(Start::default())];
        em.drain_into(&mut out);
        assert_eq!(out.len(), 3);
        assert!(em.events().is_empty());
        assert!(out[2].is_terminal() && !out[1].is_terminal());
        em.emit(Start::default());
        assert!(em.events().is_empty());
    }

    #[test]
    fn truncated_matches_go() {
        let u = Usage { input: Some(1), ..Usage::default() };
        let e = truncated("anthropic", "message_stop arrived", u);
        assert_eq!(e.usage, u);
        assert!(e.err.retryable);
        assert_eq!(
            e.err.to_string(),
            "truncated: anthropic: the response body ended before message_stop arrived; the answer is incomplete, retry the request"
        );
    }

    struct Echo {
        framing: Framing,
        em: Emitter,
    }

    impl Decoder for Echo {
        fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>) {
            self.framing.events += 1;
            let index = self.em.open();
            self.em.emit(TextDelta { index, text: String::from_utf8_lossy(chunk).into_owned(), ..TextDelta::default() });
            self.em.drain_into(out);
        }
        fn close(&mut self, out: &mut Vec<Event>) {
            self.em.end(truncated("echo", "the end", Usage::default()));
            self.em.drain_into(out);
        }
        fn framing(&self) -> Framing {
            self.framing
        }
    }

    #[test]
    fn decoder_is_object_safe_and_appends() {
        let mut d: Box<dyn Decoder> = Box::new(Echo { framing: Framing::default(), em: Emitter::default() });
        let mut out = Vec::new();
        d.feed(b"hi", &mut out);
        d.feed(b"yo", &mut out);
        d.close(&mut out);
        d.close(&mut out);
        assert_eq!(out.len(), 3);
        assert_eq!(d.framing().events, 2);
        assert_eq!(d.framing().line_endings, "");
    }
}
