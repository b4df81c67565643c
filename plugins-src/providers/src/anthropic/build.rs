//! build is the streaming Messages API request builder.
//!
//! ```ignore
//! let hr = anthropic::build::build_request(&request, "ANTHROPIC_API_KEY")?;
//! ```
//!
//! Every object's keys are written in byte order. The messages of an
//! empty conversation are `null`. An empty raw value (a tool call's
//! arguments, a tool's parameters, an Other block) is `null`. The checks
//! run in this order: an assistant image, then the thinking budget, then
//! each raw value as the body is written; the first failure is the error.

use crate::norm::message::{Content, Header, HttpRequest, Image, Message, Request};
use smith_json::write::{self, Writer};

/// DEFAULT_MAX_TOKENS is sent when the request sets no output bound; the
/// API requires max_tokens. With thinking enabled and no output bound,
/// max_tokens is the thinking budget plus DEFAULT_MAX_TOKENS.
pub const DEFAULT_MAX_TOKENS: i64 = 4096;

/// MIN_BUDGET is the API's smallest budget_tokens.
const MIN_BUDGET: i64 = 1024;

/// build_request returns the streaming Messages request for `r`. The credential
/// is a reference (x-api-key ← `secret_ref`); thinking blocks are sent back
/// with their signatures verbatim, tool results follow their calls in one user
/// message. The history must already be in this provider's terms. With
/// thinking, a level's budget is lowered to fit below max_tokens (see
/// thinking_budget). The error is a message starting "anthropic: ".
pub fn build_request(r: &Request, secret_ref: &str) -> Result<HttpRequest, String> {
    let msgs = messages(&r.messages)?;
    let mut max_tokens = if r.max_tokens == 0 { DEFAULT_MAX_TOKENS } else { r.max_tokens };
    let mut thinking = None;
    if r.thinking != crate::norm::message::THINKING_DEFAULT && r.thinking != crate::norm::message::THINKING_OFF {
        let (budget, limit) = thinking_budget(r)?;
        max_tokens = limit;
        thinking = Some(budget);
    }
    let cache = !r.cache_key.is_empty();
    let body =
        body(r, &msgs, max_tokens, thinking, cache).map_err(|e| format!("anthropic: encode request body: {}", e))?;
    Ok(HttpRequest {
        method: "POST".to_string(),
        path: "/v1/messages".to_string(),
        headers: vec![
            Header::new("content-type", "application/json", ""),
            Header::new("accept", "text/event-stream", ""),
            Header::new("anthropic-version", "2023-06-01", ""),
            Header::new("x-api-key", "", secret_ref),
        ],
        body,
    })
}

/// Msg is one message of the body: its role and blocks.
struct Msg<'a> {
    role: &'static str,
    blocks: Vec<Block<'a>>,
}

/// Block is one content block of the body, borrowing the request.
enum Block<'a> {
    Text(&'a str),
    Image(&'a Image),
    /// A tool_result: the call's id, its content (user blocks), is_error.
    ToolResult(&'a str, Vec<Block<'a>>, bool),
    /// A redacted_thinking block's data.
    Redacted(&'a [u8]),
    /// A thinking block's text and signature.
    Thinking(&'a str, &'a [u8]),
    /// A tool_use block's id, name and input (raw JSON).
    ToolUse(&'a str, &'a str, &'a [u8]),
    /// An Other block, verbatim: a raw value, never marked for caching.
    Raw(&'a [u8]),
}

/// messages groups the conversation as the API wants it: tool results
/// wait for the next user message and come first in it, or form a user
/// message of their own; an assistant message without blocks is left out.
fn messages(input: &[Message]) -> Result<Vec<Msg<'_>>, String> {
    let mut out = Vec::with_capacity(input.len());
    let mut results: Vec<Block> = Vec::new();
    for (i, m) in input.iter().enumerate() {
        match m {
            Message::User(u) => {
                if results.is_empty() {
                    out.push(Msg { role: "user", blocks: user_blocks(&u.content) });
                } else {
                    // Tool results come first in the same user turn.
                    let mut blocks = std::mem::take(&mut results);
                    blocks.extend(user_blocks(&u.content));
                    out.push(Msg { role: "user", blocks });
                }
            }
            Message::ToolResult(t) => {
                results.push(Block::ToolResult(&t.call_id, user_blocks(&t.content), t.is_error));
            }
            Message::Assistant(a) => {
                flush(&mut out, &mut results);
                let blocks = assistant_blocks(&a.content).map_err(|e| format!("anthropic: message {}: {}", i, e))?;
                if !blocks.is_empty() {
                    out.push(Msg { role: "assistant", blocks });
                }
            }
        }
    }
    flush(&mut out, &mut results);
    Ok(out)
}

/// flush sends the waiting tool results as a user message of their own.
fn flush<'a>(out: &mut Vec<Msg<'a>>, results: &mut Vec<Block<'a>>) {
    if !results.is_empty() {
        out.push(Msg { role: "user", blocks: std::mem::take(results) });
    }
}

fn user_blocks(cs: &[Content]) -> Vec<Block<'_>> {
    let mut out = Vec::with_capacity(cs.len());
    for c in cs {
        match c {
            Content::Text(t) if !t.text.is_empty() => out.push(Block::Text(&t.text)),
            Content::Image(im) => out.push(Block::Image(im)),
            _ => {}
        }
    }
    out
}

fn assistant_blocks(cs: &[Content]) -> Result<Vec<Block<'_>>, &'static str> {
    let mut out = Vec::with_capacity(cs.len());
    for c in cs {
        match c {
            Content::Thinking(t) => {
                if t.redacted {
                    out.push(Block::Redacted(&t.encrypted));
                } else if !t.signature.is_empty() {
                    out.push(Block::Thinking(&t.text, &t.signature));
                } else if !t.text.is_empty() {
                    // Unsigned thinking (a cut-off stream) is rejected as
                    // thinking; keep its content as text.
                    out.push(Block::Text(&t.text));
                }
            }
            Content::Text(t) => {
                if !t.text.is_empty() {
                    out.push(Block::Text(&t.text));
                }
            }
            Content::ToolCall(tc) => {
                // A call whose arguments were not valid is never executed;
                // its result says why.
                let input: &[u8] = if tc.arguments_error.is_empty() { &tc.arguments } else { b"{}" };
                out.push(Block::ToolUse(&tc.id, &tc.name, input));
            }
            Content::Other(o) => out.push(Block::Raw(&o.raw)),
            Content::Image(_) => return Err("an assistant message cannot carry an image"),
        }
    }
    Ok(out)
}

/// body writes the request body with the keys of every object in byte
/// order.
fn body(r: &Request, msgs: &[Msg], max_tokens: i64, thinking: Option<i64>, cache: bool) -> Result<Vec<u8>, String> {
    let mut w = Writer::with_buffer(Vec::with_capacity(512 + r.system.len() + 64 * r.messages.len()));
    w.begin_object();
    w.key("max_tokens");
    w.int(max_tokens);
    w.key("messages");
    if msgs.is_empty() {
        w.null(); // an empty conversation
    } else {
        w.begin_array();
        for (i, m) in msgs.iter().enumerate() {
            // The last block of the last message carries a cache
            // breakpoint, so the whole prefix is cached for the next turn.
            let mark = if cache && i + 1 == msgs.len() { m.blocks.len().checked_sub(1) } else { None };
            w.begin_object();
            w.key("content");
            w.begin_array();
            for (j, b) in m.blocks.iter().enumerate() {
                block(&mut w, b, mark == Some(j))?;
            }
            w.end_array();
            w.key("role");
            w.string(m.role);
            w.end_object();
        }
        w.end_array();
    }
    w.key("model");
    w.string(&r.model);
    w.key("stream");
    w.bool(true);
    if !r.system.is_empty() {
        w.key("system");
        w.begin_array();
        w.begin_object();
        if cache {
            cache_control(&mut w);
        }
        w.key("text");
        w.string(&r.system);
        w.key("type");
        w.string("text");
        w.end_object();
        w.end_array();
    }
    if let Some(budget) = thinking {
        w.key("thinking");
        w.begin_object();
        w.key("budget_tokens");
        w.int(budget);
        w.key("type");
        w.string("enabled");
        w.end_object();
    }
    if !r.tools.is_empty() {
        w.key("tool_choice");
        w.begin_object();
        w.key("disable_parallel_tool_use");
        w.bool(false);
        w.key("type");
        w.string("auto");
        w.end_object();
        w.key("tools");
        w.begin_array();
        for t in &r.tools {
            w.begin_object();
            w.key("description");
            w.string(&t.description);
            w.key("input_schema");
            raw(&mut w, &t.parameters)?;
            w.key("name");
            w.string(&t.name);
            w.end_object();
        }
        w.end_array();
    }
    w.end_object();
    Ok(w.into_bytes())
}

fn cache_control(w: &mut Writer) {
    w.key("cache_control");
    w.begin_object();
    w.key("type");
    w.string("ephemeral");
    w.end_object();
}

/// raw writes a raw JSON value: empty as null, otherwise compacted and
/// validated; the error is [`write::marshal_error_text`]'s.
fn raw(w: &mut Writer, v: &[u8]) -> Result<(), String> {
    if v.is_empty() {
        w.null();
        return Ok(());
    }
    w.raw(v).map_err(|e| write::marshal_error_text(v, &e))
}

/// block writes one content block; `mark` adds the cache breakpoint (an
/// Other block, written verbatim, never gets one).
fn block(w: &mut Writer, b: &Block, mark: bool) -> Result<(), String> {
    if let Block::Raw(v) = b {
        return raw(w, v);
    }
    w.begin_object();
    if mark {
        cache_control(w);
    }
    match b {
        Block::Text(text) => {
            w.key("text");
            w.string(text);
            w.key("type");
            w.string("text");
        }
        Block::Image(im) => {
            w.key("source");
            w.begin_object();
            w.key("data");
            w.bytes(&im.data);
            w.key("media_type");
            w.string(&im.media_type);
            w.key("type");
            w.string("base64");
            w.end_object();
            w.key("type");
            w.string("image");
        }
        Block::ToolResult(call_id, content, is_error) => {
            w.key("content");
            w.begin_array();
            for c in content {
                block(w, c, false)?;
            }
            w.end_array();
            if *is_error {
                w.key("is_error");
                w.bool(true);
            }
            w.key("tool_use_id");
            w.string(call_id);
            w.key("type");
            w.string("tool_result");
        }
        Block::Redacted(data) => {
            w.key("data");
            w.string(data);
            w.key("type");
            w.string("redacted_thinking");
        }
        Block::Thinking(text, signature) => {
            w.key("signature");
            w.string(signature);
            w.key("thinking");
            w.string(text);
            w.key("type");
            w.string("thinking");
        }
        Block::ToolUse(id, name, input) => {
            w.key("id");
            w.string(id);
            w.key("input");
            raw(w, input)?;
            w.key("name");
            w.string(name);
            w.key("type");
            w.string("tool_use");
        }
        Block::Raw(_) => {} // written above
    }
    w.end_object();
    Ok(())
}

/// thinking_budget returns budget_tokens and max_tokens for a request with
/// thinking enabled. The API wants MIN_BUDGET <= budget_tokens < max_tokens.
/// With no output bound, max_tokens is the budget plus DEFAULT_MAX_TOKENS. With
/// one, a level's budget is lowered to leave answer_room, but not below
/// MIN_BUDGET; it fails only when even MIN_BUDGET does not fit. An explicit
/// budget (thinking_budget > 0) is sent as given, or refused when it does not
/// fit.
fn thinking_budget(r: &Request) -> Result<(i64, i64), String> {
    let explicit = r.thinking_budget > 0;
    let budget = if explicit { r.thinking_budget } else { level_budget(&r.thinking) };
    if budget == 0 {
        let mut level = String::new();
        smith_text::quote::quote(&mut level, r.thinking.as_bytes());
        return Err(format!(
            "anthropic: thinking level {} has no budget; use minimal, low, medium, high or xhigh",
            level
        ));
    }
    if budget < MIN_BUDGET {
        return Err(format!(
            "anthropic: thinking budget {} is below the API's minimum of {} tokens; give {} or more",
            budget, MIN_BUDGET, MIN_BUDGET
        ));
    }
    if r.max_tokens == 0 {
        return Ok((budget, budget.wrapping_add(DEFAULT_MAX_TOKENS)));
    }
    if r.max_tokens <= MIN_BUDGET {
        return Err(format!(
            "anthropic: model {} may write at most {} output tokens (max_tokens), which leaves no room for thinking: its budget must be at least {} and below max_tokens; allow more than {} output tokens ({} or more leaves {} for the answer), or turn thinking off",
            r.model, r.max_tokens, MIN_BUDGET, MIN_BUDGET, 2 * MIN_BUDGET, MIN_BUDGET
        ));
    }
    if explicit {
        if budget >= r.max_tokens {
            return Err(format!(
                "anthropic: thinking budget {} must be below max_tokens {} of model {}; give a budget of at most {}, or allow more than {} output tokens",
                budget,
                r.max_tokens,
                r.model,
                r.max_tokens - 1,
                budget
            ));
        }
        return Ok((budget, r.max_tokens));
    }
    Ok((MIN_BUDGET.max(budget.min(r.max_tokens - answer_room(r.max_tokens))), r.max_tokens))
}

/// level_budget maps a thinking level to budget_tokens; 0 for a level
/// without one.
fn level_budget(level: &str) -> i64 {
    match level {
        crate::norm::message::THINKING_MINIMAL => MIN_BUDGET,
        crate::norm::message::THINKING_LOW => 2048,
        crate::norm::message::THINKING_MEDIUM => 8192,
        crate::norm::message::THINKING_HIGH => 16384,
        crate::norm::message::THINKING_XHIGH => 32000,
        _ => 0,
    }
}

/// answer_room is the part of max tokens a level's budget leaves for the
/// answer: a quarter, at least MIN_BUDGET.
fn answer_room(max_tokens: i64) -> i64 {
    MIN_BUDGET.max(max_tokens / 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::{
        AssistantMessage, Other, Text, Thinking, Tool, ToolCall, ToolResultMessage, UserMessage,
    };

    fn text(s: &str) -> Content {
        Content::Text(Text { text: s.into(), ..Text::default() })
    }

    fn user(cs: Vec<Content>) -> Message {
        Message::User(UserMessage { content: cs })
    }

    fn assistant(cs: Vec<Content>) -> Message {
        Message::Assistant(AssistantMessage { content: cs, ..AssistantMessage::default() })
    }

    fn result(id: &str, cs: Vec<Content>, is_error: bool) -> Message {
        Message::ToolResult(ToolResultMessage {
            call_id: id.into(),
            content: cs,
            is_error,
            ..ToolResultMessage::default()
        })
    }

    fn body_of(r: &Request) -> String {
        let hr = build_request(r, "KEY").expect("build");
        String::from_utf8(hr.body).expect("UTF-8 body")
    }

    #[test]
    fn bodies() {
        let r = Request {
            model: "m".into(),
            max_tokens: 2000,
            thinking: "high".into(),
            tools: vec![Tool {
                name: "add".into(),
                description: "d".into(),
                parameters: br#"{ "type" : "object" }"#.to_vec(),
            }],
            messages: vec![
                user(vec![
                    text("look"),
                    Content::Image(Image { media_type: "image/png".into(), data: vec![0, 1, 2, 3, 250] }),
                    text(""),
                ]),
                assistant(vec![
                    Content::Thinking(Thinking {
                        text: "hm".into(),
                        signature: b"sig".to_vec(),
                        ..Thinking::default()
                    }),
                    Content::Thinking(Thinking { redacted: true, encrypted: b"enc".to_vec(), ..Thinking::default() }),
                    Content::Thinking(Thinking { text: "cut".into(), ..Thinking::default() }),
                    Content::ToolCall(ToolCall {
                        id: "t1".into(),
                        name: "add".into(),
                        arguments: br#"{"a": 1}"#.to_vec(),
                        ..ToolCall::default()
                    }),
                    Content::ToolCall(ToolCall {
                        id: "t2".into(),
                        name: "add".into(),
                        arguments: br#""{bad""#.to_vec(),
                        arguments_error: "x".into(),
                        ..ToolCall::default()
                    }),
                ]),
                result("t1", vec![text("2")], false),
                result("t2", vec![], true),
                user(vec![text("next")]),
                assistant(vec![]),
                assistant(vec![Content::Other(Other {
                    type_: "server_tool_use".into(),
                    raw: br#"{"type":"server_tool_use", "id":"s"}"#.to_vec(),
                    ..Other::default()
                })]),
            ],
            cache_key: "k".into(),
            ..Request::default()
        };
        assert_eq!(
            body_of(&r),
            r#"{"max_tokens":2000,"messages":[{"content":[{"text":"look","type":"text"},{"source":{"data":"AAECA/o=","media_type":"image/png","type":"base64"},"type":"image"}],"role":"user"},{"content":[{"signature":"sig","thinking":"hm","type":"thinking"},{"data":"enc","type":"redacted_thinking"},{"text":"cut","type":"text"},{"id":"t1","input":{"a":1},"name":"add","type":"tool_use"},{"id":"t2","input":{},"name":"add","type":"tool_use"}],"role":"assistant"},{"content":[{"content":[{"text":"2","type":"text"}],"tool_use_id":"t1","type":"tool_result"},{"content":[],"is_error":true,"tool_use_id":"t2","type":"tool_result"},{"text":"next","type":"text"}],"role":"user"},{"content":[{"type":"server_tool_use","id":"s"}],"role":"assistant"}],"model":"m","stream":true,"thinking":{"budget_tokens":1024,"type":"enabled"},"tool_choice":{"disable_parallel_tool_use":false,"type":"auto"},"tools":[{"description":"d","input_schema":{"type":"object"},"name":"add"}]}"#
        );
        let r = Request {
            model: "m".into(),
            messages: vec![result("c", vec![], false)],
            cache_key: "k".into(),
            ..Request::default()
        };
        assert_eq!(
            body_of(&r),
            r#"{"max_tokens":4096,"messages":[{"cache_control":{"type":"ephemeral"},"content":[],"tool_use_id":"c","type":"tool_result"}],"role":"user"}],"model":"m","stream":true}"#
                .replace(r#"[{"cache_control""#, r#"[{"content":[{"cache_control""#)
        );
        assert_eq!(
            body_of(&Request { model: "m".into(), ..Request::default() }),
            r#"{"max_tokens":4096,"messages":null,"model":"m","stream":true}"#
        );
    }

    #[test]
    fn raw_errors_are_encoding_json_errors() {
        let cases: &[(&[u8], &str)] = &[
            (b"x", "invalid character 'x' at offset 0 looking for the beginning of a value"),
            (b"tr", "the input ends at offset 2 in the literal true; the JSON text is incomplete"),
            (b"{\"a\" 1}", "invalid character '1' at offset 5 after an object key"),
        ];
        for (raw, want) in cases {
            let tool = Tool { name: "t".into(), parameters: raw.to_vec(), ..Tool::default() };
            let r = Request { model: "m".into(), tools: vec![tool], ..Request::default() };
            let got = build_request(&r, "K").unwrap_err();
            assert_eq!(
                got,
                format!("anthropic: encode request body: raw JSON value is not valid JSON: {}", want),
                "raw {:?}",
                String::from_utf8_lossy(raw)
            );
        }
        let deep = "[".repeat(10001);
        let tool = Tool { name: "t".into(), parameters: deep.into_bytes(), ..Tool::default() };
        let got = build_request(&Request { tools: vec![tool], ..Request::default() }, "K").unwrap_err();
        assert!(got.ends_with("not valid JSON: nesting at offset 10000 exceeds the limit of 10000 levels"), "{}", got);
    }

    #[test]
    fn errors_come_in_order() {
        // An assistant image fails before the thinking budget, which fails
        // before a raw value.
        let bad_tool = Tool { name: "t".into(), parameters: b"x".to_vec(), ..Tool::default() };
        let image = Content::Image(Image::default());
        let r = Request {
            model: "m".into(),
            thinking: "extreme".into(),
            tools: vec![bad_tool],
            messages: vec![user(vec![image.clone()]), assistant(vec![text("a"), image])],
            ..Request::default()
        };
        assert_eq!(
            build_request(&r, "K").unwrap_err(),
            "anthropic: message 1: an assistant message cannot carry an image"
        );
        let r = Request { messages: vec![], ..r };
        assert_eq!(
            build_request(&r, "K").unwrap_err(),
            "anthropic: thinking level \"extreme\" has no budget; use minimal, low, medium, high or xhigh"
        );
        let r = Request { thinking: "off".into(), ..r };
        assert!(build_request(&r, "K")
            .unwrap_err()
            .starts_with("anthropic: encode request body: raw JSON value is not valid JSON"));
    }

    #[test]
    fn thinking_budgets() {
        // (max_tokens, level, budget, want max_tokens, want budget_tokens
        // (0: no thinking object) or the error); model "claude-sonnet-4-5".
        let no_room = "anthropic: model claude-sonnet-4-5 may write at most 1024 output tokens (max_tokens), which leaves no room for thinking: its budget must be at least 1024 and below max_tokens; allow more than 1024 output tokens (2048 or more leaves 1024 for the answer), or turn thinking off";
        let not_below = "anthropic: thinking budget 4096 must be below max_tokens 4096 of model claude-sonnet-4-5; give a budget of at most 4095, or allow more than 4096 output tokens";
        let too_small = "anthropic: thinking budget 500 is below the API's minimum of 1024 tokens; give 1024 or more";
        let bad_level =
            "anthropic: thinking level \"ex\\\"treme\\x01\" has no budget; use minimal, low, medium, high or xhigh";
        let cases: &[(i64, &str, i64, Result<(i64, i64), &str>)] = &[
            (0, "", 0, Ok((4096, 0))),
            (0, "off", 0, Ok((4096, 0))),
            (1000, "", 0, Ok((1000, 0))),
            (0, "high", 0, Ok((16384 + 4096, 16384))),
            (0, "xhigh", 0, Ok((32000 + 4096, 32000))),
            (0, "minimal", 0, Ok((1024 + 4096, 1024))),
            (0, "medium", 5000, Ok((5000 + 4096, 5000))),
            (32000, "xhigh", 0, Ok((32000, 24000))),
            (64000, "xhigh", 0, Ok((64000, 32000))),
            (21845, "high", 0, Ok((21845, 16384))),
            (16385, "high", 0, Ok((16385, 12289))),
            (4096, "high", 0, Ok((4096, 3072))),
            (3000, "medium", 0, Ok((3000, 1976))),
            (1500, "low", 0, Ok((1500, 1024))),
            (1025, "xhigh", 0, Ok((1025, 1024))),
            (4096, "extreme", 2000, Ok((4096, 2000))),
            (4096, "high", -5, Ok((4096, 3072))),
            (1024, "minimal", 0, Err(no_room)),
            (4096, "medium", 4096, Err(not_below)),
            (4096, "medium", 500, Err(too_small)),
            (4096, "ex\"treme\u{1}", 0, Err(bad_level)),
            (0, "high", i64::MAX, Ok((i64::MAX.wrapping_add(4096), i64::MAX))),
        ];
        for (max_tokens, level, budget, want) in cases {
            let r = Request {
                model: "claude-sonnet-4-5".into(),
                max_tokens: *max_tokens,
                thinking: level.to_string(),
                thinking_budget: *budget,
                ..Request::default()
            };
            let got = build_request(&r, "K").map(|hr| {
                let body = String::from_utf8(hr.body).unwrap();
                let num = |key: &str| -> i64 {
                    body.find(key).map_or(0, |at| {
                        let rest = &body[at + key.len()..];
                        let end = rest.find(|c: char| c != '-' && !c.is_ascii_digit()).unwrap_or(rest.len());
                        rest[..end].parse().unwrap()
                    })
                };
                (num("\"max_tokens\":"), num("\"budget_tokens\":"))
            });
            assert_eq!(
                got,
                want.map_err(|e| e.to_string()),
                "max_tokens {} level {:?} budget {}",
                max_tokens,
                level,
                budget
            );
        }
    }
}
