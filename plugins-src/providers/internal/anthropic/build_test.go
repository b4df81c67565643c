package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// TestBuildMaxTokensWithThinking: with thinking enabled and no output bound
// the request leaves DefaultMaxTokens of room above the thinking budget.
// With an output bound (the caller's, or the model's limit the host sends)
// a level's budget is lowered to leave a quarter of max_tokens (at least
// 1024) for the answer, never below the API's minimum 1024, and refused
// only when 1024 does not fit below max_tokens; an explicit budget is sent
// as given or refused.
func TestBuildMaxTokensWithThinking(t *testing.T) {
	tests := []struct {
		name       string
		model      string // default claude-sonnet-4-5
		maxTokens  int
		thinking   norm.ThinkingLevel
		budget     int
		wantMax    int
		wantBudget int      // 0: no thinking object
		wantErr    []string // non-nil: BuildRequest must fail with these
	}{
		{name: "no-thinking-default", wantMax: DefaultMaxTokens},
		{name: "thinking-off-default", thinking: norm.ThinkingOff, wantMax: DefaultMaxTokens},
		{name: "no-thinking-explicit", maxTokens: 1000, wantMax: 1000},
		{name: "high-default", thinking: norm.ThinkingHigh, wantMax: 16384 + DefaultMaxTokens, wantBudget: 16384},
		{name: "xhigh-default", thinking: norm.ThinkingXHigh, wantMax: 32000 + DefaultMaxTokens, wantBudget: 32000},
		{name: "minimal-default", thinking: norm.ThinkingMinimal, wantMax: 1024 + DefaultMaxTokens, wantBudget: 1024},
		{name: "budget-override-default", thinking: norm.ThinkingMedium, budget: 5000, wantMax: 5000 + DefaultMaxTokens, wantBudget: 5000},
		// claude-opus-4-1: output limit 32000, the xhigh budget 32000.
		{name: "xhigh-at-the-model-limit", model: "claude-opus-4-1", maxTokens: 32000, thinking: norm.ThinkingXHigh, wantMax: 32000, wantBudget: 24000},
		{name: "xhigh-fits-a-64k-limit", maxTokens: 64000, thinking: norm.ThinkingXHigh, wantMax: 64000, wantBudget: 32000},
		{name: "high-fits-with-room", maxTokens: 32000, thinking: norm.ThinkingHigh, wantMax: 32000, wantBudget: 16384},
		{name: "high-exactly-a-quarter-left", maxTokens: 21845, thinking: norm.ThinkingHigh, wantMax: 21845, wantBudget: 16384},
		{name: "high-just-above-lowered", maxTokens: 16385, thinking: norm.ThinkingHigh, wantMax: 16385, wantBudget: 12289},
		{name: "high-equal-lowered", maxTokens: 16384, thinking: norm.ThinkingHigh, wantMax: 16384, wantBudget: 12288},
		{name: "high-small-limit-keeps-1024", maxTokens: 4096, thinking: norm.ThinkingHigh, wantMax: 4096, wantBudget: 3072},
		{name: "room-at-least-1024", maxTokens: 3000, thinking: norm.ThinkingMedium, wantMax: 3000, wantBudget: 1976},
		{name: "floor-at-the-minimum", maxTokens: 1500, thinking: norm.ThinkingLow, wantMax: 1500, wantBudget: 1024},
		{name: "minimum-just-fits", maxTokens: 1025, thinking: norm.ThinkingXHigh, wantMax: 1025, wantBudget: 1024},
		{name: "minimum-does-not-fit", model: "claude-tiny", maxTokens: 1024, thinking: norm.ThinkingMinimal,
			wantErr: []string{"anthropic: model claude-tiny may write at most 1024 output tokens", "at least 1024 and below max_tokens", "allow more than 1024 output tokens", "turn thinking off"}},
		{name: "explicit-budget-fits", maxTokens: 4096, thinking: norm.ThinkingMedium, budget: 4000, wantMax: 4096, wantBudget: 4000},
		{name: "explicit-budget-too-large", maxTokens: 4096, thinking: norm.ThinkingMedium, budget: 4096,
			wantErr: []string{"thinking budget 4096 must be below max_tokens 4096 of model claude-sonnet-4-5", "at most 4095", "more than 4096 output tokens"}},
		{name: "explicit-budget-below-minimum", maxTokens: 4096, thinking: norm.ThinkingMedium, budget: 500,
			wantErr: []string{"thinking budget 500 is below the API's minimum of 1024"}},
		{name: "unknown-level", maxTokens: 4096, thinking: "extreme", wantErr: []string{`thinking level "extreme" has no budget`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := tt.model
			if model == "" {
				model = "claude-sonnet-4-5"
			}
			r := &norm.Request{Model: model, MaxTokens: tt.maxTokens, Thinking: tt.thinking,
				ThinkingBudget: tt.budget, Messages: []norm.Message{norm.UserText("hi")}}
			req, err := BuildRequest(r, "anthropic")
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("BuildRequest succeeded with body %s; want an error", req.Body)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				MaxTokens int `json:"max_tokens"`
				Thinking  *struct {
					Type   string `json:"type"`
					Budget int    `json:"budget_tokens"`
				} `json:"thinking"`
			}
			if err := json.Unmarshal(req.Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.MaxTokens != tt.wantMax {
				t.Errorf("max_tokens = %d; want %d", body.MaxTokens, tt.wantMax)
			}
			switch {
			case tt.wantBudget == 0 && body.Thinking != nil:
				t.Errorf("thinking = %+v; want none", *body.Thinking)
			case tt.wantBudget != 0 && (body.Thinking == nil || body.Thinking.Type != "enabled" || body.Thinking.Budget != tt.wantBudget):
				t.Errorf("thinking = %+v; want enabled with budget_tokens %d", body.Thinking, tt.wantBudget)
			case tt.wantBudget != 0 && body.Thinking.Budget >= body.MaxTokens:
				t.Errorf("budget_tokens %d is not below max_tokens %d", body.Thinking.Budget, body.MaxTokens)
			}
		})
	}
}
