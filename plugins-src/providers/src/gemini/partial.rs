//! partial turns Vertex AI's streamed function-call arguments (partial
//! arguments) into JSON text fragments.

use crate::norm;
use smith_json::read;

/// PartialArg is one piece of a streamed function-call argument: the value
/// at json_path, or (for a string with will_continue) the next fragment of
/// it.
#[derive(Debug, Default)]
pub struct PartialArg<'a> {
    pub json_path: String,
    pub string_value: Option<String>,
    /// number_value is raw, borrowing the chunk (any JSON value).
    pub number_value: Option<&'a [u8]>,
    pub bool_value: Option<bool>,
    pub will_continue: bool,
}

/// StreamCall turns streamed partial arguments into JSON text fragments,
/// emitted one partial behind so the last fragment can carry the closing
/// brackets (the call's end is only known when the empty functionCall
/// arrives). Paths of object keys ($.a.b) are supported; any other path
/// is written verbatim, which makes the arguments invalid JSON so the call
/// is never executed.
#[derive(Debug, Default)]
pub struct StreamCall {
    pub index: usize,
    pub sig: Vec<u8>,
    opened: bool,
    stack: Vec<String>, // open nested object keys below the root
    counts: Vec<u64>,   // members written per open object, root first
    str_path: String,   // path of the string value left open, "" for none
    pending: Option<String>,
}

impl StreamCall {
    /// new starts the call whose block is index.
    pub fn new(index: usize, sig: Vec<u8>) -> StreamCall {
        StreamCall { index, sig, ..StreamCall::default() }
    }

    /// add turns parts into fragments, emitting all but the last.
    pub fn add(&mut self, em: &mut norm::Emitter, parts: &[PartialArg]) {
        for p in parts {
            let text = self.text(p);
            if let Some(pending) = self.pending.take() {
                em.emit(norm::ToolCallDelta { index: self.index, arguments: pending });
            }
            self.pending = Some(text);
        }
    }

    /// flush emits the pending fragment, with the closing brackets when
    /// final.
    pub fn flush(&mut self, em: &mut norm::Emitter, last: bool) {
        let mut b = self.pending.take().unwrap_or_default();
        if last {
            if !self.opened {
                b.push('{');
            }
            if !self.str_path.is_empty() {
                b.push('"');
            }
            for _ in &self.stack {
                b.push('}');
            }
            b.push('}');
        }
        em.emit(norm::ToolCallDelta { index: self.index, arguments: b });
    }

    fn text(&mut self, p: &PartialArg) -> String {
        let mut b: Vec<u8> = Vec::new();
        if !self.opened {
            self.opened = true;
            self.counts.clear();
            self.counts.push(0);
            b.push(b'{');
        }
        let keys = match object_path(&p.json_path) {
            Some(k) => k,
            None => {
                b.extend_from_slice(p.json_path.as_bytes()); // unsupported path: poison the arguments
                return into_string(b);
            }
        };
        if !self.str_path.is_empty() {
            if self.str_path == p.json_path {
                if let Some(v) = &p.string_value {
                    escape(&mut b, v);
                    if !p.will_continue {
                        b.push(b'"');
                        self.str_path.clear();
                    }
                    return into_string(b);
                }
            }
            b.push(b'"');
            self.str_path.clear();
        }
        let (parents, last) = keys.split_at(keys.len() - 1);
        let mut common = 0;
        while common < self.stack.len() && common < parents.len() && self.stack[common] == parents[common] {
            common += 1;
        }
        while self.stack.len() > common {
            b.push(b'}');
            self.stack.pop();
            self.counts.pop();
        }
        for k in &parents[common..] {
            self.member(&mut b, k);
            b.push(b'{');
            self.stack.push((*k).to_owned());
            self.counts.push(0);
        }
        self.member(&mut b, last[0]);
        if let Some(v) = &p.string_value {
            b.push(b'"');
            escape(&mut b, v);
            if p.will_continue {
                self.str_path.clear();
                self.str_path.push_str(&p.json_path);
            } else {
                b.push(b'"');
            }
        } else if let Some(n) = p.number_value.filter(|n| !n.is_empty()) {
            b.extend_from_slice(n);
        } else if let Some(v) = p.bool_value {
            b.extend_from_slice(if v { b"true" } else { b"false" });
        } else {
            b.extend_from_slice(b"null");
        }
        into_string(b)
    }

    fn member(&mut self, b: &mut Vec<u8>, k: &str) {
        if let Some(n) = self.counts.last_mut() {
            if *n > 0 {
                b.push(b',');
            }
            *n += 1;
        }
        read::append_quote(b, k.as_bytes());
        b.push(b':');
    }
}

/// into_string makes the fragment a String; only a raw number value can
/// hold invalid UTF-8, each byte of which becomes U+FFFD.
fn into_string(b: Vec<u8>) -> String {
    match String::from_utf8(b) {
        Ok(s) => s,
        Err(e) => smith_text::quote::lossy(e.as_bytes()),
    }
}

/// object_path splits "$.a.b" into ["a", "b"]; array indexes and quoted
/// keys are not supported.
fn object_path(p: &str) -> Option<Vec<&str>> {
    let rest = p.strip_prefix("$.")?;
    if p.contains(|c| matches!(c, '[' | ']' | '\'' | '"')) {
        return None;
    }
    let keys: Vec<&str> = rest.split('.').collect();
    if keys.iter().any(|k| k.is_empty()) {
        return None;
    }
    Some(keys)
}

/// escape appends s as the inside of a JSON string, escaped as
/// [`read::append_quote`] escapes it.
fn escape(b: &mut Vec<u8>, s: &str) {
    let at = b.len();
    read::append_quote(b, s.as_bytes());
    b.remove(at);
    b.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg<'a>(path: &str, s: Option<&str>, num: Option<&'a [u8]>, bo: Option<bool>, more: bool) -> PartialArg<'a> {
        PartialArg {
            json_path: path.into(),
            string_value: s.map(Into::into),
            number_value: num,
            bool_value: bo,
            will_continue: more,
        }
    }

    /// args drains the emitter and joins its tool-call argument deltas
    /// with "|" ("?" for another event).
    fn args(em: &mut norm::Emitter) -> String {
        let mut events = Vec::new();
        em.drain_into(&mut events);
        events
            .iter()
            .map(|e| match e {
                norm::Event::ToolCallDelta(d) => d.arguments.clone(),
                _ => String::from("?"),
            })
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn builds_nested_objects_one_behind() {
        let mut em = norm::Emitter::default();
        let mut s = StreamCall::new(2, Vec::new());
        s.add(&mut em, &[arg("$.loc", Some("Bos"), None, None, true), arg("$.loc", Some("ton<"), None, None, false)]);
        s.add(&mut em, &[arg("$.a.b", None, Some(b"1.5"), None, false), arg("$.a.c", None, None, Some(true), false)]);
        s.add(&mut em, &[arg("$.d", None, None, None, false), arg("$.e", Some("x"), None, None, true)]);
        s.flush(&mut em, true);
        assert_eq!(args(&mut em), "{\"loc\":\"Bos|ton<\"|,\"a\":{\"b\":1.5|,\"c\":true|},\"d\":null|,\"e\":\"x\"}");
    }

    #[test]
    fn unsupported_paths_poison() {
        assert_eq!(object_path("$.a.b"), Some(vec!["a", "b"]));
        for p in ["a", "$.", "$.a..b", "$.a[0]", "$.'a'", "$a"] {
            assert_eq!(object_path(p), None, "{}", p);
        }
        let mut em = norm::Emitter::default();
        let mut s = StreamCall::new(0, Vec::new());
        s.add(&mut em, &[arg("$[0]", Some("x"), None, None, false)]);
        s.flush(&mut em, true);
        assert_eq!(args(&mut em), "{$[0]}");
        let mut em = norm::Emitter::default();
        let mut s = StreamCall::new(0, Vec::new());
        s.flush(&mut em, true);
        assert_eq!(args(&mut em), "{}");
    }
}
