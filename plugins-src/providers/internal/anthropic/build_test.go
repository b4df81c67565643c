package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smith-agent/smith/plugins-src/providers/internal/norm"
)

// TestBuildMaxTokensWithThinking: with thinking enabled and no output bound
// the request leaves DefaultMaxTokens of room above the thinking budget; an
// explicit max_tokens is sent as given and refused when the budget does not
// fit below it.
func TestBuildMaxTokensWithThinking(t *testing.T) {
	tests := []struct {
		name       string
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
		{name: "high-explicit-room", maxTokens: 32000, thinking: norm.ThinkingHigh, wantMax: 32000, wantBudget: 16384},
		{name: "high-explicit-just-above", maxTokens: 16385, thinking: norm.ThinkingHigh, wantMax: 16385, wantBudget: 16384},
		{name: "high-explicit-too-small", maxTokens: 4096, thinking: norm.ThinkingHigh,
			wantErr: []string{"anthropic: thinking budget 16384", `level "high"`, "requested max_tokens 4096", "set max_tokens above 16384", "unset for 20480"}},
		{name: "high-explicit-equal", maxTokens: 16384, thinking: norm.ThinkingHigh,
			wantErr: []string{"thinking budget 16384", "requested max_tokens 16384"}},
		{name: "budget-override-too-small", maxTokens: 4096, thinking: norm.ThinkingMedium, budget: 4096,
			wantErr: []string{"thinking budget 4096", `level "medium"`, "requested max_tokens 4096"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &norm.Request{Model: "claude-sonnet-4-5", MaxTokens: tt.maxTokens, Thinking: tt.thinking,
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
