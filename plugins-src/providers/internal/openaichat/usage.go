package openaichat

import (
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

type wireUsage struct {
	Prompt        *int64 `json:"prompt_tokens"`
	Completion    *int64 `json:"completion_tokens"`
	Total         *int64 `json:"total_tokens"`
	PromptDetails *struct {
		Cached     *int64 `json:"cached_tokens"`
		CacheWrite *int64 `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionDetails *struct {
		Reasoning *int64 `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	CacheHit *int64 `json:"prompt_cache_hit_tokens"` // DeepSeek
}

// usage normalizes a Chat usage object. prompt_tokens includes cached and
// cache-written tokens, so Input is what remains. completion_tokens
// includes reasoning at OpenAI but not at xAI: reasoning is added when
// total_tokens shows it was left out. Absent cache counters in a reported
// object mean none; no object at all means unknown.
func usage(raw []byte) norm.Usage {
	var u wireUsage
	if len(raw) == 0 || json.Unmarshal(raw, &u) != nil {
		return norm.Usage{}
	}
	val := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	var cached, write, reasoning *int64
	if u.PromptDetails != nil {
		cached, write = u.PromptDetails.Cached, u.PromptDetails.CacheWrite
	}
	if cached == nil {
		cached = u.CacheHit
	}
	if u.CompletionDetails != nil {
		reasoning = u.CompletionDetails.Reasoning
	}
	out := norm.Usage{CacheRead: norm.Known(val(cached)), CacheWrite: norm.Known(val(write))}
	if u.Prompt != nil {
		out.Input = norm.Known(*u.Prompt - val(cached) - val(write))
	}
	if u.Completion != nil {
		o := *u.Completion
		if r := val(reasoning); r > 0 && u.Total != nil && u.Prompt != nil && *u.Total == *u.Prompt+o+r {
			o += r
		}
		out.Output = norm.Known(o)
	}
	if reasoning != nil {
		out.Reasoning = norm.Known(*reasoning)
	}
	return out
}
