//! The native driver behind the anthropic package's Rust builder and
//! classifier tests: it serves plugins-src/internal/rustdriver frames and
//! runs ../classify.rs on what the Go test sends. Built with --test it
//! runs the #[test]s of every module it includes (../build.rs's too).
//!
//! Op 'c' classifies a response: the payload is the status (i64le), now's
//! seconds (i64le) and nanoseconds (u32le), the header count (u32le), each
//! header's name and value (u32le length and bytes) and the body (the
//! rest). The reply is norm::append_error's trace of the error.
#![allow(dead_code)]

#[path = "../decode.rs"]
mod anthropic;
#[path = "../build.rs"]
mod anthropic_build;
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
#[path = "../../openaichat/quirks.rs"]
mod quirks;
#[path = "../../../../tools/src/quote.rs"]
mod quote;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../sse/sse.rs"]
mod sse;

use std::io::{Read, Write};

/// Reader takes the length-prefixed fields of a payload in order.
struct Reader<'a> {
    p: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.p.len());
        let (head, rest) = self.p.split_at(n);
        self.p = rest;
        head
    }

    fn u32(&mut self) -> usize {
        let b = self.take(4);
        let mut a = [0u8; 4];
        a[..b.len()].copy_from_slice(b);
        u32::from_le_bytes(a) as usize
    }

    fn i64(&mut self) -> i64 {
        let b = self.take(8);
        let mut a = [0u8; 8];
        a[..b.len()].copy_from_slice(b);
        i64::from_le_bytes(a)
    }

    fn bytes(&mut self) -> &'a [u8] {
        let n = self.u32();
        self.take(n)
    }
}

fn classify(payload: &[u8]) -> Vec<u8> {
    let mut r = Reader { p: payload };
    let status = r.i64();
    let secs = r.i64();
    let nanos = r.u32() as u32;
    let n = r.u32();
    let mut h: Vec<(&[u8], &[u8])> = Vec::new();
    for _ in 0..n {
        let k = r.bytes();
        let v = r.bytes();
        h.push((k, v));
    }
    let e = anthropic::classify::classify_response(status, &h, r.p, secs, nanos);
    let mut out = String::new();
    norm::append_error(&mut out, &e);
    out.into_bytes()
}

fn main() {
    let stdin = std::io::stdin();
    let mut r = stdin.lock();
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    loop {
        let mut head = [0u8; 5];
        if r.read_exact(&mut head).is_err() {
            return;
        }
        let n = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let mut payload = vec![0u8; n];
        if r.read_exact(&mut payload).is_err() {
            return;
        }
        let out = match head[0] {
            b'c' => classify(&payload),
            op => panic!("anthropic build driver: unknown op {:?}", op as char),
        };
        let sent = w
            .write_all(&(out.len() as u32).to_le_bytes())
            .and_then(|_| w.write_all(&out))
            .and_then(|_| w.flush());
        if sent.is_err() {
            return;
        }
    }
}
