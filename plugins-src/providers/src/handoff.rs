//! handoff rewrites a conversation so the next provider accepts it when
//! the model changes mid-session.
//!
//! Opaque payloads another vendor made (thinking signatures, encrypted
//! reasoning, Gemini thought signatures, server-side tool blocks) are
//! removed or turned into plain text, tool-call ids are rewritten to the
//! target's allowed characters and length with their results rewritten
//! alike, and every tool call keeps exactly one result.
//!
//! An id is rewritten char by char: each char outside the allowed set
//! becomes one `_`.

use std::collections::BTreeMap;

use crate::norm::message::{AssistantMessage, Content, Message, Text, ToolResultMessage, UserMessage};

/// Target is the provider the conversation goes to next: `provider` is
/// the producer tag its decoder puts on messages ("anthropic", "openai",
/// "google", "openrouter", …), `api` its wire API (anthropic, openai-chat,
/// openai-responses, gemini), and `model` the model id (encrypted reasoning is
/// only replayed to the model that made it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Target {
    pub provider: String,
    pub api: String,
    pub model: String,
}

/// SKIP_SIGNATURE is the value Gemini accepts in place of a thought
/// signature on a function call it did not make.
pub const SKIP_SIGNATURE: &str = "skip_thought_signature_validator";

/// NOT_EXECUTED is the text of the error result a call without a result
/// gets.
const NOT_EXECUTED: &str = "The tool call was not executed (the turn was interrupted).";

/// transform returns the conversation rewritten for `t`. Messages that
/// ended in an error are dropped (their tool calls never ran); results of
/// calls no longer in the history become user text; calls without a
/// result get an error result, so pairing always holds.
pub fn transform(msgs: Vec<Message>, t: &Target) -> Vec<Message> {
    let mut ids = IdMap::new(&t.api);
    let mut out = Vec::with_capacity(msgs.len());
    let mut it = msgs.into_iter().peekable();
    while let Some(m) = it.next() {
        match m {
            Message::Assistant(m) => {
                if m.error.is_some() {
                    continue;
                }
                let am = assistant(m, t, &mut ids);
                // Pair the calls with the results that follow.
                let mut pending: BTreeMap<String, String> = BTreeMap::new(); // id → name
                let mut order: Vec<String> = Vec::new();
                for c in am.tool_calls() {
                    pending.insert(c.id.clone(), c.name.clone());
                    order.push(c.id.clone());
                }
                out.push(Message::Assistant(am));
                while let Some(Message::ToolResult(_)) = it.peek() {
                    let mut r = match it.next() {
                        Some(Message::ToolResult(r)) => r,
                        _ => break,
                    };
                    let id = ids.get(&r.call_id);
                    if pending.remove(&id).is_none() {
                        out.push(orphan_result(r));
                        continue;
                    }
                    r.call_id = id;
                    out.push(Message::ToolResult(r));
                }
                for id in order {
                    if let Some(name) = pending.get(&id) {
                        out.push(Message::ToolResult(ToolResultMessage {
                            call_id: id.clone(),
                            name: name.clone(),
                            is_error: true,
                            content: vec![Content::Text(Text { text: NOT_EXECUTED.to_string(), ..Text::default() })],
                        }));
                    }
                }
            }
            Message::ToolResult(r) => out.push(orphan_result(r)),
            m => out.push(m),
        }
    }
    out
}

/// orphan_result turns the result of a call no longer in the history
/// into user text (its other blocks kept after it).
fn orphan_result(r: ToolResultMessage) -> Message {
    let mut text = format!("Result of an earlier {} tool call:\n", r.name);
    let mut content = Vec::with_capacity(r.content.len() + 1);
    content.push(Content::Text(Text::default()));
    for c in r.content {
        match c {
            Content::Text(t) => text.push_str(&t.text),
            c => content.push(c),
        }
    }
    content[0] = Content::Text(Text { text, ..Text::default() });
    Message::User(UserMessage { content })
}

/// assistant rewrites one assistant message's blocks for `t`.
fn assistant(mut m: AssistantMessage, t: &Target, ids: &mut IdMap) -> AssistantMessage {
    let own = m.provider == t.provider;
    let source = std::mem::take(&mut m.content);
    let mut out = AssistantMessage { content: Vec::with_capacity(source.len()), ..m };
    // The Responses API refuses encrypted reasoning another model made.
    let replay_refused = t.api == "openai-responses" && out.model != t.model;
    for c in source {
        match c {
            Content::Thinking(c) => {
                if own && !(replay_refused && !c.encrypted.is_empty()) {
                    out.content.push(Content::Thinking(c));
                } else if c.redacted || c.text.is_empty() {
                    // Nothing readable to keep.
                } else {
                    // Readable reasoning stays as text; the blank line keeps
                    // it apart from the answer when an API joins text blocks.
                    let mut text = c.text;
                    text.push_str("\n\n");
                    out.content.push(Content::Text(Text { text, ..Text::default() }));
                }
            }
            Content::Text(mut c) => {
                if !own {
                    c.signature = Vec::new();
                    c.item_id.clear();
                    c.phase.clear();
                }
                out.content.push(Content::Text(c));
            }
            Content::ToolCall(mut c) => {
                c.id = ids.get(&c.id);
                if !own {
                    c.signature = Vec::new();
                    c.item_id.clear();
                    if t.api == "gemini" {
                        c.signature = SKIP_SIGNATURE.as_bytes().to_vec();
                    }
                }
                out.content.push(Content::ToolCall(c));
            }
            Content::Other(c) => {
                if own {
                    out.content.push(Content::Other(c));
                }
            }
            c => out.content.push(c),
        }
    }
    out
}

/// IdRule is an API's tool-call id constraint: the characters allowed
/// besides ASCII letters and digits, and the maximum length.
struct IdRule {
    extra: &'static [u8],
    max: usize,
}

/// id_rule returns the rule of a wire API, None for an API without one.
fn id_rule(api: &str) -> Option<IdRule> {
    match api {
        "anthropic" | "openai-responses" => Some(IdRule { extra: b"_-", max: 64 }),
        "openai-chat" => Some(IdRule { extra: b"_-", max: 40 }),
        "gemini" => Some(IdRule { extra: b"_.:-", max: 64 }),
        _ => None,
    }
}

/// IdMap rewrites ids to a target's rules, consistently and without
/// collisions.
struct IdMap {
    rule: Option<IdRule>,
    to: BTreeMap<String, String>,
    used: BTreeMap<String, String>, // rewritten → original
}

impl IdMap {
    fn new(api: &str) -> IdMap {
        IdMap { rule: id_rule(api), to: BTreeMap::new(), used: BTreeMap::new() }
    }

    fn get(&mut self, id: &str) -> String {
        if let Some(v) = self.to.get(id) {
            return v.clone();
        }
        let mut v = id.to_string();
        if let Some(rule) = &self.rule {
            v = id
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || (c.is_ascii() && rule.extra.contains(&(c as u8))) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if v.is_empty() {
                v = "call".to_string();
            }
            // v is ASCII from here on, so byte offsets are char boundaries.
            if v.len() > rule.max {
                v = hashed(&v[..rule.max - 9], id);
            }
            if self.used.get(&v).map_or(false, |o| o != id) {
                let n = v.len().min(rule.max - 9);
                v = hashed(&v[..n], id);
            }
        }
        self.to.insert(id.to_string(), v.clone());
        self.used.insert(v.clone(), id.to_string());
        v
    }
}

/// hashed returns prefix, "_" and the FNV-1a (32 bits) hash of id in
/// eight hex digits.
fn hashed(prefix: &str, id: &str) -> String {
    format!("{}_{:08x}", prefix, fnv32a(id.as_bytes()))
}

fn fnv32a(b: &[u8]) -> u32 {
    b.iter().fold(0x811c_9dc5u32, |h, &c| (h ^ u32::from(c)).wrapping_mul(0x0100_0193))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::{Image, Other, Thinking, ToolCall};

    fn call(id: &str, name: &str) -> Content {
        Content::ToolCall(ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: b"{}".to_vec(),
            ..ToolCall::default()
        })
    }

    fn result(id: &str, name: &str, text: &str) -> Message {
        Message::ToolResult(ToolResultMessage {
            call_id: id.into(),
            name: name.into(),
            content: vec![Content::Text(Text { text: text.into(), ..Text::default() })],
            is_error: false,
        })
    }

    fn target(provider: &str, api: &str, model: &str) -> Target {
        Target { provider: provider.into(), api: api.into(), model: model.into() }
    }

    fn ids_of(msgs: &[Message]) -> Vec<String> {
        let mut out = Vec::new();
        for m in msgs {
            match m {
                Message::Assistant(a) => out.extend(a.tool_calls().map(|c| c.id.clone())),
                Message::ToolResult(r) => out.push(format!("result {}", r.call_id)),
                Message::User(_) => out.push("user".to_string()),
            }
        }
        out
    }

    #[test]
    fn foreign_thinking_becomes_text_and_foreign_blocks_go() {
        let turn = AssistantMessage {
            provider: "anthropic".into(),
            model: "claude".into(),
            content: vec![
                Content::Thinking(Thinking {
                    text: "let me look".into(),
                    signature: b"sig".to_vec(),
                    ..Thinking::default()
                }),
                Content::Thinking(Thinking { redacted: true, encrypted: b"enc".to_vec(), ..Thinking::default() }),
                Content::Other(Other { type_: "server_tool_use".into(), raw: b"{}".to_vec(), ..Other::default() }),
                Content::Text(Text {
                    text: "Reading.".into(),
                    signature: b"s".to_vec(),
                    item_id: "m".into(),
                    ..Text::default()
                }),
                Content::Image(Image::default()),
                call("toolu_01", "read"),
            ],
            ..AssistantMessage::default()
        };
        let msgs = vec![Message::Assistant(turn.clone()), result("toolu_01", "read", "x")];
        let same = transform(msgs.clone(), &target("anthropic", "anthropic", "claude"));
        assert_eq!(same, msgs);
        let out = transform(msgs, &target("google", "gemini", "g"));
        let want = AssistantMessage {
            content: vec![
                Content::Text(Text { text: "let me look\n\n".into(), ..Text::default() }),
                Content::Text(Text { text: "Reading.".into(), ..Text::default() }),
                Content::Image(Image::default()),
                Content::ToolCall(ToolCall {
                    id: "toolu_01".into(),
                    name: "read".into(),
                    arguments: b"{}".to_vec(),
                    signature: SKIP_SIGNATURE.as_bytes().to_vec(),
                    ..ToolCall::default()
                }),
            ],
            ..turn
        };
        assert_eq!(out, vec![Message::Assistant(want), result("toolu_01", "read", "x")]);
    }

    #[test]
    fn encrypted_reasoning_stays_with_its_model() {
        let turn = AssistantMessage {
            provider: "openai".into(),
            model: "gpt-5".into(),
            content: vec![Content::Thinking(Thinking {
                text: "sum".into(),
                encrypted: b"gA".to_vec(),
                ..Thinking::default()
            })],
            ..AssistantMessage::default()
        };
        let kept = transform(vec![Message::Assistant(turn.clone())], &target("openai", "openai-responses", "gpt-5"));
        assert_eq!(kept, vec![Message::Assistant(turn.clone())]);
        let other =
            transform(vec![Message::Assistant(turn.clone())], &target("openai", "openai-responses", "gpt-5-mini"));
        let text = Content::Text(Text { text: "sum\n\n".into(), ..Text::default() });
        assert_eq!(other, vec![Message::Assistant(AssistantMessage { content: vec![text], ..turn })]);
    }

    #[test]
    fn pairing_holds() {
        let errored = AssistantMessage {
            content: vec![call("gone", "f")],
            error: Some(Box::new(crate::norm::Error::default())),
            ..AssistantMessage::default()
        };
        let turn = AssistantMessage { content: vec![call("a", "f"), call("b", "g")], ..AssistantMessage::default() };
        let msgs = vec![
            result("early", "f", "r0"),
            Message::Assistant(errored),
            result("gone", "f", "r1"),
            Message::Assistant(turn),
            result("b", "g", "r2"),
            result("zz", "h", "r3"),
        ];
        let out = transform(msgs, &target("", "anthropic", ""));
        assert_eq!(ids_of(&out), vec!["user", "user", "a", "b", "result b", "user", "result a"]);
        let earlier = Content::Text(Text { text: "Result of an earlier f tool call:\nr0".into(), ..Text::default() });
        assert_eq!(out[0], Message::User(UserMessage { content: vec![earlier] }));
        match &out[5] {
            Message::ToolResult(r) => assert_eq!((&r.name[..], r.is_error), ("f", true)),
            m => panic!("{:?}", m),
        }
    }

    #[test]
    fn ids_follow_each_rule() {
        let long = "call_abc|fc_0123456789012345678901234567890123456789012345678901234567890123";
        let mut m = IdMap::new("anthropic");
        assert_eq!(m.get("toolu_01"), "toolu_01");
        assert_eq!(m.get(""), "call");
        let v = m.get(long);
        assert_eq!(v.len(), 64);
        assert_eq!(&v[..55], &"call_abc_fc_0123456789012345678901234567890123456789012345678901234567890123"[..55]);
        assert_eq!(m.get(long), v);
        // "a|b" and "a.b" both become "a_b": the second is hashed.
        assert_eq!(m.get("a|b"), "a_b");
        assert_eq!(m.get("a.b"), format!("a_b_{:08x}", fnv32a(b"a.b")));
        let mut g = IdMap::new("gemini");
        assert_eq!(g.get("a.b:c/é"), "a.b:c__");
        let mut x = IdMap::new("mistral-less");
        assert_eq!(x.get("any|thing"), "any|thing");
        assert_eq!((fnv32a(b""), fnv32a(b"a")), (0x811c9dc5, 0xe40c292c));
    }
}
