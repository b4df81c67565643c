//! The native driver behind the request-builder differential tests
//! (build_rust_test.go): it serves plugins-src/internal/rustdriver frames
//! and runs the Rust port ../build.rs (crate::openairesp_build, with
//! ../replay.rs) on what the Go tests send. Its #[test]s are those of the
//! modules it includes.

#![allow(dead_code)]

#[path = "../../../../internal/jsonscan/jsonscan.rs"]
#[allow(dead_code)]
mod jsonscan;
#[path = "../../../../internal/jsonout/jsonout.rs"]
mod jsonout;
#[path = "../../norm/norm.rs"]
mod norm;
#[path = "../../norm/message.rs"]
mod norm_message;
#[path = "../../../../tools/src/printable.rs"]
#[rustfmt::skip]
mod printable;
#[path = "../../openaichat/quirks.rs"]
mod quirks;
#[path = "../../../../tools/src/quote.rs"]
mod quote;

#[path = "../../openaichat/build.rs"]
mod openaichat_build;
#[path = "../build.rs"]
mod openairesp_build;

fn main() {}
