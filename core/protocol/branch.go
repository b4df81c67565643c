package protocol

import "github.com/smith-agent/smith/core/model"

// SelectParams moves the session to another entry of its tree (branch
// navigation): the next input continues from there.
type SelectParams struct {
	// Ref is the entry: its id or a unique id prefix of at least 4
	// characters.
	Ref string `json:"ref"`
	// Summarize asks the model to summarise the branch the move leaves
	// behind into a branch_summary entry at the new position, so the
	// conversation that goes on from there knows what was tried on it.
	// Off by default; a move that leaves nothing behind records none.
	Summarize bool `json:"summarize,omitempty"`
	// Instructions are added to the branch summary's prompt; only with
	// Summarize.
	Instructions string `json:"instructions,omitempty"`
}

// SelectResult is what a move did.
type SelectResult struct {
	// Entry is the id of the entry the session continues from: the one
	// selected, or the branch summary recorded under it.
	Entry string `json:"entry"`
	// Summary is the branch summary recorded; nil without one (not asked
	// for, or nothing was left behind).
	Summary *BranchSummaryResult `json:"summary,omitempty"`
}

// BranchSummaryResult is a branch summary recorded by a move.
type BranchSummaryResult struct {
	// Entry is the branch_summary entry's id.
	Entry string `json:"entry"`
	// From is the leaf of the branch left behind.
	From string `json:"from"`
	// Summarized counts the messages of the branch left behind.
	Summarized int `json:"summarized"`
	// SummaryBytes is the length of the summary in bytes.
	SummaryBytes int `json:"summary_bytes"`
	// Usage is the summary request's usage, its cost in Usage.CostNanoUSD;
	// a field the provider did not report is unknown (JSON null), never 0.
	Usage model.Usage `json:"usage"`
}
