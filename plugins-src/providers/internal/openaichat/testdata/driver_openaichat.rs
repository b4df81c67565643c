//! The native driver behind the differential tests, FuzzRustDecoder and
//! BenchmarkDecodeRust (rust_test.go): it serves
//! plugins-src/internal/rustdriver frames and runs the Rust decoder
//! (../decode.rs) on what the Go tests send.
//!
//! Op 'd' decodes a body: the payload is the provider name (u8 length and
//! bytes) then chunks, each a u32le length and its bytes, fed in order;
//! close is called twice. The reply is the text rust_test.go's goDecode
//! writes for the Go decoder: per call a header line ("feed N", "close")
//! and norm::trace of the events that call returned, then a framing line.
//!
//! Op 'b' times decoding: the payload is the number of runs (u32le) then
//! chunks as for 'd'; each run decodes all chunks with a new decoder
//! ("openai-compatible"). The reply is the elapsed nanoseconds (u64le)
//! and the number of events (u64le) of all runs.

#![allow(dead_code)]

#[path = "../../../../internal/jsonscan/jsonscan.rs"]
mod jsonscan;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../sse/sse.rs"]
mod sse;
#[path = "../../../../tools/src/printable.rs"]
mod printable;
#[path = "../../../../tools/src/quote.rs"]
mod quote;

#[path = "../decode.rs"]
mod decode;

use norm::Decoder as _;

fn u32_at(p: &[u8], at: usize) -> Option<usize> {
    let b = p.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
}

/// chunks splits p (u32le-prefixed chunks) into its chunks.
fn chunks(mut p: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    while let Some(n) = u32_at(p, 0) {
        let end = (4 + n).min(p.len());
        out.push(&p[4..end]);
        p = &p[end..];
    }
    out
}

fn decode_body(p: &[u8]) -> Vec<u8> {
    let n = p.first().map_or(0, |&n| n as usize);
    let provider = String::from_utf8_lossy(p.get(1..1 + n).unwrap_or(&[])).into_owned();
    let mut d = decode::Decoder::new(&provider);
    let mut text = String::new();
    let mut events = Vec::new();
    for (i, chunk) in chunks(p.get(1 + n..).unwrap_or(&[])).into_iter().enumerate() {
        events.clear();
        d.feed(chunk, &mut events);
        text.push_str(&format!("feed {}\n", i));
        text.push_str(&norm::trace(&events));
    }
    for _ in 0..2 {
        events.clear();
        d.close(&mut events);
        text.push_str("close\n");
        text.push_str(&norm::trace(&events));
    }
    let f = d.framing();
    text.push_str(&format!(
        "framing LineEndings={:?} EventLines={} Events={} CommentLines={} Done={} NonSSE={}\n",
        f.line_endings, f.event_lines, f.events, f.comment_lines, f.done, f.non_sse
    ));
    text.into_bytes()
}

fn bench(p: &[u8]) -> Vec<u8> {
    let runs = u32_at(p, 0).unwrap_or(0);
    let body = chunks(p.get(4..).unwrap_or(&[]));
    let mut events = Vec::new();
    let mut count = 0u64;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        let mut d = decode::Decoder::new("openai-compatible");
        for chunk in &body {
            events.clear();
            d.feed(chunk, &mut events);
            count += events.len() as u64;
        }
        events.clear();
        d.close(&mut events);
        count += events.len() as u64;
    }
    let ns = start.elapsed().as_nanos() as u64;
    let mut out = ns.to_le_bytes().to_vec();
    out.extend_from_slice(&count.to_le_bytes());
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'd' => decode_body(&payload),
        b'b' => bench(&payload),
        op => format!("unknown op {}", op).into_bytes(),
    })
}

/// The allocation tests count the allocations of their own thread (the
/// test harness runs the included modules' tests on others).
#[cfg(test)]
mod allocs {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    struct Counting;

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            System.alloc(layout)
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            System.dealloc(ptr, layout)
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            System.realloc(ptr, layout, size)
        }
    }

    #[global_allocator]
    static ALLOC: Counting = Counting;

    fn count() -> u64 {
        COUNT.with(|c| c.get())
    }

    use crate::decode::Decoder;
    use crate::norm::Decoder as _;

    /// A warm decoder allocates one String per content event (its text)
    /// and nothing else, whatever the chunk carries besides.
    #[test]
    fn one_allocation_per_content_event() {
        let kinds: [&[u8]; 4] = [
            br#"data: {"id":"f6117a0b-129d-46fa-b239-78f01c2c5df9","object":"chat.completion.chunk","created":1764657993,"model":"deepseek-chat","system_fingerprint":"fp_eaab8d114b","choices":[{"index":0,"delta":{"content":" word"},"logprobs":null,"finish_reason":null}],"usage":null}"#,
            br#"data: {"id":"x","choices":[{"index":0,"delta":{"reasoning_content":"think \u00e9"},"finish_reason":null}]}"#,
            br#"data: {"id":"x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":"}}]}}]}"#,
            br#"data: {"id":"x","choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"t"}]},{"type":"text","text":"x"}]}}]}"#,
        ];
        let want_events = [1u64, 1, 1, 2];
        for (i, event) in kinds.iter().enumerate() {
            let mut d = Decoder::new("deepseek");
            let mut out = Vec::with_capacity(16);
            let mut chunk = event.to_vec();
            chunk.extend_from_slice(b"\n\n");
            // Warm: the first events open the blocks and grow the buffers.
            for _ in 0..8 {
                out.clear();
                d.feed(&chunk, &mut out);
            }
            let before = count();
            let mut events = 0;
            for _ in 0..100 {
                out.clear();
                d.feed(&chunk, &mut out);
                events += out.len() as u64;
            }
            let allocs = count() - before;
            assert_eq!(events, 100 * want_events[i], "events of chunk kind {}", i);
            assert_eq!(allocs, events, "allocations for {} events of chunk kind {}", events, i);
        }
    }
}
