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

/// Fast reads a text with a fast reader after the state (a prefix) the
/// texts before it left, rendering what it read; None when it gives up.
pub(crate) type Fast<'f, P> = &'f dyn Fn(&[u8], &mut P) -> Option<String>;

/// General reads a text with the general reader, rendering what it read
/// as Fast does; Err says why it rejected the text.
pub(crate) type General<'f> = &'f dyn Fn(&[u8]) -> Result<String, String>;

/// agree checks that got, what a fast reader read of data, is what general
/// reads of it, unless the fast reader gave up.
pub(crate) fn agree(what: &str, data: &[u8], got: Option<String>, general: General) {
    if let Some(got) = got {
        let text = String::from_utf8_lossy(data);
        match general(data) {
            Ok(want) => assert_eq!(got, want, "{}: {:?}", what, text),
            Err(e) => panic!("{}: {:?} read fast, rejected by the general reader ({})", what, text, e),
        }
    }
}

/// compare checks that fast reads each case's text as general does or
/// gives up, as the case expects; and that it reads every prefix of it,
/// and it with a space inserted before any byte or any byte replaced by
/// one of subs, as general does or gives up, from the start and after the
/// case's text (whose prefix a variant may share).
pub(crate) fn compare<P: Default>(cases: &[Case], subs: &[u8], fast: Fast<P>, general: General) {
    for c in cases {
        let data = c.data.as_bytes();
        let got = fast(data, &mut P::default());
        assert_eq!(got.is_some(), c.fast, "{}: fast path taken (general reader: {:?})", c.name, general(data));
        agree(c.name, data, got, general);
        for n in 0..data.len() {
            let mut variants = vec![data[..n].to_vec(), [&data[..n], b" ", &data[n..]].concat()];
            variants.extend(subs.iter().map(|&b| [&data[..n], &[b], &data[n + 1..]].concat()));
            for variant in variants {
                let mut primed = P::default();
                let _ = fast(data, &mut primed);
                for mut state in [P::default(), primed] {
                    agree(&format!("{}: variant", c.name), &variant, fast(&variant, &mut state), general);
                }
            }
        }
    }
}

/// Resume is a text read after another that leaves a prefix: the name,
/// the first text, the next text, and what the first leaves as the prefix.
pub(crate) type Resume = (&'static str, &'static str, &'static str, &'static str);

/// resumes checks that each case's first text reads fast and leaves the
/// prefix (held) the case expects; and that the next text after it reads
/// as general does, twice (the second time after the prefix the first
/// left), or gives up where general rejects it or may_give_up holds.
pub(crate) fn resumes<P: Default>(
    cases: &[Resume],
    fast: Fast<P>,
    held: &dyn Fn(&P) -> &[u8],
    general: General,
    may_give_up: &dyn Fn(&str) -> bool,
) {
    for &(name, first, next, want) in cases {
        let mut prefix = P::default();
        assert!(fast(first.as_bytes(), &mut prefix).is_some(), "{}: first text read slow", name);
        assert_eq!(String::from_utf8_lossy(held(&prefix)), want, "{}: prefix", name);
        let got = fast(next.as_bytes(), &mut prefix);
        let slow_ok = general(next.as_bytes()).is_err() || may_give_up(next);
        assert!(got.is_some() || slow_ok, "{}: gave up on a text the general reader reads", name);
        agree(name, next.as_bytes(), got, general);
        agree(&format!("{}: second read", name), next.as_bytes(), fast(next.as_bytes(), &mut prefix), general);
    }
}
