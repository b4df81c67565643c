//! The native driver behind TestRustTrace, FuzzRustTrace and the meta
//! tests: it serves plugins-src/internal/rustdriver frames and runs the
//! Rust port (../norm.rs) on what the Go test sends.
//!
//! Op 't' traces events. The payload is events, each a tag byte (0 Start,
//! 1 TextDelta, 2 ThinkingDelta, 3 ToolCallStart, 4 ToolCallDelta,
//! 5 ToolCallEnd, 6 OtherBlock, 7 Done, 8 StreamError) and its fields in Go
//! declaration order: a string or byte field is a u32le length and its
//! bytes, an index a u64le, a bool a byte, a StopReason its position in
//! end/tool_use/length/refusal, a Usage five amounts (a known byte, then an
//! i64le), an Error its kind's position in ErrorKind::ALL, message,
//! retryable, retry_after (u64le), http_status (u16le), provider_type,
//! code and request_id. The reply is norm::trace of the events, or
//! "malformed at N" when the payload does not decode.
//!
//! Op 'p' packs: the payload is format, item, phase and other (each a
//! u32le length and bytes) and then the payload; the reply is pack_meta.
//!
//! Op 'u' unpacks: the payload is a signature; the reply is format, item,
//! phase, other (each a u32le length and bytes) and the vendor payload.
//!
//! Op 'a' assembles: the payload is events as for 't', added in order to
//! a norm_message::Assembler. The reply is a line "E N QUOTED" for each
//! event N that add refused, then the message trace (see message_trace).
//!
//! Op 'F' is finish_arguments: the payload is the raw text; the reply is
//! the arguments (a u32le length and bytes) and the reason.
#![allow(dead_code)]

#[path = "../norm.rs"]
mod norm;

#[path = "../../../../internal/jsonscan/jsonscan.rs"]
#[allow(dead_code)]
mod jsonscan;
#[path = "../../../../internal/jsonout/jsonout.rs"]
mod jsonout;

#[path = "../message.rs"]
mod norm_message;

use norm::*;
use norm_message::{Assembler, AssistantMessage, Content};

struct Reader<'a> {
    p: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let b = self.p.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(b)
    }
    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn flag(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
    fn u64(&mut self) -> Option<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Some(u64::from_le_bytes(a))
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let b = self.take(4)?;
        let n = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
        self.take(n)
    }
    fn vec(&mut self) -> Option<Vec<u8>> {
        Some(self.bytes()?.to_vec())
    }
    fn string(&mut self) -> Option<String> {
        String::from_utf8(self.vec()?).ok()
    }
    fn index(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }
    fn amount(&mut self) -> Option<Amount> {
        let known = self.flag()?;
        let n = self.u64()? as i64;
        Some(if known { Some(n) } else { None })
    }
    fn usage(&mut self) -> Option<Usage> {
        Some(Usage {
            input: self.amount()?,
            output: self.amount()?,
            cache_read: self.amount()?,
            cache_write: self.amount()?,
            reasoning: self.amount()?,
        })
    }
    fn error(&mut self) -> Option<Error> {
        let kind = *ErrorKind::ALL.get(self.byte()? as usize)?;
        let message = self.string()?;
        let retryable = self.flag()?;
        let retry_after = self.u64()?;
        let s = self.take(2)?;
        Some(Error {
            kind,
            message,
            retryable,
            retry_after,
            http_status: u16::from_le_bytes([s[0], s[1]]),
            provider_type: self.string()?,
            code: self.string()?,
            request_id: self.string()?,
        })
    }
    fn event(&mut self) -> Option<Event> {
        Some(match self.byte()? {
            0 => Event::Start(Start { provider: self.string()?, model: self.string()?, response_id: self.string()? }),
            1 => Event::TextDelta(TextDelta {
                index: self.index()?,
                text: self.string()?,
                signature: self.vec()?,
                item_id: self.string()?,
                phase: self.string()?,
            }),
            2 => Event::ThinkingDelta(ThinkingDelta {
                index: self.index()?,
                text: self.string()?,
                signature: self.vec()?,
                encrypted: self.vec()?,
                redacted: self.flag()?,
                format: self.string()?,
                item_id: self.string()?,
            }),
            3 => Event::ToolCallStart(ToolCallStart {
                index: self.index()?,
                id: self.string()?,
                name: self.string()?,
                item_id: self.string()?,
            }),
            4 => Event::ToolCallDelta(ToolCallDelta { index: self.index()?, arguments: self.string()? }),
            5 => Event::ToolCallEnd(ToolCallEnd { index: self.index()?, signature: self.vec()? }),
            6 => Event::OtherBlock(OtherBlock { index: self.index()?, type_: self.string()?, raw: self.vec()? }),
            7 => Event::Done(Done {
                reason: match self.byte()? {
                    0 => StopReason::End,
                    1 => StopReason::ToolUse,
                    2 => StopReason::Length,
                    3 => StopReason::Refusal,
                    _ => return None,
                },
                raw: self.string()?,
                usage: self.usage()?,
                usage_raw: self.vec()?,
            }),
            8 => Event::StreamError(StreamError {
                err: Box::new(self.error()?),
                raw: self.string()?,
                usage: self.usage()?,
                usage_raw: self.vec()?,
            }),
            _ => return None,
        })
    }
}

fn events(payload: &[u8]) -> Result<Vec<Event>, Vec<u8>> {
    let mut r = Reader { p: payload, at: 0 };
    let mut events = Vec::new();
    while r.at < payload.len() {
        let at = r.at;
        match r.event() {
            Some(ev) => events.push(ev),
            None => return Err(format!("malformed at {}", at).into_bytes()),
        }
    }
    Ok(events)
}

fn trace_op(payload: &[u8]) -> Vec<u8> {
    match events(payload) {
        Ok(evs) => trace(&evs).into_bytes(),
        Err(msg) => msg,
    }
}

fn field(b: &mut String, name: &str, v: &[u8]) {
    b.push(' ');
    b.push_str(name);
    b.push('=');
    quote_ascii(b, v);
}

/// message_trace writes the message as the Go test's messageTrace does: a
/// "Msg" line with the message's fields, then a line per block, every
/// field as " Name=value" with strings and bytes quoted as in trace.
fn message_trace(b: &mut String, m: &AssistantMessage) {
    b.push_str("Msg");
    field(b, "Provider", m.provider.as_bytes());
    field(b, "Model", m.model.as_bytes());
    field(b, "ResponseID", m.response_id.as_bytes());
    field(b, "Stop", m.stop.map_or("", |s| s.as_str()).as_bytes());
    field(b, "StopRaw", m.stop_raw.as_bytes());
    b.push_str(" Usage=");
    append_usage(b, &m.usage);
    b.push_str(" Error=");
    match &m.error {
        Some(e) => append_error(b, e),
        None => b.push_str("nil"),
    }
    b.push('\n');
    for c in &m.content {
        match c {
            Content::Text(t) => {
                b.push_str("Text");
                field(b, "Text", t.text.as_bytes());
                field(b, "Signature", &t.signature);
                field(b, "Producer", t.producer.as_bytes());
                field(b, "ItemID", t.item_id.as_bytes());
                field(b, "Phase", t.phase.as_bytes());
            }
            Content::Thinking(t) => {
                b.push_str("Thinking");
                field(b, "Text", t.text.as_bytes());
                field(b, "Signature", &t.signature);
                field(b, "Encrypted", &t.encrypted);
                b.push_str(if t.redacted { " Redacted=true" } else { " Redacted=false" });
                field(b, "Format", t.format.as_bytes());
                field(b, "ItemID", t.item_id.as_bytes());
                field(b, "Producer", t.producer.as_bytes());
            }
            Content::Image(i) => {
                b.push_str("Image");
                field(b, "MediaType", i.media_type.as_bytes());
                field(b, "Data", &i.data);
            }
            Content::ToolCall(t) => {
                b.push_str("ToolCall");
                field(b, "ID", t.id.as_bytes());
                field(b, "Name", t.name.as_bytes());
                field(b, "Arguments", &t.arguments);
                field(b, "ArgumentsError", t.arguments_error.as_bytes());
                field(b, "Signature", &t.signature);
                field(b, "ItemID", t.item_id.as_bytes());
                field(b, "Producer", t.producer.as_bytes());
            }
            Content::Other(o) => {
                b.push_str("Other");
                field(b, "Type", o.type_.as_bytes());
                field(b, "Raw", &o.raw);
                field(b, "Producer", o.producer.as_bytes());
            }
        }
        b.push('\n');
    }
}

fn assemble_op(payload: &[u8]) -> Vec<u8> {
    let evs = match events(payload) {
        Ok(evs) => evs,
        Err(msg) => return msg,
    };
    let mut a = Assembler::default();
    let mut b = String::new();
    for (i, e) in evs.iter().enumerate() {
        if let Err(msg) = a.add(e) {
            b.push_str("E ");
            b.push_str(&i.to_string());
            b.push(' ');
            quote_ascii(&mut b, msg.as_bytes());
            b.push('\n');
        }
    }
    message_trace(&mut b, &a.message());
    b.into_bytes()
}

fn finish_op(payload: &[u8]) -> Vec<u8> {
    let raw = match std::str::from_utf8(payload) {
        Ok(raw) => raw,
        Err(_) => return b"not utf-8".to_vec(),
    };
    let (args, reason) = norm_message::finish_arguments(raw);
    let mut out = Vec::new();
    put(&mut out, &args);
    out.extend_from_slice(reason.as_bytes());
    out
}

fn put(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

fn pack_op(payload: &[u8]) -> Vec<u8> {
    let mut r = Reader { p: payload, at: 0 };
    let fields = (|| Some([r.bytes()?, r.bytes()?, r.bytes()?, r.bytes()?]))();
    match fields {
        Some([format, item, phase, other]) => pack_meta(&Meta { format, item, phase, other }, &payload[r.at..]),
        None => b"malformed".to_vec(),
    }
}

fn unpack_op(payload: &[u8]) -> Vec<u8> {
    let (m, rest) = unpack_meta(payload);
    let mut out = Vec::with_capacity(payload.len() + 20);
    for f in [m.format, m.item, m.phase, m.other] {
        put(&mut out, f);
    }
    out.extend_from_slice(rest);
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b't' => trace_op(&payload),
        b'p' => pack_op(&payload),
        b'u' => unpack_op(&payload),
        b'a' => assemble_op(&payload),
        b'F' => finish_op(&payload),
        op => panic!("norm driver: unknown op {:?}", op as char),
    })
}
