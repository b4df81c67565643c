package anthropic

import (
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
)

// event is one Messages API stream event as read from the wire. Its
// strings and raw values alias the event's data, valid while the event is
// handled. A raw value is nil when absent and "null" when null, as a
// json.RawMessage would hold it.
type event struct {
	typ        jsonscan.String
	hasMessage bool // "message" is an object
	message    struct {
		id, model jsonscan.String
		usage     []byte
	}
	index        int64
	contentBlock []byte
	hasDelta     bool // "delta" is an object
	delta        deltaFields
	usage        []byte
	err          *wireError
}

// deltaFields are the fields of an event's "delta" object.
type deltaFields struct {
	typ, text, thinking, signature, partialJSON, stopReason jsonscan.String
}

// read parses data into e. Like encoding/json it reads the whole text and
// reports a syntax error anywhere in it before a field of the wrong type.
func (e *event) read(s *jsonscan.Decoder, data []byte) error {
	*e = event{}
	var errRaw []byte
	s.Reset(data)
	s.Object(func(key []byte) {
		switch string(key) {
		case "type":
			e.typ = s.Str()
		case "message":
			e.hasMessage = s.Peek() == jsonscan.Object
			s.Object(func(key []byte) {
				switch string(key) {
				case "id":
					e.message.id = s.Str()
				case "model":
					e.message.model = s.Str()
				case "usage":
					e.message.usage = s.Raw()
				}
			})
		case "index":
			e.index, _ = s.Int()
		case "content_block":
			e.contentBlock = s.Raw()
		case "delta":
			e.hasDelta = s.Peek() == jsonscan.Object
			s.Object(func(key []byte) {
				switch string(key) {
				case "type":
					e.delta.typ = s.Str()
				case "text":
					e.delta.text = s.Str()
				case "thinking":
					e.delta.thinking = s.Str()
				case "signature":
					e.delta.signature = s.Str()
				case "partial_json":
					e.delta.partialJSON = s.Str()
				case "stop_reason":
					e.delta.stopReason = s.Str()
				}
			})
		case "usage":
			e.usage = s.Raw()
		case "error":
			errRaw = s.Raw()
		}
	})
	if err := s.Finish(); err != nil {
		return err
	}
	// An error object is rare and has its own shape: encoding/json reads it.
	if len(errRaw) > 0 && string(errRaw) != "null" {
		e.err = new(wireError)
		return json.Unmarshal(errRaw, e.err)
	}
	return nil
}

// wireBlock is the content_block of a content_block_start event.
type wireBlock struct {
	Type, ID, Name, Text, Thinking, Signature, Data string
}

// read parses raw into b; null reads as the zero block, and absent (nil)
// is an error, as encoding/json has it.
func (b *wireBlock) read(s *jsonscan.Decoder, raw []byte) error {
	var typ, id, name, text, thinking, sig, data jsonscan.String
	s.Reset(raw)
	s.Object(func(key []byte) {
		switch string(key) {
		case "type":
			typ = s.Str()
		case "id":
			id = s.Str()
		case "name":
			name = s.Str()
		case "text":
			text = s.Str()
		case "thinking":
			thinking = s.Str()
		case "signature":
			sig = s.Str()
		case "data":
			data = s.Str()
		}
	})
	if err := s.Finish(); err != nil {
		return err
	}
	*b = wireBlock{Type: typ.String(), ID: id.String(), Name: name.String(), Text: text.String(), Thinking: thinking.String(),
		Signature: sig.String(), Data: data.String()}
	return nil
}
