//! The find, grep and ls tools.

use crate::args::{bool_field, decode, int_field, str_field};
use crate::catalog::{FIND_LIMIT, GREP_LIMIT, LS_LIMIT, MAX_LIMIT};
use crate::faults::Fault;
use crate::host::Host;
use crate::output::{cat, describe, invalid, itoa};
use smith_plugin::fs::{EntryKind, FindOptions, ListOptions, SearchOptions};
use smith_plugin::tool::ToolFault;

/// limit_of returns the limit to use and the one to ask the host for: one
/// more, to learn whether results were cut.
fn limit_of(n: i64, def: i64) -> (usize, u32) {
    let n = if n <= 0 { def } else { n }.min(MAX_LIMIT);
    (n as usize, (n + 1) as u32)
}

/// more is the notice ending a cut result list.
fn more(n: usize, what: &str, how: &str) -> String {
    cat(&["[results truncated: showing the first ", &itoa(n as i64), " ", what, "; more exist — ", how, "]"])
}

/// dir_or_dot returns path, or "." (the working directory) when empty.
fn dir_or_dot(path: String) -> String {
    if path.is_empty() {
        ".".to_string()
    } else {
        path
    }
}

/// run_find lists paths matching a glob, sorted.
pub(crate) fn run_find(h: &mut dyn Host, args: &[u8], _cwd: &str) -> Result<String, ToolFault> {
    let (mut pattern, mut path, mut include_ignored, mut limit) = (String::new(), String::new(), false, 0i64);
    decode(
        "find",
        args,
        &mut [
            str_field("pattern", &mut pattern),
            str_field("path", &mut path),
            bool_field("include_ignored", &mut include_ignored),
            int_field("limit", &mut limit),
        ],
    )
    .map_err(invalid)?;
    let dir = dir_or_dot(path);
    let (limit, ask) = limit_of(limit, FIND_LIMIT);
    let mut paths = h
        .find_files(&pattern, &dir, &FindOptions { limit: ask, include_ignored })
        .map_err(|f| describe("find", &dir, Fault::File(f)))?;
    if paths.is_empty() {
        return Ok(cat(&["[no files match ", &pattern, " under ", &dir, "]"]));
    }
    let cut = paths.len() > limit;
    paths.truncate(limit);
    let mut out = paths.join("\n");
    if cut {
        out.push('\n');
        out.push_str(&more(limit, "paths", "narrow the pattern or raise limit"));
    }
    Ok(out)
}

/// run_grep lists matching lines as path:line: text.
pub(crate) fn run_grep(h: &mut dyn Host, args: &[u8], _cwd: &str) -> Result<String, ToolFault> {
    let (mut pattern, mut path, mut glob) = (String::new(), String::new(), String::new());
    let (mut literal, mut ignore_case, mut limit) = (false, false, 0i64);
    decode(
        "grep",
        args,
        &mut [
            str_field("pattern", &mut pattern),
            str_field("path", &mut path),
            str_field("glob", &mut glob),
            bool_field("literal", &mut literal),
            bool_field("ignore_case", &mut ignore_case),
            int_field("limit", &mut limit),
        ],
    )
    .map_err(invalid)?;
    let dir = dir_or_dot(path);
    let (limit, ask) = limit_of(limit, GREP_LIMIT);
    let o = SearchOptions { glob: if glob.is_empty() { None } else { Some(glob) }, literal, ignore_case, limit: ask };
    let mut ms = h.search_text(&pattern, &dir, &o).map_err(|f| describe("grep", &dir, Fault::File(f)))?;
    if ms.is_empty() {
        return Ok(cat(&["[no lines match ", &pattern, " under ", &dir, "]"]));
    }
    let cut = ms.len() > limit;
    ms.truncate(limit);
    let mut out = String::new();
    for m in &ms {
        for s in [m.path.as_str(), ":", &itoa(m.line as i64), ": ", &m.text, "\n"] {
            out.push_str(s);
        }
    }
    if cut {
        out.push_str(&more(limit, "matches", "narrow the pattern, path or glob, or raise limit"));
    }
    if out.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}

/// run_ls lists a directory sorted by name.
pub(crate) fn run_ls(h: &mut dyn Host, args: &[u8], _cwd: &str) -> Result<String, ToolFault> {
    let (mut path, mut limit) = (String::new(), 0i64);
    decode("ls", args, &mut [str_field("path", &mut path), int_field("limit", &mut limit)]).map_err(invalid)?;
    let dir = dir_or_dot(path);
    let (limit, ask) = limit_of(limit, LS_LIMIT);
    let mut es =
        h.list_directory(&dir, &ListOptions { limit: ask }).map_err(|f| describe("ls", &dir, Fault::File(f)))?;
    if es.is_empty() {
        return Ok("[empty directory]".to_string());
    }
    let cut = es.len() > limit;
    es.truncate(limit);
    let mut out = String::new();
    for e in &es {
        out.push_str(&e.name);
        match e.kind {
            EntryKind::Directory => out.push('/'),
            EntryKind::Symlink => out.push('@'),
            _ => {}
        }
        out.push('\n');
    }
    if cut {
        out.push_str(&more(limit, "entries", "list a subdirectory or raise limit"));
    }
    if out.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}
