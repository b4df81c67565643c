//! The seven tools: their declarations (names, descriptions, JSON
//! Schemas) and bounds.

use crate::host::Host;
use smith_plugin::tool::ToolFault;

/// Entry is one tool: its declaration and its implementation. run gets the
/// host, the arguments (a JSON object) and the working directory, and
/// returns the text shown to the model, or a tool fault.
pub(crate) struct Entry {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: &'static str,
    pub run: fn(&mut dyn Host, &[u8], &str) -> Result<String, ToolFault>,
}

// Bounds and defaults. The descriptions spell them out (catalog tests
// check that they agree).
pub(crate) const READ_LINES: i64 = 2000;
pub(crate) const READ_BYTES: u64 = 50 << 10;
pub(crate) const BASH_OUTPUT: u32 = 50 << 10;
pub(crate) const BASH_TIMEOUT: i64 = 120;
pub(crate) const BASH_MAX_TIME: i64 = 3600;
pub(crate) const FIND_LIMIT: i64 = 1000;
pub(crate) const GREP_LIMIT: i64 = 100;
pub(crate) const LS_LIMIT: i64 = 500;
pub(crate) const MAX_LIMIT: i64 = 10000;

/// CATALOG lists the tools in declaration order.
pub(crate) static CATALOG: [Entry; 7] = [
    Entry {
        name: "read",
        run: crate::read::run_read,
        schema: READ_SCHEMA,
        description: "Read a text file: up to 2000 lines or 50 KiB from \"offset\" (1-based line, default 1); \"limit\" caps the lines. When more lines exist, a closing notice names the offset to continue from. Binary files are refused.",
    },
    Entry {
        name: "write",
        run: crate::write::run_write,
        schema: WRITE_SCHEMA,
        description: "Write a whole file, creating it and missing parent directories; the file is replaced atomically (through a symbolic link, its target). Use edit to change part of a file.",
    },
    Entry {
        name: "edit",
        run: crate::write::run_edit,
        schema: EDIT_SCHEMA,
        description: "Replace exact text in a file: \"old_text\" with \"new_text\", or several non-overlapping replacements at once with \"edits\". Each old_text must occur exactly once, whitespace included; add surrounding lines to make it unique. Changes nothing if a text is missing or ambiguous, or the file changed since you last read it (read it again). Returns a unified diff.",
    },
    Entry {
        name: "bash",
        run: crate::bash::run_bash,
        schema: BASH_SCHEMA,
        description: "Run a shell command in the working directory (or \"cwd\"); returns its exit code and combined stdout and stderr (the last 50 KiB when longer). \"timeout\" is in seconds (default 120); on timeout or cancellation its process group is killed.",
    },
    Entry {
        name: "find",
        run: crate::search::run_find,
        schema: FIND_SCHEMA,
        description: "Find files whose path matches a glob (\"**/*.go\", \"cmd/*/main.go\") under \"path\" (default: the working directory): sorted, at most \"limit\" (default 1000), skipping files .gitignore ignores unless \"include_ignored\". Directories end in \"/\".",
    },
    Entry {
        name: "grep",
        run: crate::search::run_grep,
        schema: GREP_SCHEMA,
        description: "Search file contents for lines matching an RE2 regular expression (or plain text, with \"literal\") under \"path\" (default: the working directory), optionally only in files matching \"glob\"; skips binary files and files .gitignore ignores. Returns sorted \"path:line: text\" lines, at most \"limit\" (default 100).",
    },
    Entry {
        name: "ls",
        run: crate::search::run_ls,
        schema: LS_SCHEMA,
        description: "List a directory sorted by name; directories end in \"/\", symbolic links in \"@\". \"path\" defaults to the working directory; at most \"limit\" entries (default 500).",
    },
];

const READ_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""path":{"type":"string","minLength":1,"description":"The file, relative or absolute."},"#,
    r#""offset":{"type":"integer","minimum":1,"description":"The first line, from 1."},"#,
    r#""limit":{"type":"integer","minimum":1,"maximum":2000,"description":"Lines to return."}},"#,
    r#""required":["path"],"additionalProperties":false}"#
);

const WRITE_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""path":{"type":"string","minLength":1,"description":"The file, relative or absolute."},"#,
    r#""content":{"type":"string","description":"The whole new content."}},"#,
    r#""required":["path","content"],"additionalProperties":false}"#
);

const EDIT_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""path":{"type":"string","minLength":1,"description":"The file, relative or absolute."},"#,
    r#""old_text":{"type":"string","minLength":1,"description":"The exact text to replace; it must occur exactly once."},"#,
    r#""new_text":{"type":"string","description":"The replacement text."},"#,
    r#""edits":{"type":"array","minItems":1,"maxItems":100,"description":"Replacements applied together, instead of old_text and new_text.","items":{"type":"object","properties":{"#,
    r#""old_text":{"type":"string","minLength":1},"#,
    r#""new_text":{"type":"string"}},"#,
    r#""required":["old_text","new_text"],"additionalProperties":false}}},"#,
    r#""required":["path"],"additionalProperties":false}"#
);

const BASH_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""command":{"type":"string","minLength":1,"description":"The shell command line."},"#,
    r#""cwd":{"type":"string","minLength":1,"description":"The directory to run in."},"#,
    r#""timeout":{"type":"integer","minimum":1,"maximum":3600,"description":"Time limit in seconds."}},"#,
    r#""required":["command"],"additionalProperties":false}"#
);

const FIND_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""pattern":{"type":"string","minLength":1,"description":"The glob the file's path (relative to path) must match."},"#,
    r#""path":{"type":"string","minLength":1,"description":"The directory to search."},"#,
    r#""include_ignored":{"type":"boolean","description":"Also return files ignored by .gitignore."},"#,
    r#""limit":{"type":"integer","minimum":1,"maximum":10000,"description":"Paths to return."}},"#,
    r#""required":["pattern"],"additionalProperties":false}"#
);

const GREP_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""pattern":{"type":"string","minLength":1,"description":"The regular expression (RE2) or, with literal, the text to find."},"#,
    r#""path":{"type":"string","minLength":1,"description":"The directory to search."},"#,
    r#""glob":{"type":"string","minLength":1,"description":"Only search files whose path matches this glob."},"#,
    r#""literal":{"type":"boolean","description":"Treat the pattern as plain text."},"#,
    r#""ignore_case":{"type":"boolean","description":"Match regardless of case."},"#,
    r#""limit":{"type":"integer","minimum":1,"maximum":10000,"description":"Lines to return."}},"#,
    r#""required":["pattern"],"additionalProperties":false}"#
);

const LS_SCHEMA: &str = concat!(
    r#"{"type":"object","properties":{"#,
    r#""path":{"type":"string","minLength":1,"description":"The directory to list."},"#,
    r#""limit":{"type":"integer","minimum":1,"maximum":10000,"description":"Entries to return."}},"#,
    r#""additionalProperties":false}"#
);
