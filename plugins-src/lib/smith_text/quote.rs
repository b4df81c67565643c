//! quote writes strings and characters quoted for messages: a string in
//! double quotes ([`quote`]), a character in single quotes
//! ([`quote_rune`]). Printable characters ([`is_print`]) stand as they
//! are; the quote and `\` are backslash-escaped, and every other
//! character is escaped as \a \b \f \n \r \t \v, \xNN (the other ASCII
//! control characters and DEL), \uNNNN or \UNNNNNNNN (lower-case hex).
//! Each byte of invalid UTF-8 in a string is \xNN.

use crate::printable::{PRINT16, PRINT32};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// is_print reports whether r is printable: a letter, mark, number,
/// punctuation or symbol (Unicode 15.0), or the ASCII space
/// ([`crate::printable`]'s ranges).
pub fn is_print(r: u32) -> bool {
    if r < 0x10000 {
        let r = r as u16;
        let i = PRINT16.partition_point(|&(_, hi)| hi < r);
        i < PRINT16.len() && PRINT16[i].0 <= r
    } else {
        let i = PRINT32.partition_point(|&(_, hi)| hi < r);
        i < PRINT32.len() && PRINT32[i].0 <= r
    }
}

/// escape appends r as it appears inside a quote delimited by q.
fn escape(out: &mut String, r: u32, q: char) {
    if r == q as u32 || r == '\\' as u32 {
        out.push('\\');
        out.push(if r == q as u32 { q } else { '\\' });
        return;
    }
    if is_print(r) {
        out.push(char::from_u32(r).unwrap_or('\u{FFFD}'));
        return;
    }
    let (lead, digits) = match r {
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
        out.push(HEX[(r >> (4 * i) & 0xf) as usize] as char);
    }
}

/// quote appends s in double quotes: printable characters as they are,
/// others escaped, each byte of invalid UTF-8 as \xNN.
pub fn quote(out: &mut String, s: &[u8]) {
    out.push('"');
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c < 0x80 {
            escape(out, c as u32, '"');
            i += 1;
            continue;
        }
        let n = match c {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 0,
        };
        match s.get(i..i + n).map(std::str::from_utf8) {
            Some(Ok(v)) if n > 0 => {
                escape(out, v.chars().next().map_or(0xfffd, |ch| ch as u32), '"');
                i += n;
            }
            _ => {
                out.push_str("\\x");
                out.push(HEX[(c >> 4) as usize] as char);
                out.push(HEX[(c & 0xf) as usize] as char);
                i += 1;
            }
        }
    }
    out.push('"');
}

/// prefix returns the first n characters of s, each byte of invalid UTF-8
/// counting as one, so `quote(out, prefix(s, n))` quotes at most n
/// characters of s.
pub fn prefix(s: &[u8], n: usize) -> &[u8] {
    let mut i = 0;
    for _ in 0..n {
        if i >= s.len() {
            break;
        }
        let len = match s[i] {
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => 1,
        };
        i += match s.get(i..i + len).map(std::str::from_utf8) {
            Some(Ok(_)) => len,
            _ => 1,
        };
    }
    &s[..i]
}

/// lossy returns s as a String with each byte of invalid UTF-8 replaced by
/// U+FFFD; `String::from_utf8_lossy` would replace a whole invalid
/// sequence by one.
pub fn lossy(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        match std::str::from_utf8(rest) {
            Ok(v) => {
                out.push_str(v);
                return out;
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                out.push('\u{fffd}');
                rest = &rest[good + 1..];
            }
        }
    }
}

/// quote_rune appends r in single quotes, escaped as [`quote`] escapes a
/// character (with `'` escaped, `"` not).
pub fn quote_rune(out: &mut String, r: u32) {
    out.push('\'');
    escape(out, r, '\'');
    out.push('\'');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_counts_runes_as_fmt_does() {
        // quote(prefix(s, n)) is what fmt.Sprintf("%.Nq", []byte(s)) returns.
        let q = |s: &[u8], n| {
            let mut out = String::new();
            quote(&mut out, prefix(s, n));
            out
        };
        assert_eq!(q(b"abc", 2), "\"ab\"");
        assert_eq!(q(b"\xff\xe2\x82z", 3), "\"\\xff\\xe2\\x82\"");
        assert_eq!(q(b"\xffabcdef", 3), "\"\\xffab\"");
        assert_eq!(q("ééééé".as_bytes(), 2), "\"éé\"");
        assert_eq!(q(b"\xed\xa0\x80", 9), "\"\\xed\\xa0\\x80\"");
        assert_eq!(q(b"", 5), "\"\"");
    }

    #[test]
    fn lossy_replaces_each_invalid_byte() {
        assert_eq!(lossy(b"ok"), "ok");
        assert_eq!(lossy(b"a\xe2\x82b\xff"), "a\u{fffd}\u{fffd}b\u{fffd}");
        assert_eq!(lossy(b"\xed\xa0\x80"), "\u{fffd}\u{fffd}\u{fffd}");
        assert_eq!(lossy("é😀".as_bytes()), "é😀");
    }

    #[test]
    fn quote_like_go() {
        // The expectations are what Go's strconv.Quote returns.
        let cases: &[(&[u8], &str)] = &[
            (b"a/b.go", "\"a/b.go\""),
            (b"say \"hi\"\\", "\"say \\\"hi\\\"\\\\\""),
            (b"tab\there\n\x07\x0b\x00\x7f", "\"tab\\there\\n\\a\\v\\x00\\x7f\""),
            (
                "a\u{ad}\u{301}\u{1F600}\u{E0001}\u{2028}é\u{a0}".as_bytes(),
                "\"a\\u00ad\u{301}\u{1F600}\\U000e0001\\u2028é\\u00a0\"",
            ),
            (b"bad\xffutf8\xe6\x80x", "\"bad\\xffutf8\\xe6\\x80x\""),
            ("\u{FFFD}'".as_bytes(), "\"\u{FFFD}'\""),
        ];
        for (input, want) in cases {
            let mut got = String::new();
            quote(&mut got, input);
            assert_eq!(&got, want, "quote({:?})", input);
        }
    }

    #[test]
    fn quote_rune_like_go() {
        let cases: &[(u32, &str)] = &[
            ('x' as u32, "'x'"),
            ('\'' as u32, "'\\''"),
            ('"' as u32, "'\"'"),
            ('\n' as u32, "'\\n'"),
            (0x01, "'\\x01'"),
            (0x85, "'\\u0085'"),
            (0xa0, "'\\u00a0'"),
            (0xe9, "'é'"),
            ('\\' as u32, "'\\\\'"),
        ];
        for (r, want) in cases {
            let mut got = String::new();
            quote_rune(&mut got, *r);
            assert_eq!(&got, want, "quote_rune({:#x})", r);
        }
    }

    #[test]
    fn print_table_spot_checks() {
        for (r, want) in [
            (0x20, true),
            (0x7e, true),
            (0x7f, false),
            (0xa0, false),
            (0xa1, true),
            (0xad, false),
            (0x301, true),
            (0x2028, false),
            (0xfffd, true),
            (0xe000, false),
            (0x1f600, true),
            (0xe0001, false),
            (0x10ffff, false),
        ] {
            assert_eq!(is_print(r), want, "is_print({:#x})", r);
        }
    }
}
