//! The crate's unit tests (the declaration, handle, and permissions.rs),
//! run natively by rust_test.go (rusttest.RunTests).

use crate::permissions::{call, decide, glob, parse, segments, Call, Mode, Policy, Rule};
use crate::{declare, handle};
use smith_plugin::contrib::RegistrationFault;
use smith_plugin::handler::{Action, HandlerFault};
use smith_plugin::types::EventKind;
use smith_plugin::ui::UiFault;

/// no_user answers like a frontend without a user.
fn no_user(_: &str) -> Result<bool, UiFault> {
    Err(UiFault::NoUser)
}

fn rule(allow: bool, tool: &str, patterns: &[&str]) -> Rule {
    Rule {
        allow,
        tool: tool.to_string(),
        patterns: patterns.iter().map(|p| p.to_string()).collect(),
        source: "smith.kdl:3:5".to_string(),
    }
}

fn tool(name: &str, subject: &str) -> Call {
    Call { name: name.to_string(), subject: subject.to_string() }
}

#[test]
fn glob_cases() {
    struct Case {
        name: &'static str,
        pattern: &'static str,
        s: &'static str,
        want: bool,
    }
    let cases = [
        Case { name: "literal", pattern: "git status", s: "git status", want: true },
        Case { name: "literal-differs", pattern: "git status", s: "git stash", want: false },
        Case { name: "star-suffix", pattern: "git status*", s: "git status --short", want: true },
        Case { name: "star-empty", pattern: "git status*", s: "git status", want: true },
        Case { name: "star-middle", pattern: "*.env", s: "config/prod.env", want: true },
        Case { name: "star-not-suffix", pattern: "*.env", s: "config/prod.env.bak", want: false },
        Case { name: "question", pattern: "a?c", s: "abc", want: true },
        Case { name: "question-utf8", pattern: "a?c", s: "aéc", want: true },
        Case { name: "question-needs-one", pattern: "a?c", s: "ac", want: false },
        Case { name: "backtrack", pattern: "*a*b", s: "xaxxab", want: true },
        Case { name: "only-star", pattern: "*", s: "", want: true },
    ];
    for c in cases {
        assert_eq!(glob(c.pattern.as_bytes(), c.s.as_bytes()), c.want, "{}", c.name);
    }
}

#[test]
fn segments_split_at_operators() {
    assert_eq!(segments("git status && rm -rf ~; ls | wc -l\necho"), ["git status", "rm -rf ~", "ls", "wc -l", "echo"]);
    assert!(segments("  ").is_empty());
}

#[test]
fn decide_cases() {
    struct Case {
        name: &'static str,
        policy: Policy,
        call: Call,
        denied: Option<&'static [&'static str]>, // parts of the reason, or None: it may run
    }
    let ask =
        |rules: Vec<Rule>| Policy { mode: Mode::Ask, rules, config: "/u/smith.kdl".to_string(), ..Policy::default() };
    let cases = [
        Case {
            name: "auto-runs-everything",
            policy: Policy::default(),
            call: tool("bash", "rm -rf build"),
            denied: None,
        },
        Case {
            name: "deny-rule-in-auto",
            policy: Policy { rules: vec![rule(false, "write", &["*.env"])], ..Policy::default() },
            call: tool("write", "prod.env"),
            denied: Some(&["`write` `prod.env`", "deny \"write\" \"*.env\"", "smith.kdl:3:5", "did not run"]),
        },
        Case {
            name: "deny-rule-other-path",
            policy: Policy { rules: vec![rule(false, "write", &["*.env"])], ..Policy::default() },
            call: tool("write", "main.go"),
            denied: None,
        },
        Case {
            name: "deny-beats-allow-and-yes",
            policy: Policy { yes: true, ..ask(vec![rule(true, "bash", &[]), rule(false, "bash", &["rm *"])]) },
            call: tool("bash", "make && rm -rf ~"),
            denied: Some(&["deny \"bash\" \"rm *\""]),
        },
        Case {
            name: "deny-any-tool",
            policy: ask(vec![rule(false, "*", &[])]),
            call: tool("read", "a"),
            denied: Some(&["deny \"*\""]),
        },
        Case { name: "ask-reading-runs", policy: ask(vec![]), call: tool("grep", "."), denied: None },
        Case {
            name: "ask-refuses-without-yes",
            policy: ask(vec![]),
            call: tool("bash", "make test"),
            denied: Some(&[
                "needs the user's approval",
                "no one can be asked here",
                "--yes",
                "allow \"bash\" \"make test\"",
                "/u/smith.kdl",
            ]),
        },
        Case {
            name: "ask-yes-runs",
            policy: Policy { yes: true, ..ask(vec![]) },
            call: tool("edit", "a.go"),
            denied: None,
        },
        Case {
            name: "ask-allow-rule-runs",
            policy: ask(vec![rule(true, "bash", &["git status*"])]),
            call: tool("bash", "git status -s"),
            denied: None,
        },
        Case {
            name: "ask-allow-rule-not-compound",
            policy: ask(vec![rule(true, "bash", &["git status*"])]),
            call: tool("bash", "git status; rm -rf ~"),
            denied: Some(&["needs the user's approval", "add allow \"bash\" \"git status\" \"rm -rf ~\" to"]),
        },
        Case {
            name: "ask-allow-every-segment",
            policy: ask(vec![rule(true, "bash", &["git status*"]), rule(true, "bash", &["wc *"])]),
            call: tool("bash", "git status | wc -l"),
            denied: None,
        },
        Case {
            name: "ask-allow-not-substitution",
            policy: ask(vec![rule(true, "bash", &["echo *"])]),
            call: tool("bash", "echo $(cat ~/.ssh/id_rsa)"),
            denied: Some(&["needs the user's approval", "allow \"bash\" \"echo *\""]),
        },
        Case {
            name: "ask-allow-not-redirection",
            policy: ask(vec![rule(true, "bash", &["echo *"])]),
            call: tool("bash", "echo x > main.go"),
            denied: Some(&["needs the user's approval"]),
        },
        Case {
            name: "ask-allow-write-path",
            policy: ask(vec![rule(true, "write", &["notes/*"])]),
            call: tool("write", "notes/a.md"),
            denied: None,
        },
        Case {
            name: "read-only-refuses-write",
            policy: Policy { mode: Mode::ReadOnly, ..Policy::default() },
            call: tool("write", "a.go"),
            denied: Some(&["read-only", "allow \"write\" \"a.go\"", "your smith.kdl", "--permission-mode auto"]),
        },
        Case {
            name: "read-only-yes-still-refuses",
            policy: Policy { mode: Mode::ReadOnly, yes: true, ..Policy::default() },
            call: tool("bash", "ls"),
            denied: Some(&["read-only"]),
        },
        Case {
            name: "read-only-allow-rule",
            policy: Policy {
                mode: Mode::ReadOnly,
                rules: vec![rule(true, "bash", &["git log*"])],
                ..Policy::default()
            },
            call: tool("bash", "git log -3"),
            denied: None,
        },
        Case {
            name: "read-only-unknown-tool",
            policy: Policy { mode: Mode::ReadOnly, ..Policy::default() },
            call: tool("deploy", ""),
            denied: Some(&["`deploy` may change"]),
        },
    ];
    for c in cases {
        let got = decide(&c.policy, &c.call, &mut no_user);
        match (c.denied, got) {
            (None, None) => {}
            (None, Some(why)) => panic!("{}: denied: {}", c.name, why),
            (Some(_), None) => panic!("{}: allowed", c.name),
            (Some(parts), Some(why)) => {
                for p in parts {
                    assert!(why.contains(p), "{}: {:?} lacks {:?}", c.name, why, p);
                }
            }
        }
    }
}

#[test]
fn parse_reads_the_host_configuration() {
    let p = parse(br#"{"permissions":{"mode":"ask","yes":true,"config":"/u/smith.kdl","rules":[{"effect":"deny","tool":"write","patterns":["*.env","*.pem"],"source":"smith.kdl:4:5"},{"effect":"allow","tool":"bash","patterns":[],"source":"s:1:1"}]}}"#).expect("parse");
    assert_eq!(p.mode, Mode::Ask);
    assert!(p.yes);
    assert_eq!(p.config, "/u/smith.kdl");
    assert_eq!(p.rules.len(), 2);
    assert_eq!(
        p.rules[0],
        Rule {
            allow: false,
            tool: "write".into(),
            patterns: vec!["*.env".into(), "*.pem".into()],
            source: "smith.kdl:4:5".into()
        }
    );
    assert!(p.rules[1].allow && p.rules[1].patterns.is_empty());
    assert!(parse(b"{}").expect("empty").is_default());
    assert!(parse(br#"{"permissions":{"mode":"never"}}"#)
        .unwrap_err()
        .contains("\"never\" is not auto, ask or read-only"));
    assert!(parse(b"{").is_err());
}

#[test]
fn call_reads_the_event() {
    let c = call(br#"{"type":"tool_execution_start","seq":4,"call_id":"c1","name":"bash","arguments":{"command":"make test","timeout":5}}"#).expect("call");
    assert_eq!(c, tool("bash", "make test"));
    let c = call(br#"{"name":"write","arguments":{"path":"a.env","content":"x"}}"#).expect("call");
    assert_eq!(c, tool("write", "a.env"));
    assert!(call(br#"{"arguments":{}}"#).unwrap_err().contains("names no tool"));
}

#[test]
fn declare_refuses_another_world() {
    match declare("9.0.0", b"{}") {
        Err(RegistrationFault::UnsupportedWorld(why)) => assert!(why.contains("9.0.0"), "{}", why),
        other => panic!("got {:?}", other),
    }
}

#[test]
fn declare_subscribes_only_with_a_policy() {
    let c = declare("0.0.0", br#"{"permissions":{"mode":"ask"}}"#).expect("declare");
    assert_eq!(c.subscriptions, [EventKind::ToolExecutionStart]);
    assert!(declare("0.0.0", br#"{"permissions":{"mode":"auto"}}"#).expect("declare").subscriptions.is_empty());
    match declare("0.0.0", br#"{"permissions":{"mode":"never"}}"#) {
        Err(RegistrationFault::InvalidConfiguration(why)) => assert!(why.contains("\"never\""), "{}", why),
        other => panic!("got {:?}", other),
    }
}

#[test]
fn handle_denies_and_ignores() {
    let conf = br#"{"permissions":{"rules":[{"effect":"deny","tool":"bash","patterns":["rm *"],"source":"s:1:1"}]}}"#;
    let ev = br#"{"name":"bash","arguments":{"command":"rm -rf /"}}"#;
    match handle(EventKind::ToolExecutionStart, ev, conf, &mut no_user).expect("handle").as_slice() {
        [Action::DenyCall(why)] => assert!(why.contains("rm *"), "{}", why),
        other => panic!("got {:?}", other),
    }
    assert!(handle(
        EventKind::ToolExecutionStart,
        br#"{"name":"bash","arguments":{"command":"ls"}}"#,
        conf,
        &mut no_user
    )
    .expect("handle")
    .is_empty());
    assert!(handle(EventKind::TurnEnd, ev, conf, &mut no_user).expect("other kinds").is_empty());
    assert!(handle(EventKind::ToolExecutionStart, b"not json", b"{}", &mut no_user)
        .expect("default policy reads nothing")
        .is_empty());
    assert!(matches!(
        handle(EventKind::ToolExecutionStart, b"{", conf, &mut no_user),
        Err(HandlerFault::InvalidEvent(_))
    ));
}

#[test]
fn ask_asks_the_user() {
    let policy = Policy { mode: Mode::Ask, config: "/u/smith.kdl".to_string(), ..Policy::default() };
    let push = tool("bash", "git push");
    struct Case {
        name: &'static str,
        answer: Result<bool, UiFault>,
        denied: Option<&'static str>,
    }
    let cases = [
        Case { name: "yes", answer: Ok(true), denied: None },
        Case { name: "no", answer: Ok(false), denied: Some("the user did not approve `bash` `git push`") },
        Case { name: "dismissed", answer: Err(UiFault::Dismissed), denied: Some("withdrawn before the user answered") },
        Case { name: "no-user", answer: Err(UiFault::NoUser), denied: Some("no one can be asked here") },
        Case { name: "failed", answer: Err(UiFault::Unknown("boom".into())), denied: Some("asking failed (boom)") },
    ];
    for c in cases {
        let mut asked = Vec::new();
        let answer = c.answer.clone();
        let got = decide(&policy, &push, &mut |q: &str| {
            asked.push(q.to_string());
            answer.clone()
        });
        assert_eq!(
            asked,
            ["Run `bash` `git push`? (permission mode ask; to stop being asked about it, add allow \"bash\" \"git push\" to the permissions block of /u/smith.kdl)"],
            "{}",
            c.name
        );
        match (c.denied, got) {
            (None, None) => {}
            (Some(part), Some(why)) => assert!(why.contains(part), "{}: {:?} lacks {:?}", c.name, why, part),
            (want, got) => panic!("{}: got {:?}, want {:?}", c.name, got, want),
        }
    }
    // Reading tools, rules and --yes decide without asking.
    let mut never = |_: &str| -> Result<bool, UiFault> { panic!("asked") };
    assert_eq!(decide(&policy, &tool("read", "a"), &mut never), None);
    assert_eq!(decide(&Policy { yes: true, ..policy.clone() }, &push, &mut never), None);
    let denied = Policy { rules: vec![rule(false, "bash", &["git push*"])], ..policy.clone() };
    assert!(decide(&denied, &push, &mut never).is_some());
}
