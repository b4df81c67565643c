//! The read tool.

use crate::args::{decode, int_field, str_field};
use crate::catalog::{READ_BYTES, READ_LINES};
use crate::faults::Fault;
use crate::host::Host;
use crate::output::{describe, invalid, itoa, lines};
use smith_plugin::fs::ReadOptions;
use smith_plugin::tool::ToolFault;

/// run_read returns a window of a text file, ending with a notice naming
/// the next offset when more lines follow.
pub(crate) fn run_read(h: &mut dyn Host, args: &[u8], _cwd: &str) -> Result<String, ToolFault> {
    let (mut path, mut offset, mut limit) = (String::new(), 0i64, 0i64);
    decode(
        "read",
        args,
        &mut [str_field("path", &mut path), int_field("offset", &mut offset), int_field("limit", &mut limit)],
    )
    .map_err(invalid)?;
    let offset = offset.max(1);
    if limit <= 0 || limit > READ_LINES {
        limit = READ_LINES;
    }
    let o = ReadOptions { offset: offset as u32, limit: limit as u32, byte_limit: READ_BYTES };
    let ft = h.read_file(&path, &o).map_err(|f| describe("read", &path, Fault::File(f)))?;
    if ft.total_lines == 0 {
        return Ok("[empty file]".to_string());
    }
    let mut out = ft.text;
    if ft.truncated {
        // Wrapping, as Go's int arithmetic wraps: the schema bounds offset
        // only from below.
        let end = offset.wrapping_add(lines(&out)).wrapping_sub(1);
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        for s in [
            "[showing lines ",
            &itoa(offset),
            "-",
            &itoa(end),
            " of ",
            &itoa(ft.total_lines as i64),
            "; read again with offset=",
            &itoa(end.wrapping_add(1)),
            " to continue]",
        ] {
            out.push_str(s);
        }
    }
    Ok(out)
}
