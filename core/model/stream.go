package model

import (
	"encoding/json"
	"fmt"
	"time"
)

// StopReason says why a provider ended a successful response.
type StopReason string

// The stop reasons.
const (
	// StopEnd: the model finished its answer.
	StopEnd StopReason = "end"
	// StopToolUse: the model asks for the tool calls in the message.
	StopToolUse StopReason = "tool_use"
	// StopLength: the output limit cut the answer off.
	StopLength StopReason = "length"
	// StopRefusal: the model or the provider's filter refused to answer.
	StopRefusal StopReason = "refusal"
)

// Valid reports whether r is one of the declared stop reasons.
func (r StopReason) Valid() bool {
	switch r {
	case StopEnd, StopToolUse, StopLength, StopRefusal:
		return true
	}
	return false
}

// StreamEvent is one event of a provider response stream. A well-formed
// stream is [Start], then any number of [TextDelta], [ThinkingDelta],
// [ToolCallStart], [ToolCallDelta] and [ToolCallEnd], then exactly one
// terminal event, [Done] or [StreamError]. The set is closed.
//
// Content events carry Index, the position of their block in the assembled
// message: an event either continues the block at Index or, when Index equals
// the number of blocks so far, opens a new one.
type StreamEvent interface {
	isStreamEvent()
}

// Start opens a response. Provider tags every opaque payload of the response.
type Start struct {
	Provider   string `json:"provider,omitempty"`
	Model      string `json:"model,omitempty"`
	ResponseID string `json:"response_id,omitempty"`
}

// TextDelta appends Text (and Signature bytes) to the text block at Index.
type TextDelta struct {
	Index     int    `json:"index"`
	Text      string `json:"text"`
	Signature []byte `json:"signature,omitempty"`
}

// ThinkingDelta appends to the thinking block at Index. Redacted, once set,
// stays set for the block.
type ThinkingDelta struct {
	Index     int    `json:"index"`
	Text      string `json:"text"`
	Signature []byte `json:"signature,omitempty"`
	Encrypted []byte `json:"encrypted,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
}

// ToolCallStart opens the tool-call block at Index.
type ToolCallStart struct {
	Index int    `json:"index"`
	ID    string `json:"id"`
	Name  string `json:"name"`
}

// ToolCallDelta appends a fragment of the JSON arguments of the tool call at
// Index.
type ToolCallDelta struct {
	Index     int    `json:"index"`
	Arguments string `json:"arguments"`
}

// ToolCallEnd closes the tool call at Index; its arguments are complete.
type ToolCallEnd struct {
	Index     int    `json:"index"`
	Signature []byte `json:"signature,omitempty"`
}

// Done ends a successful response. RawStop is the vendor's own stop value
// (such as "end_turn") and RawUsage its last usage object as JSON text,
// verbatim; both are for diagnostics and vendor-specific accounting, and
// empty when the vendor sent none.
type Done struct {
	Reason   StopReason `json:"reason"`
	Usage    Usage      `json:"usage"`
	RawStop  string     `json:"raw_stop,omitempty"`
	RawUsage string     `json:"raw_usage,omitempty"`
}

// StreamError ends a failed response. Usage holds what was reported before
// the failure; RawStop and RawUsage are as in [Done].
type StreamError struct {
	Err      *Error `json:"error"`
	Usage    Usage  `json:"usage"`
	RawStop  string `json:"raw_stop,omitempty"`
	RawUsage string `json:"raw_usage,omitempty"`
}

func (Start) isStreamEvent()         {}
func (TextDelta) isStreamEvent()     {}
func (ThinkingDelta) isStreamEvent() {}
func (ToolCallStart) isStreamEvent() {}
func (ToolCallDelta) isStreamEvent() {}
func (ToolCallEnd) isStreamEvent()   {}
func (Done) isStreamEvent()          {}
func (StreamError) isStreamEvent()   {}
func (Retrying) isStreamEvent()      {}
func (FailingOver) isStreamEvent()   {}
func (Note) isStreamEvent()          {}

// Retrying is a routing notice, not provider output: the request failed on
// Target before its answer began (Err says how; Attempt counts the failed
// tries on Target from 1) and will be sent to Target again after Wait. A
// routed stream yields notices before its Start; consumers show them and
// do not add them to the message.
type Retrying struct {
	Target  string        `json:"target"`
	Attempt int           `json:"attempt"`
	Err     *Error        `json:"error"`
	Wait    time.Duration `json:"wait_ns"`
}

// FailingOver is a routing notice, not provider output: the request failed
// on From before its answer began and is sent to To next (see [Retrying]).
type FailingOver struct {
	From string `json:"from"`
	To   string `json:"to"`
	Err  *Error `json:"error"`
}

// Note is a notice, not provider output: something the host adjusted or
// noticed about the request before sending it (an image replaced because
// the model takes none, an output bound lowered to the model's limit),
// one sentence for the user; or, with Progress, that a request is still
// waiting (no response yet, or no content for a while). Like the routing
// notices it may precede Start.
type Note struct {
	Text string `json:"text"`
	// Progress marks a note that reports waiting, not an adjustment.
	Progress bool `json:"progress,omitempty"`
}

// IsNotice reports whether e is a notice ([Retrying], [FailingOver] or
// [Note]) rather than provider output.
func IsNotice(e StreamEvent) bool {
	switch e.(type) {
	case Retrying, FailingOver, Note:
		return true
	}
	return false
}

// StreamEventType returns the wire discriminator of e ("start",
// "text_delta", …, "done", "error").
func StreamEventType(e StreamEvent) string {
	switch e.(type) {
	case Start:
		return "start"
	case TextDelta:
		return "text_delta"
	case ThinkingDelta:
		return "thinking_delta"
	case ToolCallStart:
		return "toolcall_start"
	case ToolCallDelta:
		return "toolcall_delta"
	case ToolCallEnd:
		return "toolcall_end"
	case Done:
		return "done"
	case StreamError:
		return "error"
	case Retrying:
		return "retry"
	case FailingOver:
		return "failover"
	case Note:
		return "note"
	}
	panic(fmt.Sprintf("model: unknown stream event %T", e))
}

// MarshalJSON encodes the event with "type":"start".
func (e Start) MarshalJSON() ([]byte, error) {
	type plain Start
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"start", plain(e)})
}

// MarshalJSON encodes the event with "type":"text_delta".
func (e TextDelta) MarshalJSON() ([]byte, error) {
	type plain TextDelta
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"text_delta", plain(e)})
}

// MarshalJSON encodes the event with "type":"thinking_delta".
func (e ThinkingDelta) MarshalJSON() ([]byte, error) {
	type plain ThinkingDelta
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"thinking_delta", plain(e)})
}

// MarshalJSON encodes the event with "type":"toolcall_start".
func (e ToolCallStart) MarshalJSON() ([]byte, error) {
	type plain ToolCallStart
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"toolcall_start", plain(e)})
}

// MarshalJSON encodes the event with "type":"toolcall_delta".
func (e ToolCallDelta) MarshalJSON() ([]byte, error) {
	type plain ToolCallDelta
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"toolcall_delta", plain(e)})
}

// MarshalJSON encodes the event with "type":"toolcall_end".
func (e ToolCallEnd) MarshalJSON() ([]byte, error) {
	type plain ToolCallEnd
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"toolcall_end", plain(e)})
}

// MarshalJSON encodes the event with "type":"done".
func (e Done) MarshalJSON() ([]byte, error) {
	type plain Done
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"done", plain(e)})
}

// MarshalJSON encodes the event with "type":"error".
func (e StreamError) MarshalJSON() ([]byte, error) {
	type plain StreamError
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"error", plain(e)})
}

// MarshalJSON encodes the notice with "type":"retry".
func (e Retrying) MarshalJSON() ([]byte, error) {
	type plain Retrying
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"retry", plain(e)})
}

// MarshalJSON encodes the notice with "type":"failover".
func (e FailingOver) MarshalJSON() ([]byte, error) {
	type plain FailingOver
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"failover", plain(e)})
}

// MarshalJSON encodes the notice with "type":"note".
func (e Note) MarshalJSON() ([]byte, error) {
	type plain Note
	return json.Marshal(struct {
		Type string `json:"type"`
		plain
	}{"note", plain(e)})
}

// UnmarshalStreamEvent decodes one stream event by its "type" discriminator.
// A done event must carry a valid stop reason and an error event a valid
// error kind.
func UnmarshalStreamEvent(b []byte) (StreamEvent, error) {
	typ, err := discriminator(b, "type")
	if err != nil {
		return nil, fmt.Errorf("model: decode stream event: %w", err)
	}
	switch typ {
	case "start":
		return decodeAs[Start](b, typ)
	case "text_delta":
		return decodeAs[TextDelta](b, typ)
	case "thinking_delta":
		return decodeAs[ThinkingDelta](b, typ)
	case "toolcall_start":
		return decodeAs[ToolCallStart](b, typ)
	case "toolcall_delta":
		return decodeAs[ToolCallDelta](b, typ)
	case "toolcall_end":
		return decodeAs[ToolCallEnd](b, typ)
	case "done":
		e, err := decodeAs[Done](b, typ)
		if err == nil && !e.Reason.Valid() {
			err = fmt.Errorf("model: decode done: unknown stop reason %q; want end, tool_use, length or refusal", e.Reason)
		}
		return e, err
	case "retry":
		return decodeAs[Retrying](b, typ)
	case "failover":
		return decodeAs[FailingOver](b, typ)
	case "note":
		return decodeAs[Note](b, typ)
	case "error":
		e, err := decodeAs[StreamError](b, typ)
		if err == nil && (e.Err == nil || !e.Err.Kind.Valid()) {
			err = fmt.Errorf("model: decode error event: missing or unknown error kind; want one of %v", errorKinds)
		}
		return e, err
	}
	return nil, fmt.Errorf("model: decode stream event: unknown type %q; want start, text_delta, thinking_delta, toolcall_start, toolcall_delta, toolcall_end, done, error, retry, failover or note", typ)
}
