package anthropic

import (
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// usageState merges message_start usage with message_delta usage: every
// non-null field of a later object overrides (the values are cumulative
// totals for the turn, not increments).
type usageState struct {
	seen                                 bool
	fields                               map[string]json.RawMessage // merged raw object
	input, output, cacheRead, cacheWrite *int64
	thinking                             *int64
}

type wireUsage struct {
	Input      *int64 `json:"input_tokens"`
	Output     *int64 `json:"output_tokens"`
	CacheRead  *int64 `json:"cache_read_input_tokens"`
	CacheWrite *int64 `json:"cache_creation_input_tokens"`
	Details    *struct {
		Thinking *int64 `json:"thinking_tokens"`
	} `json:"output_tokens_details"`
}

func (s *usageState) merge(raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var u wireUsage
	if json.Unmarshal(raw, &u) != nil {
		return
	}
	s.seen = true
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		if s.fields == nil {
			s.fields = make(map[string]json.RawMessage, len(m))
		}
		for k, v := range m {
			if string(v) != "null" {
				s.fields[k] = v
			}
		}
	}
	set := func(dst **int64, v *int64) {
		if v != nil {
			*dst = v
		}
	}
	set(&s.input, u.Input)
	set(&s.output, u.Output)
	set(&s.cacheRead, u.CacheRead)
	set(&s.cacheWrite, u.CacheWrite)
	if u.Details != nil {
		set(&s.thinking, u.Details.Thinking)
	}
}

// raw returns the merged usage object (message_start's fields overridden by
// message_delta's non-null ones), or nil when none was reported.
func (s *usageState) raw() []byte {
	if s.fields == nil {
		return nil
	}
	b, _ := json.Marshal(s.fields)
	return b
}

// result converts to norm.Usage. Within a reported usage object an absent
// cache counter means no cache use (older responses and proxies omit
// them); with no usage object at all everything stays unknown.
func (s *usageState) result() norm.Usage {
	if !s.seen {
		return norm.Usage{}
	}
	return norm.Usage{
		Input:      amount(s.input, false),
		Output:     amount(s.output, false),
		CacheRead:  amount(s.cacheRead, true),
		CacheWrite: amount(s.cacheWrite, true),
		Reasoning:  amount(s.thinking, false),
	}
}

func amount(v *int64, zeroIfAbsent bool) norm.Amount {
	switch {
	case v != nil:
		return norm.Known(*v)
	case zeroIfAbsent:
		return norm.Known(0)
	}
	return norm.Amount{}
}
