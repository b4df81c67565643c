//! fasttest holds what the tests of the formats' fast readers share: a
//! fast reader reads a text as the general reader does or gives up, on
//! sample texts and on every prefix and one-byte change of them.

/// Case is a sample text, and whether the fast reader reads it (rather
/// than give up).
pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) data: &'static str,
    pub(crate) fast: bool,
}

/// Fast reads a text, the second argument, after the original sample, the
/// first (which it may read first to set up a reader's state), rendering
/// what it read; None when it gives up.
pub(crate) type Fast<'f> = &'f dyn Fn(&[u8], &[u8]) -> Option<String>;

/// General reads a text with the general reader, rendering what it read
/// as the fast readers render it; Err says why it rejected the text.
pub(crate) type General<'f> = &'f dyn Fn(&[u8]) -> Result<String, String>;

/// variants returns every prefix of data, and data with a space inserted
/// before each of its bytes and with each of its bytes replaced by each
/// byte of subs.
pub(crate) fn variants(data: &[u8], subs: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for n in 0..data.len() {
        out.push(data[..n].to_vec());
        out.push([&data[..n], b" ", &data[n..]].concat());
        for &b in subs {
            out.push([&data[..n], &[b], &data[n + 1..]].concat());
        }
    }
    out
}

/// agree checks that got, what a fast reader read of data, is what general
/// reads of it, unless the fast reader gave up.
pub(crate) fn agree(what: &str, data: &[u8], got: Option<String>, general: General) {
    if let Some(got) = got {
        match general(data) {
            Ok(want) => assert_eq!(got, want, "{}: {:?}", what, String::from_utf8_lossy(data)),
            Err(e) => panic!(
                "{}: {:?} read fast, rejected by the general reader ({})",
                what,
                String::from_utf8_lossy(data),
                e
            ),
        }
    }
}

/// compare checks that the first of fasts reads each case's text as
/// general does or gives up, as the case expects; and that each of fasts
/// reads every variant of it (with subs the bytes replacing one) as general
/// does or gives up.
pub(crate) fn compare(cases: &[Case], subs: &[u8], fasts: &[Fast], general: General) {
    for c in cases {
        let data = c.data.as_bytes();
        let got = fasts[0](data, data);
        assert_eq!(got.is_some(), c.fast, "{}: fast path taken (general reader: {:?})", c.name, general(data));
        agree(c.name, data, got, general);
        for variant in variants(data, subs) {
            for fast in fasts {
                agree(&format!("{}: variant", c.name), &variant, fast(data, &variant), general);
            }
        }
    }
}

/// Resume is a text read after another that leaves a prefix: the name,
/// the first text, the next text, and what the first leaves as the prefix.
pub(crate) type Resume = (&'static str, &'static str, &'static str, &'static str);

/// resumes checks, for readers that read on from a prefix the last text
/// left, that each case's first text reads fast and leaves the prefix the
/// case expects; and that the next text after it (twice, the second time
/// after the prefix the first left) reads as general does, or gives up
/// where general rejects it or may_give_up holds for it.
pub(crate) fn resumes<P: Default>(
    cases: &[Resume],
    read: &dyn Fn(&[u8], &mut P) -> Option<String>,
    held: &dyn Fn(&P) -> &[u8],
    general: General,
    may_give_up: &dyn Fn(&str) -> bool,
) {
    for &(name, first, next, want_prefix) in cases {
        let mut prefix = P::default();
        assert!(read(first.as_bytes(), &mut prefix).is_some(), "{}: first text read slow", name);
        assert_eq!(String::from_utf8_lossy(held(&prefix)), want_prefix, "{}: prefix", name);
        let got = read(next.as_bytes(), &mut prefix);
        assert!(
            got.is_some() || general(next.as_bytes()).is_err() || may_give_up(next),
            "{}: gave up on a text the general reader reads",
            name
        );
        agree(name, next.as_bytes(), got, general);
        agree(&format!("{}: second read", name), next.as_bytes(), read(next.as_bytes(), &mut prefix), general);
    }
}
