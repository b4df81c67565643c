package openaichat

import "github.com/smith-agent/smith/plugins-src/internal/jsonscan"

// chunk is one Chat Completions stream chunk as read from the wire. Its
// strings and raw values alias the event's data, valid while the event is
// handled; its slices are reused from chunk to chunk. A raw value is nil
// when absent and "null" when null, as a json.RawMessage would hold it.
type chunk struct {
	id, model jsonscan.String
	choices   []choice
	usage     []byte
	groqUsage []byte // x_groq.usage
	err       []byte
}

type choice struct {
	delta        delta
	finishReason jsonscan.String
	usage        []byte
}

type delta struct {
	content          []byte // a string, null, or (Mistral Magistral) an array of typed parts
	reasoningContent jsonscan.String
	reasoning        jsonscan.String
	reasoningText    jsonscan.String
	reasoningDetails []reasoningDetail
	toolCalls        []toolCall
	refusal          jsonscan.String
}

type reasoningDetail struct {
	typ, text, summary, signature, data, format jsonscan.String
}

type toolCall struct {
	index          int64
	hasIndex       bool
	id, name, args jsonscan.String
}

// read parses data into c, reusing c's slices. Like encoding/json it
// reads the whole text and reports a syntax error anywhere in it before a
// field of the wrong type.
func (c *chunk) read(s *jsonscan.Decoder, data []byte) error {
	*c = chunk{choices: c.choices[:0]}
	s.Reset(data)
	s.Object(func(key []byte) {
		switch string(key) {
		case "id":
			c.id = s.Str()
		case "model":
			c.model = s.Str()
		case "choices":
			c.choices = c.choices[:0]
			s.Array(func() {
				c.choices = grow(c.choices)
				c.choices[len(c.choices)-1].read(s)
			})
		case "usage":
			c.usage = s.Raw()
		case "x_groq":
			s.Object(func(key []byte) {
				if string(key) == "usage" {
					c.groqUsage = s.Raw()
				}
			})
		case "error":
			c.err = s.Raw()
		}
	})
	return s.Finish()
}

func (ch *choice) read(s *jsonscan.Decoder) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "delta":
			ch.delta.read(s)
		case "finish_reason":
			ch.finishReason = s.Str()
		case "usage":
			ch.usage = s.Raw()
		}
	})
}

func (d *delta) read(s *jsonscan.Decoder) {
	s.Object(func(key []byte) {
		switch string(key) {
		case "content":
			d.content = s.Raw()
		case "reasoning_content":
			d.reasoningContent = s.Str()
		case "reasoning":
			d.reasoning = s.Str()
		case "reasoning_text":
			d.reasoningText = s.Str()
		case "reasoning_details":
			d.reasoningDetails = d.reasoningDetails[:0]
			s.Array(func() {
				d.reasoningDetails = grow(d.reasoningDetails)
				rd := &d.reasoningDetails[len(d.reasoningDetails)-1]
				s.Object(func(key []byte) {
					switch string(key) {
					case "type":
						rd.typ = s.Str()
					case "text":
						rd.text = s.Str()
					case "summary":
						rd.summary = s.Str()
					case "signature":
						rd.signature = s.Str()
					case "data":
						rd.data = s.Str()
					case "format":
						rd.format = s.Str()
					}
				})
			})
		case "tool_calls":
			d.toolCalls = d.toolCalls[:0]
			s.Array(func() {
				d.toolCalls = grow(d.toolCalls)
				tc := &d.toolCalls[len(d.toolCalls)-1]
				s.Object(func(key []byte) {
					switch string(key) {
					case "index":
						tc.index, tc.hasIndex = s.Int()
					case "id":
						tc.id = s.Str()
					case "function":
						s.Object(func(key []byte) {
							switch string(key) {
							case "name":
								tc.name = s.Str()
							case "arguments":
								tc.args = s.Str()
							}
						})
					}
				})
			})
		case "refusal":
			d.refusal = s.Str()
		}
	})
}

// grow appends a zero element, reusing capacity left from an earlier
// chunk.
func grow[T any](s []T) []T {
	var zero T
	return append(s, zero)
}
