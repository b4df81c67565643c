package protocol

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/smith-agent/smith/core/model"
)

// TestOperationsRoundTrip: every operation type encodes to JSON and
// decodes to an equal value, with its content blocks and messages typed.
func TestOperationsRoundTrip(t *testing.T) {
	when := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	info := SessionInfo{ID: "01M8SXMEN9RC43EFSEY3T7TMTS", Name: "fix", Path: "/s/x.session", Cwd: "/p", Model: "fast",
		FirstPrompt: "fix the bug", Entries: 12, Size: 4096, Created: when, LastActivity: when.Add(time.Minute)}
	usage := model.Usage{Input: model.Known(10), Output: model.Known(5), CacheRead: model.Known(0), CacheWrite: model.Unknown(),
		Reasoning: model.Unknown(), CostNanoUSD: model.Known(99)}
	tests := []struct {
		name string
		v    any
	}{
		{name: "prompt", v: &PromptParams{Text: "look", Images: []model.Image{{MediaType: "image/png", Data: []byte{1, 2}}}, Delivery: DeliverSteer}},
		{name: "session info", v: &info},
		{name: "model state", v: &ModelState{Name: "fast", Targets: []string{"a/b", "c/d"}, Thinking: "high", Context: 200000, MaxOutput: 64000, Known: true}},
		{name: "set model", v: &SetModelParams{Model: "a/b", Thinking: "default"}},
		{name: "stats", v: &Stats{Usage: usage, Responses: 2, ContextTokens: model.Known(15), ContextWindow: 100, ContextPercent: 15}},
		{name: "state", v: &State{Session: info, Model: ModelState{Name: "m", Targets: []string{"m"}}, Running: true,
			Steer: []model.UserMessage{model.UserText("stop")}, FollowUp: []model.UserMessage{}, Stats: Stats{Usage: usage, ContextTokens: model.Unknown(), ContextPercent: -1}}},
		{name: "command", v: &Command{Name: "init", Description: "write AGENTS.md", ArgumentHint: "[focus]", Plugin: "product"}},
		{name: "run command", v: &RunCommandParams{Name: "init", Arguments: "tests only"}},
		{name: "command result", v: &CommandResult{Content: []model.Content{model.Text{Text: "ok"}}, Prompt: "study the project"}},
		{name: "tree node", v: &TreeNode{ID: "A", Parent: "B", Kind: "message", Role: "user", Summary: "hi", Label: "start", Time: when, Leaf: true, Selected: true}},
		{name: "fork", v: &ForkParams{At: "01M8", Name: "try-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(reflect.TypeOf(tt.v).Elem()).Interface()
			if err := json.Unmarshal(b, back); err != nil {
				t.Fatalf("decode %s: %v", b, err)
			}
			if !reflect.DeepEqual(back, tt.v) {
				t.Fatalf("round trip of %s:\n got %#v\nwant %#v", b, back, tt.v)
			}
		})
	}
}
