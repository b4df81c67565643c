//! A wasm32-wasi cdylib around the Rust decoder (../decode.rs), built by
//! TestRustWasm with the plugin build's flags to prove the decoder builds
//! for the plugin target. It exports gemini_smoke, which decodes a small
//! stream and returns the number of events.

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

const BODY: &[u8] = b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}],\"modelVersion\":\"g\"}\n\n";

/// gemini_smoke decodes BODY and returns how many events it made.
#[no_mangle]
pub extern "C" fn gemini_smoke() -> u32 {
    let mut d = gemini::Decoder::new("google");
    let mut out = Vec::new();
    d.feed(BODY, &mut out);
    d.close(&mut out);
    out.len() as u32
}
