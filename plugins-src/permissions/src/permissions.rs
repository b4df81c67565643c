//! The permission policy: the decision on every tool call before it runs
//! (the handler's required decision on tool-execution-start). The host
//! passes the policy the user configured (smith.kdl's permissions block,
//! --permission-mode, --yes) as the plugin's configuration:
//!
//! ```json
//! {"permissions": {"mode": "ask", "yes": false, "config": "/home/u/.config/smith/smith.kdl",
//!   "rules": [{"effect": "deny", "tool": "write", "patterns": ["*.env"], "source": "smith.kdl:4:5"}]}}
//! ```
//!
//! A call is decided in this order: a deny rule it matches refuses it (in
//! every mode, --yes or not); an allow rule it matches lets it run; then
//! the mode: `auto` (the default: the sandbox is the boundary) lets every
//! call run; `read-only` lets only the reading tools run (read, grep,
//! find, ls); `ask` lets the reading tools run, and asks the user about
//! the rest (ui request-confirmation) unless --yes approved them all: the
//! call runs if the user says yes. Where nobody can be asked (smith eval,
//! MCP, an RPC client that does not answer) it is refused. A refusal is
//! the call's error result, recorded in the session with the rule, mode
//! or answer that refused it and how to allow it.
//!
//! A rule names a tool (`*` for every tool) and glob patterns (`*` any
//! text, `?` one character; none means every call of the tool) matched
//! against the call's subject: bash's command line, or the path argument
//! of the other tools. A bash command line is matched segment by segment,
//! split at `;`, `&`, `|` and newlines: a deny rule refuses it when it
//! matches the whole line or any segment; allow rules let it run only when
//! every segment matches one and it holds no substitution or redirection
//! (`$(`, a backquote, `<`, `>`), so `allow "bash" "git status*"` does not
//! let `git status; rm -rf ~` run.

use crate::cat;
use smith_json::read::{Decoder, Kind};
use smith_plugin::ui::UiFault;

/// READING are the tools that only read: they run in every mode.
const READING: [&str; 4] = ["read", "grep", "find", "ls"];

/// Mode is the permission mode.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) enum Mode {
    #[default]
    Auto,
    Ask,
    ReadOnly,
}

/// Rule is one allow or deny rule.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Rule {
    pub allow: bool,
    pub tool: String,
    pub patterns: Vec<String>,
    pub source: String,
}

/// Policy is the configured permission policy.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Policy {
    pub mode: Mode,
    pub yes: bool,
    pub rules: Vec<Rule>,
    /// config is the user's configuration file, named in the fixes.
    pub config: String,
}

impl Policy {
    /// is_default reports whether the policy lets every call run without
    /// looking at it.
    pub(crate) fn is_default(&self) -> bool {
        self.mode == Mode::Auto && self.rules.is_empty()
    }
}

/// object is Decoder::object with one instantiation for every member
/// function (the plugin's size is its start-up cost: the host validates
/// every function of it at each load).
fn object<'a>(d: &mut Decoder<'a>, member: &mut dyn FnMut(&mut Decoder<'a>, &[u8])) {
    d.object(member)
}

/// array is Decoder::array with one instantiation, as object.
fn array<'a>(d: &mut Decoder<'a>, elem: &mut dyn FnMut(&mut Decoder<'a>)) {
    d.array(elem)
}

/// parse reads the policy from the plugin's configuration; an absent
/// permissions member is the default policy.
pub(crate) fn parse(configuration: &[u8]) -> Result<Policy, String> {
    let mut p = Policy::default();
    let mut problem: Option<String> = None;
    let mut d = Decoder::new(configuration);
    object(&mut d, &mut |d, key| {
        if key != b"permissions" {
            return;
        }
        object(d, &mut |d, key| match key {
            b"mode" => {
                let m = d.str().string();
                p.mode = match m.as_str() {
                    "auto" | "" => Mode::Auto,
                    "ask" => Mode::Ask,
                    "read-only" => Mode::ReadOnly,
                    _ => {
                        problem = Some(cat(&["permissions.mode \"", &m, "\" is not auto, ask or read-only"]));
                        Mode::Auto
                    }
                }
            }
            b"yes" => p.yes = d.bool(),
            b"config" => p.config = d.str().string(),
            b"rules" => array(d, &mut |d| {
                let mut r = Rule::default();
                object(d, &mut |d, key| match key {
                    b"effect" => r.allow = d.str().equal("allow"),
                    b"tool" => r.tool = d.str().string(),
                    b"source" => r.source = d.str().string(),
                    b"patterns" => array(d, &mut |d| r.patterns.push(d.str().string())),
                    _ => {}
                });
                p.rules.push(r);
            }),
            _ => {}
        });
    });
    if let Err(e) = d.finish() {
        return Err(cat(&["the configuration is not the JSON the host sends: ", e.message()]));
    }
    match problem {
        Some(p) => Err(p),
        None => Ok(p),
    }
}

/// Call is the tool call a tool-execution-start event announces.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Call {
    pub name: String,
    /// subject is what rules match: bash's command, another tool's path.
    pub subject: String,
}

/// call reads the tool call from a tool_execution_start event's payload.
pub(crate) fn call(payload: &[u8]) -> Result<Call, String> {
    let mut c = Call::default();
    let (mut command, mut path) = (String::new(), String::new());
    let mut d = Decoder::new(payload);
    object(&mut d, &mut |d, key| match key {
        b"name" => c.name = d.str().string(),
        b"arguments" => object(d, &mut |d, key| match key {
            b"command" if d.peek() == Kind::Str => command = d.str().string(),
            b"path" if d.peek() == Kind::Str => path = d.str().string(),
            _ => {}
        }),
        _ => {}
    });
    if let Err(e) = d.finish() {
        return Err(cat(&["the tool_execution_start payload is not JSON: ", e.message()]));
    }
    if c.name.is_empty() {
        return Err("the tool_execution_start payload names no tool".to_string());
    }
    c.subject = if c.name == "bash" { command } else { path };
    Ok(c)
}

/// decide returns why the call must not run, or None when it may. ask
/// asks the user a question (ui request-confirmation); it is called only
/// in mode ask, for a call no rule decides, without --yes.
pub(crate) fn decide(p: &Policy, c: &Call, ask: &mut dyn FnMut(&str) -> Result<bool, UiFault>) -> Option<String> {
    let bash = c.name == "bash";
    let segments = if bash { segments(&c.subject) } else { vec![c.subject.as_str()] };
    for r in p.rules.iter().filter(|r| !r.allow && names(r, &c.name)) {
        if matches(r, &c.subject) || segments.iter().any(|s| matches(r, s)) {
            return Some(cat(&[
                "permission policy: ",
                &shown(c),
                " is denied by the rule ",
                &rule_text(r),
                " (",
                &r.source,
                "); the call did not run. Do not retry it: do without it, or ask the user to change the rule.",
            ]));
        }
    }
    let allows: Vec<&Rule> = p.rules.iter().filter(|r| r.allow && names(r, &c.name)).collect();
    if !allows.is_empty() {
        let allowed = if bash {
            !has_substitution(&c.subject)
                && (allows.iter().any(|r| r.patterns.is_empty())
                    || segments.iter().all(|s| allows.iter().any(|r| matches(r, s))))
        } else {
            allows.iter().any(|r| matches(r, &c.subject))
        };
        if allowed {
            return None;
        }
    }
    if p.mode == Mode::Auto || READING.contains(&c.name.as_str()) {
        return None;
    }
    let fix = cat(&["add ", &suggested_rule(c), " to the permissions block of ", config(p)]);
    match p.mode {
        Mode::Ask if p.yes => None,
        Mode::Ask => {
            let question = cat(&[
                "Run ",
                &shown(c),
                "? (permission mode ask; to stop being asked about it, ",
                &fix,
                ")",
            ]);
            match ask(&question) {
                Ok(true) => None,
                Ok(false) => Some(cat(&[
                    "permission policy: the user did not approve ",
                    &shown(c),
                    " (they said no, or did not answer in time); the call did not run. Do not retry it: ask the user how to go on.",
                ])),
                Err(UiFault::Dismissed) => Some(cat(&[
                    "permission policy: the question whether ",
                    &shown(c),
                    " may run was withdrawn before the user answered (the run was aborted); the call did not run.",
                ])),
                Err(UiFault::NoUser) => Some(cat(&[
                    "permission policy: ",
                    &shown(c),
                    " needs the user's approval (permission mode ask), and no one can be asked here (smith eval, MCP, an RPC client without --confirmations); the call did not run. To allow it: run with --yes, or ",
                    &fix,
                    ". Do not retry it without that: tell the user what you need to run.",
                ])),
                Err(UiFault::Unknown(why)) => Some(cat(&[
                    "permission policy: ",
                    &shown(c),
                    " needs the user's approval, and asking failed (",
                    &why,
                    "); the call did not run. Tell the user what you need to run.",
                ])),
            }
        }
        _ => Some(cat(&[
            "permission policy: ",
            &shown(c),
            " may change the workspace, and permission mode read-only lets only the reading tools run (read, grep, find, ls); the call did not run. To allow it: ",
            &fix,
            ", or run with --permission-mode auto. Do not retry it: tell the user what you need to run.",
        ])),
    }
}

/// config names the user's configuration file for a fix.
fn config(p: &Policy) -> &str {
    if p.config.is_empty() {
        "your smith.kdl"
    } else {
        &p.config
    }
}

/// names reports whether rule r is about the tool called name.
fn names(r: &Rule, name: &str) -> bool {
    r.tool == "*" || r.tool == name
}

/// matches reports whether subject matches one of r's patterns (any
/// subject when it has none).
fn matches(r: &Rule, subject: &str) -> bool {
    r.patterns.is_empty() || r.patterns.iter().any(|p| glob(p.as_bytes(), trim_blank(subject).as_bytes()))
}

/// glob matches s against pattern: `*` any run of bytes, `?` one
/// character, anything else itself.
pub(crate) fn glob(pattern: &[u8], s: &[u8]) -> bool {
    let (mut p, mut i) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < s.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, i));
            p += 1;
        } else if p < pattern.len() && (pattern[p] == s[i] || pattern[p] == b'?') {
            if pattern[p] == b'?' {
                // One character: skip a UTF-8 sequence's continuation bytes.
                i += 1;
                while i < s.len() && s[i] & 0xC0 == 0x80 {
                    i += 1;
                }
            } else {
                i += 1;
            }
            p += 1;
        } else if let Some((sp, si)) = star {
            p = sp + 1;
            i = si + 1;
            star = Some((sp, si + 1));
        } else {
            return false;
        }
    }
    while p < pattern.len() && pattern[p] == b'*' {
        p += 1;
    }
    p == pattern.len()
}

/// segments splits a command line at `;`, `&`, `|` and newlines into its
/// trimmed, non-empty commands.
pub(crate) fn segments(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = line.as_bytes();
    for i in 0..=b.len() {
        if i == b.len() || matches!(b[i], b';' | b'&' | b'|' | b'\n' | b'\r') {
            // The separators are ASCII: i and start are character boundaries.
            let s = trim_blank(&line[start..i]);
            if !s.is_empty() {
                out.push(s);
            }
            start = i + 1;
        }
    }
    out
}

/// trim_blank cuts the spaces and tabs around s.
fn trim_blank(s: &str) -> &str {
    s.trim_matches(|c: char| c == ' ' || c == '\t')
}

/// has_substitution reports whether a command line holds a command
/// substitution or a redirection, which no allow rule covers.
fn has_substitution(line: &str) -> bool {
    let b = line.as_bytes();
    b.iter().enumerate().any(|(i, &c)| matches!(c, b'`' | b'<' | b'>') || c == b'$' && b.get(i + 1) == Some(&b'('))
}

/// shown names the call for a message: `bash` `make test`.
fn shown(c: &Call) -> String {
    if c.subject.is_empty() {
        return cat(&["`", &c.name, "`"]);
    }
    cat(&["`", &c.name, "` `", &clip(&c.subject), "`"])
}

/// clip cuts a long subject to 120 bytes at a character boundary.
fn clip(s: &str) -> String {
    if s.len() <= 120 {
        return s.to_string();
    }
    let mut end = 120;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    cat(&[&s[..end], "…"])
}

/// rule_text writes r as smith.kdl spells it.
fn rule_text(r: &Rule) -> String {
    let mut s = String::from(if r.allow { "allow" } else { "deny" });
    s.push_str(" \"");
    s.push_str(&r.tool);
    s.push('"');
    for p in &r.patterns {
        s.push_str(" \"");
        s.push_str(p);
        s.push('"');
    }
    s
}

/// suggested_rule is the allow rule that would let the call run: for
/// bash each command of the line as a pattern when they are short and
/// plain (else the first word and a glob), the path for the other tools.
fn suggested_rule(c: &Call) -> String {
    let mut r = Rule { allow: true, tool: c.name.clone(), ..Rule::default() };
    if c.name == "bash" {
        let segs = segments(&c.subject);
        if segs.iter().all(|s| s.len() <= 60 && !has_substitution(s)) {
            r.patterns.extend(segs.iter().map(|s| s.to_string()));
        } else if let Some(first) = segs.first() {
            let word = first.split(' ').next().unwrap_or("");
            r.patterns.push(cat(&[word, " *"]));
        }
    } else if !c.subject.is_empty() {
        r.patterns.push(c.subject.clone());
    }
    rule_text(&r)
}
