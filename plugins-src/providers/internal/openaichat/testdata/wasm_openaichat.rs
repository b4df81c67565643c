//! A wasm32-wasi cdylib around the Rust decoder (../decode.rs) for
//! BenchmarkWasmDecodeRust (wasm_bench_test.go): the benchmark builds it
//! with tools/pluginbuild's flags, instruments it for fuel as pluginbuild
//! does, and runs it under wazero. The host writes a chunk at the address
//! `chunk(len)` returns and calls `feed(len)`, which returns how many
//! events the decoder made (they stay in the guest: the cost of lowering
//! them to the host is not part of this figure); `start` begins a new
//! stream and `close` ends it.

#![allow(dead_code)]

#[path = "../../../../internal/jsonscan/jsonscan.rs"]
mod jsonscan;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../sse/sse.rs"]
mod sse;

#[path = "../decode.rs"]
mod decode;

use norm::Decoder as _;
use std::cell::RefCell;

struct State {
    buf: Vec<u8>,
    dec: decode::Decoder,
    out: Vec<norm::Event>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        buf: Vec::new(),
        dec: decode::Decoder::new("openai-compatible"),
        out: Vec::new(),
    });
}

/// chunk returns the address of a buffer of n bytes for the next feed.
#[no_mangle]
pub extern "C" fn chunk(n: u32) -> u32 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.buf.clear();
        s.buf.resize(n as usize, 0);
        s.buf.as_mut_ptr() as u32
    })
}

/// start begins a new stream with a new decoder.
#[no_mangle]
pub extern "C" fn start() {
    STATE.with(|s| s.borrow_mut().dec = decode::Decoder::new("openai-compatible"));
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
