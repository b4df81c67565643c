//! The native driver behind the anthropic package's Rust builder and
//! classifier tests: it serves plugins-src/internal/rustdriver frames and
//! runs ../build.rs and ../classify.rs on what the Go test sends. Built
//! with --test it runs the #[test]s of every module it includes.
//!
//! Op 'r' builds a request: the payload is the model (u32le length and
//! bytes), the secret reference (likewise) and the request document
//! (the rest), which document::parse reads. The reply is 'D' and the parse
//! error, 'E' and build_request's error, or 'O' and the request: method,
//! path, the header count (u32le) and each header's name, value and
//! secret reference, then the body, every string a u32le length and its
//! bytes.
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
#[path = "../../../src/document.rs"]
mod document;
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

fn put(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    out.extend_from_slice(b);
}

fn build(payload: &[u8]) -> Vec<u8> {
    let mut r = Reader { p: payload };
    let model = String::from_utf8_lossy(r.bytes()).into_owned();
    let secret_ref = String::from_utf8_lossy(r.bytes()).into_owned();
    let doc = match document::parse(r.p, &model) {
        Ok(d) => d,
        Err(e) => return [b"D", e.as_bytes()].concat(),
    };
    match anthropic_build::build_request(&doc.request, &secret_ref) {
        Err(e) => [b"E", e.as_bytes()].concat(),
        Ok(hr) => {
            let mut out = b"O".to_vec();
            put(&mut out, hr.method.as_bytes());
            put(&mut out, hr.path.as_bytes());
            out.extend_from_slice(&(hr.headers.len() as u32).to_le_bytes());
            for h in &hr.headers {
                put(&mut out, h.name.as_bytes());
                put(&mut out, h.value.as_bytes());
                put(&mut out, h.secret_ref.as_bytes());
            }
            put(&mut out, &hr.body);
            out
        }
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

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'r' => build(&payload),
        b'c' => classify(&payload),
        op => panic!("anthropic build driver: unknown op {:?}", op as char),
    })
}
