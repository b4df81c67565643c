package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/smith-agent/smith/core/model"
)

// RPCVersion is the value of every JSON-RPC message's "jsonrpc" member.
const RPCVersion = "2.0"

// RPCEventMethod is the method of the notification that carries one event
// of the current session; its params are the event as [MarshalEvent]
// writes it.
const RPCEventMethod = "event"

// The methods `smith rpc` serves; docs/rpc.md documents each one's params,
// result and errors.
const (
	MethodPrompt          = "prompt"
	MethodSteer           = "steer"
	MethodFollowUp        = "follow_up"
	MethodQueueGet        = "queue.get"
	MethodQueueSet        = "queue.set"
	MethodQueueClear      = "queue.clear"
	MethodAbort           = "abort"
	MethodConfirm         = "confirm"
	MethodWait            = "wait"
	MethodSessionList     = "session.list"
	MethodSessionOpen     = "session.open"
	MethodSessionNew      = "session.new"
	MethodSessionContinue = "session.continue"
	MethodSessionFork     = "session.fork"
	MethodSessionSelect   = "session.select"
	MethodSessionLabel    = "session.label"
	MethodSessionTree     = "session.tree"
	MethodSessionTurns    = "session.turns"
	MethodSessionDiff     = "session.diff"
	MethodSessionSnapshot = "session.snapshot"
	MethodSessionUndo     = "session.undo"
	MethodSessionRedo     = "session.redo"
	MethodSessionRestore  = "session.restore"
	MethodSessionCompact  = "session.compact"
	MethodModelGet        = "model.get"
	MethodModelSet        = "model.set"
	MethodModelList       = "model.list"
	MethodCommandsList    = "commands.list"
	MethodCommandsRun     = "commands.run"
	MethodState           = "state"
	MethodStats           = "stats"
	MethodShutdown        = "shutdown"
)

// RPCMethods lists every method, in the order docs/rpc.md documents them.
var RPCMethods = []string{
	MethodPrompt, MethodSteer, MethodFollowUp, MethodQueueGet, MethodQueueSet, MethodQueueClear,
	MethodAbort, MethodConfirm, MethodWait,
	MethodSessionList, MethodSessionOpen, MethodSessionNew, MethodSessionContinue, MethodSessionFork,
	MethodSessionSelect, MethodSessionLabel, MethodSessionTree,
	MethodSessionTurns, MethodSessionDiff, MethodSessionSnapshot, MethodSessionUndo, MethodSessionRedo, MethodSessionRestore,
	MethodSessionCompact,
	MethodModelGet, MethodModelSet, MethodModelList,
	MethodCommandsList, MethodCommandsRun,
	MethodState, MethodStats, MethodShutdown,
}

// The JSON-RPC error codes. The first five are JSON-RPC 2.0's own; the
// others are Smith's application errors.
const (
	// CodeParseError: the line is not JSON (the response's id is null).
	CodeParseError = -32700
	// CodeInvalidRequest: the line is JSON but not a request object.
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: no method of that name.
	CodeMethodNotFound = -32601
	// CodeInvalidParams: params missing, of the wrong type, or with a
	// member the method does not have.
	CodeInvalidParams = -32602
	// CodeInternalError: a bug in the server.
	CodeInternalError = -32603
	// CodeFailed: the operation failed (a file, a plugin, a provider).
	CodeFailed = -32000
	// CodeUsage: the caller fixes it by changing what it passed (a
	// session, entry or model name, an empty prompt).
	CodeUsage = -32001
	// CodeBusy: the session is running; wait, abort, or queue the input.
	CodeBusy = -32002
	// CodeNoSession: no session is open yet.
	CodeNoSession = -32003
	// CodeShuttingDown: the server is shutting down and takes no more
	// requests.
	CodeShuttingDown = -32004
)

// RPCRequest is a JSON-RPC request, or a notification when ID is nil.
// ID holds the request's id as sent (a number, a string or null) and is
// echoed byte for byte in the response.
type RPCRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// RPCResponse answers one request: exactly one of Result and Error is set.
// ID is the request's id, or null when it could not be read.
type RPCResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// RPCError is the error of a response. Message says what went wrong and
// what to do; Code is one of the Code constants.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error returns the message with its code.
func (e *RPCError) Error() string { return "rpc error " + strconv.Itoa(e.Code) + ": " + e.Message }

// RPCNotification is a message from the server without an id: Method is
// [RPCEventMethod] and Params one event.
type RPCNotification struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// Empty is the result of a method that returns nothing but success: {}.
type Empty struct{}

// InputParams is the input of steer and follow_up: a prompt whose
// delivery the method names.
type InputParams struct {
	Text   string        `json:"text"`
	Images []model.Image `json:"images,omitempty"`
}

// Queue is the queued input of a session.
type Queue struct {
	Steer    []model.UserMessage `json:"steer"`
	FollowUp []model.UserMessage `json:"follow_up"`
}

// SetQueueParams replaces queued input: a nil field keeps that queue, an
// empty list clears it.
type SetQueueParams struct {
	Steer    *[]model.UserMessage `json:"steer,omitempty"`
	FollowUp *[]model.UserMessage `json:"follow_up,omitempty"`
}

// ConfirmParams answers a plugin's confirmation request
// ([ConfirmationRequest]).
type ConfirmParams struct {
	// ID is the request's id.
	ID string `json:"id"`
	// Answer is the person's answer: true is yes.
	Answer bool `json:"answer"`
}

// WaitParams bounds a wait.
type WaitParams struct {
	// TimeoutMillis bounds the wait in milliseconds; 0 means 60,000
	// (one minute), and at most 3,600,000 (one hour) is accepted.
	TimeoutMillis int64 `json:"timeout_ms,omitempty"`
}

// WaitResult says whether the session settled within the wait.
type WaitResult struct {
	// Settled is false when the timeout passed first (the run goes on).
	Settled bool `json:"settled"`
	// End is how the last run ended; absent when none ran or the wait
	// timed out.
	End *AgentEnd `json:"end,omitempty"`
}

// MarshalJSON writes End as an event object (with its "type").
func (w WaitResult) MarshalJSON() ([]byte, error) {
	out := struct {
		Settled bool            `json:"settled"`
		End     json.RawMessage `json:"end,omitempty"`
	}{Settled: w.Settled}
	if w.End != nil {
		b, err := MarshalEvent(*w.End)
		if err != nil {
			return nil, err
		}
		out.End = b
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (w *WaitResult) UnmarshalJSON(b []byte) error {
	var in struct {
		Settled bool            `json:"settled"`
		End     json.RawMessage `json:"end"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*w = WaitResult{Settled: in.Settled}
	if len(in.End) > 0 && string(in.End) != "null" {
		ev, err := UnmarshalEvent(in.End)
		if err != nil {
			return err
		}
		end, ok := ev.(AgentEnd)
		if !ok {
			return fmt.Errorf("protocol: the wait result's end is a %s event, not agent_end", EventType(ev))
		}
		w.End = &end
	}
	return nil
}

// SessionRefParams names a session: a name, a full id, or an unambiguous
// id prefix of at least 4 characters.
type SessionRefParams struct {
	Ref string `json:"ref"`
}

// NewSessionParams names a new session; "" derives a name from the first
// prompt.
type NewSessionParams struct {
	Name string `json:"name,omitempty"`
}

// LabelParams labels an entry; an empty Label clears it.
type LabelParams struct {
	Ref   string `json:"ref"`
	Label string `json:"label"`
}

// ModelInfo is one model of the catalog.
type ModelInfo struct {
	// Ref is PROVIDER/MODEL, what --model and model.set take.
	Ref  string `json:"ref"`
	Name string `json:"name,omitempty"`
	// Aliases are the catalog's other names of the model.
	Aliases []string `json:"aliases,omitempty"`
	// Context and MaxOutput are limits in tokens; 0 when unknown.
	Context   int `json:"context"`
	MaxOutput int `json:"max_output"`
	// Input lists the accepted input modalities ("text", "image").
	Input []string `json:"input"`
	Tools bool     `json:"tools"`
	// Thinking lists the supported thinking levels.
	Thinking []string `json:"thinking"`
	// Priced is false when the catalog has no price (costs stay unknown).
	Priced bool `json:"priced"`
}

// ModelRoute is an alias or a group of the configuration, with the
// targets it resolves to or why it does not resolve.
type ModelRoute struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // "alias" or "group"
	Targets []string `json:"targets"`
	Error   string   `json:"error,omitempty"`
}

// ModelList is the catalog's models and the configuration's routes.
type ModelList struct {
	Models []ModelInfo  `json:"models"`
	Routes []ModelRoute `json:"routes"`
}

// PromptResult is the result of prompt, steer and follow_up: the session
// the input went to (a server with no session starts one at the first
// prompt).
type PromptResult struct {
	Session SessionInfo `json:"session"`
}
