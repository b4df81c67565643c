//! Output and fault helpers shared by the tools.

use crate::faults::Fault;
use smith_json::write::append_int;
use smith_plugin::tool::ToolFault;
use smith_text::quote::quote;

/// itoa formats n in decimal.
pub(crate) fn itoa(n: i64) -> String {
    let mut b = Vec::with_capacity(20);
    append_int(&mut b, n);
    // Decimal digits and a minus sign are ASCII.
    String::from_utf8(b).unwrap_or_default()
}

/// cat concatenates parts into one string.
pub(crate) fn cat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

/// bound cuts s to at most limit bytes (0 means no limit), at a line
/// boundary when one is in the second half of the kept text and at a
/// character boundary otherwise, keeping room for an explicit truncation
/// notice. It works on bytes: a process's output may hold invalid UTF-8,
/// which it keeps as it is.
pub(crate) fn bound(s: Vec<u8>, limit: usize) -> Vec<u8> {
    if limit == 0 || s.len() <= limit {
        return s;
    }
    let notice = cat(&[
        "\n[output truncated: ",
        &itoa(s.len() as i64),
        " bytes exceed the ",
        &itoa(limit as i64),
        "-byte tool output limit; narrow the request]",
    ]);
    let mut keep = limit.saturating_sub(notice.len());
    while keep > 0 && s[keep] & 0xc0 == 0x80 {
        keep -= 1;
    }
    let mut out = s;
    if let Some(nl) = out[..keep].iter().rposition(|&c| c == b'\n') {
        if nl >= keep / 2 {
            keep = nl;
        }
    }
    out.truncate(keep);
    out.extend_from_slice(notice.as_bytes());
    out
}

/// invalid is the fault for arguments the tool cannot use.
pub(crate) fn invalid(msg: String) -> ToolFault {
    ToolFault::InvalidArguments(msg)
}

/// failed is the fault for an effect that failed.
pub(crate) fn failed(msg: String) -> ToolFault {
    ToolFault::EffectFailure(msg)
}

/// describe turns an import's fault into a message for the model: the
/// tool, the quoted path and the advice.
pub(crate) fn describe(name: &str, path: &str, f: Fault) -> ToolFault {
    let mut s = String::from(name);
    s.push(' ');
    quote(&mut s, path.as_bytes());
    s.push_str(": ");
    s.push_str(&f.advice());
    failed(s)
}

/// plural returns "n word" or "n words".
pub(crate) fn plural(n: i64, word: &str) -> String {
    if n == 1 {
        return cat(&["1 ", word]);
    }
    cat(&[&itoa(n), " ", word, "s"])
}

/// lines counts the lines of text (a last line without "\n" counts).
pub(crate) fn lines(text: &str) -> i64 {
    let mut n = text.bytes().filter(|&c| c == b'\n').count() as i64;
    if !text.is_empty() && !text.ends_with('\n') {
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn itoa_formats() {
        for (n, want) in [
            (0, "0"),
            (7, "7"),
            (-7, "-7"),
            (1234567890, "1234567890"),
            (i64::MIN, "-9223372036854775808"),
            (i64::MAX, "9223372036854775807"),
        ] {
            assert_eq!(itoa(n), want);
        }
    }

    /// valid_utf8 mirrors Go's utf8.ValidString.
    fn valid_utf8(b: &[u8]) -> bool {
        std::str::from_utf8(b).is_ok()
    }

    #[test]
    fn bound_cases() {
        struct Case {
            name: &'static str,
            input: Vec<u8>,
            limit: usize,
            want: &'static str, // prefix of the result
            cut: bool,
        }
        let cases = vec![
            Case { name: "within", input: b"short".to_vec(), limit: 100, want: "short", cut: false },
            Case { name: "no-limit", input: vec![b'a'; 1000], limit: 0, want: "aaaa", cut: false },
            Case { name: "cut-with-notice", input: vec![b'a'; 1000], limit: 200, want: "aaaa", cut: true },
            Case { name: "rune-boundary", input: "é".repeat(500).into_bytes(), limit: 151, want: "éé", cut: true },
        ];
        for c in cases {
            let got = bound(c.input.clone(), c.limit);
            assert!(got.starts_with(c.want.as_bytes()), "{}: bound = {:?}", c.name, String::from_utf8_lossy(&got));
            if !c.cut {
                assert_eq!(got, c.input, "{}", c.name);
                continue;
            }
            let notice =
                cat(&["[output truncated: 1000 bytes exceed the ", &itoa(c.limit as i64), "-byte tool output limit"]);
            let text = String::from_utf8(got.clone()).expect("valid UTF-8");
            assert!(
                got.len() <= c.limit && text.contains(&notice),
                "{}: bound = {:?} ({} bytes)",
                c.name,
                text,
                got.len()
            );
        }
    }

    #[test]
    fn bound_prefers_a_line_boundary() {
        let s = "line one\nline two\nline three\n".repeat(20);
        let got = String::from_utf8(bound(s.clone().into_bytes(), 200)).unwrap();
        let i = got.find("\n[output truncated: ").expect("notice");
        assert!(s.starts_with(&got[..i]) && s.as_bytes()[i] == b'\n', "bound cut mid-line: {:?}", got);
    }

    /// bound_properties checks FuzzBound's properties on the seed inputs
    /// and a sweep of limits: never over the limit (from 200 bytes on,
    /// where the notice fits), a prefix of the input plus the notice,
    /// valid UTF-8 kept valid, the input itself when it fits.
    #[test]
    fn bound_properties() {
        let inputs: Vec<Vec<u8>> = vec![
            b"hello\nworld\n".to_vec(),
            "é\n".repeat(300).into_bytes(),
            b"0\xc6\x880000000\xc000000000000000000000".to_vec(),
            b"0000\xe60000".to_vec(),
            [vec![b'0'; 59], b"\x96\xa4".to_vec(), vec![b'0'; 88]].concat(),
            "éé0é0é0é0é0é0é0é0é0é0é0é0é0é\nééééééééé0é0é0é0é0é0é0é0é0é0é0é0é000000000000000000000000000000000000"
                .repeat(5)
                .into_bytes(),
        ];
        for s in &inputs {
            for limit in 0..700 {
                let got = bound(s.clone(), limit);
                if limit == 0 || s.len() <= limit {
                    assert_eq!(&got, s);
                    continue;
                }
                let marker = b"\n[output truncated: ";
                let i = (0..got.len()).rev().find(|&i| got[i..].starts_with(marker)).expect("notice");
                assert!(s.starts_with(&got[..i]), "bound({:?}, {}) is not a prefix", s, limit);
                assert!(limit < 200 || got.len() <= limit, "bound({:?}, {}) is {} bytes", s, limit, got.len());
                assert!(!valid_utf8(s) || valid_utf8(&got), "bound({:?}, {}) broke UTF-8", s, limit);
            }
        }
    }

    #[test]
    fn lines_and_plural() {
        assert_eq!(lines(""), 0);
        assert_eq!(lines("a"), 1);
        assert_eq!(lines("a\n"), 1);
        assert_eq!(lines("a\nb"), 2);
        assert_eq!(plural(1, "byte"), "1 byte");
        assert_eq!(plural(0, "byte"), "0 bytes");
        assert_eq!(plural(7, "byte"), "7 bytes");
    }
}
