//! The native driver behind the request-builder and failure-classifier
//! differential tests (build_rust_test.go, classify_rust_test.go): it
//! serves plugins-src/internal/rustdriver frames and runs the Rust ports
//! ../build.rs (crate::openaichat_build) and ../response.rs
//! (crate::openaichat::response) on what the Go tests send. Its
//! #[test]s are those of the modules it includes.
//!
//! Op 'c' classifies a failed response: the payload is the status
//! (i64le), the time now (Unix seconds i64le, nanoseconds u32le), the
//! number of headers (u32le), each header's name and value (u32le length
//! and bytes each), then the body. The reply is norm::append_error of the
//! classified error.

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
#[rustfmt::skip]
mod printable;
#[path = "../quirks.rs"]
mod quirks;
#[path = "../../../../tools/src/quote.rs"]
mod quote;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../sse/sse.rs"]
mod sse;

#[path = "../decode.rs"]
mod openaichat;
#[path = "../build.rs"]
mod openaichat_build;

use std::io::{Read, Write};

/// Reader takes the fields of a payload from its front; a short payload
/// reads as zeros and empty fields.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }

    fn u32(&mut self) -> u32 {
        let b = self.take(4);
        let mut a = [0u8; 4];
        a[..b.len()].copy_from_slice(b);
        u32::from_le_bytes(a)
    }

    fn i64(&mut self) -> i64 {
        let b = self.take(8);
        let mut a = [0u8; 8];
        a[..b.len()].copy_from_slice(b);
        i64::from_le_bytes(a)
    }

    fn bytes(&mut self) -> &'a [u8] {
        let n = self.u32() as usize;
        self.take(n)
    }
}

fn classify(p: &[u8]) -> Vec<u8> {
    let mut r = Reader(p);
    let status = r.i64();
    let (secs, nanos) = (r.i64(), r.u32());
    let n = r.u32();
    let mut h: Vec<(&[u8], &[u8])> = Vec::new();
    for _ in 0..n {
        let name = r.bytes();
        h.push((name, r.bytes()));
    }
    let e = openaichat::response::classify_response(status, &h, r.0, secs, nanos);
    let mut text = String::new();
    norm::append_error(&mut text, &e);
    text.into_bytes()
}

fn main() {
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut head = [0u8; 5];
    while stdin.read_exact(&mut head).is_ok() {
        let n = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let mut payload = vec![0u8; n];
        if stdin.read_exact(&mut payload).is_err() {
            return;
        }
        let reply = match head[0] {
            b'c' => classify(&payload),
            op => format!("unknown op {}", op).into_bytes(),
        };
        let ok = stdout.write_all(&(reply.len() as u32).to_le_bytes()).is_ok()
            && stdout.write_all(&reply).is_ok()
            && stdout.flush().is_ok();
        if !ok {
            return;
        }
    }
}
