//! The crate's unit tests, run natively by rust_test.go
//! (rusttest.RunTests).

use crate::commands::{arguments, prompt_details};
use crate::context::{transform, FILE_LIMIT};
use crate::host::Files;
use crate::text::{below, cat, cut};
use smith_plugin::contrib::RegistrationFault;
use smith_plugin::fs::{FileFault, FileText, ReadOptions};
use smith_plugin::prompt::{ContextAddition, ModelIdentity, PromptFault, Repository, RuntimeFacts};
use smith_plugin::tool::ToolFault;
use smith_plugin::types::ContentBlock;

// --- declarations ---

#[test]
fn declares_system_prompt_transform_and_init() {
    let c = crate::declare("0.0.0").expect("declare");
    assert!(c.tools.is_empty() && c.providers.is_empty() && c.models.is_empty() && c.subscriptions.is_empty());
    let prompts: Vec<&str> = c.prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(prompts, ["system", "compaction"]);
    let transforms: Vec<&str> = c.context_transforms.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(transforms, ["project-instructions"]);
    let commands: Vec<&str> = c.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(commands, ["init"]);
    for d in c.prompts.iter().map(|p| &p.description).chain(c.commands.iter().map(|c| &c.description)) {
        assert!(d.len() >= 30 && d.ends_with('.'), "thin description {:?}", d);
    }
}

#[test]
fn another_world_is_refused() {
    match crate::declare("9.0.0") {
        Err(RegistrationFault::UnsupportedWorld(m)) => assert!(m.contains("host offers 9.0.0"), "{}", m),
        other => panic!("declare(9.0.0) = {:?}", other),
    }
}

// --- the compaction prompt ---

#[test]
fn compaction_prompt_asks_for_a_summary_that_replaces_the_transcript() {
    let p = crate::compaction::render(&facts(&SEVEN), 1 << 20).expect("render");
    assert!(p.contains("working in /home/ada/src/engine/cmd."), "{}", p);
    for tag in ["<conversation>", "<previous-summary>", "<instructions>"] {
        assert!(p.contains(tag), "the prompt names {}: {}", tag, p);
    }
    for head in ["- Goal: ", "- Done: ", "- State: ", "- Files: ", "- Next: "] {
        assert!(p.contains(head), "section {:?} missing: {}", head, p);
    }
    assert!(p.contains("Fold the previous summary in."));
    assert!(p.ends_with("without a preamble or closing remarks.\n"));
    assert!(p.len() < 4096, "the compaction prompt is {} bytes", p.len());
}

#[test]
fn compaction_prompt_faults() {
    let f = facts(&SEVEN);
    let n = crate::compaction::render(&f, 1 << 20).expect("render").len();
    match crate::compaction::render(&f, n - 1) {
        Err(PromptFault::Unknown(m)) => assert!(m.contains("compaction prompt is"), "{}", m),
        other => panic!("render over the limit = {:?}", other),
    }
    assert!(crate::compaction::render(&f, n).is_ok());
    let mut f = facts(&SEVEN);
    f.working_directory = String::new();
    match crate::compaction::render(&f, 1 << 20) {
        Err(PromptFault::InvalidFacts(m)) => assert!(m.contains("working-directory is empty"), "{}", m),
        other => panic!("render without a working directory = {:?}", other),
    }
}

// --- the system prompt ---

const SEVEN: [&str; 7] = ["read", "write", "edit", "bash", "find", "grep", "ls"];

fn facts(tools: &[&str]) -> RuntimeFacts {
    RuntimeFacts {
        working_directory: "/home/ada/src/engine/cmd".to_string(),
        operating_system: "linux".to_string(),
        architecture: "amd64".to_string(),
        shell: "/bin/bash".to_string(),
        date: "2025-06-01".to_string(),
        repository: Some(Repository { root: "/home/ada/src/engine".to_string(), branch: Some("main".to_string()) }),
        model: ModelIdentity {
            provider: "anthropic".to_string(),
            name: "claude-sonnet-4-5".to_string(),
            display_name: "Claude Sonnet 4.5".to_string(),
        },
        tools: tools.iter().map(|t| t.to_string()).collect(),
        configuration_directory: Some("/home/ada/.config/smith".to_string()),
    }
}

fn render(f: &RuntimeFacts) -> String {
    crate::system::render(f, 1 << 20).expect("render")
}

#[test]
fn system_prompt_states_the_environment() {
    let p = render(&facts(&SEVEN));
    for want in [
        "You are Smith, a coding agent",
        "- Working directory: /home/ada/src/engine/cmd (relative paths resolve against it)\n",
        "- Git repository: /home/ada/src/engine, branch main\n",
        "- OS: linux/amd64; shell: /bin/bash\n",
        "- Date: 2025-06-01\n",
        "- Model: Claude Sonnet 4.5 (anthropic/claude-sonnet-4-5)\n",
    ] {
        assert!(p.contains(want), "prompt lacks {:?}:\n{}", want, p);
    }
}

#[test]
fn system_prompt_states_the_rules() {
    let p = render(&facts(&SEVEN));
    for want in [
        "Look things up with find, grep, ls and read",
        "Read a file before changing it. Prefer edit for small changes",
        "AGENTS.md",
        "Keep changes minimal",
        "Verify changes with the project's own tests or build",
        "rm -rf, git reset --hard, force pushes, dropping data",
        "Do not revert changes you did not make",
        "ask one short question",
        "Be concise",
        "say what changed and how you verified it",
    ] {
        assert!(p.contains(want), "prompt lacks {:?}:\n{}", want, p);
    }
    // No markup that JSON encoders escape into six bytes each.
    assert!(!p.contains(['<', '>', '&']), "{}", p);
}

#[test]
fn system_prompt_mentions_only_active_tools() {
    // (active tools, text that must not appear, text that must)
    let cases: [(&[&str], &[&str], &[&str]); 5] = [
        (
            &["read", "bash"],
            &["Prefer edit", "write new", "find", "grep", " ls "],
            &["Look things up with read instead", "rm -rf"],
        ),
        (
            &["read", "write"],
            &["Prefer edit", "rm -rf"],
            &["Read a file before changing it.\n", "You cannot run commands"],
        ),
        (&["edit"], &["Read a file", "Look things up", "write new"], &["Prefer edit for small changes.\n"]),
        (
            &[],
            &["Look things up", "Prefer edit", "Verify changes", "tool calls together", "Make the changes"],
            &["You cannot run commands"],
        ),
        (
            &SEVEN,
            &[],
            &["write new files or full rewrites", "Make independent tool calls together", "Make the changes yourself"],
        ),
    ];
    for (tools, absent, present) in cases {
        let p = render(&facts(tools));
        // A tool's name appears as a word only when the tool is active
        // (the environment's facts aside: the shell may be bash).
        let (intro, rest) = p.split_once("Environment:").unwrap();
        let words = cat(&[intro, rest.split_once("Rules:").unwrap().1]);
        for t in SEVEN {
            let word = words.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == t);
            assert!(!word || tools.contains(&t), "tools {:?}: prompt names {:?}:\n{}", tools, t, p);
        }
        for w in absent {
            assert!(!p.contains(w), "tools {:?}: prompt mentions {:?}:\n{}", tools, w, p);
        }
        for w in present {
            assert!(p.contains(w), "tools {:?}: prompt lacks {:?}:\n{}", tools, w, p);
        }
    }
}

#[test]
fn system_prompt_repository_cases() {
    let mut f = facts(&SEVEN);
    f.repository.as_mut().unwrap().branch = None;
    assert!(render(&f).contains("- Git repository: /home/ada/src/engine, detached HEAD\n"));
    f.repository = Some(Repository { root: f.working_directory.clone(), branch: Some("dev".to_string()) });
    assert!(render(&f).contains("- Git repository: the working directory, branch dev\n"));
    f.repository = None;
    assert!(render(&f).contains("- Not a git repository\n"));
}

#[test]
fn system_prompt_leaves_out_unknown_facts() {
    let mut f = facts(&SEVEN);
    f.shell.clear();
    f.date.clear();
    f.model.display_name.clear();
    let p = render(&f);
    assert!(p.contains("- OS: linux/amd64\n") && !p.contains("Date:"), "{}", p);
    assert!(p.contains("- Model: anthropic/claude-sonnet-4-5\n"), "{}", p);
    f.operating_system.clear();
    f.model = ModelIdentity::default();
    let p = render(&f);
    assert!(!p.contains("OS:") && !p.contains("Model:"), "{}", p);
}

#[test]
fn system_prompt_faults() {
    let mut f = facts(&SEVEN);
    let n = render(&f).len();
    match crate::system::render(&f, n - 1) {
        Err(PromptFault::Unknown(m)) => {
            assert!(m.contains(&format!("{} bytes, over the host's {}-byte limit", n, n - 1)), "{}", m)
        }
        other => panic!("render over the limit = {:?}", other),
    }
    assert!(crate::system::render(&f, n).is_ok());
    f.working_directory.clear();
    match crate::system::render(&f, 1 << 20) {
        Err(PromptFault::InvalidFacts(m)) => assert!(m.contains("working-directory is empty"), "{}", m),
        other => panic!("render without a working directory = {:?}", other),
    }
}

// --- the context transform ---

/// Disk is a host holding files by path; it records every read.
struct Disk {
    files: Vec<(String, Result<String, FileFault>)>,
    reads: Vec<String>,
}

impl Disk {
    fn new(files: &[(&str, Result<&str, FileFault>)]) -> Disk {
        Disk {
            files: files.iter().map(|(p, r)| (p.to_string(), r.clone().map(|s| s.to_string()))).collect(),
            reads: Vec::new(),
        }
    }
}

impl Files for Disk {
    /// read_file serves a file as the host does: lines up to the byte
    /// limit (an overlong first line cut at a character boundary).
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault> {
        self.reads.push(path.to_string());
        assert!(o.offset == 0 && o.limit == 0 && o.byte_limit > 0, "{:?}", o);
        let text = match self.files.iter().find(|(p, _)| p == path) {
            Some((_, r)) => r.clone()?,
            None => return Err(FileFault::NotFound(path.to_string())),
        };
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let limit = o.byte_limit as usize;
        let mut out = String::new();
        let mut n = 0;
        for l in &lines {
            if out.len() + l.len() > limit {
                if out.is_empty() {
                    let mut end = limit;
                    while !l.is_char_boundary(end) {
                        end -= 1;
                    }
                    out.push_str(&l[..end]);
                    n += 1;
                }
                break;
            }
            out.push_str(l);
            n += 1;
        }
        Ok(FileText { text: out, total_lines: lines.len() as u32, truncated: n < lines.len() })
    }
}

/// tail is the end of a long text, for failure messages.
fn tail(s: &str) -> &str {
    let mut i = s.len().saturating_sub(160);
    while !s.is_char_boundary(i) {
        i += 1;
    }
    &s[i..]
}

fn run(disk: &mut Disk, f: &RuntimeFacts, limit: usize) -> Vec<ContextAddition> {
    transform(disk, f, limit).expect("transform")
}

#[test]
fn instructions_from_root_to_working_directory_then_the_user() {
    let mut d = Disk::new(&[
        ("/home/ada/src/engine/AGENTS.md", Ok("root rules\n")),
        ("/home/ada/src/engine/cmd/CLAUDE.md", Ok("cmd rules\n")),
        ("/home/ada/.config/smith/AGENTS.md", Ok("my rules")),
        ("/home/ada/src/AGENTS.md", Ok("outside the repository")),
    ]);
    let got = run(&mut d, &facts(&SEVEN), 64 << 10);
    let want = [
        ("/home/ada/src/engine/AGENTS.md", "Instructions from /home/ada/src/engine/AGENTS.md:\n\nroot rules\n"),
        ("/home/ada/src/engine/cmd/CLAUDE.md", "Instructions from /home/ada/src/engine/cmd/CLAUDE.md:\n\ncmd rules\n"),
        (
            "/home/ada/.config/smith/AGENTS.md",
            "The user's own instructions, from /home/ada/.config/smith/AGENTS.md:\n\nmy rules",
        ),
    ];
    assert_eq!(got.len(), want.len(), "{:?}", got);
    for (a, (src, text)) in got.iter().zip(want) {
        assert_eq!((a.source.as_str(), a.text.as_str(), a.cut), (src, text, false));
    }
    assert_eq!(
        d.reads,
        [
            "/home/ada/src/engine/AGENTS.md",
            "/home/ada/src/engine/cmd/AGENTS.md",
            "/home/ada/src/engine/cmd/CLAUDE.md",
            "/home/ada/.config/smith/AGENTS.md",
        ]
    );
}

#[test]
fn agents_md_wins_over_claude_md() {
    let mut d = Disk::new(&[("/w/AGENTS.md", Ok("a")), ("/w/CLAUDE.md", Ok("c"))]);
    let mut f = facts(&SEVEN);
    f.working_directory = "/w".to_string();
    f.repository = None;
    f.configuration_directory = None;
    let got = run(&mut d, &f, 64 << 10);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].source, "/w/AGENTS.md");
    assert_eq!(d.reads, ["/w/AGENTS.md"]);
}

#[test]
fn outside_a_repository_only_the_working_directory() {
    let mut d = Disk::new(&[("/home/ada/src/engine/AGENTS.md", Ok("root"))]);
    let mut f = facts(&SEVEN);
    f.repository = None;
    f.configuration_directory = None;
    assert!(run(&mut d, &f, 64 << 10).is_empty());
    assert_eq!(d.reads, ["/home/ada/src/engine/cmd/AGENTS.md", "/home/ada/src/engine/cmd/CLAUDE.md"]);
    // A root that does not contain the working directory counts as none.
    f.repository = Some(Repository { root: "/home/ada/src/eng".to_string(), branch: None });
    d.reads.clear();
    run(&mut d, &f, 64 << 10);
    assert_eq!(d.reads, ["/home/ada/src/engine/cmd/AGENTS.md", "/home/ada/src/engine/cmd/CLAUDE.md"]);
}

#[test]
fn windows_paths() {
    let mut d = Disk::new(&[("C:\\src\\AGENTS.md", Ok("r")), ("C:\\src\\app\\AGENTS.md", Ok("a"))]);
    let mut f = facts(&SEVEN);
    f.operating_system = "windows".to_string();
    f.working_directory = "C:\\src\\app".to_string();
    f.repository = Some(Repository { root: "C:\\src".to_string(), branch: None });
    f.configuration_directory = None;
    let got: Vec<String> = run(&mut d, &f, 64 << 10).into_iter().map(|a| a.source).collect();
    assert_eq!(got, ["C:\\src\\AGENTS.md", "C:\\src\\app\\AGENTS.md"]);
}

#[test]
fn a_long_file_is_cut_with_a_note() {
    let line = "x".repeat(99) + "\n";
    let long = line.repeat(400); // 40,000 bytes
    let one_line = "é".repeat(20_000); // 40,000 bytes, no newline
    for (name, body) in [("lines", long.as_str()), ("one-line", one_line.as_str())] {
        let mut d = Disk::new(&[("/w/AGENTS.md", Ok(body))]);
        let mut f = facts(&SEVEN);
        f.working_directory = "/w".to_string();
        f.repository = None;
        f.configuration_directory = None;
        let got = run(&mut d, &f, 64 << 10);
        assert_eq!(got.len(), 1, "{}", name);
        let a = &got[0];
        assert!(a.cut, "{}: not flagged cut", name);
        assert!(
            a.text.ends_with("\n[Cut at 32 KiB; read /w/AGENTS.md for the rest.]\n"),
            "{}: {:?}",
            name,
            tail(&a.text)
        );
        let body_len = a.text.len() - "Instructions from /w/AGENTS.md:\n\n".len();
        assert!(body_len <= FILE_LIMIT + 80 && body_len > FILE_LIMIT / 2, "{}: {} bytes", name, body_len);
    }
}

#[test]
fn a_file_of_exactly_the_limit_is_whole() {
    let body = "y".repeat(FILE_LIMIT - 1) + "\n";
    let mut d = Disk::new(&[("/w/AGENTS.md", Ok(body.as_str()))]);
    let mut f = facts(&SEVEN);
    f.working_directory = "/w".to_string();
    f.repository = None;
    f.configuration_directory = None;
    let got = run(&mut d, &f, 64 << 10);
    assert!(!got[0].cut && got[0].text.ends_with(&body));
}

#[test]
fn the_total_stays_within_the_limit() {
    let big = "z".repeat(30_000) + "\n";
    let mut files = Vec::new();
    let mut f = facts(&SEVEN);
    f.working_directory = "/r/a/b/c".to_string();
    f.repository = Some(Repository { root: "/r".to_string(), branch: None });
    for dir in ["/r", "/r/a", "/r/a/b", "/r/a/b/c", "/home/ada/.config/smith"] {
        files.push((dir.to_string() + "/AGENTS.md", Ok(big.as_str())));
    }
    let refs: Vec<(&str, Result<&str, FileFault>)> = files.iter().map(|(p, r)| (p.as_str(), r.clone())).collect();
    for limit in [0usize, 100, 1000, 40_000, 64 << 10, 200_000] {
        let mut d = Disk::new(&refs);
        let got = run(&mut d, &f, limit);
        let total: usize = got.iter().map(|a| a.text.len()).sum();
        assert!(total <= limit, "limit {}: {} bytes", limit, total);
        if limit == 64 << 10 {
            let cut: Vec<(bool, usize)> = got.iter().map(|a| (a.cut, a.text.len())).collect();
            assert_eq!(cut.iter().map(|c| c.0).collect::<Vec<bool>>(), [false, false, true, true, true], "{:?}", cut);
            assert!(
                got[2].text.ends_with(
                    "\n[Cut: the instructions reached their 64 KiB bound; read /r/a/b/AGENTS.md for the rest.]\n"
                ),
                "{}",
                tail(&got[2].text)
            );
            assert_eq!(got[3].text, "Instructions from /r/a/b/c/AGENTS.md:\n\n[Left out: the instructions reached their 64 KiB bound; read /r/a/b/c/AGENTS.md if it matters.]\n");
            assert!(got[4].text.ends_with("[Left out: the instructions reached their 64 KiB bound; read /home/ada/.config/smith/AGENTS.md if it matters.]\n"), "{}", tail(&got[4].text));
        }
        if limit == 200_000 {
            assert!(got.iter().all(|a| !a.cut) && got.len() == 5);
        }
    }
}

#[test]
fn a_failed_read_is_a_note() {
    let mut d = Disk::new(&[
        ("/w/AGENTS.md", Err(FileFault::NotText("/w/AGENTS.md".to_string()))),
        ("/w/CLAUDE.md", Ok("never read: AGENTS.md exists")),
        ("/home/ada/.config/smith/AGENTS.md", Err(FileFault::PermissionDenied("x".to_string()))),
    ]);
    let mut f = facts(&SEVEN);
    f.working_directory = "/w".to_string();
    f.repository = None;
    let got = run(&mut d, &f, 64 << 10);
    let texts: Vec<&str> = got.iter().map(|a| a.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "[Smith could not read /w/AGENTS.md: not UTF-8 text.]\n",
            "[Smith could not read /home/ada/.config/smith/AGENTS.md: permission denied.]\n",
        ]
    );
    assert!(got.iter().all(|a| !a.cut));
}

#[test]
fn the_same_file_is_read_once() {
    let mut d = Disk::new(&[("/home/ada/.config/smith/AGENTS.md", Ok("mine"))]);
    let mut f = facts(&SEVEN);
    f.working_directory = "/home/ada/.config/smith".to_string();
    f.repository = None;
    let got = run(&mut d, &f, 64 << 10);
    assert_eq!(got.len(), 1);
    assert_eq!(d.reads, ["/home/ada/.config/smith/AGENTS.md"]);
}

#[test]
fn transform_faults() {
    let mut f = facts(&SEVEN);
    f.working_directory.clear();
    match transform(&mut Disk::new(&[]), &f, 100) {
        Err(PromptFault::InvalidFacts(m)) => assert!(m.contains("working-directory"), "{}", m),
        other => panic!("transform without a working directory = {:?}", other),
    }
}

#[test]
fn below_cases() {
    let cases = [
        ("/r", "/r", Some("")),
        ("/r", "/r/a/b", Some("a/b")),
        ("/r", "/r/a/b/", Some("a/b")),
        ("/r/", "/r/a", Some("a")),
        ("/", "/a", Some("a")),
        ("/r", "/rx", None),
        ("/r/a", "/r", None),
    ];
    for (root, dir, want) in cases {
        assert_eq!(below(root, dir, '/'), want, "below({:?}, {:?})", root, dir);
    }
}

#[test]
fn cut_cases() {
    assert_eq!(cut("abc", 5), "abc");
    assert_eq!(cut("ab\ncd\nef", 7), "ab\ncd\n");
    assert_eq!(cut("a\nbcdefgh", 8), "a\nbcdefg");
    assert_eq!(cut("éé", 3), "é");
}

// --- commands and their JSON ---

#[test]
fn init_asks_for_agents_md() {
    for (args, focus) in
        [(r#"{"arguments":""}"#, None), (r#"{"arguments":"  the parser  "}"#, Some("the parser")), ("{}", None)]
    {
        let out = crate::commands::run("init", args.as_bytes()).expect("init");
        match &out.content[..] {
            [ContentBlock::Text(t)] => assert!(t.contains("AGENTS.md"), "{}", t),
            other => panic!("content = {:?}", other),
        }
        let details = out.details.expect("details");
        let prompt = arguments(details.replacen("\"prompt\"", "\"arguments\"", 1).as_bytes()).expect("details JSON");
        assert!(prompt.starts_with(crate::commands::INIT_PROMPT), "{}", prompt);
        match focus {
            Some(f) => assert!(prompt.ends_with(&format!("\n\nThe user adds: {}", f)), "{}", prompt),
            None => assert_eq!(prompt, crate::commands::INIT_PROMPT),
        }
    }
}

#[test]
fn command_faults() {
    match crate::commands::run("nope", b"{}") {
        Err(ToolFault::UnknownTool(n)) => assert_eq!(n, "nope"),
        other => panic!("{:?}", other),
    }
    match crate::commands::run("init", br#"{"arguments":1}"#) {
        Err(ToolFault::InvalidArguments(m)) => assert_eq!(
            m,
            r#"init: "arguments" must be a string, not number; the host sends a command's arguments as {"arguments": "text"}"#
        ),
        other => panic!("{:?}", other),
    }
}

#[test]
fn arguments_cases() {
    // (input, the text or the failure)
    let cases: [(&str, Result<&str, &str>); 20] = [
        (r#"{"arguments":"fix it"}"#, Ok("fix it")),
        (r#" { "arguments" : "a\"b\\c\/d\n\t\u00e9\ud83d\ude00" } "#, Ok("a\"b\\c/d\n\té😀")),
        (r#"{"arguments":"\ud800x\udc00\ud800\u0041"}"#, Ok("\u{FFFD}x\u{FFFD}\u{FFFD}A")),
        (r#"{}"#, Ok("")),
        (r#"{"arguments":null}"#, Ok("")),
        (r#"{"x":[1,-2.5e+3,{"y":[true,false,null,{}]},[]],"arguments":"a","z":0}"#, Ok("a")),
        (r#"{"arguments":1,"arguments":"last"}"#, Ok("last")),
        (r#"{"arguments":"first","arguments":null}"#, Ok("")),
        (r#"{"arguments":"a","arguments":[1]}"#, Err(r#""arguments" must be a string, not array"#)),
        (r#"null"#, Err("the arguments must be a JSON object, not null")),
        (r#"["arguments"]"#, Err("the arguments must be a JSON object, not array")),
        (r#"{"arguments":"a"} x"#, Err("invalid character 'x' at offset 18 after the top-level value")),
        (r#"{"arguments":"a",}"#, Err("invalid character '}' at offset 17 looking for an object key")),
        (r#"{"x":01}"#, Err("invalid character '1' at offset 6 after an object member")),
        (r#"{"x":1.}"#, Err("invalid character '}' at offset 7 after the decimal point in a number")),
        (r#"{"x":tru}"#, Err("invalid character '}' at offset 8 in the literal true")),
        ("{\"arguments\":\"a\tb\"}", Err(r"invalid character '\t' at offset 15 in a string literal")),
        (r#"{"arguments":"\x"}"#, Err("invalid character 'x' at offset 15 in a string literal")),
        (r#"{"arguments":"\u12"}"#, Err(r#"invalid character '"' at offset 18 in a string literal"#)),
        (r#"{"arguments":"open"#, Err("the input ends at offset 18 in a string literal; the JSON text is incomplete")),
    ];
    for (input, want) in cases {
        assert_eq!(arguments(input.as_bytes()).as_deref(), want.map_err(str::to_string).as_deref(), "{}", input);
    }
}

#[test]
fn arguments_depth() {
    let nest = |n: usize| format!("{{\"x\":{}{}}}", "[".repeat(n), "]".repeat(n));
    assert!(arguments(nest(9999).as_bytes()).is_ok());
    assert!(arguments(nest(10000).as_bytes()).is_err());
}

#[test]
fn prompt_details_escapes() {
    let text = "say \"hi\"\\\n\t\r\u{1}\u{1f}é <&>";
    let d = prompt_details(text);
    assert_eq!(d, r#"{"prompt":"say \"hi\"\\\n\t\r\u0001\u001fé <&>"}"#);
    assert_eq!(arguments(d.replacen("prompt", "arguments", 1).as_bytes()).as_deref(), Ok(text));
}
