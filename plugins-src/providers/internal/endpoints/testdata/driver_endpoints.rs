//! The native driver behind endpoints' TestRustTable, TestRustResolve and
//! FuzzRustResolve: it serves plugins-src/internal/rustdriver frames and
//! runs the Rust port (../endpoints.rs) on what the Go test sends, under
//! the plugin crate's module names.
//!
//! Op 'n' dumps the table: for each of names(), its lookup as endpoint_line
//! writes it. Op 'l' looks up the payload's name: endpoint_line, or "ERR "
//! and the error. Op 'r' resolves: the payload is the endpoint's name,
//! then provider, base_url, base_url_env (each replacing the looked-up
//! endpoint's field when the name is unknown), config, env and flag, each
//! a u32le length and its bytes; the reply is "URL SOURCE", or "ERR " and
//! the error.
#![allow(dead_code)]

#[path = "../../../../internal/rustdriver/serve.rs"]
mod serve;

#[path = "../../../../tools/src/printable.rs"]
mod printable;
#[path = "../../openaichat/quirks.rs"]
mod quirks;
#[path = "../../../../tools/src/quote.rs"]
mod quote;
#[path = "../endpoints.rs"]
mod endpoints;

/// endpoint_line writes an endpoint as the Go test's endpointLine does:
/// every field " Name=value" with strings in Go's %q, KeyEnv a list.
fn endpoint_line(name: &str, e: &endpoints::Endpoint) -> String {
    let mut b = String::from("Endpoint");
    let s = |b: &mut String, n: &str, v: &str| {
        b.push(' ');
        b.push_str(n);
        b.push('=');
        quote::quote(b, v.as_bytes());
    };
    let f = |b: &mut String, n: &str, v: bool| {
        b.push(' ');
        b.push_str(n);
        b.push('=');
        b.push_str(if v { "true" } else { "false" });
    };
    s(&mut b, "Name", name);
    s(&mut b, "Provider", e.provider);
    s(&mut b, "API", e.api);
    s(&mut b, "BaseURL", e.base_url);
    s(&mut b, "BaseURLEnv", e.base_url_env);
    b.push_str(" KeyEnv=[");
    for (i, k) in e.key_env.iter().enumerate() {
        if i > 0 {
            b.push(' ');
        }
        quote::quote(&mut b, k.as_bytes());
    }
    b.push(']');
    let q = &e.quirks;
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
    b.push_str(&format!(" MaxToolCallIDLen={}", q.max_tool_call_id_len));
    s(&mut b, "IDStyle", e.id_style);
    b.push('\n');
    b
}

fn strings(p: &[u8], n: usize) -> Option<Vec<String>> {
    let mut out = Vec::with_capacity(n);
    let mut p = p;
    for _ in 0..n {
        let h = p.get(..4)?;
        let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
        out.push(String::from_utf8(p.get(4..4 + len)?.to_vec()).ok()?);
        p = &p[4 + len..];
    }
    Some(out)
}

/// leak gives a test string the 'static lifetime an Endpoint's fields
/// have (a few bytes per fuzz input).
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn resolve_op(p: &[u8]) -> Option<Vec<u8>> {
    let v = strings(p, 7)?;
    let e = match endpoints::lookup(&v[0]) {
        Ok(e) => e,
        Err(_) => endpoints::Endpoint {
            provider: leak(&v[1]),
            api: "openai-chat",
            base_url: leak(&v[2]),
            base_url_env: leak(&v[3]),
            key_env: &[],
            quirks: quirks::Quirks::default(),
            id_style: "",
        },
    };
    Some(match endpoints::resolve_base_url(&e, &v[4], &v[5], &v[6]) {
        Ok((url, src)) => format!("{} {}", url, src).into_bytes(),
        Err(m) => format!("ERR {}", m).into_bytes(),
    })
}

fn main() {
    serve::serve(|op, payload| match op {
        b'n' => endpoints::names()
            .iter()
            .map(|n| endpoints::lookup(n).map(|e| endpoint_line(n, &e)).unwrap_or_else(|m| format!("ERR {}\n", m)))
            .collect::<String>()
            .into_bytes(),
        b'l' => {
            let name = String::from_utf8_lossy(&payload);
            match endpoints::lookup(&name) {
                Ok(e) => endpoint_line(&name, &e).into_bytes(),
                Err(m) => format!("ERR {}", m).into_bytes(),
            }
        }
        b'r' => resolve_op(&payload).unwrap_or_else(|| b"malformed".to_vec()),
        op => panic!("endpoints driver: unknown op {:?}", op as char),
    })
}
