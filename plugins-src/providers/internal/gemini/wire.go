package gemini

import "github.com/smith-agent/smith/plugins-src/providers/internal/jsonscan"

// chunk is one streamGenerateContent chunk as read from the wire. Its
// strings and raw values alias the event's data, valid while the event is
// handled; its slices are reused from chunk to chunk. A raw value is nil
// when absent and "null" when null, as a json.RawMessage would hold it.
type chunk struct {
	candidates   []candidate
	hasFeedback  bool // promptFeedback is an object
	blockReason  jsonscan.String
	usage        []byte
	modelVersion jsonscan.String
	responseID   jsonscan.String
	err          []byte
}

type candidate struct {
	hasContent   bool     // content is an object
	parts        [][]byte // raw
	finishReason jsonscan.String
}

// read parses data into c, reusing c's slices. Like encoding/json it
// reads the whole text and reports a syntax error anywhere in it before a
// field of the wrong type.
func (c *chunk) read(s *jsonscan.Decoder, data []byte) error {
	*c = chunk{candidates: c.candidates[:0]}
	s.Reset(data)
	s.Object(func(key []byte) {
		switch string(key) {
		case "candidates":
			c.candidates = c.candidates[:0]
			s.Array(func() {
				c.candidates = append(c.candidates, candidate{})
				cand := &c.candidates[len(c.candidates)-1]
				s.Object(func(key []byte) {
					switch string(key) {
					case "content":
						cand.hasContent = s.Peek() == jsonscan.Object
						s.Object(func(key []byte) {
							if string(key) == "parts" {
								cand.parts = cand.parts[:0]
								s.Array(func() { cand.parts = append(cand.parts, s.Raw()) })
							}
						})
					case "finishReason":
						cand.finishReason = s.Str()
					}
				})
			})
		case "promptFeedback":
			c.hasFeedback = s.Peek() == jsonscan.Object
			s.Object(func(key []byte) {
				if string(key) == "blockReason" {
					c.blockReason = s.Str()
				}
			})
		case "usageMetadata":
			c.usage = s.Raw()
		case "modelVersion":
			c.modelVersion = s.Str()
		case "responseId":
			c.responseID = s.Str()
		case "error":
			c.err = s.Raw()
		}
	})
	return s.Finish()
}

// part is the shape of a content part the decoder reads by hand: text,
// thought and signature. A part with a functionCall is read by
// encoding/json into a wirePart.
type part struct {
	text      jsonscan.String // nil when absent or null
	thought   bool
	signature jsonscan.String
	call      bool // functionCall is present and not null
}

func (p *part) read(s *jsonscan.Decoder, raw []byte) error {
	*p = part{}
	s.Reset(raw)
	s.Object(func(key []byte) {
		switch string(key) {
		case "text":
			p.text = s.Str()
		case "thought":
			p.thought = s.Bool()
		case "thoughtSignature":
			p.signature = s.Str()
		case "functionCall":
			p.call = !s.Null()
		}
	})
	return s.Finish()
}
