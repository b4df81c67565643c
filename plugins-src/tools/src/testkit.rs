//! What the crate's tests and its fuzz driver (serve.rs) share: the sample
//! argument object and the echo host.

use crate::args::{bool_field, decode, int_field, list_field, str_field};
use crate::catalog::Entry;
use crate::host::Host;
use smith_json::read::Decoder;
use smith_plugin::fs::{
    DirectoryEntry, EditOptions, EditOutcome, EntryKind, FileFault, FileText, FindOptions, ListOptions, ReadOptions,
    SearchOptions, TextEdit, TextMatch, WriteOptions,
};
use smith_plugin::process::{Command, ProcessFault, ProcessOutcome, RunOptions};
use smith_plugin::tool::{InvokeOptions, ToolCall, ToolFault};
use smith_plugin::types::ContentBlock;

/// Sample holds a decoded sample object.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Sample {
    pub path: String,
    pub n: i64,
    pub b: bool,
    pub items: Vec<String>,
}

/// decode_sample decodes {"path": string, "n": integer, "b": boolean,
/// "items": [string]} as the tools decode their arguments.
pub(crate) fn decode_sample(args: &[u8]) -> Result<Sample, String> {
    let mut s = Sample::default();
    let mut items = Vec::new();
    let mut each = |d: &mut Decoder| -> Result<(), String> {
        let mut v = String::new();
        let res = str_field("items[]", &mut v).read(d);
        items.push(v);
        res
    };
    let res = decode(
        "t",
        args,
        &mut [
            str_field("path", &mut s.path),
            int_field("n", &mut s.n),
            bool_field("b", &mut s.b),
            list_field("items", &mut each),
        ],
    );
    s.items = items;
    res.map(|_| s)
}

/// Echo is a host that answers every call the same way and records its
/// parameters, as the Go plugin's answers in testdata/differential.golden
/// were recorded.
pub(crate) struct Echo {
    calls: Vec<String>,
}

impl Host for Echo {
    fn read_file(&mut self, path: &str, o: &ReadOptions) -> Result<FileText, FileFault> {
        self.calls.push(format!("read {} {} {} {}", path, o.offset, o.limit, o.byte_limit));
        Ok(FileText { text: "a\nb".to_string(), total_lines: 5, truncated: true })
    }
    fn write_file(&mut self, path: &str, content: &str, o: &WriteOptions) -> Result<u64, FileFault> {
        self.calls.push(format!("write {} {} {}", path, content, o.create_parents));
        Ok(3)
    }
    fn edit_file(&mut self, path: &str, edits: &[TextEdit], _o: &EditOptions) -> Result<EditOutcome, FileFault> {
        let mut s = format!("edit {}", path);
        for e in edits {
            s.push_str(&format!(" [{}|{}]", e.old_text, e.new_text));
        }
        self.calls.push(s);
        Ok(EditOutcome { diff: "d".to_string(), first_changed_line: 2 })
    }
    fn list_directory(&mut self, path: &str, o: &ListOptions) -> Result<Vec<DirectoryEntry>, FileFault> {
        self.calls.push(format!("ls {} {}", path, o.limit));
        Ok(vec![
            DirectoryEntry { name: "a".to_string(), kind: EntryKind::Directory },
            DirectoryEntry { name: "b".to_string(), kind: EntryKind::File },
        ])
    }
    fn find_files(&mut self, pattern: &str, directory: &str, o: &FindOptions) -> Result<Vec<String>, FileFault> {
        self.calls.push(format!("find {} {} {} {}", pattern, directory, o.limit, o.include_ignored));
        Err(FileFault::NotFound(String::new()))
    }
    fn search_text(&mut self, pattern: &str, directory: &str, o: &SearchOptions) -> Result<Vec<TextMatch>, FileFault> {
        let glob = o.glob.clone().unwrap_or_else(|| "<nil>".to_string());
        self.calls.push(format!("grep {} {} {} {} {} {}", pattern, directory, glob, o.literal, o.ignore_case, o.limit));
        Ok(vec![TextMatch { path: "p".to_string(), line: 1, text: "t".to_string() }])
    }
    fn run_process(&mut self, c: &Command, o: &RunOptions) -> Result<ProcessOutcome, ProcessFault> {
        self.calls.push(format!("run {} {} {} {}", c.line, c.directory, o.timeout_ms, o.output_limit));
        Ok(ProcessOutcome { exit_code: Some(0), output: "o".to_string(), truncated: false })
    }
}

/// echo_run runs tool t with args against the echo host and returns its
/// result ("ok " and the output, or "fault1 " / "fault2 " and the message
/// of an invalid-arguments or effect fault) and the host calls it made,
/// NUL-separated, as testdata/differential.golden records them.
pub(crate) fn echo_run(t: &Entry, args: &[u8]) -> String {
    let mut h = Echo { calls: Vec::new() };
    // Arguments cross the world as a string, so invalid UTF-8 reaches a
    // tool only here, through its reader directly; the rest goes through
    // invoke, as the host calls it.
    let res = match std::str::from_utf8(args) {
        Ok(a) => {
            let call = ToolCall { id: String::new(), name: t.name.to_string(), arguments: a.to_string() };
            let o = InvokeOptions { output_limit: u32::MAX, working_directory: "/cwd".to_string() };
            crate::invoke(&mut h, call, o).map(|out| {
                let text: Vec<&str> = out
                    .content
                    .iter()
                    .map(|c| match c {
                        ContentBlock::Text(t) => t.as_str(),
                        _ => "[image]",
                    })
                    .collect();
                text.concat()
            })
        }
        Err(_) => (t.run)(&mut h, args, "/cwd"),
    };
    let res = match res {
        Ok(text) => format!("ok {}", text),
        Err(ToolFault::InvalidArguments(m)) => format!("fault1 {}", m),
        Err(ToolFault::EffectFailure(m)) => format!("fault2 {}", m),
        Err(f) => format!("{:?}", f),
    };
    format!("{}\0{}", res, h.calls.join("\0"))
}
