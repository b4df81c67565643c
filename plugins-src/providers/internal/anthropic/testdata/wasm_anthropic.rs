//! A wasm32-wasi cdylib around the Rust decoder (../decode.rs), built by
//! TestRustWasm with the plugin build's flags to prove the decoder builds
//! for the plugin target, and by BenchmarkWasmStages to time it. It
//! exports anthropic_smoke, which decodes a small stream and returns the
//! number of events, and the benchmark's functions (below).

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

const BODY: &[u8] = b"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"c\",\"usage\":{\"input_tokens\":1}}}\n\n\
event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n\
event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

/// anthropic_smoke decodes BODY and returns how many events it made.
#[no_mangle]
pub extern "C" fn anthropic_smoke() -> u32 {
    let mut d = anthropic::Decoder::new("anthropic");
    let mut out = Vec::new();
    d.feed(BODY, &mut out);
    d.close(&mut out);
    out.len() as u32
}

// The exports below serve BenchmarkWasmStages (wasm_bench_test.go): the
// host writes a chunk at the address `anthropic_chunk(len)` returned
// (asking again only for a longer chunk: the buffer stays) and calls
// `anthropic_feed(len)`, which returns how many events the decoder made
// (they stay in the guest: lowering them to the host is not part of the
// figure); `anthropic_start` begins a new stream and `anthropic_close`
// ends it. `anthropic_frame(len)` runs the SSE framer alone on the chunk
// buffer and `anthropic_read(len)` the framer and the decoder's reading
// of each event (the fast reader, the general one where it gives up),
// making no event; both return how many items the framer dispatched.

use std::cell::RefCell;

struct State {
    buf: Vec<u8>,
    dec: anthropic::Decoder,
    out: Vec<norm::Event>,
    framer: sse::Framer,
    prefix: anthropic::fastread::Prefix,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        buf: Vec::new(),
        dec: anthropic::Decoder::new("anthropic"),
        out: Vec::new(),
        framer: sse::Framer::default(),
        prefix: anthropic::fastread::Prefix::default(),
    });
}

/// anthropic_chunk returns the address of a buffer of n bytes for the next
/// feed.
#[no_mangle]
pub extern "C" fn anthropic_chunk(n: u32) -> u32 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.buf.len() < n as usize {
            s.buf.resize(n as usize, 0);
        }
        s.buf.as_mut_ptr() as u32
    })
}

/// anthropic_start begins a new stream with a new decoder and framer.
#[no_mangle]
pub extern "C" fn anthropic_start() {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.dec = anthropic::Decoder::new("anthropic");
        s.framer = sse::Framer::default();
        s.prefix = anthropic::fastread::Prefix::default();
    });
}

/// anthropic_feed decodes the first n bytes of the chunk buffer and returns
/// how many events that made.
#[no_mangle]
pub extern "C" fn anthropic_feed(n: u32) -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        s.out.clear();
        s.dec.feed(&s.buf[..n as usize], &mut s.out);
        s.out.len() as u32
    })
}

/// anthropic_close ends the stream and returns how many events that made.
#[no_mangle]
pub extern "C" fn anthropic_close() -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        s.out.clear();
        s.dec.close(&mut s.out);
        s.out.len() as u32
    })
}

/// anthropic_frame runs only the SSE framer on the first n bytes of the
/// chunk buffer and returns how many items it reported.
#[no_mangle]
pub extern "C" fn anthropic_frame(n: u32) -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let mut items = 0;
        s.framer.feed(&s.buf[..n as usize], |_| items += 1);
        items
    })
}

/// anthropic_read runs the SSE framer on the first n bytes of the chunk
/// buffer and reads each event's data as the decoder does, making no
/// event; it returns how many items read without error.
#[no_mangle]
pub extern "C" fn anthropic_read(n: u32) -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let mut items = 0;
        let prefix = &mut s.prefix;
        s.framer.feed(&s.buf[..n as usize], |it| {
            let mut ev = anthropic::wire::Event::default();
            if anthropic::fastread::read(&mut ev, it.data, prefix).is_some() || anthropic::wire::Event::read(it.data).is_ok() {
                items += 1;
            }
        });
        items
    })
}
