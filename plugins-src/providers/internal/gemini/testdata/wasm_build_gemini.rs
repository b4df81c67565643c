//! A wasm32-wasi cdylib around the Rust builder and classifier
//! (../build.rs, ../classify.rs), built by TestRustBuildWasm with the
//! plugin build's flags to prove they build for the plugin target. It
//! exports gemini_build_smoke, which builds a small request and classifies
//! an error body, and returns the body's length plus the error's status.

#![allow(dead_code)]

#[path = "../../../../internal/jsonout/jsonout.rs"]
mod jsonout;
#[path = "../../../../internal/jsonscan/jsonscan.rs"]
mod jsonscan;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../norm/message.rs"]
mod norm_message;
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
#[path = "../build.rs"]
mod gemini_build;

/// gemini_build_smoke builds a request with a tool and classifies a 429.
#[no_mangle]
pub extern "C" fn gemini_build_smoke() -> u32 {
    let r = norm_message::Request {
        model: "gemini-2.5-flash".to_owned(),
        messages: vec![norm_message::Message::User(norm_message::user_text("hi"))],
        tools: vec![norm_message::Tool {
            name: "f".to_owned(),
            description: String::new(),
            parameters: br#"{"type":"object","properties":{"a":{"type":["string","null"]}}}"#.to_vec(),
        }],
        thinking: "low".to_owned(),
        ..norm_message::Request::default()
    };
    let n = gemini_build::build_request(&r, "GEMINI_API_KEY").map_or(0, |hr| hr.body.len() as u32);
    let h: [(&[u8], &[u8]); 1] = [(b"retry-after", b"3")];
    let e = gemini::classify::classify_response(429, &h, br#"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}"#, 0, 0);
    n + e.http_status as u32
}
