package anthropic

import (
	"fmt"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// minBudget is the API's smallest budget_tokens.
const minBudget = 1024

// thinkingBudgets maps levels to budget_tokens.
var thinkingBudgets = map[norm.ThinkingLevel]int{
	norm.ThinkingMinimal: minBudget,
	norm.ThinkingLow:     2048,
	norm.ThinkingMedium:  8192,
	norm.ThinkingHigh:    16384,
	norm.ThinkingXHigh:   32000,
}

// answerRoom is the part of max tokens a level's budget leaves for the
// answer: a quarter, at least minBudget. The budget counts against
// max_tokens, so a budget filling it would leave the visible answer and
// its tool calls nothing; a quarter keeps 8000 tokens of a 32000 limit
// (claude-opus-4-1 at xhigh thinks up to 24000) and leaves every level
// of a 64000-limit model as it is.
func answerRoom(maxTokens int) int {
	return max(minBudget, maxTokens/4)
}

// thinkingBudget returns budget_tokens and max_tokens for a request with
// thinking enabled. The API wants minBudget <= budget_tokens < max_tokens.
//
// With no output bound, max_tokens is the budget plus DefaultMaxTokens.
// With one (the caller's, or the model's output limit, which the host
// sends when the caller set none), a level's budget is lowered to leave
// answerRoom, but not below minBudget; it fails only when even minBudget
// does not fit. An explicit budget (r.ThinkingBudget) is the caller's
// choice: sent as given, or refused when it does not fit.
func thinkingBudget(r *norm.Request) (budget, maxTokens int, err error) {
	explicit := r.ThinkingBudget > 0
	budget = r.ThinkingBudget
	if !explicit {
		budget = thinkingBudgets[r.Thinking]
	}
	switch {
	case budget == 0:
		return 0, 0, fmt.Errorf("anthropic: thinking level %q has no budget; use minimal, low, medium, high or xhigh", r.Thinking)
	case budget < minBudget:
		return 0, 0, fmt.Errorf("anthropic: thinking budget %d is below the API's minimum of %d tokens; give %d or more", budget, minBudget, minBudget)
	case r.MaxTokens == 0:
		return budget, budget + DefaultMaxTokens, nil
	case r.MaxTokens <= minBudget:
		return 0, 0, fmt.Errorf("anthropic: model %s may write at most %d output tokens (max_tokens), which leaves no room for thinking: its budget must be at least %d and below max_tokens; allow more than %d output tokens (%d or more leaves %d for the answer), or turn thinking off",
			r.Model, r.MaxTokens, minBudget, minBudget, 2*minBudget, minBudget)
	case explicit && budget >= r.MaxTokens:
		return 0, 0, fmt.Errorf("anthropic: thinking budget %d must be below max_tokens %d of model %s; give a budget of at most %d, or allow more than %d output tokens",
			budget, r.MaxTokens, r.Model, r.MaxTokens-1, budget)
	case !explicit:
		budget = max(minBudget, min(budget, r.MaxTokens-answerRoom(r.MaxTokens)))
	}
	return budget, r.MaxTokens, nil
}
