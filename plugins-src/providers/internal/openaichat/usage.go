package openaichat

import (
	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// count is a token count the usage object reported, if it did.
type count struct {
	n  int64
	ok bool
}

// usage normalizes a Chat usage object. prompt_tokens includes cached and
// cache-written tokens, so Input is what remains. completion_tokens
// includes reasoning at OpenAI but not at xAI: reasoning is added when
// total_tokens shows it was left out. Absent cache counters in a reported
// object mean none; no object at all means unknown.
func usage(raw []byte) norm.Usage {
	if len(raw) == 0 {
		return norm.Usage{}
	}
	var prompt, completion, total, cachedDetail, write, reasoning, cacheHit count
	var s jsonscan.Decoder
	s.Reset(raw)
	num := func(dst *count) {
		n, ok := s.Int()
		*dst = count{n, ok}
	}
	s.Object(func(key []byte) {
		switch string(key) {
		case "prompt_tokens":
			num(&prompt)
		case "completion_tokens":
			num(&completion)
		case "total_tokens":
			num(&total)
		case "prompt_cache_hit_tokens": // DeepSeek
			num(&cacheHit)
		case "prompt_tokens_details":
			if s.Null() { // a nil pointer to encoding/json
				cachedDetail, write = count{}, count{}
				return
			}
			s.Object(func(key []byte) {
				switch string(key) {
				case "cached_tokens":
					num(&cachedDetail)
				case "cache_write_tokens":
					num(&write)
				}
			})
		case "completion_tokens_details":
			if s.Null() {
				reasoning = count{}
				return
			}
			s.Object(func(key []byte) {
				if string(key) == "reasoning_tokens" {
					num(&reasoning)
				}
			})
		}
	})
	if s.Finish() != nil {
		return norm.Usage{}
	}
	cached := cachedDetail
	if !cached.ok {
		cached = cacheHit
	}
	out := norm.Usage{CacheRead: norm.Known(cached.n), CacheWrite: norm.Known(write.n)}
	if prompt.ok {
		out.Input = norm.Known(prompt.n - cached.n - write.n)
	}
	if completion.ok {
		o := completion.n
		if r := reasoning.n; r > 0 && total.ok && prompt.ok && total.n == prompt.n+o+r {
			o += r
		}
		out.Output = norm.Known(o)
	}
	if reasoning.ok {
		out.Reasoning = norm.Known(reasoning.n)
	}
	return out
}
