//! A wasm32-wasi cdylib around the Rust decoder (../decode.rs), built by
//! TestRustWasm to prove the decoder builds for the plugin target. It
//! exports openairesp_smoke, which decodes a small stream and returns
//! the number of events.

#[path = "../decode.rs"]
mod decode;
#[path = "../../../../internal/jsonscan/jsonscan.rs"]
#[allow(dead_code)]
mod jsonscan;
#[path = "../../norm/norm.rs"]
#[allow(dead_code)]
mod norm;
#[path = "../../../../tools/src/printable.rs"]
mod printable;
#[path = "../../../../tools/src/quote.rs"]
#[allow(dead_code)]
mod quote;
#[path = "../../retryhint/retryhint.rs"]
#[allow(dead_code)]
mod retryhint;
#[path = "../../sse/sse.rs"]
#[allow(dead_code)]
mod sse;

use norm::Decoder as _;

const BODY: &[u8] = b"data: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"delta\":\"hi\"}\n\n\
data: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\"}}\n\n";

/// openairesp_smoke decodes BODY and returns how many events it made.
#[no_mangle]
pub extern "C" fn openairesp_smoke() -> u32 {
    let mut d = decode::Decoder::new("openai");
    let mut out = Vec::new();
    d.feed(BODY, &mut out);
    d.close(&mut out);
    out.len() as u32
}
