package protocol

import "encoding/json"

// ToolInfo describes one active tool of a session: a built-in tool or an
// active plugin's, as the model sees it.
type ToolInfo struct {
	// Name is the tool's name, unique in the session.
	Name string `json:"name"`
	// Description says what the tool does.
	Description string `json:"description"`
	// Parameters is the JSON Schema (an object schema) of its arguments.
	Parameters json.RawMessage `json:"parameters"`
}

// CallToolParams asks for one tool call made by a frontend rather than
// by the model.
type CallToolParams struct {
	// CallID is the causal parent of the call's effects in the session's
	// journal: "<frontend>:<request id>", such as "mcp:7". It must contain
	// a colon, so that it never names a model's tool call; required.
	CallID string `json:"call_id"`
	// Name is the tool to call; required.
	Name string `json:"name"`
	// Arguments is the JSON object of arguments; empty means {}.
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// TranscriptFormat is how a session's transcript is rendered.
type TranscriptFormat string

// The transcript formats.
const (
	// TranscriptMarkdown is the conversation of the selected branch as
	// Markdown (text/markdown): a heading per message, tool calls and
	// results in fenced blocks, and, where they happened, the journaled
	// effects of tool calls a frontend made (MCP's), which are not part
	// of the conversation.
	TranscriptMarkdown TranscriptFormat = "markdown"
	// TranscriptJSONL is the whole session file as JSON Lines
	// (application/jsonl), one line per frame in file order — every
	// message, branch and journaled effect — as `smith session dump`
	// writes it.
	TranscriptJSONL TranscriptFormat = "jsonl"
)
