//! The native driver behind the anthropic package's Rust tests: it serves
//! plugins-src/internal/rustdriver frames and runs the Rust decoder
//! (../decode.rs) on what the Go test sends. Built with --test it runs the
//! #[test]s of every module it includes.
//!
//! Op 'd' decodes a body: the payload is the provider name (u32le length
//! and bytes), then chunks, each a u32le length and its bytes, fed in
//! order, then close is called twice. The reply is text: "feed\n" and the
//! norm::trace of that call's events for every feed, "close\n" and the
//! trace for each close, then the framing line (see framing_line).
//!
//! Op 'b' times decoding: the payload is the chunk size (u32le), the
//! number of runs (u32le) and the body; each run decodes the whole body
//! with a new decoder. The reply is the elapsed nanoseconds (u64le) and the
//! number of events (u64le).
#![allow(dead_code)]

#[path = "../decode.rs"]
mod anthropic;
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

fn u32_at(p: &[u8], at: usize) -> Option<usize> {
    let b = p.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// framing_line is the decoder's framing as the Go test writes it.
fn framing_line(f: norm::Framing) -> String {
    format!(
        "Framing LineEndings=\"{}\" EventLines={} Events={} CommentLines={} Done={} NonSSE={}\n",
        f.line_endings, f.event_lines, f.events, f.comment_lines, f.done, f.non_sse
    )
}

fn decode(payload: &[u8]) -> Vec<u8> {
    let n = u32_at(payload, 0).unwrap_or(0);
    let provider = String::from_utf8_lossy(payload.get(4..4 + n).unwrap_or(b""));
    let mut d = anthropic::Decoder::new(&provider);
    let mut out = String::new();
    let mut events = Vec::new();
    let mut at = 4 + n;
    while let Some(n) = u32_at(payload, at) {
        let chunk = match payload.get(at + 4..at + 4 + n) {
            Some(c) => c,
            None => break,
        };
        at += 4 + n;
        events.clear();
        d.feed(chunk, &mut events);
        out.push_str("feed\n");
        out.push_str(&norm::trace(&events));
    }
    for _ in 0..2 {
        events.clear();
        d.close(&mut events);
        out.push_str("close\n");
        out.push_str(&norm::trace(&events));
    }
    out.push_str(&framing_line(d.framing()));
    out.into_bytes()
}

fn bench(payload: &[u8]) -> Vec<u8> {
    let size = u32_at(payload, 0).unwrap_or(1).max(1);
    let runs = u32_at(payload, 4).unwrap_or(0);
    let body = &payload[8.min(payload.len())..];
    let mut count = 0u64;
    let mut events = Vec::new();
    let start = std::time::Instant::now();
    for _ in 0..runs {
        let mut d = anthropic::Decoder::new("anthropic");
        for chunk in body.chunks(size) {
            events.clear();
            d.feed(chunk, &mut events);
            count += events.len() as u64;
        }
        events.clear();
        d.close(&mut events);
        count += events.len() as u64;
    }
    let ns = start.elapsed().as_nanos() as u64;
    let mut out = Vec::with_capacity(16);
    out.extend_from_slice(&ns.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'd' => decode(&payload),
        b'b' => bench(&payload),
        op => panic!("anthropic driver: unknown op {:?}", op as char),
    })
}
