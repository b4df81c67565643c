//! A wasm32-wasi cdylib around the Rust decoder (../decode.rs) for
//! BenchmarkWasmDecodeRust and BenchmarkWasmStages (wasm_bench_test.go):
//! the benchmarks build it with tools/pluginbuild's flags, instrument it
//! for fuel as pluginbuild does, and run it under wazero. The host writes
//! a chunk at the address `chunk(len)` returned (asking again only for a
//! longer chunk: the buffer stays) and calls `feed(len)`, which returns
//! how many events the decoder made (they stay in the guest: the cost of
//! lowering them to the host is not part of this figure); `start` begins
//! a new stream and `close` ends it.
//!
//! `frame(len)` and `scan(len)` run the first stages of `feed` alone on
//! the same chunk buffer: the SSE framer, and the framer with a
//! validating JSON scan of each event's data (what any decoder must do
//! before it looks at a field). They return how many events the framer
//! dispatched.

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
use std::cell::RefCell;

struct State {
    buf: Vec<u8>,
    dec: decode::Decoder,
    out: Vec<norm::Event>,
    framer: sse::Framer,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        buf: Vec::new(),
        dec: decode::Decoder::new("openai"),
        out: Vec::new(),
        framer: sse::Framer::default(),
    });
}

/// chunk returns the address of a buffer of n bytes for the next feed.
/// The buffer only grows (zeroing n bytes per chunk would be a cost of
/// this harness, not of the decoder).
#[no_mangle]
pub extern "C" fn chunk(n: u32) -> u32 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.buf.len() < n as usize {
            s.buf.resize(n as usize, 0);
        }
        s.buf.as_mut_ptr() as u32
    })
}

/// start begins a new stream with a new decoder and framer.
#[no_mangle]
pub extern "C" fn start() {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.dec = decode::Decoder::new("openai");
        s.framer = sse::Framer::default();
    });
}

/// feed decodes the first n bytes of the chunk buffer and returns how many
/// events that made.
#[no_mangle]
pub extern "C" fn feed(n: u32) -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        s.out.clear();
        s.dec.feed(&s.buf[..n as usize], &mut s.out);
        s.out.len() as u32
    })
}

/// close ends the stream and returns how many events that made.
#[no_mangle]
pub extern "C" fn close() -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        s.out.clear();
        s.dec.close(&mut s.out);
        s.out.len() as u32
    })
}

/// frame runs only the SSE framer on the first n bytes of the chunk buffer
/// and returns how many items it reported.
#[no_mangle]
pub extern "C" fn frame(n: u32) -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let mut items = 0;
        s.framer.feed(&s.buf[..n as usize], |_| items += 1);
        items
    })
}

/// scan runs the SSE framer on the first n bytes of the chunk buffer and
/// validates each event's data as JSON, skipping it; it returns how many
/// items the framer reported that scanned as JSON.
#[no_mangle]
pub extern "C" fn scan(n: u32) -> u32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let mut items = 0;
        s.framer.feed(&s.buf[..n as usize], |it| {
            let mut d = jsonscan::Decoder::new(it.data);
            d.skip();
            if d.finish().is_ok() {
                items += 1;
            }
        });
        items
    })
}
