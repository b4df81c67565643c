//! serve is the frame loop of every rustdriver driver: it reads requests
//! (op u8, length u32le, payload) from stdin and writes each answer
//! (length u32le, payload) to stdout, until stdin ends or stdout closes.
//! A driver includes it at its crate root and calls it from main:
//!
//! ```ignore
//! #[path = "…/internal/rustdriver/serve.rs"]
//! mod serve;
//!
//! fn main() {
//!     serve::serve(|op, payload| match op { b'd' => decode(&payload), _ => panic!("unknown op") })
//! }
//! ```
//!
//! A panic in `answer` ends the process with the panic on stderr, which
//! the Go side reports with the driver's last output. std only, rustc 1.63.

use std::io::{Read, Write};

/// serve answers every request with `answer(op, payload)`.
pub fn serve<F: FnMut(u8, Vec<u8>) -> Vec<u8>>(mut answer: F) {
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
        let out = answer(head[0], payload);
        let sent = w
            .write_all(&(out.len() as u32).to_le_bytes())
            .and_then(|_| w.write_all(&out))
            .and_then(|_| w.flush());
        if sent.is_err() {
            return;
        }
    }
}
