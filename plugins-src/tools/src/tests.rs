//! Native tests of the tools against a recording host.

use crate::bash::clean;
use crate::catalog::*;
use crate::host::Host;
use crate::output::itoa;
use crate::testkit::{decode_sample, echo_run, Sample};
use smith_json::read::{Decoder, Kind};
use smith_plugin::contrib::RegistrationFault;
use smith_plugin::fs::*;
use smith_plugin::process::*;
use smith_plugin::tool::{InvokeOptions, ToolCall, ToolFault, ToolOutput};
use smith_plugin::types::ContentBlock;

/// Fake is a host that records each call and answers with what the test
/// set; an unset answer is an unknown fault.
#[derive(Default)]
struct Fake {
    calls: Vec<String>,
    read: Option<Result<FileText, FileFault>>,
    write: Option<Result<u64, FileFault>>,
    edit: Option<Result<EditOutcome, FileFault>>,
    list: Option<Result<Vec<DirectoryEntry>, FileFault>>,
    find: Option<Result<Vec<String>, FileFault>>,
    search: Option<Result<Vec<TextMatch>, FileFault>>,
    run: Option<Result<ProcessOutcome, ProcessFault>>,
}

fn unset<T>(what: &str) -> Result<T, FileFault> {
    Err(FileFault::Unknown(format!("the test set no answer for {}", what)))
}

impl Host for Fake {
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault> {
        self.calls.push(format!("read_file {:?} {:?}", path, o));
        self.read.clone().unwrap_or_else(|| unset("read_file"))
    }
    fn write_file(&mut self, path: &str, content: &str, o: &WriteOptions) -> Result<u64, FileFault> {
        self.calls.push(format!("write_file {:?} {:?} {:?}", path, content, o));
        self.write.clone().unwrap_or_else(|| unset("write_file"))
    }
    fn edit_file(&mut self, path: &str, edits: &[TextEdit], o: &EditOptions) -> Result<EditOutcome, FileFault> {
        self.calls.push(format!("edit_file {:?} {:?} {:?}", path, edits, o));
        self.edit.clone().unwrap_or_else(|| unset("edit_file"))
    }
    fn list_directory(&mut self, path: &str, o: &ListOptions) -> Result<Vec<DirectoryEntry>, FileFault> {
        self.calls.push(format!("list_directory {:?} {:?}", path, o));
        self.list.clone().unwrap_or_else(|| unset("list_directory"))
    }
    fn find_files(&mut self, pattern: &str, directory: &str, o: &FindOptions) -> Result<Vec<String>, FileFault> {
        self.calls.push(format!("find_files {:?} {:?} {:?}", pattern, directory, o));
        self.find.clone().unwrap_or_else(|| unset("find_files"))
    }
    fn search_text(&mut self, pattern: &str, directory: &str, o: &SearchOptions) -> Result<Vec<TextMatch>, FileFault> {
        self.calls.push(format!("search_text {:?} {:?} {:?}", pattern, directory, o));
        self.search.clone().unwrap_or_else(|| unset("search_text"))
    }
    fn run_process(&mut self, c: &Command, o: &RunOptions) -> Result<ProcessOutcome, ProcessFault> {
        self.calls.push(format!("run_process {:?} {:?}", c, o));
        self.run
            .clone()
            .unwrap_or_else(|| Err(ProcessFault::Unknown("the test set no answer for run_process".to_string())))
    }
}

/// call invokes tool with args through the plugin's entry point.
fn call(h: &mut Fake, tool: &str, args: &str, limit: u32) -> Result<String, ToolFault> {
    let c = ToolCall { id: "call_1".to_string(), name: tool.to_string(), arguments: args.to_string() };
    let o = InvokeOptions { output_limit: limit, working_directory: "/work/project".to_string() };
    crate::invoke(h, c, o).map(|out: ToolOutput| match out.content.as_slice() {
        [ContentBlock::Text(t)] if out.details.is_none() => t.clone(),
        other => panic!("output is {:?}; want one text block", other),
    })
}

// --- the catalog ---

/// schema_facts reads a schema's type, property names, required names and
/// additionalProperties with the plugins' JSON reader.
fn schema_facts(schema: &str) -> (String, Vec<String>, Vec<String>, Option<bool>) {
    let (mut ty, mut props, mut required, mut additional) = (String::new(), Vec::new(), Vec::new(), None);
    let mut d = Decoder::new(schema.as_bytes());
    assert_eq!(d.peek(), Kind::Object, "schema {}", schema);
    d.object(|d, key| match key {
        b"type" => ty = d.str().string(),
        b"properties" => d.object(|_, name| props.push(String::from_utf8_lossy(name).into_owned())),
        b"required" => d.array(|d| required.push(d.str().string())),
        b"additionalProperties" => additional = Some(d.bool()),
        _ => {}
    });
    assert_eq!(d.finish(), Ok(()), "schema {}", schema);
    (ty, props, required, additional)
}

#[test]
fn catalog_declares_seven_closed_tools() {
    let c = crate::declare("0.0.0").expect("declare");
    let names: Vec<&str> = c.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names.join(" "), "read write edit bash find grep ls");
    assert!(c.commands.is_empty() && c.providers.is_empty() && c.models.is_empty() && c.subscriptions.is_empty());
    for t in &c.tools {
        let (ty, props, required, additional) = schema_facts(&t.input_schema);
        assert_eq!(ty, "object", "{}", t.name);
        assert_eq!(additional, Some(false), "{}: schema must be closed", t.name);
        for r in &required {
            assert!(props.contains(r), "{}: required {:?} is not a property", t.name, r);
        }
        assert!(t.description.len() >= 40, "{}: description too thin", t.name);
    }
}

/// The declarations are byte for byte those of testdata/catalog.golden,
/// which the Go test TestCatalogGolden also checks through the host (and
/// refreshes with -update). They are worded tightly: all seven travel in
/// every request (smith/internal/sysplugins TestFirstRequestBudget).
#[test]
fn catalog_matches_golden() {
    let golden = include_str!("../testdata/catalog.golden");
    let c = crate::declare("0.0.0").expect("declare");
    let mut want = String::new();
    for t in &c.tools {
        want.push_str(&format!("{}\n{}\n{}\n\n", t.name, t.description, t.input_schema));
    }
    assert_eq!(want, golden);
}

#[test]
fn descriptions_state_the_bounds() {
    let d = |name: &str| CATALOG.iter().find(|t| t.name == name).unwrap().description;
    let kib = |n: u64| format!("{} KiB", n / 1024);
    assert!(d("read").contains(&format!("up to {} lines or {}", READ_LINES, kib(READ_BYTES))));
    assert!(d("bash").contains(&format!("last {} when longer", kib(BASH_OUTPUT as u64))));
    assert!(d("bash").contains(&format!("(default {})", BASH_TIMEOUT)));
    assert!(d("find").contains(&format!("(default {})", FIND_LIMIT)));
    assert!(d("grep").contains(&format!("(default {})", GREP_LIMIT)));
    assert!(d("ls").contains(&format!("(default {})", LS_LIMIT)));
    assert!(CATALOG[0].schema.contains(&format!("\"maximum\":{},", READ_LINES)));
    assert!(CATALOG[3].schema.contains(&format!("\"maximum\":{},", BASH_MAX_TIME)));
    for t in &CATALOG[4..] {
        assert!(t.schema.contains(&format!("\"maximum\":{},", MAX_LIMIT)), "{}", t.name);
    }
}

#[test]
fn another_world_is_refused() {
    match crate::declare("9.0.0") {
        Err(RegistrationFault::UnsupportedWorld(m)) => assert!(m.contains("host offers 9.0.0"), "{}", m),
        other => panic!("declare(9.0.0) = {:?}", other),
    }
}

// --- the argument reader ---

#[test]
fn decode_cases() {
    fn want(path: &str, n: i64, b: bool, items: &[&str]) -> Sample {
        Sample { path: path.to_string(), n, b, items: items.iter().map(|s| s.to_string()).collect() }
    }
    let deep = format!("{{\"x\":{}{},\"path\":\"p\"}}", "[".repeat(100), "]".repeat(100));
    let too_deep = format!("{{\"x\":{}{}}}", "[".repeat(10001), "]".repeat(10001));
    // (name, input, the result or a substring of the fault)
    let cases: Vec<(&str, &[u8], Result<Sample, &str>)> = vec![
        ("empty-object", b"{}", Ok(Sample::default())),
        (
            "all-kinds",
            br#" { "path" : "a/b.go", "n": 42, "b": true, "items": ["x", "y"] } "#,
            Ok(want("a/b.go", 42, true, &["x", "y"])),
        ),
        ("nulls-leave-zero", br#"{"path":null,"n":null,"b":null,"items":null}"#, Ok(Sample::default())),
        (
            "unknown-skipped",
            br#"{"x":{"y":[1,2,{"z":null}],"w":"q"},"path":"p","t":false,"u":-1.5e3}"#,
            Ok(want("p", 0, false, &[])),
        ),
        (
            "escapes",
            br#"{"path":"a\"b\\c\/d\n\t\r\b\f\u00e9\ud83d\ude00"}"#,
            Ok(want("a\"b\\c/d\n\t\r\u{8}\u{c}é😀", 0, false, &[])),
        ),
        ("lone-surrogate", br#"{"path":"\ud83dx"}"#, Ok(want("\u{FFFD}x", 0, false, &[]))),
        ("low-surrogate-first", br#"{"path":"\udc00\ud800"}"#, Ok(want("\u{FFFD}\u{FFFD}", 0, false, &[]))),
        ("invalid-utf8-replaced", b"{\"path\":\"a\xffb\"}", Ok(want("a\u{FFFD}b", 0, false, &[]))),
        (
            "truncated-sequence-byte-by-byte",
            b"{\"path\":\"a\xe6\x80b\"}",
            Ok(want("a\u{FFFD}\u{FFFD}b", 0, false, &[])),
        ),
        ("escaped-key", br#"{"p\u0061th":"k"}"#, Ok(want("k", 0, false, &[]))),
        ("whole-float", br#"{"n":3.0}"#, Ok(want("", 3, false, &[]))),
        ("exponent", br#"{"n":1e3}"#, Ok(want("", 1000, false, &[]))),
        ("negative", br#"{"n":-7}"#, Ok(want("", -7, false, &[]))),
        ("bound-2^53", br#"{"n":9007199254740992.0}"#, Ok(want("", 9007199254740992, false, &[]))),
        ("int64-max", br#"{"n":9223372036854775807}"#, Ok(want("", i64::MAX, false, &[]))),
        ("scaled-fraction", br#"{"n":250e-1}"#, Ok(want("", 25, false, &[]))),
        ("zero-fraction", br#"{"n":-0.000e5}"#, Ok(want("", 0, false, &[]))),
        ("zeros-around", br#"{"n":12.3400e2}"#, Ok(want("", 1234, false, &[]))),
        ("negative-bound", br#"{"n":-9007199254740992e0}"#, Ok(want("", -9007199254740992, false, &[]))),
        ("tiny-is-not-whole", br#"{"n":1e-400}"#, Err(r#""n" must be a whole number"#)),
        ("long-fraction", br#"{"n":1.00000000000000000001}"#, Err(r#""n" must be a whole number"#)),
        ("huge-exponent", br#"{"n":1e99999999999999999999}"#, Err(r#""n" must be a whole number"#)),
        ("duplicate-last-wins", br#"{"path":"a","path":"b"}"#, Ok(want("b", 0, false, &[]))),
        ("empty-list", br#"{"items":[]}"#, Ok(Sample::default())),
        ("null-item", br#"{"items":["x",null]}"#, Ok(want("", 0, false, &["x", ""]))),
        ("not-object", br#"["path"]"#, Err("the arguments must be a JSON object, not array")),
        ("string-top", br#""x""#, Err("the arguments must be a JSON object, not string")),
        (
            "empty-input",
            b"",
            Err("the input ends at offset 0 looking for the beginning of a value; the JSON text is incomplete"),
        ),
        ("bad-top", b"  x", Err("invalid character 'x' at offset 2 looking for the beginning of a value")),
        ("string-for-int", br#"{"n":"3"}"#, Err(r#""n" must be an integer, not string"#)),
        ("fraction", br#"{"n":2.5}"#, Err(r#""n" must be a whole number between -2^53 and 2^53, not 2.5"#)),
        ("huge", br#"{"n":1e300}"#, Err(r#""n" must be a whole number"#)),
        ("past-2^53", br#"{"n":9007199254740994.0}"#, Err(r#""n" must be a whole number"#)),
        (
            "past-int64",
            br#"{"n":99999999999999999999}"#,
            Err(r#""n" must be a whole number between -2^53 and 2^53, not 99999999999999999999"#),
        ),
        ("int-for-string", br#"{"path":3}"#, Err(r#""path" must be a string, not number"#)),
        ("bad-bool", br#"{"b":"yes"}"#, Err(r#""b" must be true or false, not string"#)),
        ("object-for-list", br#"{"items":{}}"#, Err(r#""items" must be a list, not object"#)),
        ("number-item", br#"{"items":["x",1]}"#, Err(r#""items[]" must be a string, not number"#)),
        ("first-property-error-wins", br#"{"n":"3","path":4}"#, Err(r#""n" must be an integer, not string"#)),
        ("trailing-text", b"{} x", Err("invalid character 'x' at offset 3 after the top-level value")),
        ("trailing-comma", br#"{"path":"a",}"#, Err("invalid character '}' at offset 12 looking for an object key")),
        ("missing-colon", br#"{"path" "a"}"#, Err(r#"invalid character '"' at offset 8 after an object key"#)),
        ("unterminated", br#"{"path":"abc"#, Err("the input ends at offset 12 in a string literal")),
        ("raw-newline", b"{\"path\":\"a\nb\"}", Err("invalid character '\\n' at offset 10 in a string literal")),
        ("bad-escape", br#"{"path":"\q"}"#, Err("invalid character 'q' at offset 10 in a string literal")),
        ("bad-unicode", br#"{"path":"\u12G4"}"#, Err("invalid character 'G' at offset 13 in a string literal")),
        ("leading-zero", br#"{"n":01}"#, Err("invalid character '1' at offset 6 after an object member")),
        ("bare-minus", br#"{"n":-}"#, Err("invalid character '}' at offset 6 in a number, looking for a digit")),
        ("bad-fraction", br#"{"n":1.}"#, Err("invalid character '}' at offset 7 after the decimal point in a number")),
        ("bad-exponent", br#"{"n":1e+}"#, Err("invalid character '}' at offset 8 in the exponent of a number")),
        ("bad-literal", br#"{"b":tru}"#, Err("invalid character '}' at offset 8 in the literal true")),
        ("list-not-list", br#"{"items":"x"}"#, Err(r#""items" must be a list, not string"#)),
        (
            "list-bad-separator",
            br#"{"items":["x" "y"]}"#,
            Err(r#"invalid character '"' at offset 14 after an array element"#),
        ),
        (
            "syntax-beats-property",
            br#"{"n":"3","x":[1 2]}"#,
            Err("invalid character '2' at offset 16 after an array element"),
        ),
        (
            "unclosed",
            br#"{"x":[1,"#,
            Err("the input ends at offset 8 looking for the beginning of a value; the JSON text is incomplete"),
        ),
        ("unclosed-skipped", br#"{"x":[[1]"#, Err("the input ends at offset 9 inside an unclosed object or array")),
        ("latin-byte", b"{\"n\":\xe9}", Err("invalid character 'é' at offset 5 looking for the beginning of a value")),
        (
            "control-byte",
            b"{\"n\":\x85}",
            Err("invalid character '\\u0085' at offset 5 looking for the beginning of a value"),
        ),
        ("too-deep", too_deep.as_bytes(), Err("nesting at offset 10004 exceeds the limit of 10000 levels")),
        ("deep-unknown-skipped", deep.as_bytes(), Ok(want("p", 0, false, &[]))),
    ];
    for (name, input, want) in cases {
        let got = decode_sample(input);
        match (got, want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{}", name),
            (Err(e), Err(w)) => {
                assert!(e.starts_with("t: arguments are not valid: "), "{}: {}", name, e);
                assert!(e.ends_with("; send a JSON object matching the tool's schema"), "{}: {}", name, e);
                assert!(e.contains(w), "{}: fault {:?} lacks {:?}", name, e, w);
            }
            (g, w) => panic!("{}: decode = {:?}; want {:?}", name, g, w),
        }
    }
}

// --- the tools ---

#[test]
fn unknown_tool() {
    let mut h = Fake::default();
    assert_eq!(call(&mut h, "rm", "{}", 0), Err(ToolFault::UnknownTool("rm".to_string())));
}

#[test]
fn output_is_bounded_to_the_call_limit() {
    let mut h = Fake {
        read: Some(Ok(FileText { text: "line\n".repeat(100), total_lines: 100, truncated: false })),
        ..Default::default()
    };
    let out = call(&mut h, "read", r#"{"path":"a"}"#, 300).unwrap();
    assert!(
        out.len() <= 300
            && out
                .ends_with("\n[output truncated: 500 bytes exceed the 300-byte tool output limit; narrow the request]"),
        "{:?}",
        out
    );
    let full = call(&mut h, "read", r#"{"path":"a"}"#, 0).unwrap();
    assert_eq!(full.len(), 500);
}

#[test]
fn read_cases() {
    struct Case {
        name: &'static str,
        args: &'static str,
        answer: Result<FileText, FileFault>,
        call: &'static str,
        want: Result<&'static str, ToolFault>,
    }
    let text =
        |t: &str, total: u32, truncated: bool| Ok(FileText { text: t.to_string(), total_lines: total, truncated });
    let cases = vec![
        Case { name: "whole", args: r#"{"path":"a.txt"}"#, answer: text("a\nb\n", 2, false),
            call: r#"read_file "a.txt" ReadOptions { offset: 1, limit: 2000, byte_limit: 51200 }"#, want: Ok("a\nb\n") },
        Case { name: "window-notice", args: r#"{"path":"n","offset":10,"limit":3}"#, answer: text("l10\nl11\nl12\n", 100, true),
            call: r#"read_file "n" ReadOptions { offset: 10, limit: 3, byte_limit: 51200 }"#,
            want: Ok("l10\nl11\nl12\n[showing lines 10-12 of 100; read again with offset=13 to continue]") },
        Case { name: "notice-after-partial-line", args: r#"{"path":"n","limit":5000}"#, answer: text("l1\nl2", 9, true),
            call: r#"read_file "n" ReadOptions { offset: 1, limit: 2000, byte_limit: 51200 }"#,
            want: Ok("l1\nl2\n[showing lines 1-2 of 9; read again with offset=3 to continue]") },
        Case { name: "offset-wraps-as-in-go", args: r#"{"path":"n","offset":9223372036854775807}"#, answer: text("a\nb", 9, true),
            call: r#"read_file "n" ReadOptions { offset: 4294967295, limit: 2000, byte_limit: 51200 }"#,
            want: Ok("a\nb\n[showing lines 9223372036854775807--9223372036854775808 of 9; read again with offset=-9223372036854775807 to continue]") },
        Case { name: "empty", args: r#"{"path":"e","offset":-4}"#, answer: text("", 0, false),
            call: r#"read_file "e" ReadOptions { offset: 1, limit: 2000, byte_limit: 51200 }"#, want: Ok("[empty file]") },
        Case { name: "missing", args: r#"{"path":"nope\ttxt"}"#, answer: Err(FileFault::NotFound("x".to_string())),
            call: r#"read_file "nope\ttxt" ReadOptions { offset: 1, limit: 2000, byte_limit: 51200 }"#,
            want: Err(ToolFault::EffectFailure("read \"nope\\ttxt\": no such file or directory; check the path with ls or find".to_string())) },
        Case { name: "too-large", args: r#"{"path":"big"}"#, answer: Err(FileFault::TooLarge(1 << 20)),
            call: r#"read_file "big" ReadOptions { offset: 1, limit: 2000, byte_limit: 51200 }"#,
            want: Err(ToolFault::EffectFailure("read \"big\": the content exceeds the 1048576-byte limit; work on a smaller part".to_string())) },
        Case { name: "bad-args", args: r#"{"path":1}"#, answer: text("", 0, false), call: "",
            want: Err(ToolFault::InvalidArguments("read: arguments are not valid: \"path\" must be a string, not number; send a JSON object matching the tool's schema".to_string())) },
    ];
    for c in cases {
        let mut h = Fake { read: Some(c.answer), ..Default::default() };
        let got = call(&mut h, "read", c.args, 0);
        assert_eq!(got, c.want.map(str::to_string), "{}", c.name);
        let calls: Vec<&str> = if c.call.is_empty() { vec![] } else { vec![c.call] };
        assert_eq!(h.calls, calls, "{}", c.name);
    }
}

#[test]
fn write_reports_bytes() {
    let mut h = Fake { write: Some(Ok(1)), ..Default::default() };
    assert_eq!(call(&mut h, "write", r#"{"path":"a","content":"x"}"#, 0), Ok("Wrote 1 byte to a.".to_string()));
    assert_eq!(h.calls, [r#"write_file "a" "x" WriteOptions { create_parents: true }"#]);
    let mut h = Fake { write: Some(Err(FileFault::PermissionDenied("/x".to_string()))), ..Default::default() };
    assert_eq!(
        call(&mut h, "write", r#"{"path":"../x","content":""}"#, 0),
        Err(ToolFault::EffectFailure("write \"../x\": access denied: the path is outside the allowed project directories (symbolic links included) or not permitted; use a path inside the project".to_string()))
    );
}

#[test]
fn edit_cases() {
    let te = |o: &str, n: &str| TextEdit { old_text: o.to_string(), new_text: n.to_string() };
    // (name, args, the edits the host gets, output prefix or fault substring)
    let cases: Vec<(&str, &str, Vec<TextEdit>, Result<&str, &str>)> = vec![
        ("one", r#"{"path":"a.go","old_text":"x","new_text":"y"}"#, vec![te("x", "y")], Ok("Edited a.go at line 3.\n--- a")),
        ("delete", r#"{"path":"a.go","old_text":"x","new_text":""}"#, vec![te("x", "")], Ok("Edited a.go at line 3.")),
        ("several", r#"{"path":"a.go","edits":[{"old_text":"x","new_text":"y"},{"new_text":"w","old_text":"z"}]}"#,
            vec![te("x", "y"), te("z", "w")], Ok("Edited a.go (2 replacements) at line 3.")),
        ("null-edits-is-absent", r#"{"path":"a.go","old_text":"x","new_text":"y","edits":null}"#, vec![te("x", "y")], Ok("Edited a.go at line 3.")),
        ("both-forms", r#"{"path":"a.go","old_text":"x","new_text":"y","edits":[{"old_text":"z","new_text":"w"}]}"#, vec![],
            Err("edit: pass either old_text with new_text (one replacement) or edits (several), not both")),
        ("old-without-new", r#"{"path":"a.go","old_text":"x"}"#, vec![], Err("edit: old_text and new_text go together; pass both")),
        ("nothing", r#"{"path":"a.go"}"#, vec![], Err("edit: nothing to replace; pass old_text with new_text, or a non-empty edits list")),
        ("empty-list", r#"{"path":"a.go","edits":[]}"#, vec![], Err("nothing to replace")),
        ("element-missing-new", r#"{"path":"a.go","edits":[{"old_text":"x","new_text":"y"},{"old_text":"z"}]}"#, vec![],
            Err("edit: arguments are not valid: edits[1] needs both old_text and new_text; send a JSON object")),
        ("element-wrong-type", r#"{"path":"a.go","edits":[{"old_text":5,"new_text":"y"}]}"#, vec![], Err(r#""old_text" must be a string, not number"#)),
        ("element-not-object", r#"{"path":"a.go","edits":["x"]}"#, vec![], Err("value at offset 24: found string, want object")),
        ("identical", r#"{"path":"a.go","old_text":"x","new_text":"x"}"#, vec![],
            Err("edit \"a.go\": old_text and new_text are identical, so nothing would change; send the text you want instead")),
        ("identical-in-list", r#"{"path":"a.go","edits":[{"old_text":"x","new_text":"y"},{"old_text":"z","new_text":"z"}]}"#, vec![],
            Err("edit \"a.go\": edits[1] has old_text and new_text identical")),
    ];
    for (name, args, edits, want) in cases {
        let mut h = Fake {
            edit: Some(Ok(EditOutcome { diff: "--- a\n+++ b\n".to_string(), first_changed_line: 3 })),
            ..Default::default()
        };
        let got = call(&mut h, "edit", args, 0);
        match want {
            Ok(prefix) => {
                let out = got.unwrap_or_else(|f| panic!("{}: {:?}", name, f));
                assert!(out.starts_with(prefix), "{}: output {:?}", name, out);
                assert_eq!(
                    h.calls,
                    [format!("edit_file \"a.go\" {:?} EditOptions {{ byte_limit: 0 }}", edits)],
                    "{}",
                    name
                );
            }
            Err(sub) => {
                match got {
                    Err(ToolFault::InvalidArguments(m)) => {
                        assert!(m.contains(sub), "{}: fault {:?} lacks {:?}", name, m, sub)
                    }
                    other => panic!("{}: {:?}; want an invalid-arguments fault", name, other),
                }
                assert!(h.calls.is_empty(), "{}: the host was asked to edit after a refusal: {:?}", name, h.calls);
            }
        }
    }
    let mut h = Fake {
        edit: Some(Err(FileFault::EditConflict("edit 2: the text to replace was not found".to_string()))),
        ..Default::default()
    };
    assert_eq!(
        call(&mut h, "edit", r#"{"path":"m","old_text":"a","new_text":"b"}"#, 0),
        Err(ToolFault::EffectFailure("edit \"m\": edit 2: the text to replace was not found".to_string()))
    );
}

#[test]
fn bash_cases() {
    let done = |code: Option<i32>, out: &str| {
        Ok(ProcessOutcome { exit_code: code, output: out.to_string(), truncated: false })
    };
    let cases: Vec<(&str, &str, Result<ProcessOutcome, ProcessFault>, &str, Result<&str, &str>)> = vec![
        ("exit-zero", r#"{"command":"echo hi"}"#, done(Some(0), "hi\n"),
            r#"run_process Command { line: "echo hi", directory: "" } RunOptions { timeout_ms: 120000, output_limit: 51200 }"#, Ok("hi\n[exit code 0]")),
        ("no-output", r#"{"command":"true"}"#, done(Some(0), ""), "", Ok("[exit code 0]")),
        ("newline-added", r#"{"command":"printf x","timeout":5}"#, done(Some(0), "x"),
            r#"run_process Command { line: "printf x", directory: "" } RunOptions { timeout_ms: 5000, output_limit: 51200 }"#, Ok("x\n[exit code 0]")),
        ("exit-status", r#"{"command":"exit 3"}"#, done(Some(3), "failing\n"), "", Err("failing\n[exit code 3]")),
        ("negative-status", r#"{"command":"x"}"#, done(Some(-1), ""), "", Err("[exit code -1]")),
        ("signal", r#"{"command":"kill -9 $$"}"#, done(None, "partial"), "", Err("partial\n[killed by a signal]")),
        ("relative-cwd", r#"{"command":"ls","cwd":"sub/../sub2/./x/"}"#, done(Some(0), ""),
            r#"run_process Command { line: "ls", directory: "/work/project/sub2/x" } RunOptions { timeout_ms: 120000, output_limit: 51200 }"#, Ok("[exit code 0]")),
        ("absolute-cwd-kept", r#"{"command":"ls","cwd":"/tmp//a/.."}"#, done(Some(0), ""),
            r#"run_process Command { line: "ls", directory: "/tmp//a/.." } RunOptions { timeout_ms: 120000, output_limit: 51200 }"#, Ok("[exit code 0]")),
        ("timeout-capped", r#"{"command":"x","timeout":99999}"#, done(Some(0), ""),
            r#"run_process Command { line: "x", directory: "" } RunOptions { timeout_ms: 3600000, output_limit: 51200 }"#, Ok("[exit code 0]")),
        ("timed-out", r#"{"command":"sleep 9","timeout":1}"#, Err(ProcessFault::Timeout(TimedOut { limit_ms: 1000, output: String::new(), truncated: false })), "",
            Err("bash: timed out after 1s and was killed with everything it started; raise \"timeout\" or run something faster")),
        ("timed-out-output", r#"{"command":"make","timeout":1}"#, Err(ProcessFault::Timeout(TimedOut { limit_ms: 1000, output: "step 1\nstep 2\n".to_string(), truncated: false })), "",
            Err("bash: timed out after 1s and was killed with everything it started; raise \"timeout\" or run something faster; its output until then:\nstep 1\nstep 2\n")),
        ("cancelled", r#"{"command":"sleep 9"}"#, Err(ProcessFault::Cancelled), "", Err("bash: cancelled; the process group was killed")),
        ("spawn", r#"{"command":"x","cwd":"/elsewhere"}"#, Err(ProcessFault::SpawnFailure("outside the roots".to_string())), "",
            Err("bash: the command could not be started: outside the roots")),
        ("unknown", r#"{"command":"x"}"#, Err(ProcessFault::Unknown("host trouble".to_string())), "", Err("bash: host trouble")),
    ];
    for (name, args, answer, want_call, want) in cases {
        let mut h = Fake { run: Some(answer), ..Default::default() };
        let got = call(&mut h, "bash", args, 0);
        assert_eq!(got, want.map(str::to_string).map_err(|m| ToolFault::EffectFailure(m.to_string())), "{}", name);
        if !want_call.is_empty() {
            assert_eq!(h.calls, [want_call], "{}", name);
        }
    }
    let c = ToolCall {
        id: "1".to_string(),
        name: "bash".to_string(),
        arguments: r#"{"command":"ls","cwd":"sub"}"#.to_string(),
    };
    let got =
        crate::invoke(&mut Fake::default(), c, InvokeOptions { output_limit: 0, working_directory: String::new() });
    assert_eq!(
        got,
        Err(ToolFault::InvalidArguments(
            "bash: cwd sub is relative and the call has no working directory; pass an absolute cwd".to_string()
        ))
    );
}

#[test]
fn clean_like_go() {
    // The expectations are what Go's path.Clean returns.
    for (p, want) in [
        ("", "."),
        ("/", "/"),
        ("a/b", "a/b"),
        ("/a//b/", "/a/b"),
        ("/a/./b/..", "/a"),
        ("/../x", "/x"),
        ("a/../..", ".."),
        ("../../a", "../../a"),
        ("a/..", "."),
        ("/work/project/sub/../sub2/./x/", "/work/project/sub2/x"),
        ("./", "."),
    ] {
        assert_eq!(clean(p), want, "clean({:?})", p);
    }
}

#[test]
fn find_cases() {
    let paths = |n: usize| Ok((0..n).map(|i| format!("f{}.txt", i)).collect::<Vec<_>>());
    let mut h = Fake { find: Some(paths(3)), ..Default::default() };
    assert_eq!(call(&mut h, "find", r#"{"pattern":"*.txt","limit":2}"#, 0),
        Ok("f0.txt\nf1.txt\n[results truncated: showing the first 2 paths; more exist — narrow the pattern or raise limit]".to_string()));
    assert_eq!(h.calls, [r#"find_files "*.txt" "." FindOptions { limit: 3, include_ignored: false }"#]);
    let mut h = Fake { find: Some(paths(2)), ..Default::default() };
    assert_eq!(
        call(&mut h, "find", r#"{"pattern":"*","path":"src","include_ignored":true}"#, 0),
        Ok("f0.txt\nf1.txt".to_string())
    );
    assert_eq!(h.calls, [r#"find_files "*" "src" FindOptions { limit: 1001, include_ignored: true }"#]);
    let mut h = Fake { find: Some(paths(0)), ..Default::default() };
    assert_eq!(
        call(&mut h, "find", r#"{"pattern":"*.rs","limit":50000}"#, 0),
        Ok("[no files match *.rs under .]".to_string())
    );
    assert_eq!(h.calls, [r#"find_files "*.rs" "." FindOptions { limit: 10001, include_ignored: false }"#]);
    let mut h = Fake {
        find: Some(Err(FileFault::Unknown("find: \"[a\" is not a valid glob".to_string()))),
        ..Default::default()
    };
    assert_eq!(
        call(&mut h, "find", r#"{"pattern":"[a","path":"é\u0001"}"#, 0),
        Err(ToolFault::EffectFailure("find \"é\\x01\": find: \"[a\" is not a valid glob".to_string()))
    );
}

#[test]
fn grep_cases() {
    let m = |p: &str, l: u32, t: &str| TextMatch { path: p.to_string(), line: l, text: t.to_string() };
    let mut h = Fake { search: Some(Ok(vec![m("a.go", 2, "// TODO"), m("b.go", 10, "x")])), ..Default::default() };
    assert_eq!(
        call(&mut h, "grep", r#"{"pattern":"TODO|x","glob":"*.go","literal":false,"ignore_case":true}"#, 0),
        Ok("a.go:2: // TODO\nb.go:10: x".to_string())
    );
    assert_eq!(
        h.calls,
        [
            r#"search_text "TODO|x" "." SearchOptions { glob: Some("*.go"), literal: false, ignore_case: true, limit: 101 }"#
        ]
    );
    let mut h =
        Fake { search: Some(Ok(vec![m("m", 1, "hit"), m("m", 2, "hit"), m("m", 3, "hit")])), ..Default::default() };
    assert_eq!(call(&mut h, "grep", r#"{"pattern":"hit","limit":2,"literal":true,"path":"d"}"#, 0),
        Ok("m:1: hit\nm:2: hit\n[results truncated: showing the first 2 matches; more exist — narrow the pattern, path or glob, or raise limit]".to_string()));
    assert_eq!(
        h.calls,
        [r#"search_text "hit" "d" SearchOptions { glob: None, literal: true, ignore_case: false, limit: 3 }"#]
    );
    let mut h = Fake { search: Some(Ok(vec![])), ..Default::default() };
    assert_eq!(call(&mut h, "grep", r#"{"pattern":"absent"}"#, 0), Ok("[no lines match absent under .]".to_string()));
    let mut h = Fake { search: Some(Err(FileFault::NotFound("d".to_string()))), ..Default::default() };
    assert_eq!(
        call(&mut h, "grep", r#"{"pattern":"x","path":"d"}"#, 0),
        Err(ToolFault::EffectFailure(
            "grep \"d\": no such file or directory; check the path with ls or find".to_string()
        ))
    );
}

#[test]
fn ls_cases() {
    let e = |n: &str, k: EntryKind| DirectoryEntry { name: n.to_string(), kind: k };
    let mut h = Fake {
        list: Some(Ok(vec![
            e("a", EntryKind::Directory),
            e("b.txt", EntryKind::File),
            e("c", EntryKind::Symlink),
            e("p", EntryKind::Unknown),
        ])),
        ..Default::default()
    };
    assert_eq!(call(&mut h, "ls", "{}", 0), Ok("a/\nb.txt\nc@\np".to_string()));
    assert_eq!(h.calls, [r#"list_directory "." ListOptions { limit: 501 }"#]);
    let mut h = Fake { list: Some(Ok(vec![e("f0", EntryKind::File), e("f1", EntryKind::File)])), ..Default::default() };
    assert_eq!(
        call(&mut h, "ls", r#"{"path":"x","limit":1}"#, 0),
        Ok("f0\n[results truncated: showing the first 1 entries; more exist — list a subdirectory or raise limit]"
            .to_string())
    );
    assert_eq!(h.calls, [r#"list_directory "x" ListOptions { limit: 2 }"#]);
    let mut h = Fake { list: Some(Ok(vec![])), ..Default::default() };
    assert_eq!(call(&mut h, "ls", r#"{"path":"x"}"#, 0), Ok("[empty directory]".to_string()));
    let mut h = Fake { list: Some(Err(FileFault::NotText("x".to_string()))), ..Default::default() };
    assert_eq!(call(&mut h, "ls", r#"{"path":"x"}"#, 0),
        Err(ToolFault::EffectFailure("ls \"x\": binary content (not UTF-8 text) cannot be shown or edited; inspect it with bash (for example `file` or `xxd | head`)".to_string())));
    assert_eq!(itoa(MAX_LIMIT), "10000");
}

// --- the Go plugin's behaviour ---

/// unescape reverses the golden file's escaping of backslashes and
/// control bytes (\\ and \xNN).
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('\\') => out.push('\\'),
            Some('x') => {
                let h: String = it.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&h, 16).expect("hex escape") as char);
            }
            other => panic!("bad escape {:?} in {:?}", other, s),
        }
    }
    out
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

#[test]
fn answers_as_recorded() {
    let golden = include_str!("../testdata/differential.golden");
    let mut n = 0;
    for line in golden.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.splitn(3, '\t');
        let (tool, args, want) = (f.next().unwrap(), unhex(f.next().unwrap()), unescape(f.next().unwrap()));
        let t = CATALOG.iter().find(|t| t.name == tool).expect("tool");
        let got = echo_run(t, &args);
        assert_eq!(got, want, "{} {:?}", tool, String::from_utf8_lossy(&args));
        n += 1;
    }
    assert!(n > 200, "only {} golden calls", n);
}

// --- allocations ---

/// Counting is the test binary's allocator: the system's, counting each
/// thread's allocations.
struct Counting;

std::thread_local! {
    static ALLOCS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: std::alloc::Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
        std::alloc::System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: std::alloc::Layout) {
        std::alloc::System.dealloc(p, l)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// decoding_allocates_little bounds the allocations of decoding a typical
/// call: one per string field (the reader keeps its nesting stack inline,
/// and keys without escapes are borrowed from the input).
#[test]
fn decoding_allocates_little() {
    let args = br#"{"path":"some/file.go","n":5,"b":true}"#;
    let before = ALLOCS.with(|n| n.get());
    let s = decode_sample(args).expect("decode");
    let n = ALLOCS.with(|n| n.get()) - before;
    assert_eq!(s.path, "some/file.go");
    assert!(n <= 1, "decoding allocates {} times; want at most 1", n);
}
