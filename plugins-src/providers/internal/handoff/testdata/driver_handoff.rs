//! The native driver behind handoff's TestRustTransform and
//! FuzzRustTransform: it serves plugins-src/internal/rustdriver frames and
//! runs the Rust port (../handoff.rs) on what the Go test sends, under the
//! plugin crate's module names.
//!
//! Op 'h' transforms. The payload is the target's provider, api, model
//! and id_style (each a u32le length and its bytes), a u32le count of
//! messages that ended in an error and their indexes (u32le each), and
//! then a request document (normtrace.Document of the messages) that
//! document::parse reads. The reply is document::trace_request of a
//! request holding only the transformed messages, or "ERR " and the
//! parse error.
#![allow(dead_code)]

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

#[path = "../../../../internal/jsonout/jsonout.rs"]
mod jsonout;
#[path = "../../../../internal/jsonscan/jsonscan.rs"]
mod jsonscan;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../norm/message.rs"]
mod norm_message;
#[path = "../../../../tools/src/printable.rs"]
mod printable;
#[path = "../../openaichat/quirks.rs"]
mod quirks;
#[path = "../../../../tools/src/quote.rs"]
mod quote;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../../src/document.rs"]
mod document;
#[path = "../handoff.rs"]
mod handoff;

struct Reader<'a> {
    p: &'a [u8],
}

impl<'a> Reader<'a> {
    fn u32(&mut self) -> Option<usize> {
        let h = self.p.get(..4)?;
        self.p = &self.p[4..];
        Some(u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize)
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()?;
        let b = self.p.get(..n)?;
        self.p = &self.p[n..];
        String::from_utf8(b.to_vec()).ok()
    }
}

fn transform_op(p: &[u8]) -> Option<Vec<u8>> {
    let mut r = Reader { p };
    let t = handoff::Target { provider: r.string()?, api: r.string()?, model: r.string()?, id_style: r.string()? };
    let mut errored = Vec::new();
    for _ in 0..r.u32()? {
        errored.push(r.u32()?);
    }
    let doc = match document::parse(r.p, "") {
        Ok(d) => d,
        Err(e) => return Some(format!("ERR {}", e).into_bytes()),
    };
    let mut msgs = doc.request.messages;
    for i in errored {
        if let Some(norm_message::Message::Assistant(a)) = msgs.get_mut(i) {
            a.error = Some(Box::new(norm::Error { message: "failed".into(), ..norm::Error::default() }));
        }
    }
    let req = norm_message::Request { messages: handoff::transform(msgs, &t), ..norm_message::Request::default() };
    Some(document::trace_request(&req).into_bytes())
}

fn main() {
    serve::serve(|op, payload| match op {
        b'h' => transform_op(&payload).unwrap_or_else(|| b"malformed".to_vec()),
        op => panic!("handoff driver: unknown op {:?}", op as char),
    })
}
