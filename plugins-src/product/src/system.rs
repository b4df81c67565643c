//! The system prompt: who Smith is, the environment it works in, and the
//! working rules, mentioning only the active tools. It is kept compact on
//! purpose (the whole first request, tools included, stays within 7 KiB):
//! every line is a fact the model would otherwise spend a tool call on, or
//! a rule a careful engineer follows.

use crate::text::{cat, utoa};
use smith_plugin::prompt::{PromptFault, RuntimeFacts};

/// render renders the system prompt for facts, refusing one longer than
/// limit bytes.
pub(crate) fn render(facts: &RuntimeFacts, limit: usize) -> Result<String, PromptFault> {
    if facts.working_directory.is_empty() {
        return Err(PromptFault::InvalidFacts(
            "working-directory is empty; pass the absolute directory the tools work in".to_string(),
        ));
    }
    let mut s = String::with_capacity(2048);
    s.push_str("You are Smith, a coding agent: you work in the user's project through tools to get their request done.\n\nEnvironment:\n");
    environment(&mut s, facts);
    s.push_str("\nRules:\n");
    rules(&mut s, &facts.tools);
    if s.len() > limit {
        return Err(PromptFault::Unknown(cat(&[
            "product: the system prompt is ",
            &utoa(s.len() as u64),
            " bytes, over the host's ",
            &utoa(limit as u64),
            "-byte limit",
        ])));
    }
    Ok(s)
}

/// environment writes the facts, one line each.
fn environment(s: &mut String, f: &RuntimeFacts) {
    line(s, &["Working directory: ", &f.working_directory, " (relative paths resolve against it)"]);
    match &f.repository {
        Some(r) => {
            let at = if r.root == f.working_directory { "the working directory" } else { r.root.as_str() };
            match &r.branch {
                Some(b) => line(s, &["Git repository: ", at, ", branch ", b]),
                None => line(s, &["Git repository: ", at, ", detached HEAD"]),
            }
        }
        None => line(s, &["Not a git repository"]),
    }
    if !f.operating_system.is_empty() {
        let arch = if f.architecture.is_empty() { "" } else { "/" };
        let shell = if f.shell.is_empty() { "" } else { "; shell: " };
        line(s, &["OS: ", &f.operating_system, arch, &f.architecture, shell, &f.shell]);
    }
    if !f.date.is_empty() {
        line(s, &["Date: ", &f.date]);
    }
    let m = &f.model;
    if !m.name.is_empty() {
        let id = if m.provider.is_empty() { m.name.clone() } else { cat(&[&m.provider, "/", &m.name]) };
        if m.display_name.is_empty() || m.display_name == m.name {
            line(s, &["Model: ", &id]);
        } else {
            line(s, &["Model: ", &m.display_name, " (", &id, ")"]);
        }
    }
}

/// rules writes the working rules, each mentioning only active tools.
fn rules(s: &mut String, tools: &[String]) {
    let has = |t: &str| tools.iter().any(|n| n == t);
    let look: Vec<&str> = ["find", "grep", "ls", "read"].iter().copied().filter(|t| has(t)).collect();
    if !look.is_empty() {
        line(s, &["Look things up with ", &list(&look), " instead of guessing or asking."]);
    }
    let read_first = has("read") && (has("edit") || has("write"));
    match (read_first, has("edit"), has("write")) {
        (true, true, true) => line(
            s,
            &["Read a file before changing it. Prefer edit for small changes; write new files or full rewrites."],
        ),
        (true, true, false) => line(s, &["Read a file before changing it. Prefer edit for small changes."]),
        (true, false, _) => line(s, &["Read a file before changing it."]),
        (false, true, _) => line(s, &["Prefer edit for small changes."]),
        (false, false, _) => {}
    }
    if has("edit") || has("write") {
        line(
            s,
            &["Make the changes yourself with the tools, and keep going until the request is done or you are blocked."],
        );
    }
    line(s, &["Follow the project's conventions and AGENTS.md instructions (the nearest file wins; the user's requests win over all)."]);
    line(s, &["Keep changes minimal and focused: no unrelated refactoring, reformatting or features."]);
    if has("bash") {
        line(s, &["Verify changes with the project's own tests or build; if you cannot, say so."]);
        line(s, &["Never commit, push, or run destructive or irreversible commands (rm -rf, git reset --hard, force pushes, dropping data) unless the user asked."]);
    } else {
        line(s, &["You cannot run commands: tell the user which of the project's tests or build to run to verify."]);
    }
    line(s, &["Do not revert changes you did not make; the user may be editing too."]);
    line(s, &["If the request is ambiguous, ask one short question first."]);
    if tools.len() > 1 {
        line(s, &["Make independent tool calls together, in one turn."]);
    }
    line(s, &["Be concise, in plain text or light Markdown for a terminal; refer to code as path:line. When done, say what changed and how you verified it."]);
}

/// line writes "- " and the parts as one line.
fn line(s: &mut String, parts: &[&str]) {
    s.push_str("- ");
    for p in parts {
        s.push_str(p);
    }
    s.push('\n');
}

/// list joins names as "a, b and c".
fn list(names: &[&str]) -> String {
    let mut s = String::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            s.push_str(if i + 1 == names.len() { " and " } else { ", " });
        }
        s.push_str(n);
    }
    s
}
