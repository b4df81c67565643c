//! A native driver for the Go fuzz targets in rust_test.go. Built with
//! `rustc --cfg tools_serve --crate-type bin src/lib.rs` (by
//! plugins-src/internal/rustdriver), it answers requests on stdin until
//! EOF. A request is an operation byte, a u32 length (little-endian) and
//! that many bytes of payload: a u32 limit, then the input.
//! 'd' decodes the input as the sample object (testkit.rs), 'b' bounds it
//! to the limit (output::bound), 't' runs the tool whose catalog index is
//! the limit (modulo 7) with the input as arguments against the echo host.
//! The answer is a u32 length and that many bytes: for 'd', 0 then the
//! path, n (i64), b (one byte) and the items, or 1 then the fault's
//! message, each string a u32 length and its bytes; for 'b', the bounded
//! text; for 't', what testkit::echo_run returns.

use crate::catalog::CATALOG;
use crate::output::bound;
use crate::testkit::{decode_sample, echo_run};
use std::io::{Read, Write};

fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s);
}

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
        if n < 4 || r.read_exact(&mut payload).is_err() {
            return;
        }
        let limit = u32::from_le_bytes([payload[0], payload[1], payload[2], payload[3]]);
        let input = payload.split_off(4);
        let mut out = Vec::new();
        match op[0] {
            b'd' => match decode_sample(&input) {
                Ok(s) => {
                    out.push(0);
                    put_str(&mut out, s.path.as_bytes());
                    out.extend_from_slice(&s.n.to_le_bytes());
                    out.push(s.b as u8);
                    out.extend_from_slice(&(s.items.len() as u32).to_le_bytes());
                    for it in &s.items {
                        put_str(&mut out, it.as_bytes());
                    }
                }
                Err(m) => {
                    out.push(1);
                    put_str(&mut out, m.as_bytes());
                }
            },
            b'b' => out = bound(input, limit as usize),
            b't' => out = echo_run(&CATALOG[limit as usize % CATALOG.len()], &input).into_bytes(),
            other => panic!("tools serve: unknown operation {:#x}", other),
        }
        let ok = w.write_all(&(out.len() as u32).to_le_bytes()).and_then(|_| w.write_all(&out)).and_then(|_| w.flush());
        if ok.is_err() {
            return;
        }
    }
}
