//! A wasm32-wasi cdylib around the Rust decoder (../decode.rs), built by
//! TestRustWasm with the plugin build's flags to prove the decoder builds
//! for the plugin target. It exports anthropic_smoke, which decodes a
//! small stream and returns the number of events.

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
