//! goquote writes the Go fmt verbs the Responses decoder's messages use:
//! `%q` of a string or byte slice (strconv.Quote) and `%.Nq` (the first N
//! runes, each byte of invalid UTF-8 counting as one, then quoted).
//!
//! It needs `crate::printable` (plugins-src/tools/src/printable.rs, the
//! table of Go's strconv.IsPrint, generated and checked by the tools
//! crate's Go tests) at the including crate's root.

use crate::printable::{PRINT16, PRINT32};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// is_print reports whether r is printable as Go's strconv.IsPrint says.
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

/// next_rune decodes the rune at the start of s as Go's range loop does:
/// (rune, width), or (None, 1) for a byte of invalid UTF-8.
fn next_rune(s: &[u8]) -> (Option<char>, usize) {
    let n = match s[0] {
        0..=0x7f => return (Some(s[0] as char), 1),
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

/// escape appends r as it appears inside a Go double-quoted literal.
fn escape(out: &mut String, r: char) {
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

/// quote appends s as fmt's `%q` (limit None) or `%.Nq` (limit Some(N))
/// writes it: at most N runes of s, quoted as strconv.Quote does
/// (printable runes as they are, others escaped, each byte of invalid
/// UTF-8 as \xNN).
pub fn quote(out: &mut String, s: &[u8], limit: Option<usize>) {
    out.push('"');
    let mut i = 0;
    let mut runes = 0;
    while i < s.len() {
        if limit.map_or(false, |n| runes >= n) {
            break;
        }
        runes += 1;
        match next_rune(&s[i..]) {
            (Some(r), n) => {
                escape(out, r);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &[u8], limit: Option<usize>) -> String {
        let mut out = String::new();
        quote(&mut out, s, limit);
        out
    }

    #[test]
    fn quotes_like_go() {
        // The expectations are what Go's fmt.Sprintf("%q") and ("%.3q")
        // return.
        assert_eq!(q(b"a\"b\\c\n\x07\x7f", None), r#""a\"b\\c\n\a\x7f""#);
        assert_eq!(q("é\u{200b}\u{10ffff}😀".as_bytes(), None), r#""é\u200b\U0010ffff😀""#);
        assert_eq!(q(b"\xff\xe2\x82x", None), r#""\xff\xe2\x82x""#);
        assert_eq!(q(b"\xffabcdef", Some(3)), r#""\xffab""#);
        assert_eq!(q("ééééé".as_bytes(), Some(2)), r#""éé""#);
        assert_eq!(q(b"", Some(0)), r#""""#);
    }
}
