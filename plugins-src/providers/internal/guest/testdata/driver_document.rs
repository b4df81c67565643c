//! The native driver behind guest's TestRustDocument and FuzzRustDocument:
//! it serves plugins-src/internal/rustdriver frames and runs the Rust
//! request document (providers/src/document.rs) on what the Go test
//! sends, under the plugin crate's module names.
//!
//! Op 'd' parses a document. The payload is the model (a u32le length and
//! its bytes) and then the document. The reply is "ERR " and the error,
//! or document_trace of the document.
//!
//! Op 't' times parse: the payload is a u32le count and a document, which
//! is parsed count times; the reply is the elapsed nanoseconds (u64le).
#![allow(dead_code)]

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

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
#[path = "../../../src/document.rs"]
mod document;

/// document_trace writes what the Go test's documentTrace writes: the
/// request's trace, then a "Doc" line with the base URLs, an "Env" line
/// per variable (in key order), and a "Quirks" line (nil, or the fields
/// in Go declaration order).
fn document_trace(d: &document::Document) -> String {
    let mut b = document::trace_request(&d.request);
    let s = |b: &mut String, name: &str, v: &str| {
        b.push(' ');
        b.push_str(name);
        b.push('=');
        norm::quote_ascii(b, v.as_bytes());
    };
    let f = |b: &mut String, name: &str, v: bool| {
        b.push(' ');
        b.push_str(name);
        b.push('=');
        b.push_str(if v { "true" } else { "false" });
    };
    b.push_str("Doc");
    s(&mut b, "BaseURL", &d.base_url);
    s(&mut b, "BaseURLFlag", &d.base_url_flag);
    b.push('\n');
    for (k, v) in &d.environment {
        b.push_str("Env");
        s(&mut b, "Name", k);
        s(&mut b, "Value", v);
        b.push('\n');
    }
    match &d.quirks {
        None => b.push_str("Quirks nil\n"),
        Some(q) => {
            b.push_str("Quirks");
            f(&mut b, "DeveloperRole", q.developer_role);
            s(&mut b, "MaxTokensField", &q.max_tokens_field);
            f(&mut b, "NoStreamUsage", q.no_stream_usage);
            s(&mut b, "ThinkingFormat", &q.thinking_format);
            s(&mut b, "EchoReasoning", &q.echo_reasoning);
            f(&mut b, "ReasoningDetails", q.reasoning_details);
            f(&mut b, "UsageInclude", q.usage_include);
            f(&mut b, "ToolResultName", q.tool_result_name);
            f(&mut b, "NoStrict", q.no_strict);
            f(&mut b, "NoPromptCacheKey", q.no_prompt_cache_key);
            b.push_str(" MaxToolCallIDLen=");
            b.push_str(&q.max_tool_call_id_len.to_string());
            b.push('\n');
        }
    }
    b
}

fn parse_op(p: &[u8]) -> Vec<u8> {
    let n = match p.get(..4) {
        Some(h) => u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize,
        None => return b"malformed".to_vec(),
    };
    let model = match p.get(4..4 + n).map(std::str::from_utf8) {
        Some(Ok(m)) => m,
        _ => return b"malformed".to_vec(),
    };
    match document::parse(&p[4 + n..], model) {
        Ok(d) => document_trace(&d).into_bytes(),
        Err(e) => format!("ERR {}", e).into_bytes(),
    }
}

fn time_op(p: &[u8]) -> Vec<u8> {
    let n = match p.get(..4) {
        Some(h) => u32::from_le_bytes([h[0], h[1], h[2], h[3]]),
        None => return b"malformed".to_vec(),
    };
    let doc = &p[4..];
    let start = std::time::Instant::now();
    let mut messages = 0;
    for _ in 0..n {
        if let Ok(d) = document::parse(doc, "m") {
            messages += d.request.messages.len();
        }
    }
    let ns = start.elapsed().as_nanos() as u64;
    assert!(n == 0 || messages > 0, "the timed document does not parse");
    ns.to_le_bytes().to_vec()
}

fn main() {
    serve::serve(|op, payload| match op {
        b'd' => parse_op(&payload),
        b't' => time_op(&payload),
        op => panic!("document driver: unknown op {:?}", op as char),
    })
}
