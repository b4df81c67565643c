//! The write and edit tools.

use crate::args::{decode, list_field, object, str_field};
use crate::faults::Fault;
use crate::host::Host;
use crate::output::{cat, describe, invalid, itoa, plural};
use smith_json::read::Decoder;
use smith_plugin::fs::{EditOptions, TextEdit, WriteOptions};
use smith_plugin::tool::ToolFault;

/// run_write replaces or creates a file, creating missing parents.
pub(crate) fn run_write(h: &mut dyn Host, args: &[u8], _cwd: &str) -> Result<String, ToolFault> {
    let (mut path, mut content) = (String::new(), String::new());
    decode("write", args, &mut [str_field("path", &mut path), str_field("content", &mut content)]).map_err(invalid)?;
    let n = h
        .write_file(&path, &content, &WriteOptions { create_parents: true })
        .map_err(|f| describe("write", &path, Fault::File(f)))?;
    Ok(cat(&["Wrote ", &plural(n as i64, "byte"), " to ", &path, "."]))
}

/// decode_edit reads edit's arguments, the path and its replacements: one
/// (old_text with new_text) or several (edits), never both.
pub(crate) fn decode_edit(args: &[u8]) -> Result<(String, Vec<TextEdit>), ToolFault> {
    let mut path = String::new();
    let mut one = TextEdit::default();
    let (mut has_old, mut has_new) = (false, false);
    let mut edits: Vec<TextEdit> = Vec::new();
    let mut each = |d: &mut Decoder| -> Result<(), String> {
        let mut e = TextEdit::default();
        let (mut e_old, mut e_new) = (false, false);
        object(
            d,
            &mut [
                str_field("old_text", &mut e.old_text).seen(&mut e_old),
                str_field("new_text", &mut e.new_text).seen(&mut e_new),
            ],
        )?;
        if !e_old || !e_new {
            return Err(cat(&["edits[", &itoa(edits.len() as i64), "] needs both old_text and new_text"]));
        }
        edits.push(e);
        Ok(())
    };
    decode(
        "edit",
        args,
        &mut [
            str_field("path", &mut path),
            str_field("old_text", &mut one.old_text).seen(&mut has_old),
            str_field("new_text", &mut one.new_text).seen(&mut has_new),
            list_field("edits", &mut each),
        ],
    )
    .map_err(invalid)?;
    if (has_old || has_new) && !edits.is_empty() {
        return Err(invalid(
            "edit: pass either old_text with new_text (one replacement) or edits (several), not both".to_string(),
        ));
    }
    if has_old != has_new {
        return Err(invalid("edit: old_text and new_text go together; pass both".to_string()));
    }
    if has_old {
        edits = vec![one];
    } else if edits.is_empty() {
        return Err(invalid(
            "edit: nothing to replace; pass old_text with new_text, or a non-empty edits list".to_string(),
        ));
    }
    Ok((path, edits))
}

/// run_edit applies the replacements, all or none, and returns the diff.
pub(crate) fn run_edit(h: &mut dyn Host, args: &[u8], _cwd: &str) -> Result<String, ToolFault> {
    let (path, edits) = decode_edit(args)?;
    for (i, e) in edits.iter().enumerate() {
        if e.old_text == e.new_text {
            let idx;
            let what = if edits.len() > 1 {
                idx = cat(&["edits[", &itoa(i as i64), "] has old_text and new_text"]);
                &idx
            } else {
                "old_text and new_text are"
            };
            return Err(invalid(cat(&[
                "edit \"",
                &path,
                "\": ",
                what,
                " identical, so nothing would change; send the text you want instead",
            ])));
        }
    }
    let res =
        h.edit_file(&path, &edits, &EditOptions::default()).map_err(|f| describe("edit", &path, Fault::File(f)))?;
    let n = if edits.len() > 1 { cat(&[" (", &itoa(edits.len() as i64), " replacements)"]) } else { String::new() };
    Ok(cat(&["Edited ", &path, &n, " at line ", &itoa(res.first_changed_line as i64), ".\n", &res.diff]))
}
