package gemini

import (
	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// usageState keeps the latest value of each usageMetadata field: every
// chunk's object is a cumulative snapshot (even promptTokenCount can change
// in the last one), and early Vertex chunks carry no counts at all.
type usageState struct {
	prompt, candidates, thoughts, cached, toolUse count
	raw                                           []byte
}

// count is a token count a usageMetadata object reported, if it did.
type count struct {
	n  int64
	ok bool
}

// merge takes the counts of raw (nil, null or an object), read with s;
// an object that is not valid, or has a count that is not an integer, is
// ignored whole.
func (u *usageState) merge(s *jsonscan.Decoder, raw []byte) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var prompt, candidates, thoughts, cached, toolUse count
	s.Reset(raw)
	s.Object(func(key []byte) {
		var c *count
		switch string(key) {
		case "promptTokenCount":
			c = &prompt
		case "candidatesTokenCount":
			c = &candidates
		case "thoughtsTokenCount":
			c = &thoughts
		case "cachedContentTokenCount":
			c = &cached
		case "toolUsePromptTokenCount":
			c = &toolUse
		default:
			return
		}
		n, ok := s.Int() // null is no count, as encoding/json left a nil *int64
		*c = count{n, ok}
	})
	if s.Finish() != nil {
		return
	}
	u.raw = append(u.raw[:0], raw...)
	for _, f := range [...]struct{ dst, v *count }{{&u.prompt, &prompt}, {&u.candidates, &candidates},
		{&u.thoughts, &thoughts}, {&u.cached, &cached}, {&u.toolUse, &toolUse}} {
		if f.v.ok {
			*f.dst = *f.v
		}
	}
}

// result normalizes: promptTokenCount includes cached tokens;
// candidatesTokenCount excludes thoughts, so Output adds them; tool-use
// prompt tokens are input. Gemini reports no cache writes (a known 0).
func (u *usageState) result() norm.Usage {
	if !u.prompt.ok && !u.candidates.ok {
		return norm.Usage{}
	}
	out := norm.Usage{CacheRead: norm.Known(u.cached.n), CacheWrite: norm.Known(0)}
	if u.prompt.ok {
		out.Input = norm.Known(u.prompt.n - u.cached.n + u.toolUse.n)
	}
	if u.candidates.ok || u.thoughts.ok {
		out.Output = norm.Known(u.candidates.n + u.thoughts.n)
	}
	if u.thoughts.ok {
		out.Reasoning = norm.Known(u.thoughts.n)
	}
	return out
}
