package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Content is one block of a message: [Text], [Thinking], [Image] or
// [ToolCall]. The set is closed.
type Content interface {
	isContent()
}

// Text is plain text. Signature is an opaque, byte-exact token some providers
// attach to text; it is only meaningful to Producer.
type Text struct {
	Text      string `json:"text"`
	Signature []byte `json:"signature,omitempty"`
	Producer  string `json:"producer,omitempty"`
}

// Thinking is model reasoning. Signature and Encrypted are opaque payloads
// kept byte-exact for Producer, the provider that made them; Redacted marks
// reasoning whose text the provider withheld (Encrypted then carries it).
type Thinking struct {
	Text      string `json:"text"`
	Signature []byte `json:"signature,omitempty"`
	Encrypted []byte `json:"encrypted,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
	Producer  string `json:"producer,omitempty"`
}

// Image is an inline image.
type Image struct {
	MediaType string `json:"media_type"`
	Data      []byte `json:"data"`
}

// ToolCall is a request from the model to run a tool.
//
// Arguments is always valid JSON, kept byte for byte as the provider sent it
// (encoding/json compacts it on output; the session keeps it exact). When
// the streamed arguments were not valid
// JSON, ArgumentsError says why and Arguments holds the raw text as a JSON
// string; such a call is never executed.
type ToolCall struct {
	ID             string          `json:"id"`
	Name           string          `json:"name"`
	Arguments      json.RawMessage `json:"arguments"`
	ArgumentsError string          `json:"arguments_error,omitempty"`
	Signature      []byte          `json:"signature,omitempty"`
	Producer       string          `json:"producer,omitempty"`
}

func (Text) isContent()     {}
func (Thinking) isContent() {}
func (Image) isContent()    {}
func (ToolCall) isContent() {}

// MarshalJSON encodes the block with "type":"text".
func (c Text) MarshalJSON() ([]byte, error) {
	type plain Text
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"text", plain(c)})
}

// MarshalJSON encodes the block with "type":"thinking".
func (c Thinking) MarshalJSON() ([]byte, error) {
	type plain Thinking
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"thinking", plain(c)})
}

// MarshalJSON encodes the block with "type":"image".
func (c Image) MarshalJSON() ([]byte, error) {
	type plain Image
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"image", plain(c)})
}

// MarshalJSON encodes the block with "type":"tool_call".
func (c ToolCall) MarshalJSON() ([]byte, error) {
	type plain ToolCall
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"tool_call", plain(c)})
}

// UnmarshalContent decodes one content block by its "type" discriminator.
func UnmarshalContent(b []byte) (Content, error) {
	typ, err := discriminator(b, "type")
	if err != nil {
		return nil, fmt.Errorf("model: decode content block: %w", err)
	}
	switch typ {
	case "text":
		return decodeAs[Text](b, typ)
	case "thinking":
		return decodeAs[Thinking](b, typ)
	case "image":
		return decodeAs[Image](b, typ)
	case "tool_call":
		c, err := decodeAs[ToolCall](b, typ)
		if err == nil && !json.Valid(c.Arguments) {
			err = fmt.Errorf("model: decode tool_call %q: arguments are not valid JSON", c.ID)
		}
		return c, err
	}
	return nil, fmt.Errorf("model: decode content block: unknown type %q; want text, thinking, image or tool_call", typ)
}

// contentList is a []Content that decodes by discriminator.
type contentList []Content

// UnmarshalJSON decodes each block by its discriminator; null stays nil.
func (l *contentList) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return fmt.Errorf("model: decode content list: %w", err)
	}
	if raws == nil {
		*l = nil
		return nil
	}
	out := make([]Content, 0, len(raws))
	for i, r := range raws {
		c, err := UnmarshalContent(r)
		if err != nil {
			return fmt.Errorf("content[%d]: %w", i, err)
		}
		out = append(out, c)
	}
	*l = out
	return nil
}

// TextOf returns the text of the Text blocks in cs, concatenated; the
// other blocks are left out.
func TextOf(cs []Content) string {
	var b strings.Builder
	for _, c := range cs {
		if t, ok := c.(Text); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
