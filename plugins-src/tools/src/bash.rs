//! The bash tool.

use crate::args::{decode, int_field, str_field};
use crate::catalog::{BASH_MAX_TIME, BASH_OUTPUT, BASH_TIMEOUT};
use crate::faults::Fault;
use crate::host::Host;
use crate::output::{cat, failed, invalid, itoa};
use smith_plugin::process::{Command, RunOptions};
use smith_plugin::tool::ToolFault;

/// run_bash runs a command line; a non-zero exit or a signal is a failure
/// whose message carries the output.
pub(crate) fn run_bash(h: &mut dyn Host, args: &[u8], cwd: &str) -> Result<String, ToolFault> {
    let (mut command, mut dir, mut timeout) = (String::new(), String::new(), 0i64);
    decode(
        "bash",
        args,
        &mut [str_field("command", &mut command), str_field("cwd", &mut dir), int_field("timeout", &mut timeout)],
    )
    .map_err(invalid)?;
    if !dir.is_empty() && !dir.starts_with('/') {
        if cwd.is_empty() {
            return Err(invalid(cat(&[
                "bash: cwd ",
                &dir,
                " is relative and the call has no working directory; pass an absolute cwd",
            ])));
        }
        dir = clean(&cat(&[cwd, "/", &dir]));
    }
    if timeout <= 0 {
        timeout = BASH_TIMEOUT;
    }
    let timeout = timeout.min(BASH_MAX_TIME);
    let out = h
        .run_process(
            &Command { line: command, directory: dir },
            &RunOptions { timeout_ms: (timeout * 1000) as u32, output_limit: BASH_OUTPUT },
        )
        .map_err(|f| failed(cat(&["bash: ", &Fault::Process(f).advice()])))?;
    let mut text = out.output;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    match out.exit_code {
        None => {
            text.push_str("[killed by a signal]");
            Err(failed(text))
        }
        Some(0) => {
            text.push_str("[exit code 0]");
            Ok(text)
        }
        Some(code) => {
            text.push_str(&cat(&["[exit code ", &itoa(code as i64), "]"]));
            Err(failed(text))
        }
    }
}

/// clean returns the shortest path equivalent to p by lexical processing,
/// as Go's path.Clean does: repeated and trailing slashes dropped, "."
/// elements removed, ".." elements removed with the element before them
/// (at the root, dropped).
pub(crate) fn clean(p: &str) -> String {
    if p.is_empty() {
        return ".".to_string();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for e in p.split('/') {
        match e {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if rooted => {}
                _ => parts.push(".."),
            },
            _ => parts.push(e),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => cat(&["/", &joined]),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}
