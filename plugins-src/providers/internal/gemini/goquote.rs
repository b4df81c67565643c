//! Go's fmt "%.Nq" for the decoder's error messages: the first N runes of
//! a byte string (each byte of invalid UTF-8 counts as one), quoted as
//! strconv.Quote quotes them.
//!
//! It needs `crate::printable` (plugins-src/tools/src/printable.rs, the
//! table of Go's strconv.IsPrint, generated and checked by the tools
//! crate's Go tests) at the including crate's root.

use crate::printable::{PRINT16, PRINT32};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// is_print reports whether r is printable as Go's strconv.IsPrint
/// defines it.
fn is_print(r: u32) -> bool {
    if r < 0x10000 {
        let r = r as u16;
        let i = PRINT16.partition_point(|&(_, hi)| hi < r);
        i < PRINT16.len() && PRINT16[i].0 <= r
    } else {
        let i = PRINT32.partition_point(|&(_, hi)| hi < r);
        i < PRINT32.len() && PRINT32[i].0 <= r
    }
}

/// next_rune decodes the rune at the start of s as Go's
/// utf8.DecodeRune does: None (an invalid byte of width 1) for invalid
/// UTF-8.
fn next_rune(s: &[u8]) -> (Option<char>, usize) {
    let n = match s[0] {
        0..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return (None, 1),
    };
    match s.get(..n).map(std::str::from_utf8) {
        Some(Ok(v)) => (v.chars().next(), n),
        _ => (None, 1),
    }
}

fn push_escape(out: &mut String, r: char) {
    let c = r as u32;
    if r == '"' || r == '\\' {
        out.push('\\');
        out.push(r);
        return;
    }
    if is_print(c) {
        out.push(r);
        return;
    }
    let (lead, digits) = match c {
        0x07 => return out.push_str("\\a"),
        0x08 => return out.push_str("\\b"),
        0x0c => return out.push_str("\\f"),
        0x0a => return out.push_str("\\n"),
        0x0d => return out.push_str("\\r"),
        0x09 => return out.push_str("\\t"),
        0x0b => return out.push_str("\\v"),
        0..=0x1f | 0x7f => ("\\x", 2),
        0x20..=0xffff => ("\\u", 4),
        _ => ("\\U", 8),
    };
    out.push_str(lead);
    for i in (0..digits).rev() {
        out.push(HEX[(c >> (4 * i) & 0xf) as usize] as char);
    }
}

/// push_quoted_prefix appends what Go's fmt.Sprintf("%.Nq", s) writes for
/// N = runes: s cut after that many runes, as a Go string literal.
pub fn push_quoted_prefix(out: &mut String, s: &[u8], runes: usize) {
    out.push('"');
    let mut i = 0;
    let mut left = runes;
    while i < s.len() && left > 0 {
        left -= 1;
        match next_rune(&s[i..]) {
            (Some(r), n) => {
                push_escape(out, r);
                i += n;
            }
            (None, _) => {
                out.push_str("\\x");
                out.push(HEX[(s[i] >> 4) as usize] as char);
                out.push(HEX[(s[i] & 0xf) as usize] as char);
                i += 1;
            }
        }
    }
    out.push('"');
}

/// go_string converts b as Go's string(b) would read it back rune by
/// rune: each byte of invalid UTF-8 becomes U+FFFD, as encoding/json
/// writes such a string (the one form a Rust String can hold).
pub fn go_string(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) => s.to_owned(),
        Err(_) => {
            let mut out = String::with_capacity(b.len() + 8);
            let mut i = 0;
            while i < b.len() {
                match std::str::from_utf8(&b[i..]) {
                    Ok(s) => {
                        out.push_str(s);
                        break;
                    }
                    Err(e) => {
                        let good = e.valid_up_to();
                        out.push_str(std::str::from_utf8(&b[i..i + good]).unwrap_or_default());
                        out.push('\u{fffd}');
                        i += good + 1;
                    }
                }
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &[u8], n: usize) -> String {
        let mut out = String::new();
        push_quoted_prefix(&mut out, s, n);
        out
    }

    #[test]
    fn quotes_like_go_fmt() {
        // The expectations are what fmt.Sprintf("%.Nq", []byte(s)) returns.
        assert_eq!(q(b"abc", 2), "\"ab\"");
        assert_eq!(q(b"a\"b\\c\n\x07\x7f", 80), "\"a\\\"b\\\\c\\n\\a\\x7f\"");
        assert_eq!(q("h\u{e9}llo\u{2028}\u{1f600}\u{e0001}".as_bytes(), 80), "\"h\u{e9}llo\\u2028\u{1f600}\\U000e0001\"");
        assert_eq!(q(b"\xff\xe2\x82z", 3), "\"\\xff\\xe2\\x82\"");
        assert_eq!(q(b"\xed\xa0\x80", 9), "\"\\xed\\xa0\\x80\"");
        assert_eq!(q(b"", 5), "\"\"");
    }

    #[test]
    fn go_string_replaces_each_invalid_byte() {
        assert_eq!(go_string(b"ok"), "ok");
        assert_eq!(go_string(b"a\xe2\x82b\xff"), "a\u{fffd}\u{fffd}b\u{fffd}");
        assert_eq!(go_string(b"\xed\xa0\x80"), "\u{fffd}\u{fffd}\u{fffd}");
    }
}
