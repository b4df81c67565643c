//! document reads the request document, the JSON text core/provider/document.go
//! writes for each request (encoding/json's encoding of its `document`,
//! `docMessage` and `docBlock`), strictly as the host writes it:
//!
//! - Keys are the host's field names, matched exactly; a key it does not
//!   write is skipped, so that a newer host may add fields. Keys without
//!   `omitempty` are required (`messages`; a message's `role` and
//!   `content`; a block's `type`; a tool's `name`, `description` and
//!   `parameters`); the others may be absent (empty, zero, false).
//! - Values have the host's types, never null: strings, booleans,
//!   integers, arrays of objects; `environment` is an object of strings;
//!   `signature`, `encrypted` and `data` are standard padded base64 without
//!   line breaks (Go `[]byte`); a tool's `parameters` is any JSON value,
//!   kept as its text; `quirks` is an object of [`Quirks`] by their JSON
//!   names, which the host passes only once its configuration validated
//!   them against the codec's declared options (so a key that is no quirk
//!   is an error).
//! - `role` is user, assistant or tool_result; `type` is text, thinking,
//!   image or tool_call.
//!
//! Anything else fails the document with an error naming where
//! (`messages[3].content[1]: unknown block type "video"; …`); a text that
//! is not JSON fails with the reader's syntax error.
//!
//! A block's producer defaults to its message's provider. A signature's
//! packed metadata ([`crate::norm::unpack_meta`]) gives the block its item
//! id, phase and format, and a text block whose metadata names an `other`
//! type is that vendor block ([`Other`], the payload its JSON). A tool
//! call's arguments are `arguments_text` verbatim, `{}` when absent.

use std::collections::BTreeMap;

use crate::norm::message::{
    AssistantMessage, Content, Image, Message, Other, Request, Text, Thinking, Tool, ToolCall, ToolResultMessage,
    UserMessage,
};
use crate::openai_chat::quirks::Quirks;
use smith_json::read::{Decoder, Kind};
use smith_text::quote::lossy;

/// Document is a parsed request document: the request for the snapshot's
/// model, the base URL overrides from configuration (`base_url`) and from
/// a flag (`base_url_flag`), the host's *_BASE_URL variables
/// (`environment`), and an openai-chat server's quirks (`quirks`, None
/// when the document has none).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Document {
    pub request: Request,
    pub base_url: String,
    pub base_url_flag: String,
    pub environment: BTreeMap<String, String>,
    pub quirks: Option<Quirks>,
}

/// parse reads `doc` and returns the document with its request for
/// `model`, or what is wrong with it and where.
pub fn parse(doc: &[u8], model: &str) -> Result<Document, String> {
    let mut d = Decoder::new(doc);
    let read = document(&mut d, model);
    // The readers check each value's kind before reading it, so an error
    // of the decoder's is a syntax error, which explains any fault.
    d.finish().map_err(|e| format!("not valid JSON: {}", e))?;
    read.map_err(|f| match f.path.trim_start_matches('.') {
        "" => f.problem,
        path => format!("{}: {}", path, f.problem),
    })
}

/// fault_text returns `err`, an error of [`parse`], as the codec fault
/// says it, naming `provider`.
pub fn fault_text(provider: &str, err: String) -> String {
    format!("request document for {:?}: {}", provider, err)
}

/// Fault is what is wrong with the document and where: `path` grows
/// outward as the fault is returned (a dot before each key).
struct Fault {
    path: String,
    problem: String,
}

/// fault is a Fault of the value being read.
fn fault(problem: String) -> Fault {
    Fault { path: String::new(), problem }
}

impl Fault {
    /// within places the fault inside `step`: `.key` or `[index]`.
    fn within(mut self, step: String) -> Fault {
        self.path.insert_str(0, &step);
        self
    }
}

/// document reads the top-level object.
fn document(d: &mut Decoder<'_>, model: &str) -> Result<Document, Fault> {
    let mut doc = Document::default();
    let mut messages = None;
    object(d, |d, key| {
        let r = &mut doc.request;
        match key {
            b"system" => r.system = string(d)?,
            b"messages" => messages = Some(array(d, message)?),
            b"tools" => r.tools = array(d, tool)?,
            b"max_output_tokens" => r.max_tokens = int(d)?,
            b"thinking" => r.thinking = string(d)?,
            b"thinking_budget" => r.thinking_budget = int(d)?,
            b"cache_key" => r.cache_key = string(d)?,
            b"base_url" => doc.base_url = string(d)?,
            b"base_url_flag" => doc.base_url_flag = string(d)?,
            b"environment" => object(d, |d, key| {
                doc.environment.insert(String::from_utf8_lossy(key).into_owned(), string(d)?);
                Ok(())
            })?,
            b"quirks" => doc.quirks = Some(quirks(d)?),
            _ => {}
        }
        Ok(())
    })?;
    doc.request.messages = required(messages, "messages")?;
    doc.request.model = model.to_string();
    Ok(doc)
}

/// tool reads a tool definition (model.ToolDefinition).
fn tool(d: &mut Decoder<'_>) -> Result<Tool, Fault> {
    let (mut name, mut description, mut parameters) = (None, None, None);
    object(d, |d, key| {
        match key {
            b"name" => name = Some(string(d)?),
            b"description" => description = Some(string(d)?),
            b"parameters" => parameters = d.raw().map(<[u8]>::to_vec),
            _ => {}
        }
        Ok(())
    })?;
    let name = required(name, "name")?;
    Ok(Tool {
        name,
        description: required(description, "description")?,
        parameters: required(parameters, "parameters")?,
    })
}

/// quirks reads the quirks object.
fn quirks(d: &mut Decoder<'_>) -> Result<Quirks, Fault> {
    let mut q = Quirks::default();
    object(d, |d, key| {
        match key {
            b"developer_role" => q.developer_role = boolean(d)?,
            b"max_tokens_field" => q.max_tokens_field = string(d)?,
            b"no_stream_usage" => q.no_stream_usage = boolean(d)?,
            b"thinking_format" => q.thinking_format = string(d)?,
            b"echo_reasoning" => q.echo_reasoning = string(d)?,
            b"reasoning_details" => q.reasoning_details = boolean(d)?,
            b"usage_include" => q.usage_include = boolean(d)?,
            b"tool_result_name" => q.tool_result_name = boolean(d)?,
            b"no_strict" => q.no_strict = boolean(d)?,
            b"no_prompt_cache_key" => q.no_prompt_cache_key = boolean(d)?,
            b"max_tool_call_id_len" => q.max_tool_call_id_len = int(d)?,
            _ => return Err(fault("not a quirk of the openai-chat codec".to_string())),
        }
        Ok(())
    })?;
    Ok(q)
}

/// message reads a message (docMessage).
fn message(d: &mut Decoder<'_>) -> Result<Message, Fault> {
    let (mut role, mut blocks, mut provider, mut model, mut response_id) =
        (None, None, String::new(), String::new(), String::new());
    let (mut call_id, mut name, mut is_error) = (String::new(), String::new(), false);
    object(d, |d, key| {
        match key {
            b"role" => role = Some(string(d)?),
            b"content" => blocks = Some(array(d, block)?),
            b"provider" => provider = string(d)?,
            b"model" => model = string(d)?,
            b"response_id" => response_id = string(d)?,
            b"call_id" => call_id = string(d)?,
            b"name" => name = string(d)?,
            b"is_error" => is_error = boolean(d)?,
            _ => {}
        }
        Ok(())
    })?;
    let role = required(role, "role")?;
    let mut content = Vec::new();
    for (i, b) in required(blocks, "content")?.into_iter().enumerate() {
        content.push(to_content(b, &provider).map_err(|f| f.within(format!(".content[{}]", i)))?);
    }
    Ok(match role.as_str() {
        "user" => Message::User(UserMessage { content }),
        "assistant" => {
            Message::Assistant(AssistantMessage { content, provider, model, response_id, ..Default::default() })
        }
        "tool_result" => Message::ToolResult(ToolResultMessage { call_id, name, content, is_error }),
        _ => return Err(fault(format!("unknown role {:?}; want user, assistant or tool_result", role))),
    })
}

/// Block is a content block as the document holds it (docBlock).
#[derive(Default)]
struct Block {
    type_: Option<String>,
    text: String,
    signature: Vec<u8>,
    encrypted: Vec<u8>,
    redacted: bool,
    producer: String,
    media_type: String,
    data: Vec<u8>,
    id: String,
    name: String,
    arguments_text: String,
}

/// block reads a content block.
fn block(d: &mut Decoder<'_>) -> Result<Block, Fault> {
    let mut b = Block::default();
    object(d, |d, key| {
        match key {
            b"type" => b.type_ = Some(string(d)?),
            b"text" => b.text = string(d)?,
            b"signature" => b.signature = bytes(d)?,
            b"encrypted" => b.encrypted = bytes(d)?,
            b"redacted" => b.redacted = boolean(d)?,
            b"producer" => b.producer = string(d)?,
            b"media_type" => b.media_type = string(d)?,
            b"data" => b.data = bytes(d)?,
            b"id" => b.id = string(d)?,
            b"name" => b.name = string(d)?,
            b"arguments_text" => b.arguments_text = string(d)?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(b)
}

/// to_content converts a block of a message from `provider`.
fn to_content(b: Block, provider: &str) -> Result<Content, Fault> {
    let producer = if b.producer.is_empty() { provider.to_string() } else { b.producer };
    let (meta, payload) = crate::norm::unpack_meta(&b.signature);
    let (signature, item_id) = (payload.to_vec(), lossy(meta.item));
    Ok(match required(b.type_, "type")?.as_str() {
        "text" if !meta.other.is_empty() => {
            Content::Other(Other { type_: lossy(meta.other), raw: signature, producer })
        }
        "text" => Content::Text(Text { text: b.text, signature, producer, item_id, phase: lossy(meta.phase) }),
        "thinking" => Content::Thinking(Thinking {
            text: b.text,
            signature,
            encrypted: b.encrypted,
            redacted: b.redacted,
            format: lossy(meta.format),
            item_id,
            producer,
        }),
        "image" => Content::Image(Image { media_type: b.media_type, data: b.data }),
        "tool_call" => Content::ToolCall(ToolCall {
            id: b.id,
            name: b.name,
            arguments: if b.arguments_text.is_empty() { b"{}".to_vec() } else { b.arguments_text.into_bytes() },
            arguments_error: String::new(),
            signature,
            item_id,
            producer,
        }),
        t => return Err(fault(format!("unknown block type {:?}; want text, thinking, image or tool_call", t))),
    })
}

/// required returns the value of a key the host always writes.
fn required<T>(v: Option<T>, key: &str) -> Result<T, Fault> {
    v.ok_or_else(|| fault(format!("missing {}", key)))
}

/// expect checks that the next value is a `want` (`what`), else skips it
/// (recording a syntax error where no value starts) and fails.
fn expect(d: &mut Decoder<'_>, want: Kind, what: &str) -> Result<(), Fault> {
    let got = d.peek();
    if got == want {
        return Ok(());
    }
    d.skip();
    Err(fault(format!("want {}, found {}", what, got)))
}

/// object reads an object, calling `member` with each key, and returns
/// the first fault, placed in its key.
fn object<'a, F>(d: &mut Decoder<'a>, mut member: F) -> Result<(), Fault>
where
    F: FnMut(&mut Decoder<'a>, &[u8]) -> Result<(), Fault>,
{
    expect(d, Kind::Object, "an object")?;
    let mut fault = None;
    d.object(|d, key| {
        if fault.is_none() {
            fault = member(d, key).err().map(|f| f.within(format!(".{}", String::from_utf8_lossy(key))));
        }
    });
    fault.map_or(Ok(()), Err)
}

/// array reads an array, each element with `elem`, and returns the
/// elements or the first fault, placed in its element.
fn array<'a, T, F>(d: &mut Decoder<'a>, mut elem: F) -> Result<Vec<T>, Fault>
where
    F: FnMut(&mut Decoder<'a>) -> Result<T, Fault>,
{
    expect(d, Kind::Array, "an array")?;
    let (mut out, mut fault) = (Vec::new(), None);
    d.array(|d| {
        if fault.is_none() {
            match elem(d) {
                Ok(v) => out.push(v),
                Err(f) => fault = Some(f.within(format!("[{}]", out.len()))),
            }
        }
    });
    fault.map_or(Ok(out), Err)
}

fn string(d: &mut Decoder<'_>) -> Result<String, Fault> {
    expect(d, Kind::Str, "a string")?;
    Ok(d.str().string())
}

fn boolean(d: &mut Decoder<'_>) -> Result<bool, Fault> {
    expect(d, Kind::Bool, "a boolean")?;
    Ok(d.bool())
}

/// int reads an integer that fits 64 bits.
fn int(d: &mut Decoder<'_>) -> Result<i64, Fault> {
    expect(d, Kind::Number, "an integer")?;
    let text = d.raw().unwrap_or_default();
    let n = std::str::from_utf8(text).ok().and_then(|t| t.parse().ok());
    n.ok_or_else(|| fault(format!("want an integer, found {}", lossy(text))))
}

/// bytes reads a []byte: standard base64 with padding.
fn bytes(d: &mut Decoder<'_>) -> Result<Vec<u8>, Fault> {
    expect(d, Kind::Str, "a base64 string")?;
    let s = d.str().unquoted();
    let s = s.as_bytes();
    let bad = |what: String| fault(format!("not standard padded base64 ({})", what));
    if s.len() % 4 != 0 {
        return Err(bad(format!("length {}", s.len())));
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for (i, quad) in s.chunks(4).enumerate() {
        let pad = if (i + 1) * 4 == s.len() { quad.iter().rev().take_while(|&&c| c == b'=').count().min(2) } else { 0 };
        let mut n = 0u32;
        for (j, &c) in quad[..4 - pad].iter().enumerate() {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                _ => return Err(bad(format!("byte {}", i * 4 + j))),
            };
            n = n << 6 | u32::from(v);
        }
        out.extend_from_slice(&(n << (6 * pad)).to_be_bytes()[1..4 - pad]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FULL is a document as core/provider/document.go writes it (its
    /// structs marshaled by encoding/json): every key, every block type,
    /// signatures with packed metadata.
    const FULL: &str = concat!(
        r#"{"system":"Be \u003cbrief\u003e.","messages":["#,
        r#"{"role":"user","content":[{"type":"text","text":"What is in this picture?"},"#,
        r#"{"type":"image","media_type":"image/png","data":"iVBORw0K"}]},"#,
        r#"{"role":"assistant","content":["#,
        r#"{"type":"thinking","text":"I should look.","signature":"AGZvcm1hdD1vcGVuYWkAAGl0ZW09cnNfMQA=","encrypted":"ZW5j","producer":"openai"},"#,
        r#"{"type":"thinking","encrypted":"ZW5j","redacted":true},"#,
        r#"{"type":"text","text":"Let me check.","signature":"AGl0ZW09bXNnXzEAAHBoYXNlPWZpbmFsX2Fuc3dlcgBzaWc=","producer":"openai"},"#,
        r#"{"type":"text","signature":"AG90aGVyPXdlYl9zZWFyY2gAeyJ4IjoxfQ=="},"#,
        r#"{"type":"tool_call","signature":"dHNpZw==","producer":"google","id":"call_1","name":"ls","arguments_text":"{\"path\": \".\"}"}],"#,
        r#""provider":"openai","model":"gpt-5","response_id":"resp_1"},"#,
        r#"{"role":"tool_result","content":[{"type":"text","text":"a.png"},{"type":"image","media_type":"image/png","data":"iVBORw0K"}],"#,
        r#""call_id":"call_1","name":"ls","is_error":true}],"#,
        r#""tools":[{"name":"ls","description":"Lists files.","parameters":{"type":"object"}},{"name":"now","description":"","parameters":null}],"#,
        r#""max_output_tokens":32000,"thinking":"high","thinking_budget":2048,"cache_key":"session-1","#,
        r#""base_url":"http://config","base_url_flag":"http://flag","#,
        r#""environment":{"ANTHROPIC_BASE_URL":"http://a","OPENAI_BASE_URL":"http://env"},"#,
        r#""quirks":{"developer_role":true,"echo_reasoning":"reasoning","max_tokens_field":"max_tokens","max_tool_call_id_len":40,"#,
        r#""no_prompt_cache_key":true,"no_stream_usage":true,"no_strict":true,"reasoning_details":true,"thinking_format":"openrouter","#,
        r#""tool_result_name":true,"usage_include":true}}"#,
    );

    fn text(text: &str) -> Content {
        Content::Text(Text { text: text.into(), ..Text::default() })
    }

    fn png() -> Content {
        Content::Image(Image { media_type: "image/png".into(), data: b"\x89PNG\r\n".to_vec() })
    }

    /// full is what FULL reads as.
    fn full() -> Document {
        let (openai, enc) = (|| String::from("openai"), || b"enc".to_vec());
        let (item_id, format) = ("rs_1".into(), "openai".into());
        let assistant = vec![
            Content::Thinking(Thinking {
                text: "I should look.".into(),
                encrypted: enc(),
                format,
                item_id,
                producer: openai(),
                ..Default::default()
            }),
            Content::Thinking(Thinking { encrypted: enc(), redacted: true, producer: openai(), ..Default::default() }),
            Content::Text(Text {
                text: "Let me check.".into(),
                signature: b"sig".to_vec(),
                producer: openai(),
                item_id: "msg_1".into(),
                phase: "final_answer".into(),
            }),
            Content::Other(Other { type_: "web_search".into(), raw: br#"{"x":1}"#.to_vec(), producer: openai() }),
            Content::ToolCall(ToolCall {
                id: "call_1".into(),
                name: "ls".into(),
                arguments: br#"{"path": "."}"#.to_vec(),
                signature: b"tsig".to_vec(),
                producer: "google".into(),
                ..Default::default()
            }),
        ];
        let messages = vec![
            Message::User(UserMessage { content: vec![text("What is in this picture?"), png()] }),
            Message::Assistant(AssistantMessage {
                content: assistant,
                provider: openai(),
                model: "gpt-5".into(),
                response_id: "resp_1".into(),
                ..Default::default()
            }),
            Message::ToolResult(ToolResultMessage {
                call_id: "call_1".into(),
                name: "ls".into(),
                content: vec![text("a.png"), png()],
                is_error: true,
            }),
        ];
        let tools = vec![
            Tool {
                name: "ls".into(),
                description: "Lists files.".into(),
                parameters: br#"{"type":"object"}"#.to_vec(),
            },
            Tool { name: "now".into(), description: "".into(), parameters: b"null".to_vec() },
        ];
        let quirks = Quirks {
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
            max_tool_call_id_len: 40,
        };
        let env = [("ANTHROPIC_BASE_URL", "http://a"), ("OPENAI_BASE_URL", "http://env")];
        Document {
            request: Request {
                model: "m".into(),
                system: "Be <brief>.".into(),
                messages,
                tools,
                max_tokens: 32000,
                thinking: "high".into(),
                thinking_budget: 2048,
                cache_key: "session-1".into(),
            },
            base_url: "http://config".into(),
            base_url_flag: "http://flag".into(),
            environment: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            quirks: Some(quirks),
        }
    }

    /// doc is the document of `messages` for model "m".
    fn doc(messages: Vec<Message>) -> Document {
        Document { request: Request { model: "m".into(), messages, ..Request::default() }, ..Document::default() }
    }

    /// top is a document of no messages and `members`.
    fn top(members: &str) -> String {
        format!(r#"{{"messages":[],{}}}"#, members)
    }

    /// one is a document of one `role` message holding `blocks`.
    fn one(role: &str, blocks: &str) -> String {
        format!(r#"{{"messages":[{{"role":"{}","content":[{}]}}]}}"#, role, blocks)
    }

    #[test]
    fn parse_reads_what_the_host_writes() {
        let bare = doc(vec![Message::Assistant(AssistantMessage {
            content: vec![
                text(""),
                Content::Thinking(Thinking::default()),
                Content::Image(Image { data: b"\xfb\xff\xbf".to_vec(), ..Image::default() }),
                Content::ToolCall(ToolCall { arguments: b"{}".to_vec(), ..ToolCall::default() }),
            ],
            ..AssistantMessage::default()
        })]);
        let mut skipped = doc(vec![Message::User(UserMessage { content: vec![text("hi")] })]);
        skipped.request.tools = vec![Tool { name: "t".into(), description: "d".into(), parameters: b"{}".to_vec() }];
        skipped.quirks = Some(Quirks::default());
        let cases: Vec<(&str, String, Result<Document, &str>)> = vec![
            ("full document", FULL.into(), Ok(full())),
            ("no messages", r#"{"messages":[]}"#.into(), Ok(doc(vec![]))),
            ("tool result", r#"{"messages":[{"role":"tool_result","content":[]}]}"#.into(), Ok(doc(vec![Message::ToolResult(ToolResultMessage::default())]))),
            ("optional fields missing", one("assistant", r#"{"type":"text"},{"type":"thinking"},{"type":"image","data":"+/+/"},{"type":"tool_call"}"#), Ok(bare)),
            (
                "unknown keys skipped",
                r#"{"future":[1,{"a":null}],"System":"no","messages":[{"role":"user","Role":5,"mutation":"x",
                   "content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"},"Text":5}]}],
                   "tools":[{"name":"t","description":"d","parameters":{},"strict":true}],"quirks":{}}"#
                    .into(),
                Ok(skipped),
            ),
            ("not JSON", "{".into(), Err("not valid JSON: the input ends at offset 1 looking for an object key; the JSON text is incomplete")),
            ("no text", "".into(), Err("not valid JSON: the input ends at offset 0 looking for the beginning of a value; the JSON text is incomplete")),
            ("text after", r#"{"messages":[]} x"#.into(), Err("not valid JSON: invalid character 'x' at offset 16 after the top-level value")),
            ("not an object", "[]".into(), Err("want an object, found array")),
            ("messages missing", "{}".into(), Err("missing messages")),
            ("keys are case-sensitive", r#"{"Messages":[]}"#.into(), Err("missing messages")),
            ("messages null", r#"{"messages":null}"#.into(), Err("messages: want an array, found null")),
            ("system a number", top(r#""system":1"#), Err("system: want a string, found number")),
            ("fraction", top(r#""max_output_tokens":1.5"#), Err("max_output_tokens: want an integer, found 1.5")),
            ("budget a string", top(r#""thinking_budget":"2048""#), Err("thinking_budget: want an integer, found string")),
            ("tool parameters missing", top(r#""tools":[{"name":"t","description":""}]"#), Err("tools[0]: missing parameters")),
            ("environment value a number", top(r#""environment":{"A_BASE_URL":1}"#), Err("environment.A_BASE_URL: want a string, found number")),
            ("quirks a string", top(r#""quirks":"{}""#), Err("quirks: want an object, found string")),
            ("quirk a string", top(r#""quirks":{"no_strict":"yes"}"#), Err("quirks.no_strict: want a boolean, found string")),
            ("unknown quirk", top(r#""quirks":{"no-strict":true}"#), Err("quirks.no-strict: not a quirk of the openai-chat codec")),
            ("message a number", r#"{"messages":[5]}"#.into(), Err("messages[0]: want an object, found number")),
            ("unknown role", r#"{"messages":[{"role":"user","content":[]},{"role":"robot","content":[]}]}"#.into(), Err(r#"messages[1]: unknown role "robot"; want user, assistant or tool_result"#)),
            ("role missing", r#"{"messages":[{"content":[]}]}"#.into(), Err("messages[0]: missing role")),
            ("content missing", r#"{"messages":[{"role":"user"}]}"#.into(), Err("messages[0]: missing content")),
            ("is_error a string", r#"{"messages":[{"role":"user","content":[],"is_error":"true"}]}"#.into(), Err("messages[0].is_error: want a boolean, found string")),
            ("unknown block type", one("user", r#"{"type":"text"},{"type":"video"}"#), Err(r#"messages[0].content[1]: unknown block type "video"; want text, thinking, image or tool_call"#)),
            ("block type missing", one("user", r#"{"Type":"text"}"#), Err("messages[0].content[0]: missing type")),
            ("text an array", one("user", r#"{"type":"text","text":["a"]}"#), Err("messages[0].content[0].text: want a string, found array")),
            ("base64 unpadded", one("user", r#"{"type":"text","signature":"YQ"}"#), Err("messages[0].content[0].signature: not standard padded base64 (length 2)")),
            ("base64 bad digit", one("user", r#"{"type":"thinking","encrypted":"YWJjY*=="}"#), Err("messages[0].content[0].encrypted: not standard padded base64 (byte 5)")),
            ("base64 line break", one("user", r#"{"type":"image","data":"YWJj\nYWI"}"#), Err("messages[0].content[0].data: not standard padded base64 (byte 4)")),
            ("base64 padded too much", one("user", r#"{"type":"image","data":"Y==="}"#), Err("messages[0].content[0].data: not standard padded base64 (byte 1)")),
            ("bytes as numbers", one("user", r#"{"type":"image","data":[1,2]}"#), Err("messages[0].content[0].data: want a base64 string, found array")),
        ];
        for (name, text, want) in cases {
            assert_eq!(parse(text.as_bytes(), "m"), want.map_err(String::from), "{}", name);
        }
        let e = parse(b"{}", "m").unwrap_err();
        assert_eq!(fault_text("anthropic", e), r#"request document for "anthropic": missing messages"#);
    }
}
