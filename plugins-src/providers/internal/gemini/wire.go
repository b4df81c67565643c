package gemini

import "github.com/smith-agent/smith/plugins-src/internal/jsonscan"

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

// part is a content part: text, thought, signature, or a function call.
type part struct {
	text      jsonscan.String // nil when absent or null
	thought   bool
	signature jsonscan.String
	call      bool // functionCall is an object
	fc        wireCall
	kind      []byte // the name of the first member other than thoughtSignature
	hasKind   bool
}

// wireCall is a part's functionCall; its slices are reused.
type wireCall struct {
	ID, Name     string
	Args         []byte // raw
	WillContinue bool
	PartialArgs  []partialArg
}

// read parses raw into p. A part that is not an object, or has a field of
// the wrong type, is an error.
func (p *part) read(s *jsonscan.Decoder, raw []byte) error {
	*p = part{fc: wireCall{PartialArgs: p.fc.PartialArgs[:0]}, kind: p.kind[:0]}
	s.Reset(raw)
	s.Object(func(key []byte) {
		if !p.hasKind && string(key) != "thoughtSignature" {
			p.kind, p.hasKind = append(p.kind[:0], key...), true
		}
		switch string(key) {
		case "text":
			p.text = s.Str()
		case "thought":
			p.thought = s.Bool()
		case "thoughtSignature":
			p.signature = s.Str()
		case "functionCall":
			p.call = s.Peek() == jsonscan.Object
			p.fc.read(s)
		}
	})
	return s.Finish()
}

func (fc *wireCall) read(s *jsonscan.Decoder) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "id":
			fc.ID = s.Str().String()
		case "name":
			fc.Name = s.Str().String()
		case "args":
			fc.Args = s.Raw()
		case "willContinue":
			fc.WillContinue = s.Bool()
		case "partialArgs":
			fc.PartialArgs = fc.PartialArgs[:0]
			s.Array(func() {
				fc.PartialArgs = append(fc.PartialArgs, partialArg{})
				fc.PartialArgs[len(fc.PartialArgs)-1].read(s)
			})
		}
	})
}

func (a *partialArg) read(s *jsonscan.Decoder) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "jsonPath":
			a.JSONPath = s.Str().String()
		case "stringValue":
			a.StringValue = nil
			if v := s.Str(); v != nil {
				str := v.String()
				a.StringValue = &str
			}
		case "numberValue":
			a.NumberValue = s.Raw()
		case "boolValue":
			a.BoolValue = nil
			if !s.Null() {
				b := s.Bool()
				a.BoolValue = &b
			}
		case "nullValue":
			a.NullValue = s.Raw()
		case "willContinue":
			a.WillContinue = s.Bool()
		}
	})
}
