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
//!
//! Op 'b' builds a request: the payload is the API byte ('c' for Chat
//! Completions, 'r' for Responses), the secret reference, the Quirks and
//! the request in the driver's own binary encoding (see read_request;
//! build_rust_test.go writes it). The reply is "error " and the error
//! text, or the request: "METHOD PATH\n", a line per header ("header
//! NAME\0VALUE\0SECRET_REF\n") and "body " then the body bytes.
//!
//! Op 'd' builds a request from its request document, as the plugin
//! does: the payload is the API byte, the secret reference and the model
//! (u32le length and bytes each), then the document, which
//! crate::document reads (its quirks, when present, shape a chat
//! request). The reply is op 'b''s, or "document " and the parser's
//! error.
//!
//! Op 't' times building: the payload is the number of runs (u32le) then
//! a payload of op 'b'; the request is decoded once and built that many
//! times. The reply is the elapsed nanoseconds (u64le) and the body
//! length (u64le, 0 for an error).

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

#[path = "../../../src/document.rs"]
mod document;

#[path = "../decode.rs"]
mod openaichat;
#[path = "../build.rs"]
mod openaichat_build;
#[path = "../../openairesp/build.rs"]
mod openairesp_build;

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

impl<'a> Reader<'a> {
    fn u8(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    fn string(&mut self) -> String {
        String::from_utf8_lossy(self.bytes()).into_owned()
    }

    fn list<T, F: FnMut(&mut Reader<'a>) -> T>(&mut self, mut item: F) -> Vec<T> {
        let n = self.u32();
        let mut out = Vec::new();
        for _ in 0..n {
            if self.0.is_empty() {
                break;
            }
            out.push(item(self));
        }
        out
    }
}

fn read_quirks(r: &mut Reader) -> quirks::Quirks {
    let flags = r.u8();
    quirks::Quirks {
        developer_role: flags & 1 != 0,
        no_stream_usage: flags & 2 != 0,
        reasoning_details: flags & 4 != 0,
        usage_include: flags & 8 != 0,
        tool_result_name: flags & 16 != 0,
        no_strict: flags & 32 != 0,
        no_prompt_cache_key: flags & 64 != 0,
        max_tokens_field: r.string(),
        thinking_format: r.string(),
        echo_reasoning: r.string(),
        max_tool_call_id_len: r.i64(),
    }
}

fn read_content(r: &mut Reader) -> norm_message::Content {
    use norm_message::*;
    match r.u8() {
        0 => Content::Text(Text {
            text: r.string(),
            signature: r.bytes().to_vec(),
            producer: r.string(),
            item_id: r.string(),
            phase: r.string(),
        }),
        1 => Content::Thinking(Thinking {
            text: r.string(),
            signature: r.bytes().to_vec(),
            encrypted: r.bytes().to_vec(),
            redacted: r.u8() != 0,
            format: r.string(),
            item_id: r.string(),
            producer: r.string(),
        }),
        2 => Content::Image(Image { media_type: r.string(), data: r.bytes().to_vec() }),
        3 => Content::ToolCall(ToolCall {
            id: r.string(),
            name: r.string(),
            arguments: r.bytes().to_vec(),
            arguments_error: r.string(),
            signature: r.bytes().to_vec(),
            item_id: r.string(),
            producer: r.string(),
        }),
        _ => Content::Other(Other { type_: r.string(), raw: r.bytes().to_vec(), producer: r.string() }),
    }
}

fn read_message(r: &mut Reader) -> norm_message::Message {
    use norm_message::*;
    match r.u8() {
        0 => Message::User(UserMessage { content: r.list(read_content) }),
        1 => Message::Assistant(AssistantMessage {
            content: r.list(read_content),
            provider: r.string(),
            model: r.string(),
            response_id: r.string(),
            ..AssistantMessage::default()
        }),
        _ => Message::ToolResult(ToolResultMessage {
            call_id: r.string(),
            name: r.string(),
            content: r.list(read_content),
            is_error: r.u8() != 0,
        }),
    }
}

/// read_request reads a request: model, system, messages, tools,
/// max_tokens, thinking, thinking_budget and cache_key, in this order.
/// Strings and byte fields are a u32le length and the bytes, lists a
/// u32le count and the items, numbers i64le, booleans a byte; a message
/// or content block starts with its kind (see read_message and
/// read_content), Quirks with a byte of flags (read_quirks).
fn read_request(r: &mut Reader) -> norm_message::Request {
    use norm_message::*;
    Request {
        model: r.string(),
        system: r.string(),
        messages: r.list(read_message),
        tools: r.list(|r| Tool { name: r.string(), description: r.string(), parameters: r.bytes().to_vec() }),
        max_tokens: r.i64(),
        thinking: r.string(),
        thinking_budget: r.i64(),
        cache_key: r.string(),
    }
}

fn build(p: &[u8]) -> Vec<u8> {
    let mut r = Reader(p);
    let api = r.u8();
    let secret_ref = r.string();
    let q = read_quirks(&mut r);
    let req = read_request(&mut r);
    let built = if api == b'r' {
        openairesp_build::build_request(&req, &secret_ref)
    } else {
        openaichat_build::build_request(&req, &q, &secret_ref)
    };
    request_text(built)
}

fn build_document(p: &[u8]) -> Vec<u8> {
    let mut r = Reader(p);
    let api = r.u8();
    let secret_ref = r.string();
    let model = r.string();
    let doc = match document::parse(r.0, &model) {
        Ok(doc) => doc,
        Err(e) => return format!("document {}", e).into_bytes(),
    };
    request_text(if api == b'r' {
        openairesp_build::build_request(&doc.request, &secret_ref)
    } else {
        openaichat_build::build_request(&doc.request, &doc.quirks.unwrap_or_default(), &secret_ref)
    })
}

fn bench(p: &[u8]) -> Vec<u8> {
    let mut r = Reader(p);
    let runs = r.u32();
    let api = r.u8();
    let secret_ref = r.string();
    let q = read_quirks(&mut r);
    let req = read_request(&mut r);
    let mut len = 0u64;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        let built = if api == b'r' {
            openairesp_build::build_request(&req, &secret_ref)
        } else {
            openaichat_build::build_request(&req, &q, &secret_ref)
        };
        len = built.map_or(0, |h| h.body.len() as u64);
    }
    let ns = start.elapsed().as_nanos() as u64;
    let mut out = ns.to_le_bytes().to_vec();
    out.extend_from_slice(&len.to_le_bytes());
    out
}

/// request_text writes a built request or its error as op 'b' replies.
fn request_text(built: Result<norm_message::HttpRequest, String>) -> Vec<u8> {
    let h = match built {
        Ok(h) => h,
        Err(e) => return format!("error {}", e).into_bytes(),
    };
    let mut out = format!("{} {}\n", h.method, h.path).into_bytes();
    for hd in &h.headers {
        out.extend_from_slice(format!("header {}\0{}\0{}\n", hd.name, hd.value, hd.secret_ref).as_bytes());
    }
    out.extend_from_slice(b"body ");
    out.extend_from_slice(&h.body);
    out
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

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

fn main() {
    serve::serve(|op, payload| match op {
        b'b' => build(&payload),
        b'c' => classify(&payload),
        b'd' => build_document(&payload),
        b't' => bench(&payload),
        op => format!("unknown op {}", op).into_bytes(),
    })
}
