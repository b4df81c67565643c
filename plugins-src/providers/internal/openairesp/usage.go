package openairesp

import (
	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// count is a token count the usage object reported, if it did.
type count struct {
	n  int64
	ok bool
}

// usage normalizes the terminal response's usage: input_tokens includes
// cached tokens; output_tokens includes reasoning; the API has no cache
// write count (caching is automatic and free to write), so it is a known 0.
// A usage object that is not valid, or has a count that is not an integer,
// is unknown whole.
func usage(raw []byte) norm.Usage {
	if len(raw) == 0 {
		return norm.Usage{}
	}
	var input, output, cached, reasoning count
	var s jsonscan.Decoder
	s.Reset(raw)
	// details reads an *_details member: null clears its count (a nil
	// pointer to encoding/json), an object sets what it names.
	details := func(dst *count, name string) {
		if s.Null() {
			*dst = count{}
			return
		}
		s.Object(func(key []byte) {
			if string(key) == name {
				n, ok := s.Int()
				*dst = count{n, ok}
			}
		})
	}
	s.Object(func(key []byte) {
		switch string(key) {
		case "input_tokens":
			n, ok := s.Int()
			input = count{n, ok}
		case "output_tokens":
			n, ok := s.Int()
			output = count{n, ok}
		case "input_tokens_details":
			details(&cached, "cached_tokens")
		case "output_tokens_details":
			details(&reasoning, "reasoning_tokens")
		}
	})
	if s.Finish() != nil {
		return norm.Usage{}
	}
	out := norm.Usage{CacheRead: norm.Known(cached.n), CacheWrite: norm.Known(0)}
	if input.ok {
		out.Input = norm.Known(input.n - cached.n)
	}
	if output.ok {
		out.Output = norm.Known(output.n)
	}
	if reasoning.ok {
		out.Reasoning = norm.Known(reasoning.n)
	}
	return out
}
