//! usage keeps the latest value of each usageMetadata count and
//! normalizes them.

use crate::norm;
use smith_json::read;

/// UsageState keeps the latest value of each usageMetadata field: every
/// chunk's object is a cumulative snapshot (even promptTokenCount can
/// change in the last one), and early Vertex chunks carry no counts at all.
#[derive(Debug, Default)]
pub struct UsageState {
    prompt: Option<i64>,
    candidates: Option<i64>,
    thoughts: Option<i64>,
    cached: Option<i64>,
    tool_use: Option<i64>,
    /// raw is the last usage object taken, verbatim.
    pub raw: Vec<u8>,
}

impl UsageState {
    /// merge takes the counts of raw (None, null or an object); an object
    /// that is not valid, or has a count that is not an integer, is
    /// ignored whole.
    pub fn merge(&mut self, raw: Option<&[u8]>) {
        let raw = match raw {
            Some(r) if !r.is_empty() && !matches!(r, b"null") => r,
            _ => return,
        };
        // null is no count.
        let mut c: [Option<i64>; 5] = [None; 5];
        let mut s = read::Decoder::new(raw);
        s.object(|s, key| {
            let i = match key {
                b"promptTokenCount" => 0,
                b"candidatesTokenCount" => 1,
                b"thoughtsTokenCount" => 2,
                b"cachedContentTokenCount" => 3,
                b"toolUsePromptTokenCount" => 4,
                _ => return,
            };
            c[i] = s.int();
        });
        if s.finish().is_err() {
            return;
        }
        self.take(raw, c);
    }

    /// take takes the counts read from raw, a valid usage object (in
    /// the order promptTokenCount, candidatesTokenCount,
    /// thoughtsTokenCount, cachedContentTokenCount,
    /// toolUsePromptTokenCount; None for absent or null), as merge does.
    pub fn take(&mut self, raw: &[u8], c: [Option<i64>; 5]) {
        self.raw.clear();
        self.raw.extend_from_slice(raw);
        let dst = [&mut self.prompt, &mut self.candidates, &mut self.thoughts, &mut self.cached, &mut self.tool_use];
        for (d, v) in dst.into_iter().zip(c) {
            if v.is_some() {
                *d = v;
            }
        }
    }

    /// result normalizes: promptTokenCount includes cached tokens;
    /// candidatesTokenCount excludes thoughts, so output adds them;
    /// tool-use prompt tokens are input. Gemini reports no cache writes (a
    /// known 0). Sums wrap on i64 overflow.
    pub fn result(&self) -> norm::Usage {
        if self.prompt.is_none() && self.candidates.is_none() {
            return norm::Usage::default();
        }
        let n = |a: Option<i64>| a.unwrap_or(0);
        let mut out = norm::Usage { cache_read: Some(n(self.cached)), cache_write: Some(0), ..norm::Usage::default() };
        if let Some(p) = self.prompt {
            out.input = Some(p.wrapping_sub(n(self.cached)).wrapping_add(n(self.tool_use)));
        }
        if self.candidates.is_some() || self.thoughts.is_some() {
            out.output = Some(n(self.candidates).wrapping_add(n(self.thoughts)));
        }
        out.reasoning = self.thoughts;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_latest_counts() {
        let mut u = UsageState::default();
        assert_eq!(u.result(), norm::Usage::default());
        u.merge(Some(br#"{"trafficType":"ON_DEMAND"}"#));
        assert_eq!(u.result(), norm::Usage::default());
        assert_eq!(u.raw, br#"{"trafficType":"ON_DEMAND"}"#);
        u.merge(Some(br#"{"promptTokenCount":10,"cachedContentTokenCount":4,"toolUsePromptTokenCount":1}"#));
        u.merge(Some(br#"{"candidatesTokenCount":3,"thoughtsTokenCount":2,"promptTokenCount":null}"#));
        let r = u.result();
        assert_eq!(
            (r.input, r.output, r.cache_read, r.cache_write, r.reasoning),
            (Some(7), Some(5), Some(4), Some(0), Some(2))
        );
        // A count that is not an integer spoils the whole object.
        u.merge(Some(br#"{"promptTokenCount":1.5,"candidatesTokenCount":9}"#));
        assert_eq!(u.result().output, Some(5));
        u.merge(Some(b"null"));
        u.merge(None);
        assert_eq!(u.raw, br#"{"candidatesTokenCount":3,"thoughtsTokenCount":2,"promptTokenCount":null}"#);
    }

    #[test]
    fn sums_wrap() {
        let mut u = UsageState::default();
        u.merge(Some(br#"{"promptTokenCount":-9223372036854775808,"cachedContentTokenCount":1,"candidatesTokenCount":9223372036854775807,"thoughtsTokenCount":1}"#));
        let r = u.result();
        assert_eq!(r.input, Some(i64::MAX));
        assert_eq!(r.output, Some(i64::MIN));
    }
}
