package norm

import "encoding/json"

// Content is one block of a message: [Text], [Thinking], [Image],
// [ToolCall] or [Other]. The set is closed.
type Content interface {
	isContent()
}

// Text is plain text. Signature is an opaque token some vendors attach to
// text (Gemini); it is meaningful only to Producer.
type Text struct {
	Text      string
	Signature []byte
	Producer  string
	ItemID    string
	Phase     string
}

// Thinking is model reasoning. Signature and Encrypted are opaque payloads
// kept byte-exact for Producer; Redacted marks reasoning whose text the
// vendor withheld (Encrypted then carries it). Format and ItemID are vendor
// metadata needed to send the block back.
type Thinking struct {
	Text      string
	Signature []byte
	Encrypted []byte
	Redacted  bool
	Format    string
	ItemID    string
	Producer  string
}

// Image is an inline image.
type Image struct {
	MediaType string
	Data      []byte
}

// ToolCall is a request from the model to run a tool. Arguments is valid
// JSON as the vendor sent it; when it was not, ArgumentsError says why,
// Arguments holds the raw text as a JSON string, and the call must never be
// executed.
type ToolCall struct {
	ID             string
	Name           string
	Arguments      json.RawMessage
	ArgumentsError string
	Signature      []byte
	ItemID         string
	Producer       string
}

// Other is a vendor block the client does not act on, kept verbatim (Raw)
// to be sent back to the same producer.
type Other struct {
	Type     string
	Raw      json.RawMessage
	Producer string
}

func (Text) isContent()     {}
func (Thinking) isContent() {}
func (Image) isContent()    {}
func (ToolCall) isContent() {}
func (Other) isContent()    {}

// Message is one conversation message: [UserMessage], [AssistantMessage] or
// [ToolResultMessage]. The set is closed.
type Message interface {
	isMessage()
}

// UserMessage is input from the person.
type UserMessage struct {
	Content []Content
}

// AssistantMessage is one provider response, assembled from its events.
// Exactly one of Stop and Error is set once the stream is over.
type AssistantMessage struct {
	Content    []Content
	Provider   string
	Model      string
	ResponseID string
	Stop       StopReason
	StopRaw    string
	Usage      Usage
	Error      *Error
}

// ToolResultMessage answers the [ToolCall] with ID CallID.
type ToolResultMessage struct {
	CallID  string
	Name    string
	Content []Content
	IsError bool
}

func (UserMessage) isMessage()       {}
func (AssistantMessage) isMessage()  {}
func (ToolResultMessage) isMessage() {}

// UserText returns a user message with one text block.
func UserText(s string) UserMessage { return UserMessage{Content: []Content{Text{Text: s}}} }

// ToolCalls returns the message's tool calls in order.
func (m AssistantMessage) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, c := range m.Content {
		if tc, ok := c.(ToolCall); ok {
			calls = append(calls, tc)
		}
	}
	return calls
}
