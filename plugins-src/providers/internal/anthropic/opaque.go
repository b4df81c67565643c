package anthropic

import (
	"bytes"
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
)

// withInput returns a server-side block (content_block_start's
// content_block) with the input its input_json_delta events streamed, so
// the block can be sent back whole. The block's bytes are kept exactly:
// only the value of its top-level "input" member (the start event's
// placeholder {}) is replaced, or, when the block has none, an "input"
// member is appended. Input that is empty or not JSON, or a block that is
// not an object (null), leaves the block as it started.
func withInput(s *jsonscan.Decoder, raw, input []byte) json.RawMessage {
	if len(bytes.TrimSpace(input)) == 0 || !json.Valid(input) {
		return raw
	}
	start, end := -1, -1
	s.Reset(raw)
	s.Object(func(key []byte) {
		if string(key) == "input" {
			v := s.Raw()
			start = cap(raw) - cap(v) // v aliases raw
			end = start + len(v)
		}
	})
	if s.Finish() != nil {
		return raw
	}
	out := make([]byte, 0, len(raw)+len(input)+len(`,"input":`))
	if start < 0 {
		opening, closing := bytes.IndexByte(raw, '{'), bytes.LastIndexByte(raw, '}')
		if opening < 0 || closing < opening {
			return raw // not an object (a null content_block): nothing to put the input in
		}
		out = append(out, raw[:closing]...)
		if len(bytes.TrimSpace(raw[opening+1:closing])) > 0 {
			out = append(out, ',')
		}
		out = append(out, `"input":`...)
		out = append(out, input...)
		return append(out, raw[closing:]...)
	}
	out = append(out, raw[:start]...)
	out = append(out, input...)
	return append(out, raw[end:]...)
}
