//! The native driver behind the openairesp differential tests: it serves
//! plugins-src/internal/rustdriver frames and runs the Rust decoder
//! (../decode.rs) on what the Go tests send. Built with --test it runs the
//! #[test]s of decode.rs (and of the modules it includes).
//!
//! Op 'd' decodes a body: the payload is the number of cuts (u32le), each
//! cut (u32le, the length of the next chunk), then the body, whose rest
//! after the cuts is the last chunk. The reply is text: after every feed
//! "feed\n", the trace of its events (norm::trace) and the framing line;
//! then "close\n", the trace of close's events and the framing line, and
//! the same again for a second close. The framing line is
//! `Framing LineEndings="LF" EventLines=true Events=3 CommentLines=0 Done=false NonSSE=false`.
//!
//! Op 'b' times decoding: the payload is the number of runs (u32le), then
//! cuts and body as for 'd'; each run decodes the chunks with a new
//! decoder. The reply is the elapsed nanoseconds (u64le) and the events
//! of the last run (u64le).
#![allow(dead_code)]

#[path = "../decode.rs"]
mod decode;
#[path = "../../../../internal/jsonscan/jsonscan.rs"]
mod jsonscan;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../../../tools/src/printable.rs"]
mod printable;
#[path = "../../../../tools/src/quote.rs"]
mod quote;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../sse/sse.rs"]
mod sse;

use norm::Decoder as _;
use std::time::Instant;

fn u32_at(p: &[u8], at: usize) -> Option<usize> {
    let b = p.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// chunks splits a payload of cuts and body into the chunks to feed.
fn chunks(p: &[u8]) -> Vec<&[u8]> {
    let n = u32_at(p, 0).unwrap_or(0);
    let mut at = 4;
    let mut cuts = Vec::with_capacity(n);
    for _ in 0..n {
        cuts.push(u32_at(p, at).unwrap_or(0));
        at += 4;
    }
    let mut body = p.get(at..).unwrap_or(&[]);
    let mut out = Vec::with_capacity(n + 1);
    for c in cuts {
        let c = c.min(body.len());
        out.push(&body[..c]);
        body = &body[c..];
    }
    out.push(body);
    out
}

fn framing(out: &mut String, f: norm::Framing) {
    out.push_str(&format!(
        "Framing LineEndings=\"{}\" EventLines={} Events={} CommentLines={} Done={} NonSSE={}\n",
        f.line_endings, f.event_lines, f.events, f.comment_lines, f.done, f.non_sse
    ));
}

fn decode_body(p: &[u8]) -> Vec<u8> {
    let mut d = decode::Decoder::new("openai");
    let mut out = String::new();
    let mut events = Vec::new();
    for c in chunks(p) {
        events.clear();
        d.feed(c, &mut events);
        out.push_str("feed\n");
        out.push_str(&norm::trace(&events));
        framing(&mut out, d.framing());
    }
    for _ in 0..2 {
        events.clear();
        d.close(&mut events);
        out.push_str("close\n");
        out.push_str(&norm::trace(&events));
        framing(&mut out, d.framing());
    }
    out.into_bytes()
}

fn bench(p: &[u8]) -> Vec<u8> {
    let runs = u32_at(p, 0).unwrap_or(0);
    let cs = chunks(p.get(4..).unwrap_or(&[]));
    let mut events = Vec::new();
    let start = Instant::now();
    for _ in 0..runs {
        let mut d = decode::Decoder::new("openai");
        events.clear();
        for c in &cs {
            d.feed(c, &mut events);
        }
        d.close(&mut events);
    }
    let ns = start.elapsed().as_nanos() as u64;
    let mut out = ns.to_le_bytes().to_vec();
    out.extend_from_slice(&(events.len() as u64).to_le_bytes());
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'd' => decode_body(&payload),
        b'b' => bench(&payload),
        op => format!("driver_openairesp: unknown op {}", op).into_bytes(),
    })
}
