//! usage normalizes a Chat Completions usage object.

use crate::norm::Usage;
use smith_json::read::Decoder as Scan;

/// usage normalizes a Chat usage object. prompt_tokens includes cached
/// and cache-written tokens, so input is what remains. completion_tokens
/// includes reasoning at OpenAI but not at xAI: reasoning is added when
/// total_tokens shows it was left out. Absent cache counters in a reported
/// object mean none; no object at all, or one that is not a valid usage
/// object, means unknown. Arithmetic wraps on i64 overflow.
pub fn usage(raw: &[u8]) -> Usage {
    if raw.is_empty() {
        return Usage::default();
    }
    let (mut prompt, mut completion, mut total) = (None, None, None);
    let (mut cached_detail, mut write, mut reasoning, mut cache_hit): (
        Option<i64>,
        Option<i64>,
        Option<i64>,
        Option<i64>,
    ) = (None, None, None, None);
    let mut s = Scan::new(raw);
    s.object(|s, key| match key {
        b"prompt_tokens" => prompt = s.int(),
        b"completion_tokens" => completion = s.int(),
        b"total_tokens" => total = s.int(),
        b"prompt_cache_hit_tokens" => cache_hit = s.int(), // DeepSeek
        b"prompt_tokens_details" => {
            if s.null() {
                // null details clear the counts read from earlier ones
                cached_detail = None;
                write = None;
                return;
            }
            s.object(|s, key| match key {
                b"cached_tokens" => cached_detail = s.int(),
                b"cache_write_tokens" => write = s.int(),
                _ => {}
            });
        }
        b"completion_tokens_details" => {
            if s.null() {
                reasoning = None;
                return;
            }
            s.object(|s, key| {
                if key == b"reasoning_tokens" {
                    reasoning = s.int();
                }
            });
        }
        _ => {}
    });
    if s.finish().is_err() {
        return Usage::default();
    }
    let cached = if cached_detail.is_some() { cached_detail } else { cache_hit };
    let (cached_n, write_n) = (cached.unwrap_or(0), write.unwrap_or(0));
    let mut out = Usage { cache_read: Some(cached_n), cache_write: Some(write_n), ..Usage::default() };
    if let Some(p) = prompt {
        out.input = Some(p.wrapping_sub(cached_n).wrapping_sub(write_n));
    }
    if let Some(c) = completion {
        let mut o = c;
        let r = reasoning.unwrap_or(0);
        if let (true, Some(t), Some(p)) = (r > 0, total, prompt) {
            if t == p.wrapping_add(o).wrapping_add(r) {
                o = o.wrapping_add(r);
            }
        }
        out.output = Some(o);
    }
    out.reasoning = reasoning;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_usage_objects() {
        let cases: [(&str, &str, Usage); 7] = [
            ("absent", "", Usage::default()),
            (
                "openai with cache and reasoning",
                r#"{"prompt_tokens":100,"completion_tokens":50,"total_tokens":150,"prompt_tokens_details":{"cached_tokens":30},"completion_tokens_details":{"reasoning_tokens":20}}"#,
                Usage {
                    input: Some(70),
                    output: Some(50),
                    cache_read: Some(30),
                    cache_write: Some(0),
                    reasoning: Some(20),
                },
            ),
            (
                "xai leaves reasoning out of completion",
                r#"{"prompt_tokens":10,"completion_tokens":5,"total_tokens":25,"completion_tokens_details":{"reasoning_tokens":10}}"#,
                Usage {
                    input: Some(10),
                    output: Some(15),
                    cache_read: Some(0),
                    cache_write: Some(0),
                    reasoning: Some(10),
                },
            ),
            (
                "deepseek cache hits",
                r#"{"prompt_tokens":10,"completion_tokens":2,"prompt_cache_hit_tokens":4,"prompt_tokens_details":null}"#,
                Usage { input: Some(6), output: Some(2), cache_read: Some(4), cache_write: Some(0), reasoning: None },
            ),
            ("not an object", "[1]", Usage::default()),
            ("a fraction", r#"{"prompt_tokens":1.5}"#, Usage::default()),
            (
                "wrapping subtraction",
                r#"{"prompt_tokens":-9223372036854775808,"prompt_tokens_details":{"cached_tokens":1}}"#,
                Usage {
                    input: Some(i64::MAX),
                    output: None,
                    cache_read: Some(1),
                    cache_write: Some(0),
                    reasoning: None,
                },
            ),
        ];
        for (name, raw, want) in cases {
            assert_eq!(usage(raw.as_bytes()), want, "{}", name);
        }
    }
}
