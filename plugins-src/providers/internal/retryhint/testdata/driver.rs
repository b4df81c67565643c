//! The native driver behind the retryhint Rust tests (rust_test.go): it
//! serves plugins-src/internal/rustdriver frames and runs the Rust port
//! (../retryhint.rs) on what the Go test sends.
//!
//! Op 't' reads the payload as one text: the reply is ParseFloat (ok u8,
//! f64 bits u64le, NaN as 0x7ff8000000000000), ParseDuration (ok u8,
//! i64le), the HTTP date (ok u8, internal seconds i64le, nanoseconds
//! i32le), then from_message and duration (u64le each).
//!
//! Op 'a' reads now (Unix seconds i64le, nanoseconds u32le) and headers
//! (key and value, each a u32le length and bytes, repeated): the reply is
//! after (u64le) and should_retry (0 none, 1 false, 2 true).
//!
//! Op 'f' reads a name (u32le length and bytes) and a text (the rest): the
//! reply is equal_fold(text, name) (1 or 0).
#![allow(dead_code)]

#[path = "../retryhint.rs"]
mod retryhint;


const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;

fn text(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(48);
    match retryhint::parse_float(s) {
        Some(f) if f.is_nan() => {
            out.push(1);
            out.extend_from_slice(&CANONICAL_NAN.to_le_bytes());
        }
        Some(f) => {
            out.push(1);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        None => out.extend_from_slice(&[0; 9]),
    }
    match retryhint::parse_duration(s) {
        Some(d) => {
            out.push(1);
            out.extend_from_slice(&d.to_le_bytes());
        }
        None => out.extend_from_slice(&[0; 9]),
    }
    match retryhint::parse_http_date(s) {
        Some((sec, nsec)) => {
            out.push(1);
            out.extend_from_slice(&sec.to_le_bytes());
            out.extend_from_slice(&nsec.to_le_bytes());
        }
        None => out.extend_from_slice(&[0; 13]),
    }
    out.extend_from_slice(&retryhint::from_message(s).to_le_bytes());
    out.extend_from_slice(&retryhint::duration(s).to_le_bytes());
    out
}

fn field(p: &[u8], at: &mut usize) -> Option<Vec<u8>> {
    let n = p.get(*at..*at + 4)?;
    let n = u32::from_le_bytes([n[0], n[1], n[2], n[3]]) as usize;
    let v = p.get(*at + 4..*at + 4 + n)?.to_vec();
    *at += 4 + n;
    Some(v)
}

fn after(p: &[u8]) -> Vec<u8> {
    let mut secs = [0u8; 8];
    let mut nanos = [0u8; 4];
    if p.len() >= 12 {
        secs.copy_from_slice(&p[..8]);
        nanos.copy_from_slice(&p[8..12]);
    }
    let mut headers: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let mut at = 12;
    while let (Some(k), Some(v)) = (field(p, &mut at), field(p, &mut at)) {
        headers.push((k, v));
    }
    let wait = retryhint::after(&headers, i64::from_le_bytes(secs), u32::from_le_bytes(nanos));
    let mut out = wait.to_le_bytes().to_vec();
    out.push(match retryhint::should_retry(&headers) {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    });
    out
}

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b't' => text(&payload),
        b'a' => after(&payload),
        b'f' => {
            let n = payload.get(..4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
            let name = payload.get(4..4 + n).unwrap_or(&[]);
            let text = payload.get(4 + n..).unwrap_or(&[]);
            vec![retryhint::equal_fold(text, name) as u8]
        }
        op => panic!("retryhint driver: unknown op {:?}", op as char),
    })
}
