package protocol

import "github.com/smith-agent/smith/core/model"

// The reasons a compaction starts, in [CompactionStart] and
// [CompactResult].
const (
	// CompactThreshold: the context's estimated size crossed the configured
	// threshold before a provider request.
	CompactThreshold = "threshold"
	// CompactOverflow: the provider refused a request as too long for the
	// model's context window; the request is sent again once after the
	// compaction.
	CompactOverflow = "overflow"
	// CompactManual: a frontend asked for it (Session.Compact).
	CompactManual = "manual"
)

// CompactParams asks for a compaction of the session's context.
type CompactParams struct {
	// Instructions are added to the summary prompt, such as "keep the
	// failing test's output"; "" uses the prompt as it is.
	Instructions string `json:"instructions,omitempty"`
}

// CompactResult is what a compaction did. Token counts are estimates of
// the context a request carries (system prompt, tool definitions and
// messages): from the provider's reported usage where there is one, else
// from the text's length.
type CompactResult struct {
	// Reason is CompactThreshold, CompactOverflow or CompactManual.
	Reason string `json:"reason"`
	// Entry is the id of the compaction entry recorded; "" when nothing
	// was recorded (the compaction failed).
	Entry string `json:"entry,omitempty"`
	// Summarized counts the messages the summary replaces; Kept the
	// recent messages the context keeps verbatim.
	Summarized int `json:"summarized"`
	Kept       int `json:"kept"`
	// TokensBefore and TokensAfter are the context's estimated size before
	// and after the compaction (after is 0 when it failed).
	TokensBefore int `json:"tokens_before"`
	TokensAfter  int `json:"tokens_after"`
	// SummaryBytes is the length of the summary in bytes (0 when it
	// failed).
	SummaryBytes int `json:"summary_bytes"`
	// Usage is the summary request's usage, its cost in
	// Usage.CostNanoUSD; a field the provider did not report is unknown
	// (JSON null), never 0.
	Usage model.Usage `json:"usage"`
}
