package gemini

import (
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// usageState keeps the latest value of each usageMetadata field: every
// chunk's object is a cumulative snapshot (even promptTokenCount can change
// in the last one), and early Vertex chunks carry no counts at all.
type usageState struct {
	prompt, candidates, thoughts, cached, toolUse *int64
	raw                                           []byte
}

func (s *usageState) merge(raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var u struct {
		Prompt     *int64 `json:"promptTokenCount"`
		Candidates *int64 `json:"candidatesTokenCount"`
		Thoughts   *int64 `json:"thoughtsTokenCount"`
		Cached     *int64 `json:"cachedContentTokenCount"`
		ToolUse    *int64 `json:"toolUsePromptTokenCount"`
	}
	if json.Unmarshal(raw, &u) != nil {
		return
	}
	s.raw = append(s.raw[:0], raw...)
	for _, f := range []struct{ dst, v **int64 }{{&s.prompt, &u.Prompt}, {&s.candidates, &u.Candidates},
		{&s.thoughts, &u.Thoughts}, {&s.cached, &u.Cached}, {&s.toolUse, &u.ToolUse}} {
		if *f.v != nil {
			*f.dst = *f.v
		}
	}
}

// result normalizes: promptTokenCount includes cached tokens;
// candidatesTokenCount excludes thoughts, so Output adds them; tool-use
// prompt tokens are input. Gemini reports no cache writes (a known 0).
func (s *usageState) result() norm.Usage {
	if s.prompt == nil && s.candidates == nil {
		return norm.Usage{}
	}
	v := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	out := norm.Usage{CacheRead: norm.Known(v(s.cached)), CacheWrite: norm.Known(0)}
	if s.prompt != nil {
		out.Input = norm.Known(*s.prompt - v(s.cached) + v(s.toolUse))
	}
	if s.candidates != nil || s.thoughts != nil {
		out.Output = norm.Known(v(s.candidates) + v(s.thoughts))
	}
	if s.thoughts != nil {
		out.Reasoning = norm.Known(*s.thoughts)
	}
	return out
}
