//! usage is the token accounting of a Messages API stream. message_start's
//! usage object is merged with message_delta's: every non-null field of a later
//! object overrides (the values are cumulative totals for the turn, not
//! increments).

use crate::norm::Usage;
use smith_json::read::{append_compact, append_quote, Decoder, Kind};
use std::collections::BTreeMap;

/// UsageState is the merged usage of one stream. The default is "nothing
/// reported".
#[derive(Debug, Default)]
pub struct UsageState {
    seen: bool,
    /// The merged raw object, keys sorted bytewise; None until an object
    /// was merged.
    fields: Option<BTreeMap<String, Vec<u8>>>,
    input: Option<i64>,
    output: Option<i64>,
    cache_read: Option<i64>,
    cache_write: Option<i64>,
    thinking: Option<i64>,
}

impl UsageState {
    /// merge takes the fields of raw (empty, null or an object). An object
    /// that is not valid JSON, or has a count that is not an integer (or a
    /// details member that is not an object), is ignored whole. A count
    /// that is null leaves the earlier value.
    pub fn merge(&mut self, raw: &[u8]) {
        if raw.is_empty() || matches!(raw, b"null") {
            return;
        }
        let (mut input, mut output, mut cache_read, mut cache_write, mut thinking) = (None, None, None, None, None);
        let mut sub_failed = false;
        let mut fields: Vec<(&[u8], String)> = Vec::new();
        let mut sc = Decoder::new(raw);
        sc.object(|d, key| {
            let v = match d.raw() {
                Some(v) => v,
                None => return, // a syntax error, which finish reports
            };
            fields.push((v, String::from_utf8_lossy(key).into_owned()));
            let dst = match key {
                b"input_tokens" => &mut input,
                b"output_tokens" => &mut output,
                b"cache_read_input_tokens" => &mut cache_read,
                b"cache_creation_input_tokens" => &mut cache_write,
                b"output_tokens_details" => {
                    let mut sub = Decoder::new(v);
                    if sub.peek() == Kind::Null {
                        thinking = None; // null details clear the thinking count
                    }
                    sub.object(|s, key| {
                        if key == b"thinking_tokens" {
                            thinking = s.int();
                        }
                    });
                    sub_failed |= sub.finish().is_err();
                    return;
                }
                _ => return,
            };
            let mut sub = Decoder::new(v);
            *dst = sub.int();
            sub_failed |= sub.finish().is_err();
        });
        if sc.finish().is_err() || sub_failed {
            return;
        }
        self.seen = true;
        let merged = self.fields.get_or_insert_with(BTreeMap::new);
        for (i, (v, k)) in fields.iter().enumerate() {
            // A repeated key's last value counts.
            if !matches!(*v, b"null") && !fields[i + 1..].iter().any(|(_, later)| later == k) {
                merged.insert(k.clone(), v.to_vec());
            }
        }
        for (dst, c) in [
            (&mut self.input, input),
            (&mut self.output, output),
            (&mut self.cache_read, cache_read),
            (&mut self.cache_write, cache_write),
            (&mut self.thinking, thinking),
        ] {
            if c.is_some() {
                *dst = c;
            }
        }
    }

    /// raw returns the merged usage object (keys sorted bytewise, values
    /// compacted), or empty when none was reported.
    pub fn raw(&self) -> Vec<u8> {
        let fields = match &self.fields {
            Some(f) => f,
            None => return Vec::new(),
        };
        let mut b = Vec::with_capacity(2 + fields.iter().map(|(k, v)| k.len() + v.len() + 4).sum::<usize>());
        b.push(b'{');
        for (i, (k, v)) in fields.iter().enumerate() {
            if i > 0 {
                b.push(b',');
            }
            append_quote(&mut b, k.as_bytes());
            b.push(b':');
            append_compact(&mut b, v);
        }
        b.push(b'}');
        b
    }

    /// result converts to the normalized usage. Within a reported usage
    /// object an absent cache counter means no cache use (older responses
    /// and proxies omit them); with no usage object at all everything
    /// stays unknown.
    pub fn result(&self) -> Usage {
        if !self.seen {
            return Usage::default();
        }
        Usage {
            input: self.input,
            output: self.output,
            cache_read: self.cache_read.or(Some(0)),
            cache_write: self.cache_write.or(Some(0)),
            reasoning: self.thinking,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UsageState;

    #[test]
    fn later_non_null_fields_override() {
        let mut u = UsageState::default();
        u.merge(br#"{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":4}"#);
        u.merge(br#"{"output_tokens":7,"input_tokens":null,"output_tokens_details":{"thinking_tokens":3}}"#);
        let r = u.result();
        assert_eq!(
            (r.input, r.output, r.cache_read, r.cache_write, r.reasoning),
            (Some(10), Some(7), Some(4), Some(0), Some(3))
        );
        assert_eq!(
            String::from_utf8(u.raw()).unwrap(),
            r#"{"cache_read_input_tokens":4,"input_tokens":10,"output_tokens":7,"output_tokens_details":{"thinking_tokens":3}}"#
        );
    }

    #[test]
    fn a_bad_object_is_ignored_whole() {
        for bad in
            [&br#"{"input_tokens":1.5,"output_tokens":2}"#[..], br#"{"output_tokens_details":7}"#, b"[1]", br#"{"x":"#]
        {
            let mut u = UsageState::default();
            u.merge(bad);
            assert_eq!(u.result(), Default::default(), "{:?}", String::from_utf8_lossy(bad));
            assert!(u.raw().is_empty());
        }
    }

    #[test]
    fn repeated_keys_keep_the_last_value() {
        let mut u = UsageState::default();
        u.merge(br#"{"a":1,"a":null,"b":2,"b":3,"input_tokens":1,"input_tokens":null}"#);
        // A key whose last value is null keeps no value from this object.
        assert_eq!(String::from_utf8(u.raw()).unwrap(), r#"{"b":3}"#);
        assert_eq!(u.result().input, None);
    }

    #[test]
    fn nothing_reported_is_unknown_and_an_empty_object_is_known_cache() {
        let mut u = UsageState::default();
        u.merge(b"null");
        u.merge(b"");
        assert_eq!(u.result(), crate::norm::Usage::default());
        u.merge(b"{ }");
        assert_eq!(u.raw(), b"{}");
        assert_eq!((u.result().cache_read, u.result().input), (Some(0), None));
    }
}
