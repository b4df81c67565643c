//! replay writes the input items that replay one earlier response.
//!
//! Reasoning items are replayed only whole: with their id and
//! encrypted_content. The message and function_call items that follow a
//! reasoning item are paired with it by their item ids (msg_…, fc_…), so
//! the ids are sent exactly when the response's reasoning is replayed;
//! without ids the items stand on their own (function calls are linked to
//! their outputs by call_id either way). Text blocks of one message item
//! (same item id and phase) become one message; a message keeps its phase
//! (commentary or final_answer).

use crate::norm::message::{AssistantMessage, Content, Thinking};
use crate::openai_chat::anyjson::{str, Object, Value};

/// assistant_items appends the items that replay m to out.
pub fn assistant_items<'a>(out: &mut Vec<Value<'a>>, m: &'a AssistantMessage) -> Result<(), &'static str> {
    let with_ids = m.content.iter().any(|c| matches!(c, Content::Thinking(t) if replayable(t)));
    let mut text: Vec<u8> = Vec::new();
    let (mut item_id, mut phase, mut open): (&'a str, &'a str, bool) = ("", "", false);
    let flush = |out: &mut Vec<Value<'a>>, text: &mut Vec<u8>, open: &mut bool, item_id: &'a str, phase: &'a str| {
        if *open && !text.is_empty() {
            out.push(message_item(std::mem::take(text), item_id, phase, with_ids));
        }
        text.clear();
        *open = false;
    };
    for c in &m.content {
        match c {
            Content::Text(t) => {
                if open && (t.item_id != item_id || t.phase != phase) {
                    flush(out, &mut text, &mut open, item_id, phase);
                }
                item_id = &t.item_id;
                phase = &t.phase;
                open = true;
                text.extend_from_slice(t.text.as_bytes());
            }
            Content::Thinking(t) => {
                if !replayable(t) {
                    continue; // only a complete reasoning item can be replayed
                }
                flush(out, &mut text, &mut open, item_id, phase);
                let mut summary = Vec::new();
                if !t.text.is_empty() {
                    summary.push(Object::new().with("type", str("summary_text")).with("text", str(&t.text)).into());
                }
                out.push(
                    Object::new()
                        .with("type", str("reasoning"))
                        .with("id", str(&t.item_id))
                        .with("summary", Value::Array(summary))
                        .with("encrypted_content", Value::Str(&t.encrypted))
                        .into(),
                );
            }
            Content::ToolCall(c) => {
                flush(out, &mut text, &mut open, item_id, phase);
                // A call whose arguments were not valid is never executed;
                // its result says why.
                let args = if c.arguments_error.is_empty() { Value::Str(&c.arguments) } else { str("{}") };
                let mut item = Object::new()
                    .with("type", str("function_call"))
                    .with("call_id", str(&c.id))
                    .with("name", str(&c.name))
                    .with("arguments", args);
                if with_ids && !c.item_id.is_empty() {
                    item.set("id", str(&c.item_id));
                }
                out.push(item.into());
            }
            Content::Other(o) => {
                flush(out, &mut text, &mut open, item_id, phase);
                out.push(Value::Raw(&o.raw));
            }
            Content::Image(_) => return Err("an assistant message cannot carry an image"),
        }
    }
    flush(out, &mut text, &mut open, item_id, phase);
    Ok(())
}

/// replayable reports whether a thinking block is a whole reasoning item.
fn replayable(t: &Thinking) -> bool {
    !t.encrypted.is_empty() && !t.item_id.is_empty()
}

/// message_item is an assistant message item: the output message with its
/// id when ids are sent, otherwise the plain role/content form.
fn message_item<'a>(text: Vec<u8>, id: &'a str, phase: &'a str, with_id: bool) -> Value<'a> {
    let mut item = if with_id && !id.is_empty() {
        let part = Object::new()
            .with("type", str("output_text"))
            .with("text", Value::String(text))
            .with("annotations", Value::Array(Vec::new()));
        Object::new()
            .with("type", str("message"))
            .with("role", str("assistant"))
            .with("id", str(id))
            .with("status", str("completed"))
            .with("content", Value::Array(vec![part.into()]))
    } else {
        Object::new().with("role", str("assistant")).with("content", Value::String(text))
    };
    if !phase.is_empty() {
        item.set("phase", str(phase)); // gpt-5.x tells commentary from the final answer
    }
    item.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::*;
    use crate::openai_chat::anyjson::marshal;

    fn items(m: &AssistantMessage) -> String {
        let mut out = Vec::new();
        assistant_items(&mut out, m).unwrap();
        String::from_utf8(marshal(&Value::Array(out)).unwrap()).unwrap()
    }

    fn text(s: &str, item: &str, phase: &str) -> Content {
        Content::Text(Text { text: s.into(), item_id: item.into(), phase: phase.into(), ..Text::default() })
    }

    fn call(id: &str, item: &str) -> Content {
        Content::ToolCall(ToolCall {
            id: id.into(),
            name: "f".into(),
            arguments: b"{}".to_vec(),
            item_id: item.into(),
            ..ToolCall::default()
        })
    }

    #[test]
    fn ids_go_with_replayed_reasoning() {
        let reasoning = Content::Thinking(Thinking {
            text: "s".into(),
            encrypted: b"E".to_vec(),
            item_id: "rs_1".into(),
            ..Thinking::default()
        });
        let m = AssistantMessage {
            content: vec![
                reasoning,
                text("a", "msg_1", "commentary"),
                text("b", "msg_1", "commentary"),
                text("c", "msg_2", ""),
                call("c1", "fc_1"),
            ],
            ..AssistantMessage::default()
        };
        assert_eq!(
            items(&m),
            concat!(
                r#"[{"encrypted_content":"E","id":"rs_1","summary":[{"text":"s","type":"summary_text"}],"type":"reasoning"},"#,
                r#"{"content":[{"annotations":[],"text":"ab","type":"output_text"}],"id":"msg_1","phase":"commentary","role":"assistant","status":"completed","type":"message"},"#,
                r#"{"content":[{"annotations":[],"text":"c","type":"output_text"}],"id":"msg_2","role":"assistant","status":"completed","type":"message"},"#,
                r#"{"arguments":"{}","call_id":"c1","id":"fc_1","name":"f","type":"function_call"}]"#
            )
        );
    }

    #[test]
    fn without_reasoning_items_stand_alone() {
        let partial =
            Content::Thinking(Thinking { text: "lost".into(), item_id: "rs_1".into(), ..Thinking::default() });
        let bad = Content::ToolCall(ToolCall {
            id: "c2".into(),
            arguments: b"\"x".to_vec(),
            arguments_error: "e".into(),
            ..ToolCall::default()
        });
        let other = Content::Other(Other {
            type_: "web_search_call".into(),
            raw: b"{\"type\": \"web_search_call\"}".to_vec(),
            ..Other::default()
        });
        let m = AssistantMessage {
            content: vec![
                text("a", "msg_1", "final_answer"),
                partial,
                text("", "msg_1", "final_answer"),
                call("c1", "fc_1"),
                bad,
                other,
                text("", "", ""),
            ],
            ..AssistantMessage::default()
        };
        assert_eq!(
            items(&m),
            concat!(
                r#"[{"content":"a","phase":"final_answer","role":"assistant"},"#,
                r#"{"arguments":"{}","call_id":"c1","name":"f","type":"function_call"},"#,
                r#"{"arguments":"{}","call_id":"c2","name":"","type":"function_call"},{"type":"web_search_call"}]"#
            )
        );
    }
}
