//! The project-instructions context transform: AGENTS.md (CLAUDE.md in a
//! directory without one) in every directory from the repository root down
//! to the working directory, outermost first (only the working directory
//! outside a repository), then the user's own AGENTS.md in the
//! configuration directory. Every file is read through the fs import, so
//! each read is a recorded effect. A file is cut at FILE_LIMIT and all of
//! them together at the host's limit, with a note in the text and the
//! addition's cut flag set; a missing file is skipped, any other failure
//! becomes a one-line note instead of failing the transform.

use crate::host::Files;
use crate::text::{below, cat, cut, join_path, size};
use smith_plugin::fs::{FileFault, ReadOptions};
use smith_plugin::prompt::{ContextAddition, PromptFault, RuntimeFacts};

/// NAME is the transform's name.
pub(crate) const NAME: &str = "project-instructions";

/// DESCRIPTION is what the transform adds, as declared.
pub(crate) const DESCRIPTION: &str = "The project's AGENTS.md (or CLAUDE.md) files from the repository root down to the working directory, then your own AGENTS.md in Smith's configuration directory.";

/// FILE_LIMIT bounds the text taken from one file: 32 KiB.
pub(crate) const FILE_LIMIT: usize = 32 << 10;

/// NOTE_ROOM is what a note takes at most beyond its file's path; the
/// transform keeps it free so that a note always fits the host's limit.
const NOTE_ROOM: usize = 160;

/// MIN_TAKE is the least of a file's text worth showing; with less room
/// the file is left out with a note.
const MIN_TAKE: usize = 256;

/// transform returns the additions for facts within limit bytes of text.
pub(crate) fn transform(
    h: &mut dyn Files,
    facts: &RuntimeFacts,
    limit: usize,
) -> Result<Vec<ContextAddition>, PromptFault> {
    if facts.working_directory.is_empty() {
        return Err(PromptFault::InvalidFacts(
            "working-directory is empty; pass the absolute directory the tools work in".to_string(),
        ));
    }
    let sep = if facts.operating_system == "windows" { '\\' } else { '/' };
    let mut wanted: Vec<Wanted> = directories(facts, sep).into_iter().map(|dir| Wanted { dir, user: false }).collect();
    if let Some(c) = &facts.configuration_directory {
        wanted.push(Wanted { dir: c.clone(), user: true });
    }
    // Room kept for a note on each later directory's file, so that a file
    // left out for want of room is still named.
    let notes: Vec<usize> =
        wanted.iter().map(|w| left_out(&join_path(&w.dir, "AGENTS.md", sep), w.user, limit).len()).collect();
    let mut out = Vec::new();
    let mut left = limit;
    let mut seen: Vec<String> = Vec::new();
    for (i, w) in wanted.iter().enumerate() {
        let keep: usize = notes[i + 1..].iter().sum();
        let names: &[&str] = if w.user { &["AGENTS.md"] } else { &["AGENTS.md", "CLAUDE.md"] };
        for name in names {
            let path = join_path(&w.dir, name, sep);
            if seen.contains(&path) {
                break;
            }
            match read(h, &path, w.user, left.saturating_sub(keep), limit) {
                Found::Missing => continue,
                Found::Text(a) => {
                    left -= a.text.len();
                    out.push(a);
                }
                Found::NoRoom => {}
            }
            seen.push(path);
            break;
        }
    }
    Ok(out)
}

/// Wanted is a directory whose instructions file is read, and whether it
/// is the user's own.
struct Wanted {
    dir: String,
    user: bool,
}

/// Found is what reading one candidate file gave.
enum Found {
    /// The file does not exist: try the next name.
    Missing,
    /// The file's addition: its text, a cut text, or a note.
    Text(ContextAddition),
    /// Not even a note fits in what is left of the limit.
    NoRoom,
}

/// directories lists the directories whose instructions apply, outermost
/// first: the repository root down to the working directory, or the
/// working directory alone outside a repository (or when the facts put
/// it outside the repository's root).
fn directories(facts: &RuntimeFacts, sep: char) -> Vec<String> {
    let cwd = facts.working_directory.as_str();
    let root = match &facts.repository {
        Some(r) => r.root.as_str(),
        None => return vec![cwd.to_string()],
    };
    let rel = match below(root, cwd, sep) {
        Some(rel) => rel,
        None => return vec![cwd.to_string()],
    };
    let mut dirs = vec![root.to_string()];
    let mut dir = root.to_string();
    for part in rel.split(sep).filter(|p| !p.is_empty()) {
        dir = join_path(&dir, part, sep);
        dirs.push(dir.clone());
    }
    dirs
}

/// heading introduces a file's text.
fn heading(path: &str, user: bool) -> String {
    if user {
        cat(&["The user's own instructions, from ", path, ":\n\n"])
    } else {
        cat(&["Instructions from ", path, ":\n\n"])
    }
}

/// read reads the file at path within left bytes of addition text, of
/// limit in all.
fn read(h: &mut dyn Files, path: &str, user: bool, left: usize, limit: usize) -> Found {
    let head = heading(path, user);
    let room = left.saturating_sub(head.len() + path.len() + NOTE_ROOM);
    let take = room.min(FILE_LIMIT);
    if take < MIN_TAKE {
        // Too little room for any of the file's text: say it was left out,
        // if it exists (a read of a few bytes tells).
        let probe = ReadOptions { offset: 0, limit: 0, byte_limit: 4 };
        return match h.read_file(path, &probe) {
            Err(FileFault::NotFound(_)) => Found::Missing,
            _ => {
                let text = left_out(path, user, limit);
                if text.len() > left {
                    return Found::NoRoom;
                }
                Found::Text(ContextAddition { source: path.to_string(), text, cut: true })
            }
        };
    }
    // Four bytes more than taken: the host cuts an overlong line at a
    // character boundary, so a file longer than take returns more than
    // take bytes and is known to be cut even when it is one line.
    let o = ReadOptions { offset: 0, limit: 0, byte_limit: (take + 4) as u64 };
    match h.read_file(path, &o) {
        Ok(t) => {
            let whole = !t.truncated && t.text.len() <= take;
            let body = cut(&t.text, take);
            let mut text = String::with_capacity(head.len() + body.len() + NOTE_ROOM + path.len());
            text.push_str(&head);
            text.push_str(body);
            if !whole {
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                let why = if take == FILE_LIMIT {
                    cat(&["Cut at ", &size(FILE_LIMIT)])
                } else {
                    cat(&["Cut: ", &bound(limit)])
                };
                text.push_str(&cat(&["[", &why, "; read ", path, " for the rest.]\n"]));
            }
            Found::Text(ContextAddition { source: path.to_string(), text, cut: !whole })
        }
        Err(FileFault::NotFound(_)) => Found::Missing,
        Err(f) => {
            let text = cat(&["[Smith could not read ", path, ": ", &reason(f), ".]\n"]);
            if text.len() > left {
                return Found::NoRoom;
            }
            Found::Text(ContextAddition { source: path.to_string(), text, cut: false })
        }
    }
}

/// bound names the limit of all the instructions.
fn bound(limit: usize) -> String {
    cat(&["the instructions reached their ", &size(limit), " bound"])
}

/// left_out is the note on a file left out for want of room.
fn left_out(path: &str, user: bool, limit: usize) -> String {
    cat(&[&heading(path, user), "[Left out: ", &bound(limit), "; read ", path, " if it matters.]\n"])
}

/// reason says briefly why a read failed.
fn reason(f: FileFault) -> String {
    match f {
        FileFault::NotFound(_) => "no such file".to_string(),
        FileFault::PermissionDenied(_) => "permission denied".to_string(),
        FileFault::TooLarge(n) => cat(&["larger than ", &size(n as usize)]),
        FileFault::NotText(_) => "not UTF-8 text".to_string(),
        FileFault::EditConflict(s) | FileFault::Unknown(s) => s,
    }
}
