package anthropic

import (
	"encoding/json"
	"sort"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
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
	scratch                              []usageField // the fields of the object being merged
}

// usageField is one member of a usage object: its key and raw value.
type usageField struct {
	key string
	raw []byte
}

// count is a token count a usage object reported, if it did.
type count struct {
	n  int64
	ok bool
}

// merge takes the fields of raw (nil, null or an object), read with sc.
// An object that is not valid JSON, or has a count that is not an integer
// (or a details member that is not an object), is ignored whole.
func (s *usageState) merge(sc *jsonscan.Decoder, raw []byte) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var input, output, cacheRead, cacheWrite, thinking count
	var sub jsonscan.Decoder
	var subErr error
	fields := s.scratch[:0]
	sc.Reset(raw)
	sc.Object(func(key []byte) {
		v := sc.Raw()
		if v == nil {
			return // a syntax error, which Finish reports
		}
		k := string(key)
		fields = append(fields, usageField{k, v})
		var dst *count
		switch k {
		case "input_tokens":
			dst = &input
		case "output_tokens":
			dst = &output
		case "cache_read_input_tokens":
			dst = &cacheRead
		case "cache_creation_input_tokens":
			dst = &cacheWrite
		case "output_tokens_details":
			sub.Reset(v)
			if sub.Peek() == jsonscan.Null {
				thinking = count{} // encoding/json set the details pointer to nil
			}
			sub.Object(func(key []byte) {
				if string(key) == "thinking_tokens" {
					n, ok := sub.Int()
					thinking = count{n, ok}
				}
			})
			if err := sub.Finish(); err != nil && subErr == nil {
				subErr = err
			}
			return
		default:
			return
		}
		sub.Reset(v)
		n, ok := sub.Int()
		*dst = count{n, ok}
		if err := sub.Finish(); err != nil && subErr == nil {
			subErr = err
		}
	})
	s.scratch = fields
	if sc.Finish() != nil || subErr != nil {
		return
	}
	s.seen = true
	if s.fields == nil {
		s.fields = make(map[string]json.RawMessage, len(fields))
	}
	for i, f := range fields {
		if string(f.raw) != "null" && !repeated(fields[i+1:], f.key) { // a repeated key's last value counts
			s.fields[f.key] = append(json.RawMessage(nil), f.raw...)
		}
	}
	set := func(dst **int64, c count) {
		if c.ok {
			v := c.n
			*dst = &v
		}
	}
	set(&s.input, input)
	set(&s.output, output)
	set(&s.cacheRead, cacheRead)
	set(&s.cacheWrite, cacheWrite)
	set(&s.thinking, thinking)
}

// repeated reports whether key is among fields.
func repeated(fields []usageField, key string) bool {
	for _, f := range fields {
		if f.key == key {
			return true
		}
	}
	return false
}

// raw returns the merged usage object (message_start's fields overridden by
// message_delta's non-null ones), or nil when none was reported.
func (s *usageState) raw() []byte {
	if s.fields == nil {
		return nil
	}
	// As json.Marshal writes the map: keys sorted, values compacted.
	keys := make([]string, 0, len(s.fields))
	for k := range s.fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(jsonscan.AppendQuote(b, k), ':')
		b = jsonscan.AppendCompact(b, s.fields[k])
	}
	return append(b, '}')
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
