//! The native driver behind the gemini package's Rust tests: it serves
//! plugins-src/internal/rustdriver frames and runs the Rust decoder
//! (../decode.rs) on what the Go test sends. Built with --test it runs the
//! #[test]s of the decoder and the modules it includes.
//!
//! Op 'd' decodes a body: the payload is the chunks, each a u32le length
//! and its bytes. Each is fed to a new Decoder::new("google"); after each
//! feed the reply gets the trace of the events it appended (norm::trace),
//! then "-- feed" and the framing line; then close is called twice, each
//! followed by its trace, "-- close" and the framing line:
//!
//!     Framing LineEndings="LF" EventLines=false Events=3 CommentLines=0 Done=false NonSSE=false
//!
//! Op 'b' times decoding: the payload is the number of runs (u32le) and
//! the chunks as for 'd'; each run decodes them with a new decoder. The
//! reply is the elapsed nanoseconds (u64le) and the number of events of
//! the last run (u64le).
#![allow(dead_code)]

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
#[path = "../decode.rs"]
mod gemini;

use norm::Decoder as _;
use std::time::Instant;

fn u32_at(p: &[u8], at: usize) -> Option<usize> {
    let b = p.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

fn chunks(p: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(n) = u32_at(p, at) {
        match p.get(at + 4..at + 4 + n) {
            Some(c) => out.push(c),
            None => break,
        }
        at += 4 + n;
    }
    out
}

fn framing(b: &mut String, f: norm::Framing) {
    b.push_str("Framing LineEndings=");
    norm::quote_ascii(b, f.line_endings.as_bytes());
    b.push_str(&format!(
        " EventLines={} Events={} CommentLines={} Done={} NonSSE={}\n",
        f.event_lines, f.events, f.comment_lines, f.done, f.non_sse
    ));
}

fn decode(payload: &[u8]) -> Vec<u8> {
    let mut d = gemini::Decoder::new("google");
    let mut out = String::new();
    let mut events = Vec::new();
    for c in chunks(payload) {
        events.clear();
        d.feed(c, &mut events);
        out.push_str(&norm::trace(&events));
        out.push_str("-- feed\n");
        framing(&mut out, d.framing());
    }
    for _ in 0..2 {
        events.clear();
        d.close(&mut events);
        out.push_str(&norm::trace(&events));
        out.push_str("-- close\n");
        framing(&mut out, d.framing());
    }
    out.into_bytes()
}

fn bench(payload: &[u8]) -> Vec<u8> {
    let runs = u32_at(payload, 0).unwrap_or(0);
    let body = chunks(&payload[4.min(payload.len())..]);
    let mut events = Vec::with_capacity(64);
    let mut n = 0u64;
    let start = Instant::now();
    for _ in 0..runs {
        let mut d = gemini::Decoder::new("google");
        n = 0;
        for c in &body {
            events.clear();
            d.feed(c, &mut events);
            n += events.len() as u64;
        }
        events.clear();
        d.close(&mut events);
        n += events.len() as u64;
    }
    let ns = start.elapsed().as_nanos() as u64;
    let mut out = ns.to_le_bytes().to_vec();
    out.extend_from_slice(&n.to_le_bytes());
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'd' => decode(&payload),
        b'b' => bench(&payload),
        op => format!("unknown op {}", op).into_bytes(),
    })
}
