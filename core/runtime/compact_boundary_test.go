package runtime

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
)

// randomHistory is a conversation as the agent records it: turns of user
// input, assistant responses with zero to three tool calls each followed
// by their results, of random sizes; sometimes a leading summary, and
// sometimes input inside a batch.
func randomHistory(r *rand.Rand) []model.Message {
	text := func() string { return strings.Repeat("x", r.IntN(2000)) }
	var h []model.Message
	if r.IntN(3) == 0 {
		h = append(h, model.UserText("[Summary of the conversation before this point]\n"+text()))
	}
	calls := 0
	for range 1 + r.IntN(12) {
		h = append(h, model.UserText(text()))
		for range r.IntN(4) {
			n := r.IntN(4)
			am := model.AssistantMessage{Content: []model.Content{model.Text{Text: text()}}, Stop: model.StopEnd}
			var ids []string
			for range n {
				calls++
				id := fmt.Sprintf("call_%d", calls)
				ids = append(ids, id)
				am.Content = append(am.Content, model.ToolCall{ID: id, Name: "read", Arguments: json.RawMessage(`{"path":"a"}`)})
				am.Stop = model.StopToolUse
			}
			h = append(h, am)
			for k, id := range ids {
				if k > 0 && r.IntN(8) == 0 {
					// A history written otherwise (imported, or by an
					// older version) may hold input inside a batch.
					h = append(h, model.UserText(text()))
				}
				h = append(h, model.ToolResultMessage{CallID: id, Name: "read", Content: []model.Content{model.Text{Text: text()}}})
			}
		}
	}
	return h
}

// TestBoundaryNeverSplitsToolBatches: over random histories and budgets,
// the cut summarises at least one message, keeps what fits the budget and
// no less than the budget allows, never falls between a tool call and its
// result, and never starts the kept part with a tool result.
func TestBoundaryNeverSplitsToolBatches(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		h := randomHistory(r)
		start := 0
		if u, ok := h[0].(model.UserMessage); ok && strings.HasPrefix(model.TextOf(u.Content), "[Summary") {
			start = 1
		}
		keep := r.IntN(3000)
		cut := chooseBoundary(h, start, keep)
		if start >= len(h) {
			if cut != -1 {
				t.Fatalf("history %d: nothing to summarise, cut %d", n, cut)
			}
			continue
		}
		if cut <= start || cut > len(h) {
			t.Fatalf("history %d: cut %d outside (%d, %d]", n, cut, start, len(h))
		}
		if !cleanCut(h, cut) {
			t.Fatalf("history %d: cut %d splits a tool batch", n, cut)
		}
		if got := messagesTokens(h[cut:]); got > keep {
			t.Fatalf("history %d: keeps %d tokens over the budget %d", n, got, keep)
		}
		for j := start + 1; j < cut; j++ {
			if cleanCut(h, j) && messagesTokens(h[j:]) <= keep {
				t.Fatalf("history %d: cut %d keeps less than the clean cut %d that fits %d tokens", n, cut, j, keep)
			}
		}
	}
}

// cleanCut reports whether cutting h before j leaves every tool call
// before j with its result before j, and no tool result first after it.
func cleanCut(h []model.Message, j int) bool {
	if j < len(h) {
		if _, ok := h[j].(model.ToolResultMessage); ok {
			return false
		}
	}
	before := map[string]bool{}
	for _, m := range h[:j] {
		if am, ok := m.(model.AssistantMessage); ok {
			for _, c := range am.ToolCalls() {
				before[c.ID] = true
			}
		}
	}
	for _, m := range h[j:] {
		if res, ok := m.(model.ToolResultMessage); ok && before[res.CallID] {
			return false
		}
	}
	return true
}

// TestChooseBoundaryCases: named cases of the cut.
func TestChooseBoundaryCases(t *testing.T) {
	call := func(id string) model.Message {
		return model.AssistantMessage{Content: []model.Content{model.ToolCall{ID: id, Name: "read", Arguments: json.RawMessage(`{}`)}}, Stop: model.StopToolUse}
	}
	result := func(id string, size int) model.Message {
		return model.ToolResultMessage{CallID: id, Name: "read", Content: []model.Content{model.Text{Text: strings.Repeat("r", size)}}}
	}
	user := func(size int) model.Message { return model.UserText(strings.Repeat("u", size)) }
	tests := []struct {
		name  string
		h     []model.Message
		start int
		keep  int
		want  int
	}{
		{name: "empty", h: nil, want: -1},
		{name: "only the summary", h: []model.Message{user(10)}, start: 1, want: -1},
		{name: "everything fits: the oldest message still goes", h: []model.Message{user(10), user(10), user(10)}, keep: 1000, want: 1},
		{name: "nothing fits: keep none", h: []model.Message{user(10), user(4000)}, keep: 100, want: 2},
		{name: "a batch is kept whole", h: []model.Message{user(10), call("a"), result("a", 40), user(10)}, keep: 40, want: 1},
		{name: "a batch too big is summarised whole", h: []model.Message{user(10), call("a"), result("a", 4000), user(10)}, keep: 40, want: 3},
		{name: "after the summary", h: []model.Message{user(10), user(10), user(10)}, start: 1, keep: 1000, want: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := chooseBoundary(tt.h, tt.start, tt.keep); got != tt.want {
				t.Fatalf("chooseBoundary = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestEstimateContext: the estimate follows the latest response's usage
// after a compaction's kept messages, the compaction's own estimate when
// no response came since, and the text otherwise.
func TestEstimateContext(t *testing.T) {
	used := func(in int64) model.Message {
		return model.AssistantMessage{Content: []model.Content{model.Text{Text: "ok"}}, Stop: model.StopEnd,
			Usage: model.Usage{Input: model.Known(in), Output: model.Known(10), CacheRead: model.Unknown()}}
	}
	summary := model.UserText("[Summary of the conversation before this point]\nS")
	tests := []struct {
		name         string
		msgs         []model.Message
		stale, after int
		want         int
	}{
		{name: "text only", msgs: []model.Message{model.UserText(strings.Repeat("a", 400))}, want: 104 + textTokens(len("sys"))},
		{name: "latest usage", msgs: []model.Message{model.UserText("a"), used(1000), model.UserText(strings.Repeat("b", 40))}, want: 1010 + 14},
		{name: "stale usage skipped", msgs: []model.Message{summary, used(90000), model.UserText(strings.Repeat("b", 40))}, stale: 2, after: 500, want: 514},
		{name: "fresh usage after the compaction", msgs: []model.Message{summary, used(90000), used(700)}, stale: 2, after: 500, want: 710},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := &model.Request{System: "sys", Messages: tt.msgs}
			if got := estimateContext(req, tt.stale, tt.after); got != tt.want {
				t.Fatalf("estimate %d, want %d", got, tt.want)
			}
		})
	}
}
