//! build is the streaming Chat Completions request builder: the body is
//! an [`anyjson`] object (keys in byte order) shaped by the server's
//! [`Quirks`].

use super::anyjson;

use self::anyjson::{marshal, str, Object, Value};
use crate::norm::message::{
    AssistantMessage, Content, Header, HttpRequest, Image, Message, Request, THINKING_DEFAULT, THINKING_OFF,
};
use crate::openai_chat::quirks::Quirks;

/// build_request returns the streaming Chat Completions request for r,
/// shaped by q. Authorization is "Bearer " + the credential named by
/// secret_ref; servers without a key get no Authorization header
/// (secret_ref ""). It fails, with a message starting "openaichat: ", on
/// an image in an assistant message, an unknown thinking_format, or a
/// tool's parameters that are not one JSON value.
pub fn build_request(r: &Request, q: &Quirks, secret_ref: &str) -> Result<HttpRequest, String> {
    let mut body = Object::new().with("model", str(&r.model)).with("stream", Value::Bool(true));
    if !q.no_stream_usage {
        body.set("stream_options", Object::new().with("include_usage", Value::Bool(true)).into());
    }
    let mut msgs = Vec::with_capacity(r.messages.len() + 1);
    if !r.system.is_empty() {
        let role = if q.developer_role { "developer" } else { "system" };
        msgs.push(Object::new().with("role", str(role)).with("content", str(&r.system)).into());
    }
    messages(&mut msgs, &r.messages, q)?;
    // No messages at all is null.
    body.set("messages", if msgs.is_empty() { Value::Null } else { Value::Array(msgs) });
    if !r.tools.is_empty() {
        let tools = r
            .tools
            .iter()
            .map(|t| {
                let mut f = Object::new()
                    .with("name", str(&t.name))
                    .with("description", str(&t.description))
                    .with("parameters", Value::Raw(&t.parameters));
                if !q.no_strict {
                    f.set("strict", Value::Bool(false));
                }
                Object::new().with("type", str("function")).with("function", f.into()).into()
            })
            .collect();
        body.set("tools", Value::Array(tools));
        body.set("tool_choice", str("auto"));
    }
    if r.max_tokens > 0 {
        let field = if q.max_tokens_field.is_empty() { "max_completion_tokens" } else { &q.max_tokens_field };
        body.set(field, Value::Int(r.max_tokens));
    }
    thinking(&mut body, &r.thinking, q)?;
    if q.usage_include {
        body.set("usage", Object::new().with("include", Value::Bool(true)).into());
    }
    if !r.cache_key.is_empty() && !q.no_prompt_cache_key {
        body.set("prompt_cache_key", str(&r.cache_key));
    }
    let b = marshal(&body.into()).map_err(|e| format!("openaichat: encode request body: {}", e))?;
    let mut h = Vec::with_capacity(3);
    h.push(Header::new("content-type", "application/json", ""));
    h.push(Header::new("accept", "text/event-stream", ""));
    if !secret_ref.is_empty() {
        h.push(Header::new("authorization", "Bearer ", secret_ref));
    }
    Ok(HttpRequest { method: "POST".to_string(), path: "/chat/completions".to_string(), headers: h, body: b })
}

fn thinking<'a>(body: &mut Object<'a>, level: &'a str, q: &Quirks) -> Result<(), String> {
    if level == THINKING_DEFAULT {
        return Ok(());
    }
    let off = level == THINKING_OFF;
    match q.thinking_format.as_str() {
        "" | "openai" => body.set("reasoning_effort", str(if off { "none" } else { level })),
        "openrouter" => {
            let r = if off {
                Object::new().with("enabled", Value::Bool(false))
            } else {
                Object::new().with("effort", str(level))
            };
            body.set("reasoning", r.into());
        }
        "enable_thinking" => body.set("enable_thinking", Value::Bool(!off)),
        "none" => {}
        other => {
            let mut m = String::from("openaichat: unknown thinking_format ");
            smith_text::quote::quote(&mut m, other.as_bytes());
            m.push_str(" in the server's quirks; want openai, openrouter, enable_thinking or none");
            return Err(m);
        }
    }
    Ok(())
}

fn messages<'a>(out: &mut Vec<Value<'a>>, input: &'a [Message], q: &'a Quirks) -> Result<(), String> {
    // Tool-result images, sent in one user message after the tool messages.
    let mut images: Vec<Value<'a>> = Vec::new();
    fn flush<'a>(out: &mut Vec<Value<'a>>, images: &mut Vec<Value<'a>>) {
        if !images.is_empty() {
            let mut parts = Vec::with_capacity(images.len() + 1);
            parts.push(
                Object::new()
                    .with("type", str("text"))
                    .with("text", str("Images returned by the tool calls above:"))
                    .into(),
            );
            parts.append(images);
            out.push(Object::new().with("role", str("user")).with("content", Value::Array(parts)).into());
        }
    }
    for (i, m) in input.iter().enumerate() {
        match m {
            Message::User(m) => {
                flush(out, &mut images);
                out.push(Object::new().with("role", str("user")).with("content", user_content(&m.content)).into());
            }
            Message::ToolResult(m) => {
                let mut text = Vec::new();
                for c in &m.content {
                    match c {
                        Content::Text(t) => text.extend_from_slice(t.text.as_bytes()),
                        Content::Image(img) => images.push(image_part(img)),
                        _ => {}
                    }
                }
                let mut tm = Object::new()
                    .with("role", str("tool"))
                    .with("tool_call_id", Value::Str(clip(&m.call_id, q.max_tool_call_id_len)))
                    .with("content", Value::String(text));
                if q.tool_result_name {
                    tm.set("name", str(&m.name));
                }
                out.push(tm.into());
            }
            Message::Assistant(m) => {
                flush(out, &mut images);
                match assistant(m, q) {
                    Ok(Some(am)) => out.push(am.into()),
                    Ok(None) => {}
                    Err(e) => return Err(format!("openaichat: message {}: {}", i, e)),
                }
            }
        }
    }
    flush(out, &mut images);
    Ok(())
}

fn user_content(cs: &[Content]) -> Value<'_> {
    if let [Content::Text(t)] = cs {
        return str(&t.text);
    }
    let mut parts = Vec::with_capacity(cs.len());
    for c in cs {
        match c {
            Content::Text(t) => parts.push(Object::new().with("type", str("text")).with("text", str(&t.text)).into()),
            Content::Image(img) => parts.push(image_part(img)),
            _ => {}
        }
    }
    Value::Array(parts)
}

fn image_part(c: &Image) -> Value<'static> {
    let url = Object::new().with("url", Value::String(data_url(c)));
    Object::new().with("type", str("image_url")).with("image_url", url.into()).into()
}

/// data_url is "data:" + media type + ";base64," + the data in standard
/// base64 with padding.
pub fn data_url(c: &Image) -> Vec<u8> {
    let mut out = Vec::with_capacity(13 + c.media_type.len() + (c.data.len() + 2) / 3 * 4);
    out.extend_from_slice(b"data:");
    out.extend_from_slice(c.media_type.as_bytes());
    out.extend_from_slice(b";base64,");
    smith_json::write::append_base64(&mut out, &c.data);
    out
}

fn assistant<'a>(m: &'a AssistantMessage, q: &'a Quirks) -> Result<Option<Object<'a>>, &'static str> {
    let mut out = Object::new().with("role", str("assistant"));
    let mut text: Vec<u8> = Vec::new();
    let mut reasoning: Vec<u8> = Vec::new();
    let mut details: Vec<Value<'a>> = Vec::new();
    let mut calls: Vec<Value<'a>> = Vec::new();
    for c in &m.content {
        match c {
            Content::Text(t) => text.extend_from_slice(t.text.as_bytes()),
            Content::Thinking(t) => {
                reasoning.extend_from_slice(t.text.as_bytes());
                if q.reasoning_details && (!t.text.is_empty() || !t.signature.is_empty() || !t.encrypted.is_empty()) {
                    let index = Value::Int(details.len() as i64);
                    let mut d = if !t.encrypted.is_empty() {
                        Object::new()
                            .with("type", str("reasoning.encrypted"))
                            .with("data", Value::Str(&t.encrypted))
                            .with("index", index)
                    } else {
                        let d = Object::new()
                            .with("type", str("reasoning.text"))
                            .with("text", str(&t.text))
                            .with("index", index);
                        if t.signature.is_empty() {
                            d
                        } else {
                            d.with("signature", Value::Str(&t.signature))
                        }
                    };
                    if !t.format.is_empty() {
                        d.set("format", str(&t.format));
                    }
                    details.push(d.into());
                }
            }
            Content::ToolCall(c) => {
                // A call whose arguments were not valid is never executed;
                // its result says why.
                let args = if c.arguments_error.is_empty() { Value::Str(&c.arguments) } else { str("{}") };
                let f = Object::new().with("name", str(&c.name)).with("arguments", args);
                calls.push(
                    Object::new()
                        .with("id", Value::Str(clip(&c.id, q.max_tool_call_id_len)))
                        .with("type", str("function"))
                        .with("function", f.into())
                        .into(),
                );
            }
            Content::Image(_) => return Err("an assistant message cannot carry an image"),
            Content::Other(_) => {}
        }
    }
    if !text.is_empty() {
        out.set("content", Value::String(text));
    }
    let has_calls = !calls.is_empty();
    if has_calls {
        out.set("tool_calls", Value::Array(calls));
    }
    // DeepSeek-style servers reject a tool-call turn without its reasoning
    // field, even an empty one.
    if !q.echo_reasoning.is_empty() && (!reasoning.is_empty() || has_calls) {
        out.set(&q.echo_reasoning, Value::String(reasoning));
    }
    if !details.is_empty() {
        out.set("reasoning_details", Value::Array(details));
    }
    if out.len() == 1 {
        return Ok(None); // nothing to send back (an empty or failed turn)
    }
    Ok(Some(out))
}

/// clip cuts id to its first n bytes when n is positive and id is
/// longer (which may cut a char; its bytes are then written as U+FFFD).
fn clip(id: &str, n: i64) -> &[u8] {
    let b = id.as_bytes();
    if n > 0 && (b.len() as u64) > n as u64 {
        return &b[..n as usize];
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::*;

    /// user_text returns a user message with one text block.
    fn user_text(s: &str) -> UserMessage {
        UserMessage { content: vec![Content::Text(Text { text: s.to_string(), ..Text::default() })] }
    }

    fn text(s: &str) -> Content {
        Content::Text(Text { text: s.into(), ..Text::default() })
    }

    fn body(r: &Request, q: &Quirks) -> String {
        String::from_utf8(build_request(r, q, "KEY").unwrap().body).unwrap()
    }

    #[test]
    fn off_and_no_key() {
        // Goldens hold the rest of a plain request; thinking off and a
        // missing credential are not in them.
        let r = Request { thinking: THINKING_OFF.into(), ..Request::default() };
        assert!(body(&r, &Quirks::default()).contains(r#""reasoning_effort":"none""#));
        assert_eq!(build_request(&r, &Quirks::default(), "").unwrap().headers.len(), 2);
    }

    #[test]
    fn quirks_shape_the_body() {
        let q = Quirks {
            developer_role: true,
            max_tokens_field: "max_tokens".into(),
            no_stream_usage: true,
            thinking_format: "openrouter".into(),
            echo_reasoning: "reasoning".into(),
            reasoning_details: true,
            usage_include: true,
            tool_result_name: true,
            no_strict: true,
            no_prompt_cache_key: true,
            max_tool_call_id_len: 4,
        };
        let call = ToolCall {
            id: "call_é1".into(),
            name: "f".into(),
            arguments: b"{\"a\":1}".to_vec(),
            ..ToolCall::default()
        };
        let r = Request {
            model: "m".into(),
            messages: vec![
                Message::Assistant(AssistantMessage {
                    content: vec![
                        Content::Thinking(Thinking {
                            text: "why".into(),
                            signature: b"sig".to_vec(),
                            format: "f1".into(),
                            ..Thinking::default()
                        }),
                        Content::Thinking(Thinking { encrypted: b"enc".to_vec(), ..Thinking::default() }),
                        Content::ToolCall(call),
                    ],
                    ..AssistantMessage::default()
                }),
                Message::ToolResult(ToolResultMessage {
                    call_id: "call_é1".into(),
                    name: "f".into(),
                    content: vec![
                        text("ok"),
                        Content::Image(Image { media_type: "image/png".into(), data: vec![1, 2, 3, 4] }),
                    ],
                    ..ToolResultMessage::default()
                }),
            ],
            max_tokens: 10,
            thinking: THINKING_HIGH.into(),
            cache_key: "k".into(),
            ..Request::default()
        };
        assert_eq!(
            body(&r, &q),
            concat!(
                r#"{"max_tokens":10,"messages":[{"reasoning":"why","reasoning_details":[{"format":"f1","index":0,"signature":"sig","text":"why","type":"reasoning.text"},"#,
                r#"{"data":"enc","index":1,"type":"reasoning.encrypted"}],"role":"assistant","tool_calls":[{"function":{"arguments":"{\"a\":1}","name":"f"},"id":"call","type":"function"}]},"#,
                r#"{"content":"ok","name":"f","role":"tool","tool_call_id":"call"},"#,
                r#"{"content":[{"text":"Images returned by the tool calls above:","type":"text"},{"image_url":{"url":"data:image/png;base64,AQIDBA=="},"type":"image_url"}],"role":"user"}],"#,
                r#""model":"m","reasoning":{"effort":"high"},"stream":true,"usage":{"include":true}}"#
            )
        );
    }

    #[test]
    fn clip_cuts_bytes_and_echo_keys_replace() {
        let q = Quirks { max_tool_call_id_len: 6, echo_reasoning: "content".into(), ..Quirks::default() };
        let call = ToolCall {
            id: "call_é1".into(),
            arguments_error: "bad".into(),
            arguments: b"\"x\"".to_vec(),
            ..ToolCall::default()
        };
        let m = AssistantMessage { content: vec![text("t"), Content::ToolCall(call)], ..AssistantMessage::default() };
        let r = Request { messages: vec![Message::Assistant(m)], ..Request::default() };
        assert_eq!(
            body(&r, &q),
            concat!(
                r#"{"messages":[{"content":"","role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":""},"id":"call_\ufffd","type":"function"}]}],"#,
                r#""model":"","stream":true,"stream_options":{"include_usage":true}}"#
            )
        );
        // An empty turn is left out; no messages at all is null.
        let r = Request { messages: vec![Message::Assistant(AssistantMessage::default())], ..Request::default() };
        assert_eq!(
            body(&r, &Quirks::default()),
            r#"{"messages":null,"model":"","stream":true,"stream_options":{"include_usage":true}}"#
        );
        let q = Quirks { echo_reasoning: "role".into(), ..Quirks::default() };
        let m = AssistantMessage {
            content: vec![Content::Thinking(Thinking { text: "r".into(), ..Thinking::default() })],
            ..AssistantMessage::default()
        };
        let r = Request { messages: vec![Message::Assistant(m)], ..Request::default() };
        assert!(body(&r, &q).starts_with(r#"{"messages":null"#));
    }

    #[test]
    fn user_content_and_thinking_formats() {
        let img = Content::Image(Image { media_type: "image/jpeg".into(), data: vec![0xff, 0xfe] });
        let r = Request {
            messages: vec![
                Message::User(UserMessage { content: vec![text("<a>"), img] }),
                Message::User(UserMessage::default()),
            ],
            thinking: THINKING_OFF.into(),
            max_tokens: 5,
            ..Request::default()
        };
        let q = Quirks {
            thinking_format: "enable_thinking".into(),
            max_tokens_field: "enable_thinking".into(),
            ..Quirks::default()
        };
        assert_eq!(
            body(&r, &q),
            concat!(
                r#"{"enable_thinking":false,"messages":[{"content":[{"text":"<a>","type":"text"},{"image_url":{"url":"data:image/jpeg;base64,//4="},"type":"image_url"}],"role":"user"},"#,
                r#"{"content":[],"role":"user"}],"model":"","stream":true,"stream_options":{"include_usage":true}}"#
            )
        );
        let off = Request { thinking: THINKING_OFF.into(), ..Request::default() };
        let or = Quirks { thinking_format: "openrouter".into(), ..Quirks::default() };
        assert!(body(&off, &or).contains(r#""reasoning":{"enabled":false}"#));
        let none = Quirks { thinking_format: "none".into(), ..Quirks::default() };
        assert!(!body(&off, &none).contains("reason"));
        let odd = Request { thinking: "\u{7}x".into(), ..Request::default() };
        assert!(body(&odd, &Quirks::default()).contains(r#""reasoning_effort":"\u0007x""#));
    }

    #[test]
    fn errors() {
        let bad = Quirks { thinking_format: "qwen\n".into(), ..Quirks::default() };
        let r = Request { thinking: THINKING_LOW.into(), ..Request::default() };
        assert_eq!(
            build_request(&r, &bad, "").unwrap_err(),
            "openaichat: unknown thinking_format \"qwen\\n\" in the server's quirks; want openai, openrouter, enable_thinking or none"
        );
        let img = Content::Image(Image::default());
        let r = Request {
            messages: vec![
                Message::User(user_text("x")),
                Message::Assistant(AssistantMessage { content: vec![img], ..AssistantMessage::default() }),
            ],
            tools: vec![Tool { parameters: b"{".to_vec(), ..Tool::default() }],
            thinking: THINKING_LOW.into(),
            ..Request::default()
        };
        assert_eq!(
            build_request(&r, &bad, "").unwrap_err(),
            "openaichat: message 1: an assistant message cannot carry an image"
        );
        let r = Request { tools: vec![Tool { parameters: b"{".to_vec(), ..Tool::default() }], ..Request::default() };
        assert_eq!(
            build_request(&r, &Quirks::default(), "").unwrap_err(),
            "openaichat: encode request body: raw JSON value is not valid JSON: the input ends at offset 1 looking for an object key; the JSON text is incomplete"
        );
        // A tool's parameters replaced by a quirk's field are never written.
        let q = Quirks { max_tokens_field: "tools".into(), ..Quirks::default() };
        let r = Request {
            tools: vec![Tool { parameters: b"{".to_vec(), ..Tool::default() }],
            max_tokens: 1,
            ..Request::default()
        };
        assert!(body(&r, &q).ends_with(r#""tool_choice":"auto","tools":1}"#));
    }
}
