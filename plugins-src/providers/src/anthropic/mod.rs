//! anthropic is the Anthropic Messages API codec: the streaming decoder
//! (message_start … message_stop, with thinking signatures, redacted
//! thinking and server-tool blocks kept verbatim) in this file, the
//! request builder ([`build`]) and the failure classifier ([`classify`]).
//!
//! ```ignore
//! use crate::norm::Decoder as _;
//! let mut d = anthropic::Decoder::new("anthropic");
//! let mut events = Vec::new();
//! for chunk in body {
//!     d.feed(chunk, &mut events);
//! }
//! d.close(&mut events);
//! ```
//!
//! A server-side block whose content_block was null and that streamed
//! valid input is kept as it started (null).

pub mod build;
pub mod classify;
pub(crate) mod fastread;
mod opaque;
mod usage;
pub(crate) mod wire;

use crate::format::{Format, Provider};
use crate::norm::{self, ErrorKind, Event, StopReason};
use crate::sse;
use std::collections::BTreeMap;

/// CODEC names the decoder in its messages.
const CODEC: &str = "anthropic";

/// FORMAT is the Anthropic Messages API and the provider that speaks it.
pub const FORMAT: Format = Format {
    api: "anthropic",
    providers: || {
        vec![Provider {
            name: "anthropic",
            display: "Anthropic",
            base_url: "https://api.anthropic.com",
            base_url_env: "ANTHROPIC_BASE_URL",
            key_env: &["ANTHROPIC_API_KEY"],
            ..Provider::default()
        }]
    },
    decoder: |provider| Box::new(Decoder::new(provider)),
    build: |r, _, secret| build::build_request(r, secret),
    classify: |status, h, body| classify::classify_response(status, h, body),
};

/// Decoder decodes one Messages API event stream. It is used by one thread
/// at a time.
pub struct Decoder {
    framer: sse::Framer,
    stream: Stream,
}

/// Stream is the decoder's state apart from the framer, which lends it the
/// items.
struct Stream {
    provider: String,
    em: norm::Emitter,
    started: bool,
    /// The open blocks by the vendor's content-block index.
    blocks: BTreeMap<i64, Block>,
    usage: usage::UsageState,
    stop_raw: String,
    /// How the last delta began (the fast reader's).
    prefix: fastread::Prefix,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Text,
    Thinking,
    ToolUse,
    Other,
}

struct Block {
    kind: BlockKind,
    /// Our block index, None until the block's first event.
    index: Option<usize>,
    /// A server-side block's content_block, verbatim.
    raw: Vec<u8>,
    /// A server-side block's input_json_delta fragments.
    input: Vec<u8>,
}

impl Decoder {
    /// new returns a decoder whose events are tagged with provider (the
    /// producer of signatures), for example "anthropic".
    pub fn new(provider: &str) -> Decoder {
        Decoder {
            framer: sse::Framer::default(),
            stream: Stream {
                provider: provider.to_string(),
                em: norm::Emitter::default(),
                started: false,
                blocks: BTreeMap::new(),
                usage: usage::UsageState::default(),
                stop_raw: String::new(),
                prefix: fastread::Prefix::default(),
            },
        }
    }
}

impl norm::Decoder for Decoder {
    fn feed(&mut self, chunk: &[u8], out: &mut Vec<Event>) {
        let st = &mut self.stream;
        self.framer.feed(chunk, |it| st.item(it));
        st.em.drain_into(out);
    }

    /// close ends the body: a body that ended after message_delta carried
    /// a stop reason is complete even without message_stop; otherwise it
    /// is truncated.
    fn close(&mut self, out: &mut Vec<Event>) {
        let st = &mut self.stream;
        self.framer.close(|it| st.item(it));
        if !st.em.ended() {
            if !st.stop_raw.is_empty() {
                st.finish();
            } else {
                st.em.end(norm::truncated(CODEC, "message_delta carried a stop_reason", st.usage.result()));
            }
        }
        st.em.drain_into(out);
    }
}

impl Stream {
    fn item(&mut self, it: sse::Item) {
        if self.em.ended() {
            return;
        }
        if it.kind == sse::Kind::Text {
            let mut m = String::from("anthropic: unexpected non-SSE line ");
            smith_text::quote::quote(&mut m, smith_text::quote::prefix(it.data, 80));
            m.push_str(" in the event stream");
            return self.fail(ErrorKind::Malformed, m);
        }
        if it.done {
            return; // not part of the protocol; some proxies append it
        }
        // The fast reader reads the usual event; what it gives up on is
        // read again by the general one.
        let mut ev = wire::Event::default();
        if fastread::read(&mut ev, it.data, &mut self.prefix).is_none() {
            ev = match wire::Event::read(it.data) {
                Ok(ev) => ev,
                Err(e) => {
                    let mut m = String::from("anthropic: event ");
                    smith_text::quote::quote(&mut m, it.name);
                    m.push_str(": payload is not JSON (");
                    m.push_str(&e.to_string());
                    m.push_str("): ");
                    smith_text::quote::quote(&mut m, smith_text::quote::prefix(it.data, 80));
                    return self.fail(ErrorKind::Malformed, m);
                }
            };
        }
        // Byte-string patterns compile to byte compares; str patterns
        // would call memcmp, a byte loop in wasm.
        match ev.typ.unquoted().as_bytes() {
            b"message_start" => {
                if !ev.has_message || self.started {
                    return; // a proxy may splice a second message_start; the first one names the response
                }
                self.started = true;
                self.usage.merge(ev.message_usage);
                self.em.emit(norm::Start {
                    provider: self.provider.clone(),
                    model: ev.message_model.string(),
                    response_id: ev.message_id.string(),
                });
            }
            b"content_block_start" => self.block_start(ev.index, ev.content_block),
            b"content_block_delta" => {
                if ev.has_delta {
                    self.block_delta(ev.index, &ev.delta);
                }
            }
            b"content_block_stop" => self.block_stop(ev.index),
            b"message_delta" => {
                if ev.has_delta && !ev.delta.stop_reason.is_nil() {
                    self.stop_raw = ev.delta.stop_reason.string();
                }
                self.usage.merge(ev.usage);
            }
            b"message_stop" => {
                if self.stop_raw.is_empty() {
                    let m = "anthropic: message_stop without a stop_reason in any message_delta";
                    return self.fail(ErrorKind::Malformed, m.to_string());
                }
                self.finish();
            }
            b"error" => {
                let e = wire::classify_body(ev.err);
                let (usage, usage_raw) = (self.usage.result(), self.usage.raw());
                self.em.end(norm::StreamError { err: Box::new(e), raw: String::new(), usage, usage_raw });
            }
            _ => {} // ping and unknown event types are ignored
        }
    }

    fn block_start(&mut self, i: i64, raw: &[u8]) {
        let b = match wire::Block::read(raw) {
            Ok(b) => b,
            Err(e) => return self.fail(ErrorKind::Malformed, format!("anthropic: content_block_start {}: {}", i, e)),
        };
        let kind = match b.typ.as_str() {
            "text" => BlockKind::Text,
            "thinking" | "redacted_thinking" => BlockKind::Thinking,
            "tool_use" => BlockKind::ToolUse,
            _ => BlockKind::Other,
        };
        let mut st = Block { kind, index: None, raw: Vec::new(), input: Vec::new() };
        let em = &mut self.em;
        match b.typ.as_str() {
            "text" => {
                if !b.text.is_empty() {
                    let index = index_of(em, &mut st);
                    em.emit(norm::TextDelta { index, text: b.text, ..Default::default() });
                }
            }
            "thinking" => {
                if !b.thinking.is_empty() || !b.signature.is_empty() {
                    let index = index_of(em, &mut st);
                    em.emit(norm::ThinkingDelta {
                        index,
                        text: b.thinking,
                        signature: b.signature.into_bytes(),
                        ..Default::default()
                    });
                }
            }
            "redacted_thinking" => {
                let index = index_of(em, &mut st);
                em.emit(norm::ThinkingDelta {
                    index,
                    redacted: true,
                    encrypted: b.data.into_bytes(),
                    ..Default::default()
                });
            }
            "tool_use" => {
                let index = index_of(em, &mut st);
                em.emit(norm::ToolCallStart { index, id: b.id, name: b.name, ..Default::default() });
            }
            _ => st.raw = raw.to_vec(),
        }
        self.blocks.insert(i, st);
    }

    fn block_delta(&mut self, i: i64, w: &wire::Delta) {
        let st = match self.blocks.get_mut(&i) {
            Some(st) => st,
            None => {
                let m = format!("anthropic: content_block_delta for block {}, which was never started", i);
                return self.fail(ErrorKind::Malformed, m);
            }
        };
        let em = &mut self.em;
        match (w.typ.unquoted().as_bytes(), st.kind) {
            (b"text_delta", BlockKind::Text) => {
                let index = index_of(em, st);
                em.emit(norm::TextDelta { index, text: w.text.string(), ..Default::default() });
            }
            (b"thinking_delta", BlockKind::Thinking) => {
                let index = index_of(em, st);
                em.emit(norm::ThinkingDelta { index, text: w.thinking.string(), ..Default::default() });
            }
            (b"signature_delta", BlockKind::Thinking) => {
                let index = index_of(em, st);
                em.emit(norm::ThinkingDelta {
                    index,
                    signature: w.signature.string().into_bytes(),
                    ..Default::default()
                });
            }
            (b"input_json_delta", BlockKind::ToolUse) => {
                let index = index_of(em, st);
                em.emit(norm::ToolCallDelta { index, arguments: w.partial_json.string() });
            }
            (b"input_json_delta", BlockKind::Other) => st.input.extend_from_slice(w.partial_json.unquoted().as_bytes()),
            _ => {} // citations_delta and unknown delta types carry nothing we send back
        }
    }

    fn block_stop(&mut self, i: i64) {
        let mut st = match self.blocks.remove(&i) {
            Some(st) => st,
            None => return,
        };
        let em = &mut self.em;
        match st.kind {
            BlockKind::ToolUse => {
                let index = index_of(em, &mut st);
                em.emit(norm::ToolCallEnd { index, signature: Vec::new() });
            }
            BlockKind::Other => {
                let index = index_of(em, &mut st);
                let type_ = wire::other_type(&st.raw);
                em.emit(norm::OtherBlock { index, type_, raw: opaque::with_input(&st.raw, &st.input) });
            }
            BlockKind::Text | BlockKind::Thinking => {}
        }
    }

    fn finish(&mut self) {
        // Blocks left open are closed in the vendor's order.
        while let Some(&i) = self.blocks.keys().next() {
            self.block_stop(i);
        }
        let (usage, usage_raw) = (self.usage.result(), self.usage.raw());
        let raw = self.stop_raw.clone();
        match stop_reason(&raw) {
            Some(reason) => self.em.end(norm::Done { reason, raw, usage, usage_raw }),
            None => {
                let mut message = String::from("anthropic: unknown stop_reason ");
                smith_text::quote::quote(&mut message, raw.as_bytes());
                message.push_str("; the response may be incomplete");
                let err = Box::new(norm::Error { kind: ErrorKind::Server, message, ..norm::Error::default() });
                self.em.end(norm::StreamError { err, raw, usage, usage_raw });
            }
        }
    }

    fn fail(&mut self, kind: ErrorKind, message: String) {
        let err = Box::new(norm::Error { kind, message, retryable: kind.retryable(), ..norm::Error::default() });
        let (usage, usage_raw) = (self.usage.result(), self.usage.raw());
        self.em.end(norm::StreamError { err, raw: String::new(), usage, usage_raw });
    }
}

/// index_of returns the block's index, allocating it at its first event.
fn index_of(em: &mut norm::Emitter, st: &mut Block) -> usize {
    *st.index.get_or_insert_with(|| em.open())
}

fn stop_reason(raw: &str) -> Option<StopReason> {
    Some(match raw {
        "end_turn" | "stop_sequence" | "pause_turn" => StopReason::End,
        "tool_use" => StopReason::ToolUse,
        "max_tokens" | "model_context_window_exceeded" => StopReason::Length,
        "refusal" => StopReason::Refusal,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::Decoder as _;

    fn decode(chunks: &[&[u8]]) -> Vec<Event> {
        let mut d = Decoder::new("anthropic");
        let mut out = Vec::new();
        for c in chunks {
            d.feed(c, &mut out);
        }
        d.close(&mut out);
        d.close(&mut out);
        out
    }

    fn terminal(evs: &[Event]) -> &norm::Error {
        match evs.last() {
            Some(Event::StreamError(e)) => &e.err,
            other => panic!("last event {:?}, want a stream error", other),
        }
    }

    #[test]
    fn failures_name_what_broke() {
        let cases: &[(&str, ErrorKind, &str)] = &[
            ("", ErrorKind::Truncated, "anthropic: the response body ended before message_delta carried a stop_reason; the answer is incomplete, retry the request"),
            ("hello\n", ErrorKind::Malformed, "anthropic: unexpected non-SSE line \"hello\" in the event stream"),
            ("event: x\ndata: {\"type\":\n\n", ErrorKind::Malformed, "anthropic: event \"x\": payload is not JSON (the input ends at offset 8 looking for the beginning of a value; the JSON text is incomplete): \"{\\\"type\\\":\""),
            ("data: {\"type\":\"message_stop\"}\n\n", ErrorKind::Malformed, "anthropic: message_stop without a stop_reason in any message_delta"),
            ("data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{}}\n\n", ErrorKind::Malformed, "anthropic: content_block_delta for block 3, which was never started"),
            ("data: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":7}\n\n", ErrorKind::Malformed, "anthropic: content_block_start 2: value at offset 0: found number, want object"),
            ("data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"odd\\u00ad\"}}\n\n", ErrorKind::Server, "anthropic: unknown stop_reason \"odd\\u00ad\"; the response may be incomplete"),
            ("data: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", ErrorKind::Overloaded, "Overloaded"),
        ];
        for (body, kind, message) in cases {
            let evs = decode(&[body.as_bytes()]);
            let e = terminal(&evs);
            assert_eq!((e.kind, e.message.as_str()), (*kind, *message), "{:?}", body);
        }
    }

    #[test]
    fn long_lines_are_quoted_to_80_characters() {
        let line = "é".repeat(100) + "\n";
        let evs = decode(&[line.as_bytes()]);
        let want = format!("anthropic: unexpected non-SSE line \"{}\" in the event stream", "é".repeat(80));
        assert_eq!(terminal(&evs).message, want);
    }

    #[test]
    fn server_blocks_keep_their_json_with_the_streamed_input() {
        let body = concat!(
            "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"server_tool_use\",\"id\":\"s\",\"input\":{}, \"x\":1}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"1}\"}}\n\n",
            "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"Type\":\"web\"}}\n\n",
            "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\n",
        );
        let evs = decode(&[body.as_bytes()]);
        let want: [Event; 2] = [
            norm::OtherBlock { index: 0, type_: "web".into(), raw: br#"{"Type":"web"}"#.to_vec() }.into(),
            norm::OtherBlock {
                index: 1,
                type_: "server_tool_use".into(),
                raw: br#"{"type":"server_tool_use","id":"s","input":{"q":1}, "x":1}"#.to_vec(),
            }
            .into(),
        ];
        assert_eq!(evs.get(..2), Some(&want[..]));
        assert!(matches!(evs.last(), Some(Event::Done(_))));
    }

    #[test]
    fn a_null_server_block_with_input_is_kept() {
        // A null block keeps no input: it stays as it started.
        assert_eq!(opaque::with_input(b"null", b"1"), b"null");
        assert_eq!(opaque::with_input(br#"{"type":"x"}"#, b"[1]"), br#"{"type":"x","input":[1]}"#);
        assert_eq!(opaque::with_input(br#"{ }"#, b"2"), br#"{ "input":2}"#);
        assert_eq!(opaque::with_input(br#"{"input":{}}"#, b" "), br#"{"input":{}}"#);
    }

    #[test]
    fn thinking_and_redacted_blocks() {
        let body = concat!(
            "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n",
            "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"redacted_thinking\",\"data\":\"enc\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hm\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"sig\"}}\n\n",
            "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ignored\"}}\n\n",
        );
        let evs = decode(&[body.as_bytes()]);
        let want: [Event; 3] = [
            norm::ThinkingDelta { index: 0, encrypted: b"enc".to_vec(), redacted: true, ..Default::default() }.into(),
            norm::ThinkingDelta { index: 1, text: "hm".into(), ..Default::default() }.into(),
            norm::ThinkingDelta { index: 0, signature: b"sig".to_vec(), ..Default::default() }.into(),
        ];
        assert_eq!(evs.get(..3), Some(&want[..]));
        assert!(
            matches!(evs.get(3..), Some([Event::StreamError(e)]) if e.err.kind == ErrorKind::Truncated),
            "{:?}",
            evs
        );
    }
}
