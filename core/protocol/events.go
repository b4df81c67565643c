package protocol

import (
	"encoding/json"

	"github.com/smith-agent/smith/core/model"
)

// Event is one lifecycle event. The set is closed: the variants are the
// types of this file. Every event carries a sequence number that strictly
// increases across the runs of one session; a gap means deltas were
// coalesced for a consumer that fell behind (see core/runtime).
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
	// EndMaxTurns: the run reached its turn limit.
	EndMaxTurns EndReason = "max_turns"
	// EndMaxCost: the run spent its budget (or its cost is unknown), so
	// it sent no further request.
	EndMaxCost EndReason = "max_cost"
	// EndHandlerFailed: a plugin handler that had to decide (whether a
	// tool call may run) failed, so the run stopped without applying
	// what its handlers had returned.
	EndHandlerFailed EndReason = "handler_failed"
)

// AgentStart opens a run. Run counts the session's runs in this process
// from 1.
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

// CompactionStart and CompactionEnd bracket a context compaction. Reason
// says what started it ([CompactThreshold], [CompactOverflow] or
// [CompactManual]).
type CompactionStart struct {
	Seq
	Reason string `json:"reason"`
}

// CompactionEnd closes a compaction with what it did. Error is set when it
// failed: it says what happened and what to do next; nothing was recorded
// (Entry is "") and the context stays as it was.
type CompactionEnd struct {
	Seq
	Error string `json:"error,omitempty"`
	CompactResult
}

// QueueUpdate is the queued input after a change: input was queued, or
// queued input was delivered.
type QueueUpdate struct {
	Seq
	Steer    []model.UserMessage `json:"steer"`
	FollowUp []model.UserMessage `json:"follow_up"`
}

// ProviderRetry reports that a provider request failed before its answer
// began and is sent again to the same target after Wait. Attempt counts the
// failed tries of this request on Target from 1; Error is the classified
// failure.
type ProviderRetry struct {
	Seq
	Target     string       `json:"target"`
	Attempt    int          `json:"attempt"`
	Error      *model.Error `json:"error"`
	WaitMillis int64        `json:"wait_ms"`
}

// ProviderFailover reports that a provider request failed on From before
// its answer began and moves on to To, the next target of the model's
// failover group.
type ProviderFailover struct {
	Seq
	From  string       `json:"from"`
	To    string       `json:"to"`
	Error *model.Error `json:"error"`
}

// ModelChange reports that the session's model or thinking level changed
// (and was recorded as a model_change entry). Model is the name as chosen
// ("fast", "anthropic/claude-sonnet-4-5"); Thinking is "" for the
// provider's default.
type ModelChange struct {
	Seq
	Model    string `json:"model"`
	Thinking string `json:"thinking,omitempty"`
}

// PluginsReloaded reports that a new generation of the plugins was
// published (smith plugin reload, /reload, a handler's reload-plugins):
// the session's next run binds it; a run in progress finishes on the
// generation it started on (Deferred counts such sessions). Plugins are
// the new generation's, by name.
type PluginsReloaded struct {
	Seq
	Generation uint64   `json:"generation"`
	Previous   uint64   `json:"previous"`
	Plugins    []string `json:"plugins"`
	Deferred   int      `json:"deferred,omitempty"`
}

// NoticeLevel grades a [Notice].
type NoticeLevel string

// The notice levels.
const (
	NoticeInfo    NoticeLevel = "info"
	NoticeWarning NoticeLevel = "warning"
	// NoticeError is a plugin's error notification; Smith's own notices
	// are info or warnings (its errors end the run or fail the request).
	NoticeError NoticeLevel = "error"
)

// Notice is a message for the user that is not part of the conversation:
// an instruction file cut to its bound, an unknown model sent anyway, a
// recovered interrupted effect. Text is one sentence or short paragraph
// saying what happened, why and what to do.
type Notice struct {
	Seq
	Level NoticeLevel `json:"level"`
	Text  string      `json:"text"`
	// Plugin is the plugin that sent the notice (a ui show-notification),
	// or "" for Smith's own.
	Plugin string `json:"plugin,omitempty"`
}

// ConfirmationRequest is a plugin's yes/no question for the person using
// the frontend (ui request-confirmation), such as the permission policy's
// "may bash run `git push`?". A frontend with a person shows it and
// answers with the request's ID (runtime Session.Answer; RPC `confirm`);
// a [ConfirmationEnd] with the same ID follows in every case.
type ConfirmationRequest struct {
	Seq
	// ID names the request within the session.
	ID string `json:"id"`
	// Plugin is the plugin that asks.
	Plugin string `json:"plugin"`
	// CallID is what the plugin was running: a tool call's id,
	// "handler:EVENT" or "command:NAME".
	CallID string `json:"call_id,omitempty"`
	// Prompt is the question, printable text.
	Prompt string `json:"prompt"`
	// Default is the answer taken when nobody answers within TimeoutMillis.
	Default bool `json:"default"`
	// TimeoutMillis is how long the question waits for an answer.
	TimeoutMillis int64 `json:"timeout_ms"`
}

// ConfirmationOutcome says how a confirmation ended.
type ConfirmationOutcome string

// The confirmation outcomes.
const (
	// ConfirmAnswered: the person answered.
	ConfirmAnswered ConfirmationOutcome = "answered"
	// ConfirmTimedOut: nobody answered in time; the default was taken.
	ConfirmTimedOut ConfirmationOutcome = "timed_out"
	// ConfirmNoUser: nobody can answer in this frontend (smith eval, MCP,
	// an RPC client that did not say it answers); the plugin was told so.
	ConfirmNoUser ConfirmationOutcome = "no_user"
	// ConfirmDismissed: the question was withdrawn unanswered (the run was
	// aborted, the session closed).
	ConfirmDismissed ConfirmationOutcome = "dismissed"
)

// ConfirmationEnd closes a [ConfirmationRequest].
type ConfirmationEnd struct {
	Seq
	ID      string              `json:"id"`
	Outcome ConfirmationOutcome `json:"outcome"`
	// Answer is the answer the plugin got: the person's, or the default
	// after a timeout; false for no_user and dismissed.
	Answer bool `json:"answer"`
}

// AgentEnd closes a run. It is emitted exactly once per run.
type AgentEnd struct {
	Seq
	Reason EndReason `json:"reason"`
	Error  string    `json:"error,omitempty"`
	// Cost is the price of the conversation so far, in billionths of a US
	// dollar: the sum of the cost of every assistant message in the
	// session's history (compacted ones included) and of its compaction
	// summaries. It is unknown (JSON null) when any of them is unknown.
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
func (ProviderRetry) isEvent()       {}
func (ProviderFailover) isEvent()    {}
func (ModelChange) isEvent()         {}
func (PluginsReloaded) isEvent()     {}
func (Notice) isEvent()              {}
func (ConfirmationRequest) isEvent() {}
func (ConfirmationEnd) isEvent()     {}
func (AgentEnd) isEvent()            {}
func (Settled) isEvent()             {}
