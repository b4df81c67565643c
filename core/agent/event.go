package agent

import (
	"encoding/json"

	"github.com/smith-agent/smith/core/model"
)

// Event is one agent lifecycle event. The set is closed. Every event carries
// a sequence number, strictly increasing across all runs of one [Agent].
// The *_end event of a message is authoritative over its updates.
type Event interface {
	isEvent()
	// Sequence returns the event's sequence number.
	Sequence() uint64
}

// Seq is the sequence number every event embeds.
type Seq struct {
	N uint64 `json:"seq"`
}

// Sequence returns the sequence number.
func (s Seq) Sequence() uint64 { return s.N }

// EndReason says why a run ended.
type EndReason string

// The end reasons.
const (
	// EndCompleted: the model finished and no queued input was pending.
	EndCompleted EndReason = "completed"
	// EndLength: the model's output limit cut its answer off.
	EndLength EndReason = "length"
	// EndRefusal: the model refused.
	EndRefusal EndReason = "refusal"
	// EndProviderError: the provider failed; the last message_end carries
	// the classified error.
	EndProviderError EndReason = "provider_error"
	// EndAborted: the run was aborted.
	EndAborted EndReason = "aborted"
	// EndRecordFailed: a conversation event could not be recorded.
	EndRecordFailed EndReason = "record_failed"
	// EndMaxTurns: the run reached Config.MaxTurns.
	EndMaxTurns EndReason = "max_turns"
)

// AgentStart opens a run. Run counts the agent's runs from 1.
type AgentStart struct {
	Seq
	Run int `json:"run"`
}

// TurnStart opens a turn: the input delivered at this boundary, one
// assistant response and its tool calls and results. Turn counts from 1
// within the run.
type TurnStart struct {
	Seq
	Turn int `json:"turn"`
}

// MessageStart opens a message. For an assistant message Message is empty;
// updates follow. User and tool-result messages arrive complete.
type MessageStart struct {
	Seq
	Message model.Message `json:"message"`
}

// MessageUpdate carries one provider stream event of the assistant message
// being streamed (never a terminal event: the message_end carries the
// outcome).
type MessageUpdate struct {
	Seq
	Delta model.StreamEvent `json:"delta"`
}

// MessageEnd closes a message; Message is complete and was recorded before
// this event, unless the run then ends with [EndRecordFailed].
type MessageEnd struct {
	Seq
	Message model.Message `json:"message"`
}

// ToolExecutionStart reports that a tool call is about to be validated and
// run.
type ToolExecutionStart struct {
	Seq
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolExecutionUpdate carries partial output of a running tool.
type ToolExecutionUpdate struct {
	Seq
	CallID  string          `json:"call_id"`
	Name    string          `json:"name"`
	Partial []model.Content `json:"partial"`
}

// ToolExecutionEnd reports the result of a tool call.
type ToolExecutionEnd struct {
	Seq
	CallID string                  `json:"call_id"`
	Name   string                  `json:"name"`
	Result model.ToolResultMessage `json:"result"`
}

// TurnEnd closes a turn with its assistant message and tool results (one
// per tool call, in call order).
type TurnEnd struct {
	Seq
	Turn        int                       `json:"turn"`
	Message     model.AssistantMessage    `json:"message"`
	ToolResults []model.ToolResultMessage `json:"tool_results"`
}

// CompactionStart and CompactionEnd bracket a context compaction. They are
// part of the vocabulary; this runtime does not compact yet.
type CompactionStart struct {
	Seq
	Reason string `json:"reason"`
}

// CompactionEnd closes a compaction; see [CompactionStart].
type CompactionEnd struct {
	Seq
	Error string `json:"error,omitempty"`
}

// QueueUpdate is the queued input after a change: input was queued, or
// queued input was delivered.
type QueueUpdate struct {
	Seq
	Steer    []model.UserMessage `json:"steer"`
	FollowUp []model.UserMessage `json:"follow_up"`
}

// AgentEnd closes a run. It is emitted exactly once per run.
type AgentEnd struct {
	Seq
	Reason EndReason `json:"reason"`
	Error  string    `json:"error,omitempty"`
	// Cost is the price of the conversation so far, in billionths of a US
	// dollar: the sum of the cost of every assistant message in the
	// agent's history (Config.History and every run's responses). It is
	// unknown (JSON null) when any message's cost is unknown.
	Cost model.Amount `json:"cost_nano_usd"`
}

// Settled is the last event of a run: all its work has finished or been
// cancelled. It is emitted exactly once per run, after [AgentEnd].
type Settled struct {
	Seq
}

func (AgentStart) isEvent()          {}
func (TurnStart) isEvent()           {}
func (MessageStart) isEvent()        {}
func (MessageUpdate) isEvent()       {}
func (MessageEnd) isEvent()          {}
func (ToolExecutionStart) isEvent()  {}
func (ToolExecutionUpdate) isEvent() {}
func (ToolExecutionEnd) isEvent()    {}
func (TurnEnd) isEvent()             {}
func (CompactionStart) isEvent()     {}
func (CompactionEnd) isEvent()       {}
func (QueueUpdate) isEvent()         {}
func (AgentEnd) isEvent()            {}
func (Settled) isEvent()             {}

// EventType returns the wire discriminator of e ("agent_start", …).
func EventType(e Event) string {
	switch e.(type) {
	case AgentStart:
		return "agent_start"
	case TurnStart:
		return "turn_start"
	case MessageStart:
		return "message_start"
	case MessageUpdate:
		return "message_update"
	case MessageEnd:
		return "message_end"
	case ToolExecutionStart:
		return "tool_execution_start"
	case ToolExecutionUpdate:
		return "tool_execution_update"
	case ToolExecutionEnd:
		return "tool_execution_end"
	case TurnEnd:
		return "turn_end"
	case CompactionStart:
		return "compaction_start"
	case CompactionEnd:
		return "compaction_end"
	case QueueUpdate:
		return "queue_update"
	case AgentEnd:
		return "agent_end"
	case Settled:
		return "settled"
	}
	return ""
}

// MarshalEvent encodes e as one JSON object whose first field is its "type".
func MarshalEvent(e Event) ([]byte, error) {
	var body []byte
	var err error
	switch v := e.(type) {
	case AgentStart:
		body, err = json.Marshal(v)
	case TurnStart:
		body, err = json.Marshal(v)
	case MessageStart:
		body, err = json.Marshal(v)
	case MessageUpdate:
		body, err = json.Marshal(v)
	case MessageEnd:
		body, err = json.Marshal(v)
	case ToolExecutionStart:
		body, err = json.Marshal(v)
	case ToolExecutionUpdate:
		body, err = json.Marshal(v)
	case ToolExecutionEnd:
		body, err = json.Marshal(v)
	case TurnEnd:
		body, err = json.Marshal(v)
	case CompactionStart:
		body, err = json.Marshal(v)
	case CompactionEnd:
		body, err = json.Marshal(v)
	case QueueUpdate:
		body, err = json.Marshal(v)
	case AgentEnd:
		body, err = json.Marshal(v)
	case Settled:
		body, err = json.Marshal(v)
	default:
		return nil, &json.UnsupportedTypeError{}
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+32)
	out = append(out, `{"type":"`...)
	out = append(out, EventType(e)...)
	out = append(out, `",`...)
	return append(out, body[1:]...), nil
}
