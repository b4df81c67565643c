//! The native driver behind FuzzRustFramer and BenchmarkRustFramer: it
//! serves plugins-src/internal/rustdriver frames and runs the Rust framer
//! (../sse.rs) on what the Go test sends.
//!
//! Op 'f' frames a body: the payload is chunks, each a u32le length and
//! its bytes, fed in order, then close is called twice. The reply is the
//! trace: per item 'I', kind, done, name and data (u32le length and bytes);
//! after every feed 'S' and the stats; after each close 'C' and the stats.
//! Stats are the line-ending name (u8 length and bytes), event_lines,
//! events (u64le), comment_lines (u64le), done, non_sse, bytes (u64le).
//!
//! Op 'b' times framing: the payload is the chunk size (u32le), the
//! number of runs (u32le) and the body; each run frames the whole body
//! with a new framer. The reply is the elapsed nanoseconds (u64le) and
//! the number of items and data bytes seen (u64le each).
#![allow(dead_code)]

#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../sse.rs"]
mod sse;


fn put_u32(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

fn put_stats(out: &mut Vec<u8>, tag: u8, s: sse::Stats) {
    out.push(tag);
    let e = s.line_endings.as_str().as_bytes();
    out.push(e.len() as u8);
    out.extend_from_slice(e);
    out.push(s.event_lines as u8);
    out.extend_from_slice(&s.events.to_le_bytes());
    out.extend_from_slice(&s.comment_lines.to_le_bytes());
    out.push(s.done as u8);
    out.push(s.non_sse as u8);
    out.extend_from_slice(&s.bytes.to_le_bytes());
}

fn put_item(out: &mut Vec<u8>, it: sse::Item) {
    out.push(b'I');
    out.push(match it.kind {
        sse::Kind::Event => 0,
        sse::Kind::Text => 1,
    });
    out.push(it.done as u8);
    put_u32(out, it.name.len());
    out.extend_from_slice(it.name);
    put_u32(out, it.data.len());
    out.extend_from_slice(it.data);
}

fn u32_at(p: &[u8], at: usize) -> Option<usize> {
    let b = p.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

fn frame(payload: &[u8]) -> Vec<u8> {
    let mut f = sse::Framer::default();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(n) = u32_at(payload, at) {
        let chunk = match payload.get(at + 4..at + 4 + n) {
            Some(c) => c,
            None => break,
        };
        at += 4 + n;
        f.feed(chunk, |it| put_item(&mut out, it));
        put_stats(&mut out, b'S', f.stats());
    }
    for _ in 0..2 {
        f.close(|it| put_item(&mut out, it));
        put_stats(&mut out, b'C', f.stats());
    }
    out
}

fn bench(payload: &[u8]) -> Vec<u8> {
    let size = u32_at(payload, 0).unwrap_or(1).max(1);
    let runs = u32_at(payload, 4).unwrap_or(0);
    let body = &payload[8.min(payload.len())..];
    let (mut items, mut bytes) = (0u64, 0u64);
    let start = std::time::Instant::now();
    for _ in 0..runs {
        let mut f = sse::Framer::default();
        let mut emit = |it: sse::Item| {
            items += 1;
            bytes += it.data.len() as u64;
        };
        for chunk in body.chunks(size) {
            f.feed(chunk, &mut emit);
        }
        f.close(&mut emit);
    }
    let ns = start.elapsed().as_nanos() as u64;
    let mut out = Vec::with_capacity(24);
    out.extend_from_slice(&ns.to_le_bytes());
    out.extend_from_slice(&items.to_le_bytes());
    out.extend_from_slice(&bytes.to_le_bytes());
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'f' => frame(&payload),
        b'b' => bench(&payload),
        op => panic!("sse driver: unknown op {:?}", op as char),
    })
}
