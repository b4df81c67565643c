package openairesp

import (
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// usage normalizes the terminal response's usage: input_tokens includes
// cached tokens; output_tokens includes reasoning; the API has no cache
// write count (caching is automatic and free to write), so it is a known 0.
func usage(raw []byte) norm.Usage {
	var u struct {
		Input        *int64 `json:"input_tokens"`
		Output       *int64 `json:"output_tokens"`
		InputDetails *struct {
			Cached *int64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputDetails *struct {
			Reasoning *int64 `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &u) != nil {
		return norm.Usage{}
	}
	var cached int64
	if u.InputDetails != nil && u.InputDetails.Cached != nil {
		cached = *u.InputDetails.Cached
	}
	out := norm.Usage{CacheRead: norm.Known(cached), CacheWrite: norm.Known(0)}
	if u.Input != nil {
		out.Input = norm.Known(*u.Input - cached)
	}
	if u.Output != nil {
		out.Output = norm.Known(*u.Output)
	}
	if u.OutputDetails != nil && u.OutputDetails.Reasoning != nil {
		out.Reasoning = norm.Known(*u.OutputDetails.Reasoning)
	}
	return out
}
