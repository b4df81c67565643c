//! build is the Gemini streamGenerateContent request builder.
//!
//! ```ignore
//! let hr = gemini::build::build_request(&request, "GEMINI_API_KEY")?;
//! ```
//!
//! The body's objects are written with their members in key order,
//! strings escaped by smith_json::write. A tool's parameters are decoded
//! into a tree (numbers become f64, the last of repeated keys wins,
//! strings are unquoted with U+FFFD for invalid UTF-8) and converted to
//! Gemini's schema subset; everything is done without recursion, so a
//! schema nested as deep as the JSON reader allows (10000 levels) costs
//! heap, not stack.
//!
//! An empty `arguments` or `raw` is written as null; empty `parameters`
//! fail as JSON that ends early.

use crate::norm::message::{Content, Header, HttpRequest, Image, Message, Request, ToolResultMessage};
use smith_json::read;
use smith_json::write::{self, Writer};

/// build_request returns the streamGenerateContent?alt=sse request for r. The
/// credential is a reference: the x-goog-api-key header carries secret_ref for
/// the host to fill in. Each thought signature goes back on the part it came
/// on; thought summaries without a signature are not sent back. Tool schemas
/// are converted to Gemini's OpenAPI subset (upper-case types, unsupported
/// keywords dropped). Gemini 3 models take thinkingLevel, older ones
/// thinkingBudget. The error is a message starting "gemini: ".
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
        match Tree::parse(&t.parameters) {
            Ok(tree) => schemas.push(tree),
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
fn write_body(w: &mut Writer, r: &Request, schemas: &[Tree], thinking: Option<(bool, Thinking)>) -> Result<(), String> {
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
        w.begin_object();
        w.key("parts");
        w.begin_array();
        w.begin_object();
        w.key("text");
        w.string(&r.system);
        w.end_object();
        w.end_array();
        w.key("role");
        w.string("user");
        w.end_object();
    }
    if !r.tools.is_empty() {
        w.key("toolConfig");
        w.begin_object();
        w.key("functionCallingConfig");
        w.begin_object();
        w.key("mode");
        w.string("AUTO");
        w.end_object();
        w.end_object();
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
            schema.write(w).map_err(|e| encode_error(b"", &e))?;
            w.end_object();
        }
        w.end_array();
        w.end_object();
        w.end_array();
    }
    w.end_object();
    Ok(())
}

/// Turn is one element of contents: a user message, the parts of a model
/// message, or consecutive tool results sent as one user turn.
enum Turn<'a> {
    User(&'a [Content]),
    Model(&'a [Content]),
    Responses(Vec<&'a ToolResultMessage>),
}

fn write_contents(w: &mut Writer, messages: &[Message]) -> Result<(), String> {
    let mut turns = Vec::new();
    let mut responses: Vec<&ToolResultMessage> = Vec::new();
    for m in messages {
        match m {
            Message::User(u) => {
                if !responses.is_empty() {
                    turns.push(Turn::Responses(std::mem::take(&mut responses)));
                }
                turns.push(Turn::User(&u.content));
            }
            Message::ToolResult(t) => responses.push(t),
            Message::Assistant(a) => {
                if !responses.is_empty() {
                    turns.push(Turn::Responses(std::mem::take(&mut responses)));
                }
                if a.content.iter().any(is_model_part) {
                    turns.push(Turn::Model(&a.content));
                }
            }
        }
    }
    if !responses.is_empty() {
        turns.push(Turn::Responses(responses));
    }
    if turns.is_empty() {
        w.null(); // no turns
        return Ok(());
    }
    w.begin_array();
    for t in &turns {
        w.begin_object();
        w.key("parts");
        w.begin_array();
        let role = match t {
            Turn::User(content) => {
                for c in content.iter() {
                    match c {
                        Content::Text(t) => {
                            w.begin_object();
                            w.key("text");
                            w.string(&t.text);
                            w.end_object();
                        }
                        Content::Image(img) => inline(w, img),
                        _ => {}
                    }
                }
                "user"
            }
            Turn::Responses(results) => {
                for m in results {
                    write_response(w, m);
                }
                "user"
            }
            Turn::Model(content) => {
                for c in content.iter() {
                    write_model_part(w, c)?;
                }
                "model"
            }
        };
        w.end_array();
        w.key("role");
        w.string(role);
        w.end_object();
    }
    w.end_array();
    Ok(())
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
    let mut text = String::new();
    for c in &m.content {
        if let Content::Text(t) = c {
            text.push_str(&t.text);
        }
    }
    w.string(&text);
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

fn write_model_part(w: &mut Writer, c: &Content) -> Result<(), String> {
    let signature = |w: &mut Writer, sig: &[u8]| {
        if !sig.is_empty() {
            w.key("thoughtSignature");
            w.string(sig);
        }
    };
    match c {
        Content::Thinking(t) if !t.signature.is_empty() => {
            w.begin_object();
            w.key("text");
            w.string(&t.text);
            w.key("thought");
            w.bool(true);
            signature(w, &t.signature);
            w.end_object();
        }
        Content::Text(t) if !t.text.is_empty() || !t.signature.is_empty() => {
            w.begin_object();
            w.key("text");
            w.string(&t.text);
            signature(w, &t.signature);
            w.end_object();
        }
        Content::ToolCall(tc) => {
            w.begin_object();
            w.key("functionCall");
            w.begin_object();
            w.key("args");
            if !tc.arguments_error.is_empty() {
                raw(w, b"{}")?; // never executed; its result says why
            } else {
                raw(w, &tc.arguments)?;
            }
            if !tc.id.is_empty() {
                w.key("id");
                w.string(&tc.id);
            }
            w.key("name");
            w.string(&tc.name);
            w.end_object();
            signature(w, &tc.signature);
            w.end_object();
        }
        Content::Other(o) => raw(w, &o.raw)?,
        _ => {}
    }
    Ok(())
}

/// raw writes a raw JSON value: null when empty, else compacted, or fails
/// with [`encode_error`]'s text for it.
fn raw(w: &mut Writer, v: &[u8]) -> Result<(), String> {
    if v.is_empty() {
        w.null();
        return Ok(());
    }
    w.raw(v).map_err(|e| encode_error(v, &e))
}

/// encode_error is the error for a body the writer refused: the raw value
/// src (its syntax error) or, which a decoded schema cannot hold, a
/// float without a JSON form.
fn encode_error(src: &[u8], e: &write::Error) -> String {
    format!("gemini: encode request body: {}", write::marshal_error_text(src, e))
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

/// Node is a decoded JSON value; a container holds the indexes of its
/// elements in the tree's arena, an object's members sorted by key, each
/// key once (the last one read).
enum Node {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<usize>),
    Obj(Vec<(String, usize)>),
}

/// Tree is a decoded tool schema: an arena of nodes, the value at 0.
struct Tree {
    nodes: Vec<Node>,
}

/// Open is a container being parsed: its node and, in an object, the key
/// of the member whose value comes next.
struct Open {
    node: usize,
    key: Option<String>,
}

impl Tree {
    /// parse decodes src. The error is a syntax error anywhere first
    /// ([`write::syntax_error_text`]), else, for the first number that does
    /// not fit an f64, "json: cannot unmarshal number N into Go value of
    /// type float64".
    fn parse(src: &[u8]) -> Result<Tree, String> {
        let mut scratch = Vec::new();
        if let Err(e) = write::append_raw(&mut scratch, src) {
            return Err(write::syntax_error_text(src, &e));
        }
        drop(scratch);
        // src is now known to be one valid JSON value.
        let mut nodes = vec![Node::Null];
        let mut stack: Vec<Open> = Vec::new();
        let mut overflow: Option<String> = None;
        let mut i = 0;
        loop {
            i = skip_space(src, i);
            let c = match src.get(i) {
                Some(&c) => c,
                None => break,
            };
            let node = match c {
                b',' | b':' => {
                    i += 1;
                    continue;
                }
                b'"' if matches!(stack.last(), Some(Open { key: None, node }) if matches!(nodes[*node], Node::Obj(_))) =>
                {
                    let end = string_end(src, i);
                    let key = unquote(&src[i..end]);
                    if let Some(top) = stack.last_mut() {
                        top.key = Some(key);
                    }
                    i = end;
                    continue;
                }
                b'}' | b']' => {
                    i += 1;
                    let open = match stack.pop() {
                        Some(o) => o,
                        None => break,
                    };
                    if let Node::Obj(members) = &mut nodes[open.node] {
                        last_wins(members);
                    }
                    if stack.is_empty() {
                        break;
                    }
                    continue;
                }
                b'{' => {
                    i += 1;
                    Node::Obj(Vec::new())
                }
                b'[' => {
                    i += 1;
                    Node::Arr(Vec::new())
                }
                b'"' => {
                    let end = string_end(src, i);
                    let s = unquote(&src[i..end]);
                    i = end;
                    Node::Str(s)
                }
                b't' => {
                    i += 4;
                    Node::Bool(true)
                }
                b'f' => {
                    i += 5;
                    Node::Bool(false)
                }
                b'n' => {
                    i += 4;
                    Node::Null
                }
                _ => {
                    let start = i;
                    while src.get(i).map_or(false, |&d| matches!(d, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')) {
                        i += 1;
                    }
                    let text = std::str::from_utf8(&src[start..i]).unwrap_or("");
                    match text.parse::<f64>() {
                        Ok(v) if v.is_finite() => Node::Num(v),
                        _ => {
                            if overflow.is_none() {
                                overflow = Some(format!(
                                    "json: cannot unmarshal number {} into Go value of type float64",
                                    text
                                ));
                            }
                            Node::Null
                        }
                    }
                }
            };
            let opens = c == b'{' || c == b'[';
            let at = if stack.is_empty() {
                nodes[0] = node;
                0
            } else {
                nodes.push(node);
                nodes.len() - 1
            };
            if let Some(top) = stack.last_mut() {
                match &mut nodes[top.node] {
                    Node::Arr(elems) => elems.push(at),
                    Node::Obj(members) => members.push((top.key.take().unwrap_or_default(), at)),
                    _ => {}
                }
            }
            if opens {
                stack.push(Open { node: at, key: None });
            } else if stack.is_empty() {
                break;
            }
        }
        match overflow {
            Some(e) => Err(e),
            None => Ok(Tree { nodes }),
        }
    }

    /// write writes the tree's value converted to Gemini's schema subset,
    /// without recursion: pending work is kept on a stack.
    fn write(&self, w: &mut Writer) -> Result<(), write::Error> {
        let mut todo = vec![Task::Schema(0)];
        while let Some(t) = todo.pop() {
            match t {
                Task::Key(k) => w.key(k),
                Task::End(b'}') => w.end_object(),
                Task::End(_) => w.end_array(),
                Task::Upper(s) => w.string(&s),
                Task::True => w.bool(true),
                Task::Plain(n) => self.plain(w, n, &mut todo)?,
                Task::Schema(n) => match &self.nodes[n] {
                    Node::Obj(members) => self.schema(w, members, &mut todo),
                    _ => self.plain(w, n, &mut todo)?,
                },
                Task::Props(n) => {
                    w.begin_object();
                    todo.push(Task::End(b'}'));
                    if let Some(Node::Obj(members)) = n.map(|n| &self.nodes[n]) {
                        for (k, v) in members.iter().rev() {
                            todo.push(Task::Schema(*v));
                            todo.push(Task::Key(k));
                        }
                    }
                }
                Task::AnyOf(elems) => {
                    w.begin_array();
                    todo.push(Task::End(b']'));
                    for v in elems.iter().rev() {
                        todo.push(Task::Schema(*v));
                    }
                }
            }
        }
        Ok(())
    }

    /// plain writes node n as it was decoded (numbers in their shortest
    /// form), its elements through todo.
    fn plain<'a>(&'a self, w: &mut Writer, n: usize, todo: &mut Vec<Task<'a>>) -> Result<(), write::Error> {
        match &self.nodes[n] {
            Node::Null => w.null(),
            Node::Bool(b) => w.bool(*b),
            Node::Num(v) => w.float64(*v)?,
            Node::Str(s) => w.string(s),
            Node::Arr(elems) => {
                w.begin_array();
                todo.push(Task::End(b']'));
                for v in elems.iter().rev() {
                    todo.push(Task::Plain(*v));
                }
            }
            Node::Obj(members) => {
                w.begin_object();
                todo.push(Task::End(b'}'));
                for (k, v) in members.iter().rev() {
                    todo.push(Task::Plain(*v));
                    todo.push(Task::Key(k));
                }
            }
        }
        Ok(())
    }

    /// schema writes an object converted to Gemini's schema: only the
    /// keywords Gemini's Schema accepts, "type" ASCII upper-cased (a list
    /// of types gives its last non-null name and nullable), "properties",
    /// "items" and "anyOf" converted in turn, the rest as they are.
    fn schema<'a>(&'a self, w: &mut Writer, members: &'a [(String, usize)], todo: &mut Vec<Task<'a>>) {
        let mut out: Vec<(&'a str, Task<'a>)> = Vec::new();
        let mut typ: Option<String> = None;
        let mut nullable: Option<Task<'a>> = None;
        for (k, v) in members {
            let v = *v;
            match k.as_str() {
                "type" => match &self.nodes[v] {
                    Node::Str(s) => typ = Some(s.to_ascii_uppercase()),
                    Node::Arr(elems) => {
                        for x in elems {
                            if let Node::Str(s) = &self.nodes[*x] {
                                if s == "null" {
                                    nullable = Some(Task::True);
                                } else if !s.is_empty() {
                                    typ = Some(s.to_ascii_uppercase());
                                }
                            }
                        }
                    }
                    _ => {}
                },
                "properties" => {
                    out.push(("properties", Task::Props(Some(v).filter(|&v| matches!(self.nodes[v], Node::Obj(_))))))
                }
                "items" => out.push(("items", Task::Schema(v))),
                "anyOf" => {
                    if let Node::Arr(elems) = &self.nodes[v] {
                        out.push(("anyOf", Task::AnyOf(elems)));
                    }
                }
                "nullable" => {
                    // A type list naming "null" wins, whatever the key
                    // order.
                    if nullable.is_none() {
                        nullable = Some(Task::Plain(v));
                    }
                }
                "description" | "required" | "enum" | "format" | "minItems" | "maxItems" | "minimum" | "maximum"
                | "title" | "minLength" | "maxLength" | "pattern" | "default" | "propertyOrdering" => {
                    out.push((k, Task::Plain(v)))
                }
                _ => {}
            }
        }
        if let Some(t) = typ {
            out.push(("type", Task::Upper(t)));
        }
        if let Some(t) = nullable {
            out.push(("nullable", t));
        }
        out.sort_by(|a, b| a.0.cmp(b.0));
        w.begin_object();
        todo.push(Task::End(b'}'));
        for (k, t) in out.into_iter().rev() {
            todo.push(t);
            todo.push(Task::Key(k));
        }
    }
}

/// Task is pending work of Tree::write.
enum Task<'a> {
    Key(&'a str),
    End(u8),
    Upper(String),
    True,
    Plain(usize),
    Schema(usize),
    Props(Option<usize>),
    AnyOf(&'a [usize]),
}

/// last_wins sorts an object's members by key and keeps, of repeated
/// keys, the last one read.
fn last_wins(members: &mut Vec<(String, usize)>) {
    members.sort_by(|a, b| a.0.cmp(&b.0)); // stable: repeated keys stay in order
    let mut out: Vec<(String, usize)> = Vec::with_capacity(members.len());
    for m in members.drain(..) {
        match out.last_mut() {
            Some(last) if last.0 == m.0 => *last = m,
            _ => out.push(m),
        }
    }
    *members = out;
}

fn skip_space(src: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r' | b'\n') = src.get(i) {
        i += 1;
    }
    i
}

/// string_end returns the offset after the valid string starting at i.
fn string_end(src: &[u8], mut i: usize) -> usize {
    i += 1;
    while let Some(&c) = src.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
}

/// unquote decodes a valid quoted string (invalid UTF-8 and lone
/// surrogates become U+FFFD).
fn unquote(quoted: &[u8]) -> String {
    read::Decoder::new(quoted).str().string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::norm::message::{AssistantMessage, Other, Text, Thinking, Tool, ToolCall};

    fn user(s: &str) -> Message {
        Message::User(crate::norm::message::UserMessage {
            content: vec![Content::Text(Text { text: s.to_string(), ..Text::default() })],
        })
    }

    fn body(r: &Request) -> String {
        String::from_utf8(build_request(r, "KEY").expect("build").body).expect("utf-8 body")
    }

    fn tool(params: &str) -> Tool {
        Tool { name: "t".into(), description: "d".into(), parameters: params.as_bytes().to_vec() }
    }

    #[test]
    fn path_headers_and_minimal_body() {
        let r = Request { model: "gemini-2.5-flash".into(), messages: vec![user("hi")], ..Request::default() };
        let hr = build_request(&r, "GEMINI_API_KEY").unwrap();
        assert_eq!(hr.method, "POST");
        assert_eq!(hr.path, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
        assert_eq!(
            hr.headers[2],
            Header { name: "x-goog-api-key".into(), value: String::new(), secret_ref: "GEMINI_API_KEY".into() }
        );
        assert_eq!(String::from_utf8(hr.body).unwrap(), r#"{"contents":[{"parts":[{"text":"hi"}],"role":"user"}]}"#);
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
                Message::Assistant(AssistantMessage {
                    content: vec![
                        Content::Thinking(Thinking { text: "dropped".into(), ..Thinking::default() }),
                        Content::Thinking(Thinking {
                            text: "kept".into(),
                            signature: sig.clone(),
                            ..Thinking::default()
                        }),
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
                    ],
                    ..AssistantMessage::default()
                }),
                Message::ToolResult(ToolResultMessage {
                    call_id: "c1".into(),
                    name: "f".into(),
                    content: vec![
                        Content::Text(Text { text: "4".into(), ..Text::default() }),
                        Content::Image(Image { media_type: "image/png".into(), data: vec![1, 2, 3, 4] }),
                        Content::Text(Text { text: "2".into(), ..Text::default() }),
                    ],
                    is_error: false,
                }),
                Message::ToolResult(ToolResultMessage {
                    name: "g".into(),
                    is_error: true,
                    ..ToolResultMessage::default()
                }),
                Message::Assistant(AssistantMessage {
                    content: vec![Content::Text(Text::default())],
                    ..AssistantMessage::default()
                }),
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
        let r = Request {
            messages: vec![
                user("a"),
                Message::Assistant(AssistantMessage { content: vec![img], ..AssistantMessage::default() }),
            ],
            tools: vec![tool("x")],
            ..Request::default()
        };
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
        assert_eq!(build_request(&r, "K").unwrap_err(), "gemini: tool \"t\": parameters are not a JSON schema: json: cannot unmarshal number 1e400 into Go value of type float64");
        let r = Request {
            messages: vec![Message::Assistant(AssistantMessage {
                content: vec![Content::ToolCall(ToolCall { arguments: b"{\"a\":tru".to_vec(), ..ToolCall::default() })],
                ..AssistantMessage::default()
            })],
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
            match Tree::parse(src.as_bytes()) {
                Err(got) => assert_eq!(&got, want, "input {:?}", src),
                Ok(_) => panic!("input {:?} parsed", src),
            }
        }
        assert_eq!(
            Tree::parse(b"\xff").err().unwrap(),
            "invalid character '\u{ff}' at offset 0 looking for the beginning of a value"
        );
        let deep = "[".repeat(10001);
        assert_eq!(
            Tree::parse(deep.as_bytes()).err().unwrap(),
            "nesting at offset 10000 exceeds the limit of 10000 levels"
        );
    }

    #[test]
    fn schemas_convert() {
        let cases: &[(&str, &str)] = &[
            (
                r#"{"type":"object","$schema":"x","additionalProperties":false,"properties":{"b":{"type":["string","null"],"format":"date"},"a":{"type":"integer","minimum":1.50,"maximum":1e2}},"required":["a"]}"#,
                r#"{"properties":{"a":{"maximum":100,"minimum":1.5,"type":"INTEGER"},"b":{"format":"date","nullable":true,"type":"STRING"}},"required":["a"],"type":"OBJECT"}"#,
            ),
            (
                r#"{"items":{"type":"strasse\u00df\u0131ǆ"},"anyOf":[{"type":"number"},5],"default":{"z":1,"a":[true,null]}}"#,
                r#"{"anyOf":[{"type":"NUMBER"},5],"default":{"a":[true,null],"z":1},"items":{"type":"STRASSEßıǆ"}}"#,
            ),
            (
                r#"{"properties":[1],"anyOf":{},"type":[1,"","null"],"enum":["\u003c\ud800"]}"#,
                "{\"enum\":[\"\\u003c\u{fffd}\"],\"nullable\":true,\"properties\":{}}",
            ),
            (r#"{"type":"a","type":"b","nullable":false}"#, r#"{"nullable":false,"type":"B"}"#),
            (r#"{"nullable":false,"type":["null"]}"#, r#"{"nullable":true}"#),
            ("[1,{\"x\":1}]", "[1,{\"x\":1}]"),
            ("null", "null"),
            ("-0", "-0"),
            ("1e21", "1e21"),
        ];
        for (src, want) in cases {
            let tree = Tree::parse(src.as_bytes()).unwrap_or_else(|e| panic!("{}: {}", src, e));
            let mut w = Writer::new();
            tree.write(&mut w).unwrap();
            assert_eq!(String::from_utf8(w.into_bytes()).unwrap(), *want, "schema {}", src);
        }
    }

    #[test]
    fn deep_schemas_need_no_stack() {
        let src = format!("{}{}", "{\"items\":".repeat(9999), "1".to_string() + &"}".repeat(9999));
        let tree = Tree::parse(src.as_bytes()).unwrap();
        let mut w = Writer::new();
        tree.write(&mut w).unwrap();
        assert_eq!(w.into_bytes(), src.as_bytes());
        let src = format!("{}{}", "[".repeat(10000), "]".repeat(10000));
        let tree = Tree::parse(src.as_bytes()).unwrap();
        let mut w = Writer::new();
        tree.write(&mut w).unwrap();
        assert_eq!(w.into_bytes(), src.as_bytes());
    }
}
