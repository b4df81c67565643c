//! Small string helpers for the prompt's and the messages' text.

use smith_json::write::append_uint;

/// cat concatenates parts into one string.
pub(crate) fn cat(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

/// utoa formats n in decimal.
pub(crate) fn utoa(n: u64) -> String {
    let mut b = Vec::with_capacity(20);
    append_uint(&mut b, n);
    // Decimal digits are ASCII.
    String::from_utf8(b).unwrap_or_default()
}

/// size formats a byte count that is a multiple of 1024 as "N KiB", and
/// any other as "N bytes".
pub(crate) fn size(n: usize) -> String {
    if n >= 1024 && n % 1024 == 0 {
        return cat(&[&utoa((n / 1024) as u64), " KiB"]);
    }
    cat(&[&utoa(n as u64), " bytes"])
}

/// cut returns the longest prefix of s of at most limit bytes that ends at
/// a line boundary when one lies in the second half of the limit, and at a
/// character boundary otherwise.
pub(crate) fn cut(s: &str, limit: usize) -> &str {
    if s.len() <= limit {
        return s;
    }
    let mut end = limit;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    match s[..end].rfind('\n') {
        Some(nl) if nl + 1 >= limit / 2 => &s[..nl + 1],
        _ => &s[..end],
    }
}

/// join_path joins a directory and a name with the separator sep, adding
/// none when dir already ends in it.
pub(crate) fn join_path(dir: &str, name: &str, sep: char) -> String {
    let mut s = String::with_capacity(dir.len() + 1 + name.len());
    s.push_str(dir);
    if !dir.ends_with(sep) {
        s.push(sep);
    }
    s.push_str(name);
    s
}

/// below returns the path of dir relative to root when dir is root or
/// lies beneath it (Some("") for root itself), comparing whole components
/// separated by sep.
pub(crate) fn below<'a>(root: &str, dir: &'a str, sep: char) -> Option<&'a str> {
    let rest = dir.strip_prefix(root)?;
    if rest.is_empty() {
        return Some("");
    }
    if root.ends_with(sep) {
        return Some(rest.trim_end_matches(sep));
    }
    rest.strip_prefix(sep).map(|r| r.trim_end_matches(sep))
}
