package model

import (
	"context"
	"encoding/json"
)

// ToolDefinition advertises a tool to the model. Parameters is a JSON Schema
// (an object schema) for the tool's arguments.
type ToolDefinition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is the immutable snapshot of one provider request. Its slices are
// owned by the caller and must not be modified or appended to by a provider.
type Request struct {
	// Model is the provider's model id.
	Model string
	// System is the system prompt; empty means none.
	System string
	// Messages is the conversation so far, oldest first.
	Messages []Message
	// Tools are the tools the model may call; nil means none.
	Tools []ToolDefinition
	// MaxOutputTokens bounds the response; 0 means the model's default.
	MaxOutputTokens int
}

// Provider turns a request into a stream of normalized events.
//
// Stream must not block on the network: it returns at once and the work
// happens as the caller pulls events. Failures — including an invalid
// request, missing credentials, a transport error or a cancelled ctx — are
// reported as a terminal [StreamError] event of the stream, never by a second
// error channel. A Provider must be safe for concurrent use.
type Provider interface {
	Stream(ctx context.Context, req *Request) Stream
}

// Stream is a pull-style provider response.
//
// Next returns the next event and true, or (nil, false) once the stream is
// over. A stream that is over without having returned a terminal event has
// been cut off; consumers treat that as a [ErrTruncated] failure. When the
// context given to [Provider.Stream] is cancelled, Next must return promptly
// (typically a [StreamError] of kind [ErrAborted]). Close releases the
// stream's resources; it may be called at any time, more than once, and from
// another goroutine than Next's. A Stream is used by one goroutine at a time
// except for Close.
type Stream interface {
	Next() (StreamEvent, bool)
	Close() error
}
