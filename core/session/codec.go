package session

import (
	"fmt"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/sessionfmt"
)

// encodeMessage encodes m as canonical CBOR: the structure of its JSON
// form (see messageValue).
func encodeMessage(m model.Message) ([]byte, error) {
	v := messageValue(m)
	if v == nil {
		return nil, fmt.Errorf("session: encode message: %T is not a message type", m)
	}
	b, err := sessionfmt.EncodeContent(v)
	if err != nil {
		return nil, fmt.Errorf("session: encode %s message: %w", m.Role(), err)
	}
	return b, nil
}

// decodeMessage decodes entry content written by encodeMessage.
func decodeMessage(content []byte) (model.Message, error) {
	var v any
	if err := sessionfmt.DecodeContent(content, &v); err != nil {
		return nil, err
	}
	m, err := messageFrom(v)
	if err != nil {
		return nil, fmt.Errorf("session: decode message content: %w", err)
	}
	return m, nil
}
