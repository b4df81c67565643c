package providers

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/smith-agent/smith/core/model"
	"github.com/smith-agent/smith/core/provider"
)

// TestFollowupGolden decodes a stream with a provider, as the agent keeps
// it (the question, the assistant message, a "40 C" result per tool call),
// and sends it on to another provider or model; the follow-up request is
// the one in testdata/golden/followup/NAME.json. What these pin: the
// server-side blocks of an Anthropic stream (server tool use and its
// result) go back to Anthropic unchanged and are dropped, with no empty
// block in their place, for every other provider; Responses reasoning
// items, item ids and phases go back only to the model that made them.
func TestFollowupGolden(t *testing.T) {
	for _, tc := range []struct{ stream, from, to, toModel string }{
		{"fixtures/anthropic/server-tool-prompt-cache.sse", "anthropic", "anthropic", ""},
		{"fixtures/anthropic/server-tool-prompt-cache.sse", "anthropic", "openai", "gpt-5"},
		{"fixtures/anthropic/server-tool-prompt-cache.sse", "anthropic", "openai-chat", "gpt-5"},
		{"fixtures/anthropic/server-tool-prompt-cache.sse", "anthropic", "google", "gemini-2.5-flash"},
		{"fixtures/openai-responses/reasoning-summary-tool-call.sse", "openai", "openai", ""},
		{"streams/openai/responses-reasoning-commentary-call-encrypted.sse", "openai", "openai", ""},
		{"streams/openai/responses-reasoning-commentary-call-encrypted.sse", "openai", "openai", "gpt-5"},
		{"streams/openai/responses-reasoning-commentary-call.sse", "openai", "openai", ""},
	} {
		name := strings.TrimSuffix(filepath.Base(tc.stream), ".sse") + "-to-" + tc.to
		if tc.toModel != "" {
			name += "-" + tc.toModel
		}
		t.Run(name, func(t *testing.T) {
			srv := newLoopback(t)
			srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join("testdata", tc.stream))})
			user := model.UserText("What's the weather in Florence, Italy?")
			msg := assemble(t, pull(t, bridge(t, tc.from, srv.URL, nil), &model.Request{Model: "m0", Messages: []model.Message{user}}))
			history := []model.Message{user, msg}
			for _, c := range msg.ToolCalls() {
				history = append(history, model.ToolResultMessage{CallID: c.ID, Name: c.Name,
					Content: []model.Content{model.Text{Text: "40 C"}}, Mutation: model.MutationNotApplied})
			}
			if len(msg.ToolCalls()) == 0 {
				history = append(history, model.UserText("Thanks."))
			}
			toModel := tc.toModel
			if toModel == "" {
				toModel = msg.Model
			}
			srv.respond(200, nil, [][]byte{mustRead(t, filepath.Join(fixtureRoot, "anthropic", "text.sse"))})
			next := bridge(t, tc.to, srv.URL, func(c *provider.Config) { c.BaseURLFlag = srv.URL + "/v1" })
			pull(t, next, &model.Request{Model: toModel, Messages: history})
			goldenRequest(t, filepath.Join("followup", name+".json"), srv)
		})
	}
}
