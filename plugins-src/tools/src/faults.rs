//! What the tools tell the model when a host effect fails.

use crate::output::{cat, itoa};
use smith_plugin::fs::FileFault;
use smith_plugin::process::ProcessFault;

/// Fault is a failed import call.
pub(crate) enum Fault {
    File(FileFault),
    Process(ProcessFault),
}

impl Fault {
    /// advice explains the fault and what to do about it.
    pub(crate) fn advice(self) -> String {
        match self {
            Fault::File(f) => match f {
                FileFault::NotFound(_) => "no such file or directory; check the path with ls or find".to_string(),
                FileFault::PermissionDenied(_) => "access denied: the path is outside the allowed project directories (symbolic links included) or not permitted; use a path inside the project".to_string(),
                FileFault::TooLarge(n) => cat(&["the content exceeds the ", &itoa(n as i64), "-byte limit; work on a smaller part"]),
                FileFault::NotText(_) => "binary content (not UTF-8 text) cannot be shown or edited; inspect it with bash (for example `file` or `xxd | head`)".to_string(),
                FileFault::EditConflict(s) | FileFault::Unknown(s) => s,
            },
            Fault::Process(f) => match f {
                ProcessFault::SpawnFailure(s) => cat(&["the command could not be started: ", &s]),
                ProcessFault::Timeout(t) => {
                    let mut s = cat(&[
                        "timed out after ",
                        &itoa(t.limit_ms as i64 / 1000),
                        "s and was killed with everything it started; raise \"timeout\" or run something faster",
                    ]);
                    if !t.output.is_empty() {
                        s.push_str("; its output until then:\n");
                        s.push_str(&t.output);
                    }
                    s
                }
                ProcessFault::Cancelled => "cancelled; the process group was killed".to_string(),
                ProcessFault::Unknown(s) => s,
            },
        }
    }
}
