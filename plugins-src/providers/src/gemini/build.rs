//! build is the Gemini streamGenerateContent request builder.
//!
//! ```ignore
//! let hr = gemini::build::build_request(&request, "GEMINI_API_KEY")?;
//! ```
//!
//! The body's objects are written with their members in key order,
//! strings escaped by smith_json::write. A tool's parameters are read as
//! one JSON value (of repeated keys the last counts, strings are unquoted
//! with U+FFFD for invalid UTF-8 and lone surrogates, numbers keep their
//! text) and converted to Gemini's schema subset without recursion, so a
//! schema nested as deep as the JSON reader allows (10000 levels) costs
//! heap, not stack.
//!
//! An empty `arguments` or `raw` is written as null; empty `parameters`
//! fail as JSON that ends early.

use crate::norm::message::{Content, Header, HttpRequest, Image, Message, Request, ToolResultMessage};
use smith_json::read::{self, Cursor};
use smith_json::write::Writer;
use std::borrow::Cow;

/// build_request returns the streamGenerateContent?alt=sse request for r. The
/// credential is a reference: the x-goog-api-key header carries secret_ref for
/// the host to fill in. Each thought signature goes back on the part it came
/// on; thought summaries without a signature are not sent back. Tool schemas
/// are converted to Gemini's OpenAPI subset (see [`Schema::parse`]). Gemini 3
/// models take thinkingLevel, older ones thinkingBudget. The error is a
/// message starting "gemini: ".
pub fn build_request(r: &Request, secret_ref: &str) -> Result<HttpRequest, String> {
    // The checks before encoding, in order: an image in an assistant
    // message, then the tool schemas, then the thinking level.
    for (i, m) in r.messages.iter().enumerate() {
        if let Message::Assistant(a) = m {
            if a.content.iter().any(|c| matches!(c, Content::Image(_))) {
                return Err(format!("gemini: message {}: an assistant message cannot carry an image", i));
            }
        }
    }
    let mut schemas = Vec::with_capacity(r.tools.len());
    for t in &r.tools {
        match Schema::parse(&t.parameters) {
            Ok(s) => schemas.push(s),
            Err(e) => {
                let mut msg = String::from("gemini: tool ");
                smith_text::quote::quote(&mut msg, t.name.as_bytes());
                msg.push_str(": parameters are not a JSON schema: ");
                msg.push_str(&e);
                return Err(msg);
            }
        }
    }
    let thinking = thinking_config(r)?;
    let mut w = Writer::new();
    write_body(&mut w, r, &schemas, thinking)?;
    let mut path = String::from("/v1beta/models/");
    path_escape(&mut path, r.model.as_bytes());
    path.push_str(":streamGenerateContent?alt=sse");
    Ok(HttpRequest {
        method: "POST".to_owned(),
        path,
        headers: vec![
            Header::new("content-type", "application/json", ""),
            Header::new("accept", "text/event-stream", ""),
            Header::new("x-goog-api-key", "", secret_ref),
        ],
        body: w.into_bytes(),
    })
}

/// Thinking is the thinkingConfig to send.
enum Thinking {
    Level(&'static str),
    Budget(i64),
}

/// thinking_config returns the thinkingConfig of r (None for the default
/// level) and whether thoughts are included, or the error for a level
/// that has no budget.
fn thinking_config(r: &Request) -> Result<Option<(bool, Thinking)>, String> {
    use crate::norm::message::{
        THINKING_DEFAULT, THINKING_HIGH, THINKING_LOW, THINKING_MEDIUM, THINKING_MINIMAL, THINKING_OFF, THINKING_XHIGH,
    };
    let level = r.thinking.as_str();
    if level == THINKING_DEFAULT {
        return Ok(None);
    }
    let include = level != THINKING_OFF;
    if r.model.contains("gemini-3") {
        // An unknown level sends an empty thinkingLevel.
        let l = match level {
            THINKING_OFF | THINKING_MINIMAL => "MINIMAL",
            THINKING_LOW => "LOW",
            THINKING_MEDIUM => "MEDIUM",
            THINKING_HIGH | THINKING_XHIGH => "HIGH",
            _ => "",
        };
        return Ok(Some((include, Thinking::Level(l))));
    }
    let budget = match level {
        THINKING_OFF => Some(0),
        THINKING_MINIMAL => Some(128),
        THINKING_LOW => Some(1024),
        THINKING_MEDIUM => Some(8192),
        THINKING_HIGH => Some(24576),
        THINKING_XHIGH => Some(32768),
        _ => None,
    };
    let budget = if r.thinking_budget > 0 { Some(r.thinking_budget) } else { budget };
    match budget {
        Some(b) => Ok(Some((include, Thinking::Budget(b)))),
        None => {
            let mut msg = String::from("gemini: unknown thinking level ");
            smith_text::quote::quote(&mut msg, level.as_bytes());
            msg.push_str("; use off, minimal, low, medium, high or xhigh");
            Err(msg)
        }
    }
}

/// write_body writes the request body, its keys in order.
fn write_body(
    w: &mut Writer,
    r: &Request,
    schemas: &[Schema],
    thinking: Option<(bool, Thinking)>,
) -> Result<(), String> {
    w.begin_object();
    w.key("contents");
    write_contents(w, &r.messages)?;
    if r.max_tokens > 0 || thinking.is_some() {
        w.key("generationConfig");
        w.begin_object();
        if r.max_tokens > 0 {
            w.key("maxOutputTokens");
            w.int(r.max_tokens);
        }
        if let Some((include, t)) = thinking {
            w.key("thinkingConfig");
            w.begin_object();
            w.key("includeThoughts");
            w.bool(include);
            match t {
                Thinking::Budget(b) => {
                    w.key("thinkingBudget");
                    w.int(b);
                }
                Thinking::Level(l) => {
                    w.key("thinkingLevel");
                    w.string(l);
                }
            }
            w.end_object();
        }
        w.end_object();
    }
    if !r.system.is_empty() {
        w.key("systemInstruction");
        begin_turn(w);
        text_part(w, &r.system);
        end_turn(w, "user");
    }
    if !r.tools.is_empty() {
        w.key("toolConfig");
        raw(w, br#"{"functionCallingConfig":{"mode":"AUTO"}}"#)?;
        w.key("tools");
        w.begin_array();
        w.begin_object();
        w.key("functionDeclarations");
        w.begin_array();
        for (t, schema) in r.tools.iter().zip(schemas) {
            w.begin_object();
            w.key("description");
            w.string(&t.description);
            w.key("name");
            w.string(&t.name);
            w.key("parameters");
            schema.write(w)?;
            w.end_object();
        }
        w.end_array();
        w.end_object();
        w.end_array();
    }
    w.end_object();
    Ok(())
}

/// write_contents writes the turns of messages, or null when there are
/// none: a user message is a user turn, an assistant message with parts to
/// send back a model turn, and consecutive tool results one user turn.
fn write_contents(w: &mut Writer, messages: &[Message]) -> Result<(), String> {
    let has_turn = |m: &Message| match m {
        Message::Assistant(a) => a.content.iter().any(is_model_part),
        _ => true,
    };
    if !messages.iter().any(has_turn) {
        w.null();
        return Ok(());
    }
    w.begin_array();
    let mut results = false; // a turn of tool results is open
    for m in messages {
        if results && !matches!(m, Message::ToolResult(_)) {
            end_turn(w, "user");
            results = false;
        }
        match m {
            Message::User(u) => {
                begin_turn(w);
                for c in &u.content {
                    match c {
                        Content::Text(t) => text_part(w, &t.text),
                        Content::Image(img) => inline(w, img),
                        _ => {}
                    }
                }
                end_turn(w, "user");
            }
            Message::ToolResult(t) => {
                if !results {
                    begin_turn(w);
                    results = true;
                }
                write_response(w, t);
            }
            Message::Assistant(a) if has_turn(m) => {
                begin_turn(w);
                for c in a.content.iter().filter(|c| is_model_part(c)) {
                    write_model_part(w, c)?;
                }
                end_turn(w, "model");
            }
            Message::Assistant(_) => {}
        }
    }
    if results {
        end_turn(w, "user");
    }
    w.end_array();
    Ok(())
}

/// begin_turn opens a turn and its parts.
fn begin_turn(w: &mut Writer) {
    w.begin_object();
    w.key("parts");
    w.begin_array();
}

/// end_turn closes a turn's parts and the turn, which has role.
fn end_turn(w: &mut Writer, role: &str) {
    w.end_array();
    w.key("role");
    w.string(role);
    w.end_object();
}

/// text_part writes a part holding text.
fn text_part(w: &mut Writer, text: &str) {
    w.begin_object();
    w.key("text");
    w.string(text);
    w.end_object();
}

/// write_response writes a tool result: its functionResponse with the
/// result's text, then its images.
fn write_response(w: &mut Writer, m: &ToolResultMessage) {
    w.begin_object();
    w.key("functionResponse");
    w.begin_object();
    if !m.call_id.is_empty() {
        w.key("id");
        w.string(&m.call_id);
    }
    w.key("name");
    w.string(&m.name);
    w.key("response");
    w.begin_object();
    w.key(if m.is_error { "error" } else { "result" });
    let text = m.content.iter().filter_map(|c| if let Content::Text(t) = c { Some(t.text.as_str()) } else { None });
    w.string(&text.collect::<String>());
    w.end_object();
    w.end_object();
    w.end_object();
    for c in &m.content {
        if let Content::Image(img) = c {
            inline(w, img);
        }
    }
}

/// is_model_part reports whether c becomes a part of a model turn.
fn is_model_part(c: &Content) -> bool {
    match c {
        Content::Thinking(t) => !t.signature.is_empty(),
        Content::Text(t) => !t.text.is_empty() || !t.signature.is_empty(),
        Content::ToolCall(_) | Content::Other(_) => true,
        Content::Image(_) => false,
    }
}

/// write_model_part writes c, a part [`is_model_part`] accepts, with its
/// thought signature.
fn write_model_part(w: &mut Writer, c: &Content) -> Result<(), String> {
    let sig = match c {
        Content::Thinking(t) => {
            w.begin_object();
            w.key("text");
            w.string(&t.text);
            w.key("thought");
            w.bool(true);
            &t.signature
        }
        Content::Text(t) => {
            w.begin_object();
            w.key("text");
            w.string(&t.text);
            &t.signature
        }
        Content::ToolCall(tc) => {
            w.begin_object();
            w.key("functionCall");
            w.begin_object();
            w.key("args");
            // A call whose arguments were not JSON is never executed; its
            // result says why.
            raw(w, if tc.arguments_error.is_empty() { &tc.arguments } else { b"{}" })?;
            if !tc.id.is_empty() {
                w.key("id");
                w.string(&tc.id);
            }
            w.key("name");
            w.string(&tc.name);
            w.end_object();
            &tc.signature
        }
        Content::Other(o) => return raw(w, &o.raw),
        Content::Image(_) => return Ok(()),
    };
    if !sig.is_empty() {
        w.key("thoughtSignature");
        w.string(sig);
    }
    w.end_object();
    Ok(())
}

/// raw writes a raw JSON value: null when empty, else compacted; one that
/// is not a JSON text fails with "gemini: encode request body: " and the
/// writer's error.
fn raw(w: &mut Writer, v: &[u8]) -> Result<(), String> {
    if v.is_empty() {
        w.null();
        return Ok(());
    }
    w.raw(v).map_err(|e| format!("gemini: encode request body: {}", e))
}

/// inline writes an image part: its data in standard base64.
fn inline(w: &mut Writer, img: &Image) {
    w.begin_object();
    w.key("inlineData");
    w.begin_object();
    w.key("data");
    w.bytes(&img.data);
    w.key("mimeType");
    w.string(&img.media_type);
    w.end_object();
    w.end_object();
}

/// path_escape appends s escaped as a URL path segment: ASCII letters, digits,
/// `-_.~` and `$&+:=@` as they are, every other byte as %XX.
fn path_escape(dst: &mut String, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &c in s {
        if c.is_ascii_alphanumeric() || b"-_.~$&+:=@".contains(&c) {
            dst.push(c as char);
        } else {
            dst.push('%');
            dst.push(HEX[(c >> 4) as usize] as char);
            dst.push(HEX[(c & 15) as usize] as char);
        }
    }
}

/// Node is a value of a tool schema in a [`Schema`]'s arena: a number,
/// true, false or null as its text, a string unquoted, or a container
/// holding the indexes of its elements (an object's members in key order,
/// each key once).
enum Node<'a> {
    Raw(&'a [u8]),
    Str(Cow<'a, str>),
    Arr(Vec<usize>),
    Obj(Vec<(Cow<'a, str>, usize)>),
}

/// Role is what a value is to the schema conversion: a schema, the
/// properties of one (whose members are schemas), the anyOf list of one
/// (whose elements are schemas), or a plain value, kept as it is.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    Schema,
    Props,
    AnyOf,
    Plain,
}

/// Step is what [`Schema::write`] has still to write.
enum Step<'s> {
    Value(usize),
    Key(&'s str),
    End(u8),
}

/// Schema is a tool's parameters converted to Gemini's schema subset: an
/// arena of nodes, the value at 0.
struct Schema<'a> {
    nodes: Vec<Node<'a>>,
}

impl<'a> Schema<'a> {
    /// parse reads src and converts it. An object that is a schema keeps
    /// only the keywords Gemini's Schema takes: "type" ASCII upper-cased (a
    /// list of types gives its last non-empty name other than "null", and
    /// nullable true if it names "null", whatever "nullable" says);
    /// "properties" an object of converted schemas ({} when it is no
    /// object); "items" converted; "anyOf" a list of converted schemas
    /// (dropped when it is no list); "nullable", "description",
    /// "required", "enum", "format", "minItems", "maxItems", "minimum",
    /// "maximum", "title", "minLength", "maxLength", "pattern", "default"
    /// and "propertyOrdering" as they are. A schema that is no object is
    /// kept as it is. The error is src's syntax error ("invalid character
    /// 'x' at offset 3 after an object key"), else the first number, in
    /// src's order, beyond a 64-bit float's range.
    fn parse(src: &'a [u8]) -> Result<Schema<'a>, String> {
        let mut d = read::Decoder::new(src);
        d.skip();
        d.finish().map_err(|e| e.message().to_string())?;
        let s = Schema::read(src).ok_or("the schema cannot be read")?;
        match s.nodes.iter().find(|n| matches!(n, Node::Raw(t) if out_of_range(t))) {
            Some(Node::Raw(t)) => {
                Err(format!("the number {} is beyond the range of a 64-bit float", String::from_utf8_lossy(t)))
            }
            _ => Ok(s),
        }
    }

    /// read converts src, one valid JSON text, keeping its nodes in src's
    /// order; None only if the cursor gives up on it.
    fn read(src: &'a [u8]) -> Option<Schema<'a>> {
        let mut c = Cursor { data: src, pos: 0 };
        let mut s = Schema { nodes: Vec::new() };
        let mut open: Vec<(usize, Role, u8)> = Vec::new(); // node, role, closing byte
        let mut key = None;
        let mut role = Role::Schema;
        loop {
            let at = s.nodes.len();
            let first = c.peek()?;
            s.nodes.push(match first {
                b'{' => Node::Obj(Vec::new()),
                b'[' => Node::Arr(Vec::new()),
                b'"' => Node::Str(c.str()?.unquoted()),
                _ => Node::Raw(c.value()?),
            });
            if let Some(&(parent, _, _)) = open.last() {
                match &mut s.nodes[parent] {
                    Node::Obj(members) => members.push((key.take()?, at)),
                    Node::Arr(elems) => elems.push(at),
                    _ => {}
                }
            }
            let close = match first {
                b'{' => b'}',
                b'[' => b']',
                _ => 0,
            };
            if close != 0 {
                open.push((at, role, close));
                c.pos += 1;
            }
            // After a scalar or in an empty container: close containers
            // until one has another element.
            if close == 0 || c.peek()? == close {
                loop {
                    let close = match open.last() {
                        Some(&(_, _, close)) => close,
                        None => return Some(s),
                    };
                    if c.next(close)? {
                        break;
                    }
                    let (n, role, _) = open.pop()?;
                    s.finish(n, role);
                }
            }
            // The next element's role follows from its container's and,
            // in an object, its key.
            let &(_, parent, close) = open.last()?;
            key = if close == b'}' { Some(c.member()?.unquoted()) } else { None };
            role = match (parent, key.as_deref()) {
                (Role::Schema, Some("properties")) => Role::Props,
                (Role::Schema, Some("anyOf")) => Role::AnyOf,
                (Role::Schema, Some("items")) | (Role::Props, Some(_)) | (Role::AnyOf, None) => Role::Schema,
                _ => Role::Plain,
            };
        }
    }

    /// finish completes the container at n, read with role: an object's
    /// members are put in key order, the last of repeated keys kept, and
    /// an object that is a schema is converted (see [`Schema::parse`]).
    fn finish(&mut self, n: usize, role: Role) {
        let mut members = match &mut self.nodes[n] {
            Node::Obj(members) => std::mem::take(members),
            _ => return,
        };
        // Reversed, then sorted stably: the last of repeated keys is the
        // first of its run, which dedup keeps.
        members.reverse();
        members.sort_by(|a, b| a.0.cmp(&b.0));
        members.dedup_by(|a, b| a.0 == b.0);
        if role == Role::Schema {
            members = self.convert(members);
        }
        self.nodes[n] = Node::Obj(members);
    }

    /// convert returns the members, in key order, of a schema object with
    /// these members (in key order) as [`Schema::parse`] says.
    fn convert(&mut self, members: Vec<(Cow<'a, str>, usize)>) -> Vec<(Cow<'a, str>, usize)> {
        let mut out = Vec::with_capacity(members.len());
        let mut null = false;
        for (k, v) in members {
            let v = match (&*k, &self.nodes[v]) {
                ("type", Node::Str(t)) => {
                    let t = t.to_ascii_uppercase();
                    self.push(Node::Str(t.into()))
                }
                ("type", Node::Arr(elems)) => {
                    let mut typ = None;
                    for &e in elems {
                        match &self.nodes[e] {
                            Node::Str(t) if *t == "null" => null = true,
                            Node::Str(t) if !t.is_empty() => typ = Some(t.to_ascii_uppercase()),
                            _ => {}
                        }
                    }
                    match typ {
                        Some(t) => self.push(Node::Str(t.into())),
                        None => continue,
                    }
                }
                ("properties", Node::Obj(_)) | ("anyOf", Node::Arr(_)) => v,
                ("properties", _) => self.push(Node::Obj(Vec::new())),
                (
                    "items" | "nullable" | "description" | "required" | "enum" | "format" | "minItems" | "maxItems"
                    | "minimum" | "maximum" | "title" | "minLength" | "maxLength" | "pattern" | "default"
                    | "propertyOrdering",
                    _,
                ) => v,
                _ => continue,
            };
            out.push((k, v));
        }
        if null {
            let t = self.push(Node::Raw(b"true"));
            out.retain(|m| m.0 != "nullable");
            out.push(("nullable".into(), t));
            out.sort_by(|a, b| a.0.cmp(&b.0));
        }
        out
    }

    /// push adds n to the arena and returns its index.
    fn push(&mut self, n: Node<'a>) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    /// write writes the converted schema, without recursion: what is still
    /// to write is kept on a stack.
    fn write(&self, w: &mut Writer) -> Result<(), String> {
        let mut todo = vec![Step::Value(0)];
        while let Some(step) = todo.pop() {
            match step {
                Step::Key(k) => w.key(k),
                Step::End(b'}') => w.end_object(),
                Step::End(_) => w.end_array(),
                Step::Value(n) => match &self.nodes[n] {
                    Node::Raw(t) => raw(w, t)?,
                    Node::Str(s) => w.string(s.as_bytes()),
                    Node::Arr(elems) => {
                        w.begin_array();
                        todo.push(Step::End(b']'));
                        todo.extend(elems.iter().rev().map(|&e| Step::Value(e)));
                    }
                    Node::Obj(members) => {
                        w.begin_object();
                        todo.push(Step::End(b'}'));
                        for (k, v) in members.iter().rev() {
                            todo.push(Step::Value(*v));
                            todo.push(Step::Key(k));
                        }
                    }
                },
            }
        }
        Ok(())
    }
}

/// out_of_range reports whether t, the text of a number, true, false or
/// null, is a number beyond a 64-bit float's range.
fn out_of_range(t: &[u8]) -> bool {
    let f = std::str::from_utf8(t).ok().and_then(|s| s.parse::<f64>().ok());
    matches!(t.first(), Some(b'-' | b'0'..=b'9')) && !f.map_or(false, f64::is_finite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::{AssistantMessage, Other, Text, Thinking, Tool, ToolCall};

    fn user(s: &str) -> Message {
        Message::User(crate::norm::message::UserMessage { content: vec![text(s)] })
    }

    fn assistant(content: Vec<Content>) -> Message {
        Message::Assistant(AssistantMessage { content, ..AssistantMessage::default() })
    }

    fn text(s: &str) -> Content {
        Content::Text(Text { text: s.into(), ..Text::default() })
    }

    fn body(r: &Request) -> String {
        String::from_utf8(build_request(r, "KEY").expect("build").body).expect("utf-8 body")
    }

    fn tool(params: &str) -> Tool {
        Tool { name: "t".into(), description: "d".into(), parameters: params.as_bytes().to_vec() }
    }

    #[test]
    fn model_is_escaped_and_no_messages_is_null() {
        // The goldens hold the method, headers and a plain body.
        let r = Request { model: "a/b c;d,e?f$&+:=@~é".into(), ..Request::default() };
        let hr = build_request(&r, "K").unwrap();
        assert_eq!(hr.path, "/v1beta/models/a%2Fb%20c%3Bd%2Ce%3Ff$&+:=@~%C3%A9:streamGenerateContent?alt=sse");
        assert_eq!(hr.body, b"{\"contents\":null}");
    }

    #[test]
    fn thinking_budgets_and_levels() {
        let mut r =
            Request { model: "gemini-2.5-pro".into(), thinking: "minimal".into(), max_tokens: 9, ..Request::default() };
        assert!(body(&r).contains(
            r#""generationConfig":{"maxOutputTokens":9,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":128}}"#
        ));
        r.thinking_budget = 77;
        assert!(body(&r).contains(r#""thinkingBudget":77"#));
        r.thinking = "huge".into();
        assert!(body(&r).contains(r#""thinkingBudget":77"#), "a budget makes any level valid");
        r.thinking_budget = 0;
        assert_eq!(
            build_request(&r, "K").unwrap_err(),
            "gemini: unknown thinking level \"huge\"; use off, minimal, low, medium, high or xhigh"
        );
        r.model = "gemini-3-pro-preview".into();
        assert!(body(&r).contains(r#""thinkingConfig":{"includeThoughts":true,"thinkingLevel":""}"#));
        r.thinking = "off".into();
        assert!(body(&r).contains(r#""thinkingConfig":{"includeThoughts":false,"thinkingLevel":"MINIMAL"}"#));
        r.thinking = "xhigh".into();
        assert!(body(&r).contains(r#""thinkingLevel":"HIGH""#));
    }

    #[test]
    fn history_parts() {
        let sig = b"s\xff".to_vec();
        let r = Request {
            model: "m".into(),
            messages: vec![
                user("q"),
                assistant(vec![
                    Content::Thinking(Thinking { text: "dropped".into(), ..Thinking::default() }),
                    Content::Thinking(Thinking { text: "kept".into(), signature: sig.clone(), ..Thinking::default() }),
                    Content::Text(Text::default()),
                    Content::Text(Text { signature: b"t".to_vec(), ..Text::default() }),
                    Content::ToolCall(ToolCall {
                        id: "c1".into(),
                        name: "f".into(),
                        arguments: b" { \"a\" : 1 } ".to_vec(),
                        ..ToolCall::default()
                    }),
                    Content::ToolCall(ToolCall {
                        name: "g".into(),
                        arguments: b"oops".to_vec(),
                        arguments_error: "bad".into(),
                        signature: b"x".to_vec(),
                        ..ToolCall::default()
                    }),
                    Content::Other(Other {
                        type_: "x".into(),
                        raw: b"{\"executableCode\":{}}".to_vec(),
                        ..Other::default()
                    }),
                ]),
                Message::ToolResult(ToolResultMessage {
                    call_id: "c1".into(),
                    name: "f".into(),
                    content: vec![
                        text("4"),
                        Content::Image(Image { media_type: "image/png".into(), data: vec![1, 2, 3, 4] }),
                        text("2"),
                    ],
                    is_error: false,
                }),
                Message::ToolResult(ToolResultMessage {
                    name: "g".into(),
                    is_error: true,
                    ..ToolResultMessage::default()
                }),
                assistant(vec![text("")]),
            ],
            ..Request::default()
        };
        assert_eq!(
            body(&r),
            concat!(
                r#"{"contents":[{"parts":[{"text":"q"}],"role":"user"},"#,
                r#"{"parts":[{"text":"kept","thought":true,"thoughtSignature":"s\ufffd"},{"text":"","thoughtSignature":"t"},"#,
                r#"{"functionCall":{"args":{"a":1},"id":"c1","name":"f"}},{"functionCall":{"args":{},"name":"g"},"thoughtSignature":"x"},"#,
                r#"{"executableCode":{}}],"role":"model"},"#,
                r#"{"parts":[{"functionResponse":{"id":"c1","name":"f","response":{"result":"42"}}},{"inlineData":{"data":"AQIDBA==","mimeType":"image/png"}},"#,
                r#"{"functionResponse":{"name":"g","response":{"error":""}}}],"role":"user"}]}"#
            )
        );
    }

    #[test]
    fn errors_in_order() {
        let img = Content::Image(Image::default());
        let r =
            Request { messages: vec![user("a"), assistant(vec![img])], tools: vec![tool("x")], ..Request::default() };
        assert_eq!(
            build_request(&r, "K").unwrap_err(),
            "gemini: message 1: an assistant message cannot carry an image"
        );
        let r = Request {
            tools: vec![tool("{}"), Tool { name: "n\"1".into(), ..tool("[1e400, 2e999, x") }],
            thinking: "bogus".into(),
            ..Request::default()
        };
        assert_eq!(build_request(&r, "K").unwrap_err(), "gemini: tool \"n\\\"1\": parameters are not a JSON schema: invalid character 'x' at offset 15 looking for the beginning of a value");
        let r = Request { tools: vec![tool("[1, 1e400, 2e999]")], ..Request::default() };
        assert_eq!(build_request(&r, "K").unwrap_err(), "gemini: tool \"t\": parameters are not a JSON schema: the number 1e400 is beyond the range of a 64-bit float");
        let r = Request {
            messages: vec![assistant(vec![Content::ToolCall(ToolCall {
                arguments: b"{\"a\":tru".to_vec(),
                ..ToolCall::default()
            })])],
            ..Request::default()
        };
        assert_eq!(
            build_request(&r, "K").unwrap_err(),
            "gemini: encode request body: raw JSON value is not valid JSON: the input ends at offset 8 in the literal true; the JSON text is incomplete"
        );
    }

    #[test]
    fn syntax_messages() {
        let cases: &[(&str, &str)] = &[
            ("", "the input ends at offset 0 looking for the beginning of a value; the JSON text is incomplete"),
            ("nul", "the input ends at offset 3 in the literal null; the JSON text is incomplete"),
            ("{\"a\" 1}", "invalid character '1' at offset 5 after an object key"),
        ];
        for (src, want) in cases {
            match Schema::parse(src.as_bytes()) {
                Err(got) => assert_eq!(&got, want, "input {:?}", src),
                Ok(_) => panic!("input {:?} parsed", src),
            }
        }
        assert_eq!(
            Schema::parse(b"\xff").err().unwrap(),
            "invalid character '\u{ff}' at offset 0 looking for the beginning of a value"
        );
        let deep = "[".repeat(10001);
        assert_eq!(
            Schema::parse(deep.as_bytes()).err().unwrap(),
            "nesting at offset 10000 exceeds the limit of 10000 levels"
        );
    }

    #[test]
    fn schemas_convert() {
        let cases: &[(&str, &str)] = &[
            (
                r#"{"type":"object","$schema":"x","additionalProperties":false,"properties":{"b":{"type":["string","null"],"format":"date"},"a":{"type":"integer","minimum":1.50,"maximum":1e2}},"required":["a"]}"#,
                r#"{"properties":{"a":{"maximum":1e2,"minimum":1.50,"type":"INTEGER"},"b":{"format":"date","nullable":true,"type":"STRING"}},"required":["a"],"type":"OBJECT"}"#,
            ),
            (
                r#"{"items":{"type":"strasse\u00df\u0131ǆ"},"anyOf":[{"type":"number"},5],"default":{"z":1,"a":[true,null]}}"#,
                r#"{"anyOf":[{"type":"NUMBER"},5],"default":{"a":[true,null],"z":1},"items":{"type":"STRASSEßıǆ"}}"#,
            ),
            (
                r#"{"properties":[1],"anyOf":{},"type":[1,"","null"],"enum":["\u003c\ud800"]}"#,
                "{\"enum\":[\"<\u{fffd}\"],\"nullable\":true,\"properties\":{}}",
            ),
            (r#"{"type":"a","type":"b","nullable":false}"#, r#"{"nullable":false,"type":"B"}"#),
            (r#"{"nullable":false,"type":["null"]}"#, r#"{"nullable":true}"#),
            (
                r#"{"t\u0079pe":"x","type":"y","items":[{"type":"z"}],"anyOf":{"type":"q"}}"#,
                r#"{"items":[{"type":"z"}],"type":"Y"}"#,
            ),
            (
                r#"{"properties":{"p":{"type":"a","x":1},"p":{"type":"b"}},"default":{"type":"c","x":1}}"#,
                r#"{"default":{"type":"c","x":1},"properties":{"p":{"type":"B"}}}"#,
            ),
            ("[1,{\"x\":1}]", "[1,{\"x\":1}]"),
            ("null", "null"),
            ("-0", "-0"),
            ("1e21", "1e21"),
        ];
        for (src, want) in cases {
            let tree = Schema::parse(src.as_bytes()).unwrap_or_else(|e| panic!("{}: {}", src, e));
            let mut w = Writer::new();
            tree.write(&mut w).unwrap();
            assert_eq!(String::from_utf8(w.into_bytes()).unwrap(), *want, "schema {}", src);
        }
    }

    #[test]
    fn deep_schemas_need_no_stack() {
        let src = format!("{}{}", "{\"items\":".repeat(9999), "1".to_string() + &"}".repeat(9999));
        let tree = Schema::parse(src.as_bytes()).unwrap();
        let mut w = Writer::new();
        tree.write(&mut w).unwrap();
        assert_eq!(w.into_bytes(), src.as_bytes());
        let src = format!("{}{}", "[".repeat(10000), "]".repeat(10000));
        let tree = Schema::parse(src.as_bytes()).unwrap();
        let mut w = Writer::new();
        tree.write(&mut w).unwrap();
        assert_eq!(w.into_bytes(), src.as_bytes());
    }
}
