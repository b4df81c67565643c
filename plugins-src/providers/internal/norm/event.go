package norm

// StopReason says why a provider ended a successful response.
type StopReason string

// The stop reasons.
const (
	StopEnd     StopReason = "end"
	StopToolUse StopReason = "tool_use"
	StopLength  StopReason = "length"
	StopRefusal StopReason = "refusal"
)

// Event is one normalized stream event: [Start], [TextDelta],
// [ThinkingDelta], [ToolCallStart], [ToolCallDelta], [ToolCallEnd],
// [OtherBlock], then exactly one terminal [Done] or [StreamError]. The set
// is closed.
//
// Content events carry Index, the position of their block in the assembled
// message: an event either continues the block at Index or, when Index
// equals the number of blocks so far, opens a new one.
type Event interface {
	isEvent()
}

// Start opens a response. Provider tags every opaque payload (signatures,
// encrypted reasoning) of the response with its producer.
type Start struct {
	Provider   string
	Model      string
	ResponseID string
}

// TextDelta appends Text (and Signature bytes) to the text block at Index.
// ItemID and Phase, when set, name the vendor's output item the block
// belongs to (Responses API) and are carried by the block's first event.
type TextDelta struct {
	Index     int
	Text      string
	Signature []byte
	ItemID    string
	Phase     string
}

// ThinkingDelta appends to the thinking block at Index. Signature and
// Encrypted are opaque payloads appended byte-exact; Redacted, once set,
// stays set for the block. Format names the vendor encoding of Signature
// (for example OpenRouter's "anthropic-claude-v1"); ItemID names the
// vendor's reasoning item.
type ThinkingDelta struct {
	Index     int
	Text      string
	Signature []byte
	Encrypted []byte
	Redacted  bool
	Format    string
	ItemID    string
}

// ToolCallStart opens the tool-call block at Index. ItemID is the vendor's
// item id when it differs from the call id (Responses API).
type ToolCallStart struct {
	Index  int
	ID     string
	Name   string
	ItemID string
}

// ToolCallDelta appends a fragment of the JSON arguments of the tool call at
// Index.
type ToolCallDelta struct {
	Index     int
	Arguments string
}

// ToolCallEnd closes the tool call at Index; its arguments are complete.
// Signature is an opaque token the vendor attached to the call.
type ToolCallEnd struct {
	Index     int
	Signature []byte
}

// OtherBlock is a content block the client must not act on (for example a
// server-executed tool call or its result). Raw is the vendor's JSON for the
// block, kept so the history can be sent back unchanged.
type OtherBlock struct {
	Index int
	Type  string
	Raw   []byte
}

// Done ends a successful response. Raw is the vendor's own stop value;
// UsageRaw is the vendor's last usage object, verbatim, for diagnostics and
// vendor-specific accounting (for example a gateway's reported cost).
type Done struct {
	Reason   StopReason
	Raw      string
	Usage    Usage
	UsageRaw []byte
}

// StreamError ends a failed response. Usage holds what was reported before
// the failure; Raw is the vendor's stop or status value, if any.
type StreamError struct {
	Err      *Error
	Raw      string
	Usage    Usage
	UsageRaw []byte
}

func (Start) isEvent()         {}
func (TextDelta) isEvent()     {}
func (ThinkingDelta) isEvent() {}
func (ToolCallStart) isEvent() {}
func (ToolCallDelta) isEvent() {}
func (ToolCallEnd) isEvent()   {}
func (OtherBlock) isEvent()    {}
func (Done) isEvent()          {}
func (StreamError) isEvent()   {}
