//! build is the streaming Responses request builder, for stateless use:
//! the body is an anyjson object (keys in byte order, see
//! [`crate::openai_chat::anyjson`]) and the history is replayed as input
//! items ([`super::replay`]).

use super::replay;

use crate::norm::message::{Content, Header, HttpRequest, Image, Message, Request, THINKING_DEFAULT, THINKING_OFF};
use crate::openai_chat::anyjson::{marshal, str, Object, Value};

/// build_request returns the streaming Responses request for r, for
/// stateless use (store:false): every earlier output item is replayed
/// (see replay.rs). Authorization is "Bearer " + the credential named by
/// secret_ref. It fails, with a message starting "openairesp: ", on an
/// image in an assistant message, or a tool's parameters or a kept item
/// that is not one JSON value.
pub fn build_request(r: &Request, secret_ref: &str) -> Result<HttpRequest, String> {
    let mut body =
        Object::new().with("model", str(&r.model)).with("stream", Value::Bool(true)).with("store", Value::Bool(false));
    let mut input = Vec::with_capacity(r.messages.len() + 1);
    if !r.system.is_empty() {
        input.push(Object::new().with("role", str("developer")).with("content", str(&r.system)).into());
    }
    for (i, m) in r.messages.iter().enumerate() {
        to_items(&mut input, m).map_err(|e| format!("openairesp: message {}: {}", i, e))?;
    }
    // No input at all is null.
    body.set("input", if input.is_empty() { Value::Null } else { Value::Array(input) });
    if !r.tools.is_empty() {
        let tools = r
            .tools
            .iter()
            .map(|t| {
                Object::new()
                    .with("type", str("function"))
                    .with("name", str(&t.name))
                    .with("description", str(&t.description))
                    .with("parameters", Value::Raw(&t.parameters))
                    .with("strict", Value::Bool(false))
                    .into()
            })
            .collect();
        body.set("tools", Value::Array(tools));
        body.set("tool_choice", str("auto"));
    }
    if r.max_tokens > 0 {
        body.set("max_output_tokens", Value::Int(r.max_tokens));
    }
    match r.thinking.as_str() {
        THINKING_DEFAULT => {}
        THINKING_OFF => body.set("reasoning", Object::new().with("effort", str("none")).into()),
        level => {
            body.set("reasoning", Object::new().with("effort", str(level)).with("summary", str("auto")).into());
            body.set("include", Value::Array(vec![str("reasoning.encrypted_content")]));
        }
    }
    if !r.cache_key.is_empty() {
        body.set("prompt_cache_key", str(&r.cache_key));
    }
    let b = marshal(&body.into()).map_err(|e| format!("openairesp: encode request body: {}", e))?;
    Ok(HttpRequest {
        method: "POST".to_string(),
        path: "/responses".to_string(),
        headers: vec![
            Header::new("content-type", "application/json", ""),
            Header::new("accept", "text/event-stream", ""),
            Header::new("authorization", "Bearer ", secret_ref),
        ],
        body: b,
    })
}

/// to_items appends the input items of one message.
fn to_items<'a>(out: &mut Vec<Value<'a>>, m: &'a Message) -> Result<(), &'static str> {
    match m {
        Message::User(m) => {
            out.push(Object::new().with("role", str("user")).with("content", input_parts(&m.content)).into());
        }
        Message::ToolResult(m) => {
            let mut text = Vec::new();
            let mut parts = Vec::new();
            for c in &m.content {
                match c {
                    Content::Text(t) => text.extend_from_slice(t.text.as_bytes()),
                    Content::Image(img) => parts.push(image_part(img)),
                    _ => {}
                }
            }
            let output = if parts.is_empty() {
                Value::String(text)
            } else {
                parts.insert(0, Object::new().with("type", str("input_text")).with("text", Value::String(text)).into());
                Value::Array(parts)
            };
            out.push(
                Object::new()
                    .with("type", str("function_call_output"))
                    .with("call_id", str(&m.call_id))
                    .with("output", output)
                    .into(),
            );
        }
        Message::Assistant(m) => replay::assistant_items(out, m)?,
    }
    Ok(())
}

fn input_parts(cs: &[Content]) -> Value<'_> {
    let mut parts = Vec::with_capacity(cs.len());
    for c in cs {
        match c {
            Content::Text(t) => {
                parts.push(Object::new().with("type", str("input_text")).with("text", str(&t.text)).into())
            }
            Content::Image(img) => parts.push(image_part(img)),
            _ => {}
        }
    }
    Value::Array(parts)
}

fn image_part(c: &Image) -> Value<'static> {
    Object::new()
        .with("type", str("input_image"))
        .with("detail", str("auto"))
        .with("image_url", Value::String(crate::openai_chat::build::data_url(c)))
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::*;

    /// user_text returns a user message with one text block.
    fn user_text(s: &str) -> UserMessage {
        UserMessage { content: vec![Content::Text(Text { text: s.to_string(), ..Text::default() })] }
    }

    fn body(r: &Request) -> String {
        String::from_utf8(build_request(r, "OPENAI_API_KEY").unwrap().body).unwrap()
    }

    #[test]
    fn thinking_off() {
        let off = Request { thinking: THINKING_OFF.into(), ..Request::default() };
        assert_eq!(
            body(&off),
            r#"{"input":null,"model":"","reasoning":{"effort":"none"},"store":false,"stream":true}"#
        );
    }

    #[test]
    fn tool_results_with_images() {
        let png = Content::Image(Image { media_type: "image/png".into(), data: b"ab".to_vec() });
        let text = |s: &str| Content::Text(Text { text: s.into(), ..Text::default() });
        let result = |id: &str, content| {
            Message::ToolResult(ToolResultMessage { call_id: id.into(), content, ..ToolResultMessage::default() })
        };
        // The rich goldens hold one text, and text before an image; here
        // texts join and an image first goes after them.
        let r = Request {
            messages: vec![result("c1", vec![text("4"), text("0")]), result("c2", vec![png, text("x")])],
            ..Request::default()
        };
        assert_eq!(
            body(&r),
            concat!(
                r#"{"input":[{"call_id":"c1","output":"40","type":"function_call_output"},"#,
                r#"{"call_id":"c2","output":[{"text":"x","type":"input_text"},{"detail":"auto","image_url":"data:image/png;base64,YWI=","type":"input_image"}],"type":"function_call_output"}],"#,
                r#""model":"","store":false,"stream":true}"#
            )
        );
    }

    #[test]
    fn errors() {
        let r = Request {
            messages: vec![
                Message::User(user_text("x")),
                Message::Assistant(AssistantMessage {
                    content: vec![Content::Image(Image::default())],
                    ..AssistantMessage::default()
                }),
            ],
            ..Request::default()
        };
        assert_eq!(
            build_request(&r, "").unwrap_err(),
            "openairesp: message 1: an assistant message cannot carry an image"
        );
        // The input comes before the tools in the body, so its error wins.
        let other = Content::Other(Other { type_: "x".into(), raw: b"[1,]".to_vec(), ..Other::default() });
        let r = Request {
            messages: vec![Message::Assistant(AssistantMessage {
                content: vec![other],
                ..AssistantMessage::default()
            })],
            tools: vec![Tool { parameters: b"nul".to_vec(), ..Tool::default() }],
            ..Request::default()
        };
        assert_eq!(
            build_request(&r, "").unwrap_err(),
            "openairesp: encode request body: raw JSON value is not valid JSON: invalid character ']' at offset 3 looking for the beginning of a value"
        );
    }
}
