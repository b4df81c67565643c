//! norm is the provider-neutral vocabulary of the provider codecs: the
//! normalized stream events a decoder emits ([`Event`]), token usage in
//! which every count may be unknown ([`Usage`]), classified errors
//! ([`Error`], [`ErrorKind`]), the [`Emitter`] every decoder collects its
//! events with and the [`Decoder`] trait, and the signature metadata
//! frame ([`pack_meta`], [`unpack_meta`]). The request
//! side (messages, requests, request templates) is [`message`].
//!
//! Values are plain data: Send and Sync, no interior mutability. Strings
//! are `String` (text decoded from JSON has invalid UTF-8 replaced by
//! U+FFFD), byte fields `Vec<u8>` (empty means absent), an index `usize`,
//! a duration `u64` nanoseconds and an HTTP status `u16`.

pub mod message;

/// StopReason says why a provider ended a successful response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StopReason {
    #[default]
    End,
    ToolUse,
    Length,
    Refusal,
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
/// The error is boxed to keep [`Event`] small.
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

/// Amount is a count a provider may or may not have reported; None is
/// unknown, which is not the same as Some(0).
pub type Amount = Option<i64>;

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
    Truncated,
    Malformed,
}

impl ErrorKind {
    /// retryable reports the default retry hint of the kind: true for
    /// rate_limit, overloaded, server and truncated.
    pub fn retryable(self) -> bool {
        matches!(self, ErrorKind::RateLimit | ErrorKind::Overloaded | ErrorKind::Server | ErrorKind::Truncated)
    }
}

/// Error is a classified provider failure.
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

/// truncated returns the terminal event for a body that ended without a
/// stop signal; `codec` names the decoder and `what` names the missing
/// signal.
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

/// Decoder turns the raw chunks of one response body into normalized
/// events.
///
/// `feed` consumes the next chunk, which may be split anywhere, and
/// APPENDS the events it completed to `out`; `close` ends the body and
/// appends the remaining events. Neither clears `out`: the caller owns it
/// and reuses its capacity (clear it between calls to get only the events
/// of one call), so a warm decoder allocates only what the events
/// themselves hold. Over the life of a decoder exactly one terminal event
/// is appended, by `feed` or by the first `close`; a later `close` appends
/// nothing.
pub trait Decoder {
    fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>);
    fn close(&mut self, out: &mut Vec<Event>);
}

/// Emitter collects the events a decoder produces for one chunk and keeps
/// the invariants every decoder shares: block indexes are allocated in
/// order, and nothing is emitted after the one terminal event. The default
/// Emitter is ready.
///
/// A decoder emits into it and, at the end of `feed`/`close`, moves the
/// collected events into the caller's vector with [`Emitter::drain_into`],
/// which keeps both vectors' capacity.
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

    /// open allocates the index of a new content block.
    #[inline]
    pub fn open(&mut self) -> usize {
        self.blocks += 1;
        self.blocks - 1
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
/// no field for. The runtime keeps a block's signature
/// opaque and returns it unchanged to the codec that made it, so the codec
/// frames Meta into the signature ([`pack_meta`]) and takes it out again
/// when the block is sent back ([`unpack_meta`]). The fields are bytes, so
/// an unpacked frame is exact whatever it holds; empty means unset.
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

/// pack_meta returns `payload` with `m` framed in front of it: with a zero
/// `m` the payload unchanged
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
    let fields: [(&[u8], &[u8]); 4] =
        [(b"format", m.format), (b"item", m.item), (b"phase", m.phase), (b"other", m.other)];
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
/// and the vendor's payload: a signature without fields, or whose frame
/// is malformed, is returned whole as the payload with a zero Meta; fields
/// of unknown keys are skipped, and of a repeated key the last wins. Both
/// results borrow from `sig`; nothing is allocated.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_meta_frames() {
        let cases: [(Meta<'_>, &[u8], &[u8]); 6] = [
            (Meta::default(), b"c2ln", b"c2ln"),
            (
                Meta { format: b"anthropic-claude-v1", ..Meta::default() },
                b"c2ln",
                b"\0format=anthropic-claude-v1\0c2ln",
            ),
            (
                Meta { item: b"msg_1", phase: b"commentary", ..Meta::default() },
                b"",
                b"\0item=msg_1\0\0phase=commentary\0",
            ),
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
    fn emitter_orders_and_ends_once() {
        let mut em = Emitter::default();
        em.emit(Start::default());
        let mut first = Vec::new();
        em.drain_into(&mut first); // into an empty vector: swapped
        assert!(matches!(first[..], [Event::Start(_)]) && em.events.is_empty());
        assert_eq!(em.open(), 0);
        assert_eq!(em.open(), 1);
        assert_eq!(em.blocks, 2);
        em.emit(TextDelta { index: 0, text: "a".into(), ..TextDelta::default() });
        em.end(Done::default());
        em.emit(ToolCallDelta { index: 1, arguments: "{}".into() });
        em.end(truncated("x", "y", Usage::default()));
        assert!(em.ended());
        assert_eq!(em.events.len(), 2);
        let mut out = vec![Event::Start(Start::default())];
        em.drain_into(&mut out);
        assert_eq!(out.len(), 3);
        assert!(em.events.is_empty());
        assert!(matches!(out[2], Event::Done(_)) && matches!(out[1], Event::TextDelta(_)));
        em.emit(Start::default());
        assert!(em.events.is_empty());
    }

    #[test]
    fn retryable_kinds() {
        use ErrorKind::*;
        for k in [RateLimit, Overloaded, Server, Truncated] {
            assert!(k.retryable(), "{:?}", k);
        }
        for k in [Auth, InvalidRequest, ContextOverflow, Quota, NotFound, Malformed] {
            assert!(!k.retryable(), "{:?}", k);
        }
    }

    #[test]
    fn truncated_names_the_codec_and_the_missing_signal() {
        let u = Usage { input: Some(1), ..Usage::default() };
        let e = truncated("anthropic", "message_stop arrived", u);
        assert_eq!(e.usage, u);
        assert_eq!((e.err.kind, e.err.retryable), (ErrorKind::Truncated, true));
        assert_eq!(
            e.err.message,
            "anthropic: the response body ended before message_stop arrived; the answer is incomplete, retry the request"
        );
    }
}
