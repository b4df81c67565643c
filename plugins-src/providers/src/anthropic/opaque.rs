//! opaque keeps server-side blocks verbatim, with the input they streamed.

use smith_json::read::Decoder;

/// with_input returns a server-side block (content_block_start's
/// content_block, an object or null) with the input its input_json_delta
/// events streamed, so the block can be sent back whole. The block's bytes
/// are kept exactly: only the value of its top-level "input" member (the
/// start event's placeholder {}) is replaced, or, when the block has none,
/// an "input" member is appended. Input that is empty or not JSON leaves
/// the block as it started.
///
/// A null block with valid input is also left as it started (it has no
/// '}' to put the input before).
pub fn with_input(raw: &[u8], input: &[u8]) -> Vec<u8> {
    // Input that is empty or all white space is never valid JSON.
    if !valid(input) {
        return raw.to_vec();
    }
    let mut span = None;
    let mut s = Decoder::new(raw);
    s.object(|s, key| {
        if key == b"input" {
            span = s.raw().map(|v| {
                let start = v.as_ptr() as usize - raw.as_ptr() as usize; // v borrows raw
                (start, start + v.len())
            });
        }
    });
    if s.finish().is_err() {
        return raw.to_vec();
    }
    let mut out = Vec::with_capacity(raw.len() + input.len() + 9);
    match span {
        Some((start, end)) => {
            out.extend_from_slice(&raw[..start]);
            out.extend_from_slice(input);
            out.extend_from_slice(&raw[end..]);
        }
        None => {
            let closing = match raw.iter().rposition(|&c| c == b'}') {
                Some(i) => i,
                None => return raw.to_vec(),
            };
            let open = raw.iter().position(|&c| c == b'{').map_or(0, |i| i + 1);
            out.extend_from_slice(&raw[..closing]);
            if raw.get(open..closing).map_or(false, |m| !trim_space(m).is_empty()) {
                out.push(b',');
            }
            out.extend_from_slice(b"\"input\":");
            out.extend_from_slice(input);
            out.extend_from_slice(&raw[closing..]);
        }
    }
    out
}

/// valid reports whether b is one JSON text (white space around it allowed).
fn valid(b: &[u8]) -> bool {
    let mut d = Decoder::new(b);
    d.skip();
    d.finish().is_ok()
}

/// trim_space trims JSON's (ASCII) white space; between the braces of a
/// valid object no other kind of space can stand outside a string.
fn trim_space(b: &[u8]) -> &[u8] {
    let sp = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c');
    let start = b.iter().position(|c| !sp(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !sp(c)).map_or(start, |i| i + 1);
    &b[start..end.max(start)]
}
