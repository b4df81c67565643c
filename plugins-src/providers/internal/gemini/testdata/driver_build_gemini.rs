//! The native driver behind the gemini package's Rust builder and
//! classifier tests: it serves plugins-src/internal/rustdriver frames and
//! runs ../build.rs (gemini_build) and ../classify.rs on what the Go tests
//! send. Built with --test it runs the #[test]s of the modules it includes.
//!
//! Op 'c' classifies a failed response. The payload is the status (i64le),
//! now as Unix seconds (i64le) and nanoseconds (u32le), the number of
//! headers (u32le), each header's name and value (each a u32le length and
//! its bytes), then the body. The reply is norm::append_error's trace of
//! the classified error.
//!
//! Op 'b' builds a request. The payload is the secret reference and the
//! model (each a u32le length and its bytes), then the request document
//! (what normtrace.Document writes), which document::parse reads; a
//! document it refuses is replied to with "document " and its error.
//!
//! Op 's' builds a request whose only interesting part is a tool schema:
//! the payload is the parameters of tool "f" (description "d") in a
//! request for gemini-2.5-flash with no messages and secret reference
//! "GEMINI_API_KEY". The reply is that of op 'b'.
//!
//! Op 'a' builds a request whose only interesting part is a tool call's
//! arguments, which the document cannot always carry: the payload is a
//! flag byte (1: the call has an arguments_error) and the arguments. The
//! request for gemini-2.5-flash holds a user message "q" and an assistant
//! message with the call (id "c", name "f", signature "s"). The reply is
//! that of op 'b'.
//!
//! Op 't' times the builder: the payload is the number of runs (u32le),
//! then what op 'b' takes. The document is parsed once; the reply is the
//! nanoseconds the runs' builds took (u64le) and the last body's length
//! (u64le, 0 after an error).
//!
//! Replies of the builder ops are "error " and the builder's error text,
//! or the request:
//!
//!     "POST" "/v1beta/models/…"
//!     header "content-type" "application/json" ""
//!     …
//!     body <the body bytes>
//!
//! with the strings quoted as Go's %q quotes them.
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
#[path = "../../openaichat/quirks.rs"]
mod quirks;
#[path = "../../retryhint/retryhint.rs"]
mod retryhint;
#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;
#[path = "../../sse/sse.rs"]
mod sse;
#[path = "../decode.rs"]
mod gemini;
#[path = "../build.rs"]
mod gemini_build;
#[path = "../../../src/document.rs"]
mod document;

/// Reader takes the fields of a payload in order.
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

fn classify(payload: &[u8]) -> Vec<u8> {
    let mut r = Reader { p: payload };
    let status = r.i64();
    let secs = r.i64();
    let nanos = r.u32();
    let n = r.u32();
    let mut headers = Vec::new();
    for _ in 0..n {
        let name = r.bytes();
        let value = r.bytes();
        headers.push((name, value));
    }
    let e = gemini::classify::classify_response(status, &headers, r.p, secs, nanos);
    let mut out = String::new();
    norm::append_error(&mut out, &e);
    out.into_bytes()
}

/// reply writes a builder's result as the Go test writes Go's.
fn reply(r: Result<norm_message::HttpRequest, String>) -> Vec<u8> {
    let hr = match r {
        Ok(hr) => hr,
        Err(e) => return format!("error {}", e).into_bytes(),
    };
    let mut out = String::new();
    quote::quote(&mut out, hr.method.as_bytes());
    out.push(' ');
    quote::quote(&mut out, hr.path.as_bytes());
    out.push('\n');
    for h in &hr.headers {
        out.push_str("header ");
        quote::quote(&mut out, h.name.as_bytes());
        out.push(' ');
        quote::quote(&mut out, h.value.as_bytes());
        out.push(' ');
        quote::quote(&mut out, h.secret_ref.as_bytes());
        out.push('\n');
    }
    out.push_str("body ");
    let mut out = out.into_bytes();
    out.extend_from_slice(&hr.body);
    out
}

fn build(payload: &[u8]) -> Vec<u8> {
    let mut r = Reader { p: payload };
    let secret_ref = String::from_utf8_lossy(r.bytes()).into_owned();
    let model = String::from_utf8_lossy(r.bytes()).into_owned();
    match document::parse(r.p, &model) {
        Ok(doc) => reply(gemini_build::build_request(&doc.request, &secret_ref)),
        Err(e) => format!("document {}", e).into_bytes(),
    }
}

fn time(payload: &[u8]) -> Vec<u8> {
    let mut r = Reader { p: payload };
    let runs = r.u32();
    let secret_ref = String::from_utf8_lossy(r.bytes()).into_owned();
    let model = String::from_utf8_lossy(r.bytes()).into_owned();
    let doc = match document::parse(r.p, &model) {
        Ok(doc) => doc,
        Err(_) => return vec![0; 16],
    };
    let start = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..runs {
        n = gemini_build::build_request(&doc.request, &secret_ref).map_or(0, |hr| hr.body.len());
    }
    let mut out = (start.elapsed().as_nanos() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&(n as u64).to_le_bytes());
    out
}

fn schema(payload: &[u8]) -> Vec<u8> {
    let r = norm_message::Request {
        model: "gemini-2.5-flash".to_owned(),
        tools: vec![norm_message::Tool { name: "f".to_owned(), description: "d".to_owned(), parameters: payload.to_vec() }],
        ..norm_message::Request::default()
    };
    reply(gemini_build::build_request(&r, "GEMINI_API_KEY"))
}

fn arguments(payload: &[u8]) -> Vec<u8> {
    let (flag, args) = payload.split_first().map_or((0, &[][..]), |(f, a)| (*f, a));
    let call = norm_message::ToolCall {
        id: "c".to_owned(),
        name: "f".to_owned(),
        arguments: args.to_vec(),
        arguments_error: if flag == 1 { "not JSON".to_owned() } else { String::new() },
        signature: b"s".to_vec(),
        ..norm_message::ToolCall::default()
    };
    let r = norm_message::Request {
        model: "gemini-2.5-flash".to_owned(),
        messages: vec![
            norm_message::Message::User(norm_message::user_text("q")),
            norm_message::Message::Assistant(norm_message::AssistantMessage {
                content: vec![norm_message::Content::ToolCall(call)],
                ..norm_message::AssistantMessage::default()
            }),
        ],
        ..norm_message::Request::default()
    };
    reply(gemini_build::build_request(&r, "GEMINI_API_KEY"))
}

fn main() {
    serve::serve(|op, payload| match op {
        b'a' => arguments(&payload),
        b'b' => build(&payload),
        b'c' => classify(&payload),
        b's' => schema(&payload),
        b't' => time(&payload),
        _ => panic!("unknown op {:?}", op as char),
    })
}
