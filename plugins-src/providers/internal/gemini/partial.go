package gemini

import (
	"strings"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// partialArg is one piece of a Vertex AI streamed function-call argument:
// the value at JSONPath, or (for a string with willContinue) the next
// fragment of it.
type partialArg struct {
	JSONPath     string
	StringValue  *string
	NumberValue  []byte // raw, aliasing the chunk
	BoolValue    *bool
	NullValue    []byte // raw, aliasing the chunk
	WillContinue bool
}

// streamCall turns streamed partial arguments into JSON text fragments,
// emitted one partial behind so the last fragment can carry the closing
// brackets (the call's end is only known when the empty functionCall
// arrives). Paths of object keys ($.a.b) are supported; any other path is
// written verbatim, which makes the arguments invalid JSON so the call is
// never executed.
type streamCall struct {
	index   int
	sig     []byte
	opened  bool
	stack   []string // open nested object keys below the root
	counts  []int    // members written per open object, root first
	strPath string   // path of the string value left open, "" for none
	pending *string
}

func (s *streamCall) add(d *Decoder, parts []partialArg) {
	for _, p := range parts {
		text := s.text(p)
		if s.pending != nil {
			d.em.Emit(norm.ToolCallDelta{Index: s.index, Arguments: *s.pending})
		}
		s.pending = &text
	}
}

func (s *streamCall) flush(d *Decoder, final bool) {
	var b strings.Builder
	if s.pending != nil {
		b.WriteString(*s.pending)
		s.pending = nil
	}
	if final {
		if !s.opened {
			b.WriteString("{")
		}
		if s.strPath != "" {
			b.WriteString(`"`)
		}
		for range s.stack {
			b.WriteString("}")
		}
		b.WriteString("}")
	}
	d.em.Emit(norm.ToolCallDelta{Index: s.index, Arguments: b.String()})
}

func (s *streamCall) text(p partialArg) string {
	var b strings.Builder
	if !s.opened {
		s.opened = true
		s.counts = []int{0}
		b.WriteString("{")
	}
	keys, ok := objectPath(p.JSONPath)
	if !ok {
		b.WriteString(p.JSONPath) // unsupported path: poison the arguments
		return b.String()
	}
	if s.strPath != "" {
		if s.strPath == p.JSONPath && p.StringValue != nil {
			b.WriteString(escape(*p.StringValue))
			if !p.WillContinue {
				b.WriteString(`"`)
				s.strPath = ""
			}
			return b.String()
		}
		b.WriteString(`"`)
		s.strPath = ""
	}
	parents := keys[:len(keys)-1]
	common := 0
	for common < len(s.stack) && common < len(parents) && s.stack[common] == parents[common] {
		common++
	}
	for len(s.stack) > common {
		b.WriteString("}")
		s.stack = s.stack[:len(s.stack)-1]
		s.counts = s.counts[:len(s.counts)-1]
	}
	member := func(k string) {
		if s.counts[len(s.counts)-1] > 0 {
			b.WriteString(",")
		}
		s.counts[len(s.counts)-1]++
		b.Write(jsonscan.AppendQuote(nil, k))
		b.WriteString(":")
	}
	for _, k := range parents[common:] {
		member(k)
		b.WriteString("{")
		s.stack = append(s.stack, k)
		s.counts = append(s.counts, 0)
	}
	member(keys[len(keys)-1])
	switch {
	case p.StringValue != nil:
		b.WriteString(`"` + escape(*p.StringValue))
		if p.WillContinue {
			s.strPath = p.JSONPath
		} else {
			b.WriteString(`"`)
		}
	case len(p.NumberValue) > 0:
		b.Write(p.NumberValue)
	case p.BoolValue != nil:
		if *p.BoolValue {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		b.WriteString("null")
	}
	return b.String()
}

// objectPath splits "$.a.b" into ["a", "b"]; array indexes and quoted keys
// are not supported.
func objectPath(p string) ([]string, bool) {
	if !strings.HasPrefix(p, "$.") || strings.ContainsAny(p, "[]'\"") {
		return nil, false
	}
	keys := strings.Split(p[2:], ".")
	for _, k := range keys {
		if k == "" {
			return nil, false
		}
	}
	return keys, true
}

// escape returns s as the inside of a JSON string, escaped as
// json.Marshal escapes it.
func escape(s string) string {
	b := jsonscan.AppendQuote(nil, s)
	return string(b[1 : len(b)-1])
}
