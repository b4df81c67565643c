//! decoder maps one wire decoder's normalized events onto the world's
//! stream events. Text and thinking
//! signatures and encrypted reasoning arrive as deltas, but the world
//! carries them on block-end, so they are gathered per block and sent when
//! the stream ends.

use crate::failure::failure;
use crate::norm::{self, Event, Meta, StopReason as NormStop};
use smith_plugin::provider::{
    BlockEnd, CodecFault, ContentDelta, ResponseEnd, ResponseFailure, ResponseStart, StopReason, StreamEvent,
    ToolCallStart, Usage,
};

/// Block is what a text or thinking block gathered until the stream ends.
/// Empty byte fields are absent: the decoders do not tell an empty
/// signature from none, so neither does the block-end.
#[derive(Default)]
struct Block {
    signature: Vec<u8>,
    thinking: bool,
    encrypted: Vec<u8>,
    redacted: bool,
    tool_call: bool,
    opened: bool,
    format: String,
    item: String,
    phase: String,
    other: String,
}

impl Block {
    fn meta(&self) -> Meta<'_> {
        Meta {
            format: self.format.as_bytes(),
            item: self.item.as_bytes(),
            phase: self.phase.as_bytes(),
            other: self.other.as_bytes(),
        }
    }
}

/// StreamDecoder is the `decoder` resource: one response's body, decoded
/// chunk by chunk. A decoder opened for an unknown provider holds its
/// fault and fails every call with it.
pub struct StreamDecoder {
    wire: Result<Box<dyn norm::Decoder>, CodecFault>,
    events: Vec<Event>,
    blocks: Vec<Block>,
    finished: bool,
}

impl StreamDecoder {
    /// new opens a decoder for one response of `provider`.
    pub fn new(provider: &str) -> StreamDecoder {
        let wire = crate::format::lookup(provider).map(|(f, _)| (f.decoder)(provider));
        StreamDecoder { wire, events: Vec::new(), blocks: Vec::new(), finished: false }
    }

    /// decode_chunk decodes one chunk of the body.
    pub fn decode_chunk(&mut self, chunk: &[u8]) -> Result<Vec<StreamEvent>, CodecFault> {
        let wire = self.wire.as_mut().map_err(|f| f.clone())?;
        self.events.clear();
        wire.feed(chunk, &mut self.events);
        Ok(self.emit())
    }

    /// finish ends the body; the result ends with done or failure.
    pub fn finish(&mut self) -> Result<Vec<StreamEvent>, CodecFault> {
        let wire = self.wire.as_mut().map_err(|f| f.clone())?;
        if self.finished {
            return Err(CodecFault::Unknown("guest: finish called twice on one decoder".to_string()));
        }
        self.finished = true;
        self.events.clear();
        wire.close(&mut self.events);
        Ok(self.emit())
    }

    fn block(&mut self, i: usize) -> &mut Block {
        while self.blocks.len() <= i {
            self.blocks.push(Block::default());
        }
        &mut self.blocks[i]
    }

    fn emit(&mut self) -> Vec<StreamEvent> {
        let mut events = std::mem::take(&mut self.events);
        let mut out = Vec::with_capacity(events.len());
        for e in events.drain(..) {
            self.emit_one(e, &mut out);
        }
        self.events = events;
        out
    }

    fn emit_one(&mut self, e: Event, out: &mut Vec<StreamEvent>) {
        match e {
            Event::Start(e) => out.push(StreamEvent::Start(ResponseStart { id: e.response_id, model: e.model })),
            Event::TextDelta(e) => {
                let b = self.block(e.index);
                b.signature.extend_from_slice(&e.signature);
                if !e.item_id.is_empty() {
                    b.item = e.item_id;
                    b.phase = e.phase;
                }
                if !e.text.is_empty() || e.signature.is_empty() || !b.opened {
                    b.opened = true;
                    push_delta(out, Delta::Text, e.index, e.text);
                }
            }
            Event::ThinkingDelta(e) => {
                let b = self.block(e.index);
                b.thinking = true;
                b.signature.extend_from_slice(&e.signature);
                b.encrypted.extend_from_slice(&e.encrypted);
                b.redacted = b.redacted || e.redacted;
                if !e.format.is_empty() {
                    b.format = e.format;
                }
                if !e.item_id.is_empty() {
                    b.item = e.item_id;
                }
                // A delta of only an opaque payload is sent at the block's
                // end, but the block itself has to exist at its index from
                // now on.
                let opaque_only = !e.signature.is_empty() || !e.encrypted.is_empty() || e.redacted;
                if !e.text.is_empty() || !opaque_only || !b.opened {
                    b.opened = true;
                    push_delta(out, Delta::Thinking, e.index, e.text);
                }
            }
            Event::ToolCallStart(e) => {
                let b = self.block(e.index);
                b.tool_call = true;
                b.item = e.item_id;
                out.push(StreamEvent::ToolCallStart(ToolCallStart { index: e.index as u32, id: e.id, name: e.name }));
            }
            Event::ToolCallDelta(e) => push_delta(out, Delta::ToolCall, e.index, e.arguments),
            Event::ToolCallEnd(e) => {
                let sig = norm::pack_meta(&self.block(e.index).meta(), &e.signature);
                out.push(StreamEvent::BlockEnd(BlockEnd {
                    index: e.index as u32,
                    signature: opt_bytes(sig),
                    encrypted: None,
                    redacted: false,
                }));
            }
            Event::OtherBlock(e) => {
                // A server-side block the client never acts on travels as
                // an empty text block whose signature frames the block's
                // type and JSON (see norm::pack_meta); the runtime returns
                // it unchanged and the request document turns it back
                // into an Other block.
                let b = self.block(e.index);
                b.opened = true;
                b.signature = e.raw;
                b.other = if e.type_.is_empty() { "unknown".to_string() } else { e.type_ };
                push_delta(out, Delta::Text, e.index, String::new());
            }
            Event::Done(e) => {
                self.end_blocks(out);
                out.push(usage(&e.usage));
                out.push(StreamEvent::Done(ResponseEnd {
                    reason: stop(e.reason),
                    raw_stop: opt_text(&e.raw),
                    raw_usage: opt_bytes(e.usage_raw),
                }));
            }
            Event::StreamError(e) => {
                self.end_blocks(out);
                out.push(usage(&e.usage));
                out.push(StreamEvent::Failure(ResponseFailure {
                    failure: failure(&e.err),
                    raw_stop: opt_text(&e.raw),
                    raw_usage: opt_bytes(e.usage_raw),
                }));
            }
        }
    }

    /// end_blocks sends the gathered payloads of the text and thinking
    /// blocks. A signature carries the block's vendor metadata framed in
    /// (norm::pack_meta): the encoding of a thinking signature, a
    /// Responses item id and phase, the type of a server-side block.
    fn end_blocks(&mut self, out: &mut Vec<StreamEvent>) {
        for (i, b) in self.blocks.iter().enumerate() {
            let meta = b.meta();
            let framed = !meta.is_zero();
            let signed = !b.signature.is_empty();
            if b.tool_call || (!signed && !framed && b.encrypted.is_empty() && !b.redacted) {
                continue;
            }
            let signature = if signed || framed { opt_bytes(norm::pack_meta(&meta, &b.signature)) } else { None };
            let encrypted = if b.encrypted.is_empty() { None } else { Some(b.encrypted.clone()) };
            out.push(StreamEvent::BlockEnd(BlockEnd { index: i as u32, signature, encrypted, redacted: b.redacted }));
        }
    }
}

/// Delta is the kind of a content delta.
#[derive(Clone, Copy)]
enum Delta {
    Text,
    Thinking,
    ToolCall,
}

/// push_delta appends a delta of kind to block index, joined to the last
/// event of out when that is a delta of the same kind and block: the
/// deltas one chunk completes for one block arrive at the same instant, so
/// they travel as one event (one lowering, one lifting, one model event)
/// with the same text.
fn push_delta(out: &mut Vec<StreamEvent>, kind: Delta, index: usize, text: String) {
    let index = index as u32;
    let last = match (kind, out.last_mut()) {
        (Delta::Text, Some(StreamEvent::TextDelta(d))) => Some(d),
        (Delta::Thinking, Some(StreamEvent::ThinkingDelta(d))) => Some(d),
        (Delta::ToolCall, Some(StreamEvent::ToolCallDelta(d))) => Some(d),
        _ => None,
    };
    match last {
        Some(d) if d.index == index => d.text.push_str(&text),
        _ => {
            let d = ContentDelta { index, text };
            out.push(match kind {
                Delta::Text => StreamEvent::TextDelta(d),
                Delta::Thinking => StreamEvent::ThinkingDelta(d),
                Delta::ToolCall => StreamEvent::ToolCallDelta(d),
            });
        }
    }
}

/// opt_bytes returns b as an optional string: empty is absent. The world's
/// strings are UTF-8, so invalid bytes become U+FFFD (vendor signatures
/// are base64 or JSON).
fn opt_bytes(b: Vec<u8>) -> Option<String> {
    if b.is_empty() {
        return None;
    }
    Some(match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// opt_text returns s as an optional string: "" is absent.
pub fn opt_text(s: &str) -> Option<String> {
    if s.is_empty() {
        None
    } else {
        Some(s.to_string())
    }
}

fn stop(r: NormStop) -> StopReason {
    match r {
        NormStop::End => StopReason::End,
        NormStop::ToolUse => StopReason::ToolUse,
        NormStop::Length => StopReason::Length,
        NormStop::Refusal => StopReason::Refusal,
    }
}

fn usage(u: &norm::Usage) -> StreamEvent {
    let p = |a: norm::Amount| match a {
        Some(v) if v >= 0 => Some(v as u64),
        _ => None,
    };
    StreamEvent::Usage(Usage {
        input: p(u.input),
        output: p(u.output),
        cache_read: p(u.cache_read),
        cache_write: p(u.cache_write),
        reasoning: p(u.reasoning),
    })
}
