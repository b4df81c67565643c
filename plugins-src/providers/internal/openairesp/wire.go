package openairesp

import (
	"encoding/json"

	"github.com/smith-agent/smith/plugins-src/internal/jsonscan"
	"github.com/smith-agent/smith/plugins-src/providers/internal/openaichat"
)

// wireEvent is one Responses API stream event. Its raw values alias the
// event's data, valid while the event is handled; a raw value is nil when
// absent and "null" when null, as a json.RawMessage would hold it.
type wireEvent struct {
	Type         string
	ItemID       string
	SummaryIndex int
	Delta        string
	Item         []byte
	Response     *wireResponse // nil when absent or null
	// The error event: nested (recorded) or flat (documented).
	Error   *openaichat.WireError
	Code    []byte
	Message string
}

// wireResponse is the response object of the response.* events.
type wireResponse struct {
	ID, Model, Status string
	Usage             []byte
	IncompleteDetails *wireIncomplete
	Error             *openaichat.WireError
}

type wireIncomplete struct{ Reason string }

// wireItem is an output item of response.output_item.added and .done.
type wireItem struct {
	Type, ID, CallID, Name, Arguments, Phase string
	EncryptedContent                         *string
}

// read parses data into ev. Like encoding/json it reads the whole text
// and reports a syntax error anywhere in it before a field of the wrong
// type. Error objects, rare, are read by encoding/json.
func (ev *wireEvent) read(s *jsonscan.Decoder, data []byte) error {
	*ev = wireEvent{}
	var typ, itemID, delta, message jsonscan.String
	var summary int64
	var errRaw, respErrRaw []byte
	var r wireResponse
	var ri wireIncomplete
	var id, model, status, reason jsonscan.String
	s.Reset(data)
	s.Object(func(key []byte) {
		switch string(key) {
		case "type":
			typ = s.Str()
		case "item_id":
			itemID = s.Str()
		case "summary_index":
			summary, _ = s.Int()
		case "delta":
			delta = s.Str()
		case "item":
			ev.Item = s.Raw()
		case "code":
			ev.Code = s.Raw()
		case "message":
			message = s.Str()
		case "error":
			errRaw = s.Raw()
		case "response":
			ev.Response = nil
			if s.Peek() == jsonscan.Object {
				ev.Response = &r
			}
			s.Object(func(key []byte) {
				switch string(key) {
				case "id":
					id = s.Str()
				case "model":
					model = s.Str()
				case "status":
					status = s.Str()
				case "usage":
					r.Usage = s.Raw()
				case "incomplete_details":
					r.IncompleteDetails = nil
					if s.Peek() == jsonscan.Object {
						r.IncompleteDetails = &ri
					}
					s.Object(func(key []byte) {
						if string(key) == "reason" {
							reason = s.Str()
						}
					})
				case "error":
					respErrRaw = s.Raw()
				}
			})
		}
	})
	if err := s.Finish(); err != nil {
		return err
	}
	ev.Type, ev.ItemID, ev.SummaryIndex, ev.Delta, ev.Message = typ.String(), itemID.String(), int(summary), delta.String(), message.String()
	r.ID, r.Model, r.Status, ri.Reason = id.String(), model.String(), status.String(), reason.String()
	var err error
	if ev.Error, err = wireError(errRaw); err != nil {
		return err
	}
	r.Error, err = wireError(respErrRaw)
	return err
}

// wireError reads an error object; nil for an absent or null one.
func wireError(raw []byte) (*openaichat.WireError, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	w := new(openaichat.WireError)
	return w, json.Unmarshal(raw, w)
}

// read parses an item object (null reads as the zero item).
func (it *wireItem) read(s *jsonscan.Decoder, raw []byte) error {
	var typ, id, callID, name, args, phase, enc jsonscan.String
	s.Reset(raw)
	s.Object(func(key []byte) {
		switch string(key) {
		case "type":
			typ = s.Str()
		case "id":
			id = s.Str()
		case "call_id":
			callID = s.Str()
		case "name":
			name = s.Str()
		case "arguments":
			args = s.Str()
		case "phase":
			phase = s.Str()
		case "encrypted_content":
			enc = s.Str()
		}
	})
	if err := s.Finish(); err != nil {
		return err
	}
	*it = wireItem{Type: typ.String(), ID: id.String(), CallID: callID.String(), Name: name.String(), Arguments: args.String(),
		Phase: phase.String()}
	if enc != nil {
		e := enc.String()
		it.EncryptedContent = &e
	}
	return nil
}
