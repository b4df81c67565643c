//! push-guard-rust is the event handler example of docs/plugins.md in
//! Rust, the same guard as docs/examples/handler-go. It decides every tool
//! call before it runs — the required decision on tool_execution_start —
//! and so can refuse one before any effect:
//!
//! - a bash command that runs git push runs only if the user says yes (ui
//!   request-confirmation; where nobody can be asked, as in smith eval, it
//!   is refused);
//! - a write or edit of a file inside .git/ never runs.
//!
//! A refusal is a deny-call action: the model gets the reason as the
//! call's error result, and the session records it. It needs no crates:
//! the bindings are Smith's wit/rust/smith_plugin.rs and the event's JSON
//! is read by the small [`Json`] reader below. The wasm exports are
//! compiled only for wasm32, so the tests run natively:
//!
//! ```text
//! rustc --edition 2021 --crate-type cdylib --crate-name push_guard_rust --target wasm32-wasi \
//!     -C opt-level=s -C panic=abort -C strip=symbols -o push-guard-rust.wasm src/lib.rs
//! rustc --edition 2021 --test -o /tmp/guard-tests src/lib.rs && /tmp/guard-tests
//! ```

// The bindings, from the repository's wit/rust; a plugin of your own keeps
// the copy `smith plugin new` writes beside its lib.rs: `mod smith_plugin;`.
#[path = "../../../../wit/rust/smith_plugin.rs"]
mod smith_plugin;

use smith_plugin::contrib::{Contributions, DeclareOptions, RegistrationFault};
use smith_plugin::handler::{Action, Event, HandleOptions, HandlerFault};
use smith_plugin::types::EventKind;
use smith_plugin::ui::UiFault;

/// Plugin implements the exported interfaces.
pub struct Plugin;

#[cfg(target_arch = "wasm32")]
crate::export_contrib!(Plugin);
#[cfg(target_arch = "wasm32")]
crate::export_handler!(Plugin);

impl smith_plugin::contrib::Guest for Plugin {
    /// declare_contributions subscribes to the start of every tool call.
    fn declare_contributions(_: DeclareOptions) -> Result<Contributions, RegistrationFault> {
        Ok(Contributions {
            subscriptions: vec![EventKind::ToolExecutionStart],
            ..Contributions::default()
        })
    }
}

#[cfg(target_arch = "wasm32")]
impl smith_plugin::handler::Guest for Plugin {
    /// handle_event decides one tool call, asking and notifying through the
    /// ui capability (plugin.kdl grants it).
    fn handle_event(event: Event, o: HandleOptions) -> Result<Vec<Action>, HandlerFault> {
        use smith_plugin::ui::{
            request_confirmation, show_notification, ConfirmOptions, NotifyOptions, Severity,
        };
        let mut ask = |q: &str| {
            request_confirmation(
                q,
                &ConfirmOptions {
                    default_answer: false,
                    timeout_ms: 120_000,
                },
            )
        };
        let mut notify = |m: &str| {
            show_notification(
                m,
                &NotifyOptions {
                    severity: Severity::Warning,
                },
            )
        };
        handle(&event, &o, &mut ask, &mut notify)
    }
}

/// handle decides the call a tool_execution_start event announces: a
/// deny-call action, or none to let it run. ask asks the user a yes/no
/// question; notify tells them something.
pub fn handle(
    event: &Event,
    _: &HandleOptions,
    ask: &mut dyn FnMut(&str) -> Result<bool, UiFault>,
    notify: &mut dyn FnMut(&str),
) -> Result<Vec<Action>, HandlerFault> {
    if event.kind != EventKind::ToolExecutionStart {
        return Ok(Vec::new());
    }
    let c = Call::read(&event.payload).map_err(|e| {
        HandlerFault::InvalidEvent(format!(
            "push-guard-rust: the event is not what it expects: {}",
            e
        ))
    })?;
    match decide(&c, ask) {
        None => Ok(Vec::new()),
        Some(why) => {
            notify(&format!("push-guard-rust stopped a {} call", c.name));
            Ok(vec![Action::DenyCall(why)])
        }
    }
}

/// Call is what the guard reads of a tool_execution_start event (see
/// docs/events.md): the tool's name and two of its arguments.
#[derive(Debug, Default, PartialEq)]
pub struct Call {
    pub name: String,
    pub command: String,
    pub path: String,
}

impl Call {
    /// read reads the event's JSON payload.
    pub fn read(payload: &str) -> Result<Call, String> {
        let mut c = Call::default();
        let mut j = Json {
            b: payload.as_bytes(),
            i: 0,
        };
        j.object(&mut |j, key| match key.as_str() {
            "name" => {
                c.name = j.string()?;
                Ok(())
            }
            "arguments" => j.object(&mut |j, key| match key.as_str() {
                "command" => {
                    c.command = j.string()?;
                    Ok(())
                }
                "path" => {
                    c.path = j.string()?;
                    Ok(())
                }
                _ => j.skip(),
            }),
            _ => j.skip(),
        })?;
        if c.name.is_empty() {
            return Err("it names no tool".to_string());
        }
        Ok(c)
    }
}

/// decide returns why c must not run, or None when it may.
pub fn decide(c: &Call, ask: &mut dyn FnMut(&str) -> Result<bool, UiFault>) -> Option<String> {
    match c.name.as_str() {
        "write" | "edit" => {
            let p = c.path.replace('\\', "/");
            let p = p.strip_prefix("./").unwrap_or(&p);
            if p == ".git" || p.starts_with(".git/") || p.contains("/.git/") {
                return Some("push-guard-rust: the files inside .git/ are git's own; change them with git commands".to_string());
            }
            None
        }
        "bash" if c.command.contains("git push") => match ask(&format!("Let the agent run `{}`?", c.command)) {
            Ok(true) => None,
            Ok(false) => Some("push-guard-rust: the user did not approve the push; do not push".to_string()),
            Err(f) => Some(format!(
                "push-guard-rust: git push needs the user's approval, and it could not be asked for ({}); tell the user what to push",
                match f {
                    UiFault::NoUser => "nobody can answer here".to_string(),
                    UiFault::Dismissed => "the question was withdrawn".to_string(),
                    UiFault::Unknown(why) => why,
                }
            )),
        },
        _ => None,
    }
}

/// Json reads the parts of a JSON document the guard needs: objects by
/// member, strings, and every other value skipped.
struct Json<'a> {
    b: &'a [u8],
    i: usize,
}

type Member<'m, 'a> = dyn FnMut(&mut Json<'a>, String) -> Result<(), String> + 'm;

impl<'a> Json<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.peek() != Some(c) {
            return Err(format!("expected '{}' at byte {}", c as char, self.i));
        }
        self.i += 1;
        Ok(())
    }

    /// object calls member with each member's key, positioned at its value,
    /// which member must read or skip.
    fn object(&mut self, member: &mut Member<'_, 'a>) -> Result<(), String> {
        self.expect(b'{')?;
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(());
        }
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            member(self, key)?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(format!("expected ',' or '}}' at byte {}", self.i)),
            }
        }
    }

    /// string reads a string, escapes decoded.
    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = String::new();
        let mut start = self.i;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'"' => {
                    out.push_str(
                        std::str::from_utf8(&self.b[start..self.i]).map_err(|e| e.to_string())?,
                    );
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => {
                    out.push_str(
                        std::str::from_utf8(&self.b[start..self.i]).map_err(|e| e.to_string())?,
                    );
                    let e = *self
                        .b
                        .get(self.i + 1)
                        .ok_or("a string ends inside an escape")?;
                    self.i += 2;
                    match e {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => out.push(self.unicode()?),
                        b'"' | b'\\' | b'/' => out.push(e as char),
                        _ => return Err(format!("unknown escape at byte {}", self.i - 1)),
                    }
                    start = self.i;
                }
                _ => self.i += 1,
            }
        }
        Err("a string is not closed".to_string())
    }

    /// unicode reads the hex digits of a \u escape (and the low half of a
    /// surrogate pair).
    fn unicode(&mut self) -> Result<char, String> {
        let hex = |j: &mut Json| -> Result<u32, String> {
            let s = j.b.get(j.i..j.i + 4).ok_or("a \\u escape is cut off")?;
            j.i += 4;
            u32::from_str_radix(std::str::from_utf8(s).map_err(|e| e.to_string())?, 16)
                .map_err(|e| e.to_string())
        };
        let hi = hex(self)?;
        if (0xD800..0xDC00).contains(&hi) && self.b.get(self.i..self.i + 2) == Some(b"\\u") {
            self.i += 2;
            let lo = hex(self)?;
            return char::from_u32(
                0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF),
            )
            .ok_or_else(|| "a bad surrogate pair".to_string());
        }
        Ok(char::from_u32(hi).unwrap_or('\u{FFFD}'))
    }

    /// skip skips one value of any kind.
    fn skip(&mut self) -> Result<(), String> {
        match self.peek() {
            Some(b'"') => self.string().map(|_| ()),
            Some(b'{') => self.object(&mut |j, _| j.skip()),
            Some(b'[') => {
                self.i += 1;
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(());
                }
                loop {
                    self.skip()?;
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(());
                        }
                        _ => return Err(format!("expected ',' or ']' at byte {}", self.i)),
                    }
                }
            }
            Some(_) => {
                let start = self.i;
                while self.i < self.b.len()
                    && !matches!(
                        self.b[self.i],
                        b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r'
                    )
                {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(format!("a value is missing at byte {}", self.i));
                }
                Ok(())
            }
            None => Err("the document ends early".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(payload: &str) -> Event {
        Event {
            kind: EventKind::ToolExecutionStart,
            sequence: 3,
            payload: payload.to_string(),
        }
    }

    #[test]
    fn reads_the_event() {
        let c = Call::read(r#"{"type":"tool_execution_start","seq":3,"call_id":"c1","name":"bash","arguments":{"command":"git push \"o\" \u00e9","timeout":[1,{"x":null}]}}"#)
            .expect("read");
        assert_eq!(
            c,
            Call {
                name: "bash".into(),
                command: "git push \"o\" é".into(),
                path: String::new()
            }
        );
        assert!(Call::read(r#"{"arguments":{}}"#)
            .unwrap_err()
            .contains("names no tool"));
        assert!(Call::read("{").is_err());
    }

    #[test]
    fn decides() {
        struct Case {
            name: &'static str,
            payload: &'static str,
            answer: Result<bool, UiFault>,
            asked: bool,
            denied: Option<&'static str>,
        }
        let cases = [
            Case {
                name: "other commands run",
                payload: r#"{"name":"bash","arguments":{"command":"git status"}}"#,
                answer: Ok(false),
                asked: false,
                denied: None,
            },
            Case {
                name: "push approved",
                payload: r#"{"name":"bash","arguments":{"command":"git push origin main"}}"#,
                answer: Ok(true),
                asked: true,
                denied: None,
            },
            Case {
                name: "push refused",
                payload: r#"{"name":"bash","arguments":{"command":"git push"}}"#,
                answer: Ok(false),
                asked: true,
                denied: Some("did not approve"),
            },
            Case {
                name: "nobody to ask",
                payload: r#"{"name":"bash","arguments":{"command":"git push"}}"#,
                answer: Err(UiFault::NoUser),
                asked: true,
                denied: Some("could not be asked for (nobody can answer here)"),
            },
            Case {
                name: "git's files",
                payload: r#"{"name":"write","arguments":{"path":"./.git/config","content":"x"}}"#,
                answer: Ok(true),
                asked: false,
                denied: Some(".git/ are git's own"),
            },
            Case {
                name: "other files",
                payload: r#"{"name":"edit","arguments":{"path":"src/git.rs"}}"#,
                answer: Ok(true),
                asked: false,
                denied: None,
            },
        ];
        for c in cases {
            let mut asked = false;
            let mut notified = String::new();
            let answer = c.answer.clone();
            let got = handle(
                &start(c.payload),
                &HandleOptions {
                    decision_required: true,
                    configuration: "{}".into(),
                },
                &mut |q| {
                    asked = true;
                    assert!(
                        q.starts_with("Let the agent run `git push"),
                        "{}: asked {:?}",
                        c.name,
                        q
                    );
                    answer.clone()
                },
                &mut |m| notified = m.to_string(),
            )
            .expect("handle");
            assert_eq!(asked, c.asked, "{}: asked", c.name);
            match (c.denied, got.as_slice()) {
                (None, []) => {}
                (Some(part), [Action::DenyCall(why)]) => {
                    assert!(why.contains(part), "{}: {:?} lacks {:?}", c.name, why, part);
                    assert!(!notified.is_empty(), "{}: not notified", c.name);
                }
                (want, got) => panic!("{}: got {:?}, want a denial {:?}", c.name, got, want),
            }
        }
    }
}
