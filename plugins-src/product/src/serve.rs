//! A native driver for the Go fuzz target in fuzz_test.go. Built with
//! `rustc --cfg product_serve --crate-type bin src/lib.rs` (by
//! plugins-src/internal/rustdriver), it answers requests on stdin until
//! EOF. A request is an operation byte, a u32 length (little-endian) and
//! that many bytes of payload; 'a' reads the payload as a command's
//! arguments object (json::arguments). The answer is a u32 length and that
//! many bytes: 0 then the arguments text, or 1 then the failure.

use crate::json::arguments;
use std::io::{Read, Write};

fn read_u32(r: &mut impl Read) -> Option<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b).ok()?;
    Some(u32::from_le_bytes(b))
}

/// run serves requests until stdin ends.
pub(crate) fn run() {
    let stdin = std::io::stdin();
    let mut r = stdin.lock();
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    loop {
        let mut op = [0u8; 1];
        if r.read_exact(&mut op).is_err() {
            return;
        }
        let n = match read_u32(&mut r) {
            Some(n) => n as usize,
            None => return,
        };
        let mut payload = vec![0u8; n];
        if r.read_exact(&mut payload).is_err() {
            return;
        }
        let mut out = Vec::new();
        match (op[0], arguments(&payload)) {
            (b'a', Ok(text)) => {
                out.push(0);
                out.extend_from_slice(text.as_bytes());
            }
            (b'a', Err(e)) => {
                out.push(1);
                out.extend_from_slice(e.as_bytes());
            }
            _ => {
                out.push(1);
                out.extend_from_slice(b"unknown operation");
            }
        }
        if w.write_all(&(out.len() as u32).to_le_bytes()).is_err() || w.write_all(&out).is_err() || w.flush().is_err() {
            return;
        }
    }
}
